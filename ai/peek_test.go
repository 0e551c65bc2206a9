package ai

import (
	"context"
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// twinHidden returns a copy of s that differs from it only in what seat
// may not see: the owners and armies of two territories out of its sight,
// held by two other seats, swapped (so every seat's totals, which the
// panel shows, stay); two other seats' hands swapped where their sizes
// match, else one card of a hand traded with one of the deck; and two other
// seats' missions swapped. ok is false if nothing hidden could change.
func twinHidden(s *state.State, seat int) (twin *state.State, ok bool) {
	t := s.Clone()
	sight := s.Sight(seat)
	if s.Options.Fog {
	swap:
		for a := range t.Terr {
			oa := t.Terr[a].Owner
			if sight.Has(a) || oa < 0 || oa == seat {
				continue
			}
			for b := a + 1; b < len(t.Terr); b++ {
				ob := t.Terr[b].Owner
				if sight.Has(b) || ob < 0 || ob == seat || ob == oa || t.Terr[a].Armies == t.Terr[b].Armies {
					continue
				}
				// Owners and armies move together, so each seat keeps its
				// territory and army totals.
				t.Terr[a], t.Terr[b] = t.Terr[b], t.Terr[a]
				ok = true
				break swap
			}
		}
	}
	var others []int
	for i := range t.Seats {
		if i != seat && t.Seats[i].Alive() {
			others = append(others, i)
		}
	}
	for _, a := range others {
		h := t.Seats[a].Hand
		if h.Len() == 0 || t.Deck.Len() == 0 {
			continue
		}
		give, take := h.Cards()[0], t.Deck.Cards()[0]
		t.Seats[a].Hand = h.Remove(give).Add(take)
		t.Deck = t.Deck.Remove(take).Add(give)
		ok = true
		break
	}
	if len(others) >= 2 {
		a, b := others[0], others[1]
		if ma, mb := t.Seats[a].Mission, t.Seats[b].Mission; ma != mb && ma.Valid() && mb.Valid() {
			t.Seats[a].Mission, t.Seats[b].Mission = mb, ma
			ok = true
		}
	}
	return t, ok
}

// TestNoPeeking (issue 47): a computer player decides from what its seat
// may see, even when it is handed the whole state: twin states that differ
// only out of its sight (hidden owners and armies in fog, other players'
// cards and secret missions) get the same decision, at every level, in
// both rule sets.
func TestNoPeeking(t *testing.T) {
	missions := missionsOptions()
	setups := []struct {
		name  string
		opts  state.Options
		fog   bool
		setup bool // a position of the setup, which hard searches too
	}{
		{"classic fog", state.DefaultOptions(), true, false},
		{"classic missions", missions, false, false},
		{"classic missions fog", missions, true, false},
		{"capitals fog", state.CapitalsOptions(), true, false},
		{"classic fog setup", state.DefaultOptions(), true, true},
		{"classic missions setup", missions, false, true},
	}
	ctx := context.Background()
	for _, su := range setups {
		t.Run(su.name, func(t *testing.T) {
			checked := 0
			for seed := uint64(1); seed <= 6; seed++ {
				var s *state.State
				if su.setup {
					s = setupMidway(t, su.opts, seed)
				} else {
					s = fogMidgame(t, su.opts, seed)
				}
				s.Options.Fog = su.fog
				seat := toMove(s)
				twin, ok := twinHidden(s, seat)
				if !ok {
					continue
				}
				if v1, v2 := mustJSON(t, s.View(seat)), mustJSON(t, twin.View(seat)); v1 != v2 {
					t.Fatalf("seed %d: the twin changes what seat %d sees", seed, seat)
				}
				if mustJSON(t, s) == mustJSON(t, twin) {
					t.Fatalf("seed %d: the twin is the same state: the test tests nothing", seed)
				}
				for _, level := range append(Levels(), "peeker") {
					opts := Options{Seed: 11, Iterations: 8, Budget: time.Minute}
					player := func() Player {
						if level == "peeker" {
							return &guarded{p: peeker{}}
						}
						return mustNew(t, level, opts)
					}
					c1, err := player().Act(ctx, s.Clone(), seat)
					if err != nil {
						t.Fatal(err)
					}
					c2, err := player().Act(ctx, twin.Clone(), seat)
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(c1, c2) {
						t.Errorf("seed %d, %s: handed the whole state, decides %#v, and %#v on a twin that differs only out of its sight", seed, level, c1, c2)
					}
					checked++
				}
			}
			if checked == 0 {
				t.Fatal("no position had anything hidden to change")
			}
		})
	}
}

// setupMidway returns a match of four seats with fog in its setup, each
// seat having placed twice.
func setupMidway(t *testing.T, opts state.Options, seed uint64) *state.State {
	t.Helper()
	opts.Fog = true
	s := newMatch(t, 4, seed, opts)
	for range 2 {
		for seat := range s.Seats {
			c := defaultPlan().play(s.View(seat), seat)
			if _, err := engine.Apply(s, seat, c); err != nil {
				t.Fatal(err)
			}
		}
	}
	if s.Phase != state.PhaseSetup {
		t.Fatal("the setup is over")
	}
	return s
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// peeker is a level that would cheat if it could: its choice among the
// legal moves hangs on everything hidden from its seat (the armies and
// owners of every territory, every hand, every mission). Behind the guard
// every level has, it sees only its view, and chooses alike on twins.
type peeker struct{}

func (peeker) decide(_ context.Context, s *state.State, seat int) engine.Command {
	h := uint64(len(mustJSONAny(s)))
	for _, t := range s.Terr {
		h = h*31 + uint64(t.Owner+2)*7 + uint64(t.Armies)
	}
	for _, st := range s.Seats {
		for _, c := range st.Hand.Cards() {
			h = h*131 + uint64(c)
		}
		h = h*17 + uint64(st.Mission)
	}
	legal := engine.Legal(s, seat)
	return legal[h%uint64(len(legal))]
}

func mustJSONAny(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
