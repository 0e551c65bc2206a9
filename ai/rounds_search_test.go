package ai

import (
	"context"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// roundsOptions are the classic options with simultaneous rounds.
func roundsOptions() state.Options {
	o := state.DefaultOptions()
	o.Turns = state.Simultaneous
	return o
}

// roundStart returns a 4-seat match in simultaneous rounds at the start
// of its first round.
func roundStart(tb testing.TB, seed uint64) *state.State {
	tb.Helper()
	s := newMatch(tb, 4, seed, roundsOptions())
	for s.Phase == state.PhaseSetup {
		if _, err := engine.Apply(s, toMove(s), engine.AutoPlace{}); err != nil {
			tb.Fatal(err)
		}
	}
	if s.Phase != state.PhaseOrders {
		tb.Fatalf("after the setup the phase is %v, want orders", s.Phase)
	}
	return s
}

// playRound plays one round of s: every living seat gives its orders on
// its view until it commits.
func playRound(tb testing.TB, s *state.State, players []Player) {
	tb.Helper()
	round := s.Turn
	for seat := range s.Seats {
		for n := 0; s.Phase == state.PhaseOrders && s.Turn == round && s.Seats[seat].Alive() && !s.Seats[seat].Ready; n++ {
			if n > 200 {
				tb.Fatalf("round %d, seat %d: no commit after 200 commands", round, seat)
			}
			c, err := players[seat].Act(context.Background(), s.View(seat), seat)
			if err != nil {
				tb.Fatalf("round %d, seat %d: Act: %v", round, seat, err)
			}
			if _, err := engine.Apply(s, seat, c); err != nil {
				tb.Fatalf("round %d, seat %d: %s: %v", round, seat, engine.Describe(s.Map, c), err)
			}
		}
	}
}

// roundPositions returns 24 positions at the start of a round (4 seats,
// rounds 3 to 20 of matches between normal players), the same every run.
func roundPositions(tb testing.TB) []*state.State { return roundPositionsOf(tb, 3, 20) }

// roundPositionsOf returns 24 positions at the start of a round, rounds
// first to end of 4-seat matches between normal players, the same every
// run.
func roundPositionsOf(tb testing.TB, first, end int) []*state.State {
	tb.Helper()
	var out []*state.State
	for g := uint64(0); len(out) < 24 && g < 500; g++ {
		s := roundStart(tb, 3000+g)
		ps := make([]Player, 4)
		for i := range ps {
			ps[i] = mustNew(tb, "normal", Options{Seed: g + uint64(i)})
		}
		for s.Phase == state.PhaseOrders && s.Turn < end && len(out) < 24 {
			playRound(tb, s, ps)
			if s.Phase == state.PhaseOrders && s.Turn >= first && s.Turn%3 == int(g%3) {
				out = append(out, s.Clone())
			}
		}
	}
	return out
}

// hardRound returns the commands hard gives for seat's whole round in s,
// on its view, and the state after them (s is not changed).
func hardRound(tb testing.TB, p Player, s *state.State, seat int) []engine.Command {
	tb.Helper()
	s = s.Clone()
	var out []engine.Command
	for range 200 {
		c, err := p.Act(context.Background(), s.View(seat), seat)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, c)
		if _, err := engine.Apply(s, seat, c); err != nil {
			tb.Fatalf("%s: %v", engine.Describe(s.Map, c), err)
		}
		if s.Seats[seat].Ready || s.Phase != state.PhaseOrders {
			return out
		}
	}
	tb.Fatal("no commit after 200 commands")
	return nil
}

// TestRoundsDeterministic: hard's orders of a round depend on the position
// alone: two hard players of different seeds give the same orders, and a
// player that lost its cache (a restart in the middle of the round) goes
// on with the same ones.
func TestRoundsDeterministic(t *testing.T) {
	for i, s := range roundPositions(t)[:6] {
		seat := s.Current
		a := hardRound(t, mustNew(t, "hard", Options{Seed: 1}), s, seat)
		b := hardRound(t, mustNew(t, "hard", Options{Seed: 99}), s, seat)
		if !slices.Equal(a, b) {
			t.Fatalf("position %d: got %v and %v from two players, want the same", i, a, b)
		}
		// A restart after the first order.
		x := s.Clone()
		if _, err := engine.Apply(x, seat, a[0]); err != nil {
			t.Fatal(err)
		}
		c := hardRound(t, mustNew(t, "hard", Options{Seed: 5}), x, seat)
		if rest := a[1:]; !slices.Equal(c, rest) {
			t.Errorf("position %d: after a restart got %v, want %v", i, c, rest)
		}
	}
}

