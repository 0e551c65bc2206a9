package render

import (
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

func classicMap(t testing.TB) *state.Map {
	t.Helper()
	m, err := engine.LoadMap("classic")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// newState returns a state of m with the named seats, every territory
// neutral with one army.
func newState(m *state.Map, names ...string) *state.State {
	s := &state.State{Map: m, Options: state.DefaultOptions(), Phase: state.PhaseAttack, Turn: 1, Winner: -1}
	for i, n := range names {
		s.Seats = append(s.Seats, state.Seat{ID: "id" + n, Name: n, HiddenCards: i % 4})
	}
	s.Terr = make([]state.Terr, m.Len())
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: state.Neutral, Armies: 1}
	}
	s.Hidden = true
	s.Viewer = -1
	return s
}

// own gives territories, by name, to seat.
func own(t testing.TB, s *state.State, seat int, names ...string) {
	t.Helper()
	for _, n := range names {
		i := s.Map.Index(n)
		if i < 0 {
			t.Fatalf("no territory %q", n)
		}
		s.Terr[i].Owner = seat
	}
}

func arrow(t testing.TB, s *state.State, tr *state.Trail, from, to string, kind state.ArrowKind, count int) {
	t.Helper()
	a, b := s.Map.Index(from), s.Map.Index(to)
	if a < 0 || b < 0 {
		t.Fatalf("no territory %q or %q", from, to)
	}
	seat := s.Terr[a].Owner
	tr.Add(state.Arrow{From: int16(a), To: int16(b), Kind: kind, Seat: int8(seat), Count: int32(count)})
}

// fixtureStart is turn 1 of a four-player match: territories dealt at
// random, a few armies each, nothing moved yet.
func fixtureStart(t testing.TB) *state.State {
	s := newState(classicMap(t), "Ann", "Bob", "Chloé", "Dmitri")
	rng := rand.New(rand.NewPCG(4, 4))
	for i, p := range rng.Perm(len(s.Terr)) {
		s.Terr[p] = state.Terr{Owner: i % 4, Armies: 1 + rng.IntN(5)}
	}
	s.Phase = state.PhaseReinforce
	for i := range s.Seats {
		s.Seats[i].HiddenCards = 0
	}
	return s
}

// fixtureMid is a crowded six-seat middle game: blocks of territory, big
// stacks, a surrendered seat whose land is neutral, an eliminated one, a
// long name, and every kind of arrow, one across the map's edge.
func fixtureMid(t testing.TB) *state.State {
	s := newState(classicMap(t), "Ann", "Bob", "Chloé", "Dmitri", "Eve", "Farouk al-Rashid the Magnificent")
	own(t, s, 0, "Alaska", "Northwest Territory", "Alberta", "Western United States", "Greenland", "Kamchatka", "Yakutsk")
	own(t, s, 1, "Ontario", "Quebec", "Eastern United States", "Central America", "Venezuela", "Brazil", "Peru", "Argentina", "North Africa")
	own(t, s, 2, "Iceland", "Great Britain", "Scandinavia", "Western Europe", "Northern Europe", "Egypt", "Congo")
	own(t, s, 3, "Southern Europe", "Ukraine", "Ural", "Siberia", "Afghanistan", "Middle East", "East Africa", "South Africa", "Madagascar")
	own(t, s, 5, "Irkutsk", "Mongolia", "China", "India", "Siam", "Japan", "Indonesia", "New Guinea")
	// Eve surrendered: her two territories stayed, neutral.
	s.Seats[4].Status = state.Surrendered
	s.Seats[4].HiddenCards = 0
	rng := rand.New(rand.NewPCG(6, 6))
	for i := range s.Terr {
		s.Terr[i].Armies = 1 + rng.IntN(18)
	}
	s.Terr[s.Map.Index("Ukraine")].Armies = 124
	s.Terr[s.Map.Index("Brazil")].Armies = 57
	s.Turn, s.Current, s.Phase = 23, 3, state.PhaseAttack
	arrow(t, s, &s.Last, "Ural", "Ukraine", state.ArrowFortify, 12)
	arrow(t, s, &s.Last, "Southern Europe", "Northern Europe", state.ArrowAttack, 3)
	arrow(t, s, &s.Last, "Middle East", "East Africa", state.ArrowConquest, 4)
	arrow(t, s, &s.Last, "Siberia", "Irkutsk", state.ArrowAttack, 2)
	s.Terr[s.Map.Index("Kamchatka")].Owner = 0
	arrow(t, s, &s.This, "Alaska", "Kamchatka", state.ArrowConquest, 5)
	arrow(t, s, &s.This, "Western United States", "Eastern United States", state.ArrowAttack, 6)
	arrow(t, s, &s.This, "Greenland", "Iceland", state.ArrowAttack, 1)
	arrow(t, s, &s.This, "Alberta", "Northwest Territory", state.ArrowFortify, 7)
	s.Current = 0
	return s
}

// fixtureOver is a finished three-seat match.
func fixtureOver(t testing.TB) *state.State {
	s := newState(classicMap(t), "Ann", "Bob", "Chloé")
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: 1, Armies: 2 + i%7}
	}
	own(t, s, 0, "Brazil", "Argentina", "Peru", "Venezuela", "Madagascar", "Japan")
	own(t, s, 2, "Iceland", "Greenland", "Great Britain", "Scandinavia", "Northern Europe", "Ukraine", "Ural", "Siberia")
	s.Seats[2].Status = state.Playing
	arrow(t, s, &s.This, "North Africa", "Brazil", state.ArrowAttack, 3)
	arrow(t, s, &s.This, "Western Europe", "Northern Europe", state.ArrowAttack, 2)
	arrow(t, s, &s.This, "Egypt", "Southern Europe", state.ArrowConquest, 3)
	s.Turn, s.Current, s.Phase, s.Winner = 61, 1, state.PhaseOver, 1
	return s
}

// fixtureTeamOver is a two-against-two match that Bob and Dmitri (team 2)
// won together: Bob moved last, and each holds part of the world.
func fixtureTeamOver(t testing.TB) *state.State {
	s := newState(classicMap(t), "Ann", "Bob", "Chloé", "Dmitri")
	s.Options.Teams = 2
	for i := range s.Seats {
		s.Seats[i].Team = 1 + i%2
		s.Seats[i].HiddenCards = 0
	}
	s.Seats[0].Status, s.Seats[2].Status = state.Eliminated, state.Eliminated
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: 1, Armies: 2 + i%7}
	}
	own(t, s, 3, "Iceland", "Greenland", "Great Britain", "Scandinavia", "Northern Europe", "Ukraine", "Ural", "Siberia",
		"Brazil", "Argentina", "Peru", "Venezuela")
	arrow(t, s, &s.This, "Egypt", "Southern Europe", state.ArrowConquest, 3)
	s.Turn, s.Current, s.Phase, s.Winner = 48, 1, state.PhaseOver, 1
	return s
}

// testRenderers shares warm renderers between tests: building a board is
// the slow part (most of all under -race), and most tests are about what is
// drawn on it.
var testRenderers struct {
	mu sync.Mutex
	m  map[Options]*Renderer
}

func shared(opts Options) *Renderer {
	testRenderers.mu.Lock()
	defer testRenderers.mu.Unlock()
	if testRenderers.m == nil {
		testRenderers.m = map[Options]*Renderer{}
	}
	r := testRenderers.m[opts]
	if r == nil {
		r = New(opts)
		testRenderers.m[opts] = r
	}
	return r
}
