package voice

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// randomLog plays up to steps random legal commands (never a surrender)
// of a match of three started with options o, with an undo now and then
// and a rollback by the host to the turn before every 50 commands, and returns its setup and
// log.
func randomLog(t *testing.T, o state.Options, seed uint64, steps int) (engine.Setup, []engine.Entry) {
	t.Helper()
	seats := []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}, {ID: "test:cid", Name: "Cid"}}
	g, err := engine.NewGame(engine.Setup{Options: o, Seed: seed, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 48))
	var log []engine.Entry
	apply := func(seat int, c engine.Command) bool {
		e, _, err := g.Apply(seat, c)
		if err == nil {
			log = append(log, e)
		}
		return err == nil
	}
	for step := 0; step < steps && g.State.Phase != state.PhaseOver; step++ {
		s := g.State
		if step > 0 && step%50 == 0 && s.Turn >= 2 && apply(engine.Host, engine.Rollback{Turn: s.Turn - 1}) {
			continue
		}
		played := false
		for _, seat := range r.Perm(len(s.Seats)) {
			if r.IntN(20) == 0 && g.CanUndo(seat) && apply(seat, engine.Undo{}) {
				played = true
				break
			}
			var cmds []engine.Command
			for _, c := range engine.Legal(s, seat) {
				if _, ok := c.(engine.Surrender); !ok {
					cmds = append(cmds, c)
				}
			}
			if len(cmds) > 0 {
				if !apply(seat, cmds[r.IntN(len(cmds))]) {
					t.Fatalf("step %d: a legal command refused", step)
				}
				played = true
				break
			}
		}
		if !played {
			break
		}
	}
	return g.Setup, log
}

// retoldJSON is what a retelling tells, as JSON.
func retoldJSON(t *testing.T, turns []news.TurnRecord, live *news.TurnRecord) []byte {
	t.Helper()
	b, err := json.Marshal(struct {
		Turns []news.TurnRecord
		Live  *news.TurnRecord
	}{turns, live})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestRetellingOnIsRetellingAnew retells random matches (classic, fog of
// war, simultaneous rounds, capitals; with undos and rollbacks) to every
// audience as a player asking again and again is told them (Retelling:
// begun after some of the log, told on a few entries at a time) and, at
// every length of the log, compares what it has told with the log told
// anew from the start (Retell).
func TestRetellingOnIsRetellingAnew(t *testing.T) {
	classic := state.DefaultOptions()
	fog := state.DefaultOptions()
	fog.Fog = true
	rounds := state.DefaultOptions()
	rounds.Turns = state.Simultaneous
	capitals := state.CapitalsOptions()
	capitals.Map = "small"
	steps := 150
	if !testing.Short() {
		steps = 400
	}
	v := New([]string{"red", "cyan", "yellow"}, nil, func(*hosted.Match, int) *chat.Image { return nil })
	for _, mode := range []struct {
		name string
		o    state.Options
	}{{"classic", classic}, {"fog", fog}, {"rounds", rounds}, {"capitals", capitals}} {
		t.Run(mode.name, func(t *testing.T) {
			t.Parallel()
			compared, rollbacks, undos := 0, 0, 0
			for seed := range uint64(2) {
				setup, log := randomLog(t, mode.o, 100+seed, steps)
				for _, e := range log {
					switch e.Cmd.(type) {
					case engine.Rollback:
						rollbacks++
					case engine.Undo:
						undos++
					}
				}
				r := rand.New(rand.NewPCG(seed, 7))
				for a := -1; a < len(setup.Seats); a++ {
					av := v
					if mode.o.Fog {
						av = v.Fogged().As(a)
					}
					if a == 0 {
						av = av.In(lang.French)
					}
					tl := av.Teller()
					k := r.IntN(len(log) + 1)
					rt, err := tl.Retelling(setup)
					if err != nil {
						t.Fatal(err)
					}
					if err := rt.Add(log[:k]...); err != nil {
						t.Fatal(err)
					}
					for {
						if rt.Len() != k {
							t.Fatalf("the retelling has read %d entries, want %d", rt.Len(), k)
						}
						turns, live := rt.Turns()
						wantTurns, wantLive, err := tl.Retell(engine.Record{Setup: setup, Log: log[:k]})
						if err != nil {
							t.Fatal(err)
						}
						got, want := retoldJSON(t, turns, live), retoldJSON(t, wantTurns, wantLive)
						if !bytes.Equal(got, want) {
							t.Fatalf("seed %d, audience %d, after %d commands: told on\n%.600s\ntold anew\n%.600s", seed, a, k, got, want)
						}
						compared++
						if k == len(log) {
							break
						}
						more := min(len(log)-k, 1+r.IntN(4))
						if err := rt.Add(log[k : k+more]...); err != nil {
							t.Fatal(err)
						}
						// What was told before is not changed by what is
						// told after.
						if again := retoldJSON(t, turns, live); !bytes.Equal(again, got) {
							t.Fatalf("after %d commands, telling on changed what was told before", k)
						}
						k += more
					}
				}
			}
			t.Logf("%d retellings compared, of logs with %d rollbacks and %d undos", compared, rollbacks, undos)
			if rollbacks == 0 || undos == 0 {
				t.Errorf("%d rollbacks and %d undos: want some of each", rollbacks, undos)
			}
		})
	}
}

// TestRetellingIsByItsTeller: a retelling is told on only for a teller
// that says the same (audience, language, colours).
func TestRetellingIsByItsTeller(t *testing.T) {
	v := New([]string{"red", "cyan", "yellow"}, []int{1, 2, 3}, func(*hosted.Match, int) *chat.Image { return nil }).Fogged().As(1)
	setup, _ := randomLog(t, state.DefaultOptions(), 1, 0)
	rt, err := v.Teller().Retelling(setup)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		v    Voice
		want bool
	}{
		{"the same", v, true},
		{"the same, again", v.In(lang.English), true},
		{"another language", v.In(lang.French), false},
		{"another seat", v.As(2), false},
		{"everyone", v.Fogged(), false},
		{"other colours", New([]string{"red", "cyan", "green"}, []int{1, 2, 3}, nil).Fogged().As(1), false},
		{"other values", New([]string{"red", "cyan", "yellow"}, []int{1, 2, 4}, nil).Fogged().As(1), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := rt.By(tt.v.Teller()); got != tt.want {
				t.Errorf("By: got %v, want %v", got, tt.want)
			}
		})
	}
	if _, err := v.Teller().Retelling(engine.Setup{}); err == nil {
		t.Error("a retelling of no match: got no error")
	}
}