// trap builds a round-1 position of the classic map from terr (name:
// owner, armies); every other territory is held by seat 1, 2 or 3 in
// turn, with 2 armies. The reserves are the seats' incomes, the hands
// empty.
func trap(t *testing.T, terr map[string][2]int) *state.State {
	t.Helper()
	s := roundStart(t, 1)
	byName := map[string]int{}
	for id, tt := range s.Map.Territories {
		byName[tt.Name] = id
	}
	for id := range s.Terr {
		s.Terr[id] = state.Terr{Owner: 1 + id%3, Armies: 2}
	}
	for name, oa := range terr {
		id, ok := byName[name]
		if !ok {
			t.Fatalf("no territory %q", name)
		}
		s.Terr[id].Owner, s.Terr[id].Armies = oa[0], oa[1]
	}
	for i := range s.Seats {
		s.Seats[i].Reserve = s.Income(i).Total
		s.Seats[i].Hand = state.CardSet{}
	}
	return s
}

// BenchmarkRounds is hard's whole round in simultaneous rounds per op:
// every command of its seat (its search at the first order, the rest from
// its cache), on its view, from positions of matches between normal
// players: early (rounds 3 to 20) and late (rounds 30 to 80, large
// stacks). One player plays them all, as in a match, its cache of the
// chosen orders dropped each op.
func BenchmarkRounds(b *testing.B) {
	for _, bc := range []struct {
		name       string
		first, end int
	}{{"early", 3, 20}, {"late", 30, 80}} {
		b.Run(bc.name, func(b *testing.B) {
			states := roundPositionsOf(b, bc.first, bc.end)
			p := mustNew(b, "hard", Options{Seed: 1})
			h := p.(*guarded).p.(*hard)
			armies := 0
			for _, s := range states {
				armies += s.Armies(s.Current)
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s := states[i%len(states)]
				h.rounds.chosen = nil
				hardRound(b, p, s, s.Current)
			}
			b.ReportMetric(float64(armies)/float64(len(states)), "armies")
		})
	}
}

// TestRoundsSearchAvoidsTraps: where normal's greedy orders leave a
// continent open to a likely counter-attack, hard's search orders
// otherwise, and against the others' normal orders, resolved by the
// engine on many dice, it keeps the continent more often.
func TestRoundsSearchAvoidsTraps(t *testing.T) {
	tests := []struct {
		name      string
		terr      map[string][2]int
		continent string
		// lure is where normal's reserve goes; threatened, the front
		// the counter-attack comes to.
		lure, threatened string
	}{
		{
			// Venezuela (1 army) lures normal to Central America;
			// Kamchatka's 9, and seat 1's income, take the Alaska it
			// leaves with 2, and North America's 5 a round with it.
			name: "Alaska open to Kamchatka",
			terr: map[string][2]int{
				"Alaska": {0, 2}, "Northwest Territory": {0, 2}, "Greenland": {0, 2},
				"Alberta": {0, 2}, "Ontario": {0, 2}, "Quebec": {0, 2},
				"Western United States": {0, 2}, "Eastern United States": {0, 2}, "Central America": {0, 2},
				"Kamchatka": {1, 9}, "Venezuela": {2, 1},
				// Kamchatka's other neighbours, too strong to tempt it.
				"Yakutsk": {3, 8}, "Irkutsk": {3, 8}, "Mongolia": {2, 8}, "Japan": {2, 8},
			},
			continent: "North America", lure: "Central America", threatened: "Alaska",
		},
		{
			// The same in South America: Central America (1 army) lures
			// normal to Venezuela; North Africa's 9 take the Brazil it
			// leaves with 2.
			name: "Brazil open to North Africa",
			terr: map[string][2]int{
				"Venezuela": {0, 2}, "Peru": {0, 2}, "Brazil": {0, 2}, "Argentina": {0, 2},
				"Central America": {2, 1}, "North Africa": {1, 9},
				"Western Europe": {3, 8}, "Southern Europe": {3, 8}, "Egypt": {2, 8}, "East Africa": {2, 8}, "Congo": {3, 8},
			},
			continent: "South America", lure: "Venezuela", threatened: "Brazil",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := trap(t, tt.terr)
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			id := func(name string) int {
				x, err := s.Map.Lookup(name)
				if err != nil {
					t.Fatal(err)
				}
				return x
			}
			normal := hardRound(t, mustNew(t, "normal", Options{Seed: 1}), s, 0)
			searched := hardRound(t, mustNew(t, "hard", Options{Seed: 1}), s, 0)
			unsearched := mustNew(t, "hard", Options{Seed: 1})
			unsearched.(*guarded).p.(*hard).rounds.noSearching = true
			greedy := hardRound(t, unsearched, s, 0)
			for _, c := range searched {
				t.Logf("hard: %s", engine.Describe(s.Map, c))
			}
			if got, want := greedy[0], (engine.Place{Territory: id(tt.lure), Armies: s.Seats[0].Reserve}); got != want {
				t.Fatalf("hard's first order without its search: got %s, want %s (the lure)", engine.Describe(s.Map, got), engine.Describe(s.Map, want))
			}
			if got, want := normal[0], (engine.Place{Territory: id(tt.lure), Armies: s.Seats[0].Reserve}); got != want {
				t.Fatalf("normal's first order: got %s, want %s (the lure)", engine.Describe(s.Map, got), engine.Describe(s.Map, want))
			}
			if got, want := searched[0], (engine.Place{Territory: id(tt.threatened), Armies: s.Seats[0].Reserve}); got != want {
				t.Errorf("hard's first order: got %s, want %s", engine.Describe(s.Map, got), engine.Describe(s.Map, want))
			}
			k := slices.IndexFunc(s.Map.Continents, func(c state.Continent) bool { return c.Name == tt.continent })
			kept := func(cmds []engine.Command) int {
				n := 0
				for seed := range uint64(200) {
					x := s.Clone()
					x.RNG = state.RNG{Seed: seed}
					for _, c := range cmds {
						if _, err := engine.Apply(x, 0, c); err != nil {
							t.Fatal(err)
						}
					}
					players := []Player{nil, mustNew(t, "normal", Options{Seed: 2}), mustNew(t, "normal", Options{Seed: 3}), mustNew(t, "normal", Options{Seed: 4})}
					playRound(t, x, players)
					if x.ContinentOwner(k) == 0 {
						n++
					}
				}
				return n
			}
			kn, kh := kept(normal), kept(searched)
			t.Logf("%s kept: normal's orders %d of 200, hard's %d", tt.continent, kn, kh)
			if kh < kn+20 {
				t.Errorf("%s kept %d times of 200 with hard's orders, %d with normal's: want 20 more", tt.continent, kh, kn)
			}
		})
	}
}

// TestRoundsNoPeeking: hard's orders in a round come from its view alone:
// twin positions in which the others have given other orders, and hold
// other cards, get the same orders, though hard is handed the whole
// state.
func TestRoundsNoPeeking(t *testing.T) {
	checked := 0
	for i, s := range roundPositions(t)[:8] {
		seat := s.Current
		twin := s.Clone()
		others := func(x *state.State, level string) {
			ps := make([]Player, len(x.Seats))
			for j := range ps {
				ps[j] = mustNew(t, level, Options{Seed: 3})
			}
			for j := range x.Seats {
				if j == seat || !x.Seats[j].Alive() {
					continue
				}
				for n := 0; !x.Seats[j].Ready && n < 200; n++ {
					c, err := ps[j].Act(context.Background(), x.View(j), j)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := engine.Apply(x, j, c); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
		others(s, "normal")
		others(twin, "easy")
		// And a card of another's hand swapped with one of the deck.
		for j := range twin.Seats {
			if h := twin.Seats[j].Hand; j != seat && h.Len() > 0 && twin.Deck.Len() > 0 {
				give, take := h.Cards()[0], twin.Deck.Cards()[0]
				twin.Seats[j].Hand = h.Remove(give).Add(take)
				twin.Deck = twin.Deck.Remove(take).Add(give)
				break
			}
		}
		if mustJSON(t, s) == mustJSON(t, twin) {
			continue // nothing hidden differs
		}
		if v1, v2 := mustJSON(t, s.View(seat)), mustJSON(t, twin.View(seat)); v1 != v2 {
			t.Fatalf("position %d: the twin changes what seat %d sees", i, seat)
		}
		p1, p2 := mustNew(t, "hard", Options{Seed: 1}), mustNew(t, "hard", Options{Seed: 1})
		for n := 0; !s.Seats[seat].Ready && n < 200; n++ {
			if mustJSON(t, s.View(seat)) != mustJSON(t, twin.View(seat)) {
				// A trade's value counts the sets traded before it, the
				// others' too (the engine's rule): the views part.
				break
			}
			c1, err := p1.Act(context.Background(), s.Clone(), seat)
			if err != nil {
				t.Fatal(err)
			}
			c2, err := p2.Act(context.Background(), twin.Clone(), seat)
			if err != nil {
				t.Fatal(err)
			}
			if c1 != c2 {
				t.Fatalf("position %d, command %d: got %s and %s, want the same", i, n, engine.Describe(s.Map, c1), engine.Describe(s.Map, c2))
			}
			if _, ok := c1.(engine.Trade); !ok {
				checked++
			}
			if _, ok := c1.(engine.EndTurn); ok {
				break
			}
			for _, x := range []*state.State{s, twin} {
				if _, err := engine.Apply(x, seat, c1); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	if checked < 20 {
		t.Fatalf("compared %d orders, want at least 20", checked)
	}
}
