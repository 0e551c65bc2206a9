package ai

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// capFixture is a two-seat capitals position on a generated map, drawn by
// a test: seat 0 plays; every territory is neutral with 1 troop unless the
// test gives it an owner and troops.
type capFixture struct {
	s *state.State
}

// newCapFixture returns the position with seat 0's capital on a territory
// cap0 (with 3 land neighbours at least), its neighbours listed in
// order, and seat 1's capital far away.
func newCapFixture(t *testing.T) (f capFixture, cap0 int, near []int, cap1 int) {
	t.Helper()
	s := newMatch(t, 2, 7, state.CapitalsOptions())
	m := s.Map
	cap0 = -1
	for c := range m.Territories {
		if len(m.Territories[c].Adj) >= 3 {
			cap0 = c
			break
		}
	}
	if cap0 < 0 {
		t.Fatal("no territory with three neighbours")
	}
	near = m.Territories[cap0].Adj
	// seat 1's capital: a territory two borders away from cap0 at least.
	cap1 = -1
	for c := range m.Territories {
		if c != cap0 && !m.Adjacent(c, cap0) && !slices.ContainsFunc(near, func(n int) bool { return m.Adjacent(n, c) }) {
			cap1 = c
			break
		}
	}
	if cap1 < 0 {
		t.Fatal("no far territory")
	}
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: state.Neutral, Armies: 1}
	}
	s.Phase, s.Turn, s.Current, s.Winner = state.PhaseReinforce, 5, 0, -1
	s.Seats[0].Capitals.Capital = int16(cap0 + 1)
	s.Seats[1].Capitals.Capital = int16(cap1 + 1)
	f = capFixture{s}
	f.set(cap0, 0, 10)
	f.set(cap1, 1, 10)
	return f, cap0, near, cap1
}

func (f capFixture) set(t, owner, troops int) { f.s.Terr[t] = state.Terr{Owner: owner, Armies: troops} }

// ready checks the position and gives seat 0 its turn's reinforcements.
func (f capFixture) ready(t *testing.T) *state.State {
	t.Helper()
	s := f.s
	s.Seats[0].Reserve = 3 * s.Owned(0)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	return s
}

// playTurn plays seat 0's turn with p and returns its commands.
func playTurn(t *testing.T, p Player, s *state.State) []engine.Command {
	t.Helper()
	var out []engine.Command
	turn := s.Turn
	for s.Turn == turn && s.Phase != state.PhaseOver && len(out) < 30 {
		c, err := p.Act(context.Background(), s.View(0), 0)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.Apply(s, 0, c); err != nil {
			t.Fatalf("%s: %v", engine.Describe(s.Map, c), err)
		}
		out = append(out, c)
	}
	return out
}

// TestCapitalsNormalGuardsCapital: normal never leaves its capital open to
// a capture it can prevent, and otherwise goes for what wins.
func TestCapitalsNormalGuardsCapital(t *testing.T) {
	tests := []struct {
		name string
		// build draws the position and returns the territory the
		// reinforcements must go to.
		build func(f capFixture, cap0 int, near []int, cap1 int) int
	}{
		{"an enemy stack next to the capital: reinforce the capital", func(f capFixture, cap0 int, near []int, cap1 int) int {
			f.set(near[0], 1, 25) // with seat 1's reinforcements, 31 against a defence of 10
			f.set(near[1], 0, 2)
			f.set(near[2], 0, 2)
			return cap0
		}},
		{"a bigger stack, the neighbours too weak to help", func(f capFixture, cap0 int, near []int, cap1 int) int {
			f.set(near[0], 1, 40)
			f.set(near[1], 0, 5)
			return cap0
		}},
		{"the enemy capital within reach: reinforce the source and take it", capitalInReach},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, cap0, near, cap1 := newCapFixture(t)
			want := tt.build(f, cap0, near, cap1)
			s := f.ready(t)
			for _, style := range []float64{-1, 0, 1} {
				p := mustNew(t, "normal", Options{Style: style})
				c, err := p.Act(context.Background(), s.View(0), 0)
				if err != nil {
					t.Fatal(err)
				}
				if c != (engine.Reinforce{Territory: want}) {
					t.Errorf("style %v: %s, want the reinforcements on %s", style, engine.Describe(s.Map, c), s.Map.TerritoryName(want))
				}
			}
		})
	}
}

// capitalInReach draws seat 1's capital (8 troops) next to a territory of
// seat 0 with 30, away from seat 0's capital, and returns that territory.
func capitalInReach(f capFixture, cap0 int, near []int, cap1 int) int {
	src := -1
	for _, n := range f.s.Map.Territories[cap1].Adj {
		if n != cap0 && !slices.Contains(near, n) {
			src = n
			break
		}
	}
	f.set(src, 0, 30)
	f.set(cap1, 1, 8)
	return src
}

// TestCapitalsNormalTakesCapital: a sure capital capture is never missed.
func TestCapitalsNormalTakesCapital(t *testing.T) {
	f, cap0, near, cap1 := newCapFixture(t)
	capitalInReach(f, cap0, near, cap1)
	s := f.ready(t)
	playTurn(t, mustNew(t, "normal", Options{}), s)
	if s.Phase != state.PhaseOver || s.Winner != 0 {
		t.Errorf("phase %s, winner %d: seat 0 did not take the last enemy capital", s.Phase, s.Winner)
	}
}

// TestCapitalsEasyCapturesFirst: easy captures a neighbouring neutral
// territory while there is one, and attacks only when none is left.
func TestCapitalsEasyCapturesFirst(t *testing.T) {
	for _, neutral := range []bool{true, false} {
		t.Run(fmt.Sprintf("neutral left %v", neutral), func(t *testing.T) {
			f, cap0, near, _ := newCapFixture(t)
			for i := range f.s.Terr {
				if f.s.Terr[i].Owner == state.Neutral {
					f.set(i, 1, 1)
				}
			}
			if neutral {
				f.set(near[2], state.Neutral, 3)
			}
			f.set(near[0], 1, 1)
			f.set(near[1], 0, 5)
			_ = cap0
			s := f.ready(t)
			p := mustNew(t, "easy", Options{Seed: 3})
			var action engine.Command
			for _, c := range playTurn(t, p, s) {
				switch c.(type) {
				case engine.Capture, engine.Plan:
					if action == nil {
						action = c
					}
				}
			}
			switch action.(type) {
			case engine.Capture:
				if !neutral {
					t.Error("captured with no neutral territory left")
				}
			case engine.Plan:
				if neutral {
					t.Error("attacked while a neutral territory was there to capture")
				}
			default:
				t.Errorf("no action (%v)", action)
			}
		})
	}
}

// capitalsMidgame plays a capitals match between normal players until
// items are held or lying around, and returns it at the start of a turn.
func capitalsMidgame(t *testing.T, seed uint64) *state.State {
	t.Helper()
	for g := seed; g < seed+50; g++ {
		s := newMatch(t, 4, g, state.CapitalsOptions())
		ps := make([]Player, 4)
		for i := range ps {
			ps[i] = mustNew(t, "normal", Options{Seed: uint64(i)})
		}
		for s.Phase != state.PhaseOver && s.Turn < 80 {
			seat := s.Current
			c, _ := ps[seat].Act(context.Background(), s.View(seat), seat)
			if _, err := engine.Apply(s, seat, c); err != nil {
				t.Fatal(err)
			}
			if s.Phase != state.PhaseReinforce || s.Turn < 10 {
				continue
			}
			held, lying := false, false
			for i := range s.Seats {
				held = held || (i != s.Current && s.Seats[i].Capitals.Item.Kept())
			}
			for i := range s.Terr {
				lying = lying || (s.Terr[i].Item != state.NoItem && s.Terr[i].Item != state.ItemFat)
			}
			if held || lying {
				return s
			}
		}
	}
	t.Fatal("no position with hidden items")
	return nil
}

// capitalsTwins returns a capitals position at the start of a turn, with
// items held or lying around, and its twin: the kinds of the items of the
// other seats and of those on the map changed, another generator.
func capitalsTwins(t *testing.T) (base, twin *state.State) {
	base = capitalsMidgame(t, 40)
	seat := base.Current
	twin = base.Clone()
	twin.RNG = state.RNG{Seed: 999, N: 7}
	for i := range twin.Seats {
		if i != seat && twin.Seats[i].Capitals.Item.Kept() {
			twin.Seats[i].Capitals.Item = state.Item(1 + (int(twin.Seats[i].Capitals.Item) % 4)) // another kept kind
		}
	}
	for i := range twin.Terr {
		if it := twin.Terr[i].Item; it != state.NoItem && it != state.ItemFat {
			twin.Terr[i].Item = state.ItemTroopMalus + state.ItemTroopBonus - min(it, state.ItemTroopBonus) // a different kind
			if twin.Terr[i].Item == it {
				twin.Terr[i].Item = state.ItemDistant
			}
		}
	}
	if base.View(seat).Seats[(seat+1)%4] != twin.View(seat).Seats[(seat+1)%4] {
		t.Fatal("the twins differ in what the seat sees")
	}
	return base, twin
}

// TestDeterminizeCapitals: every hidden item gets a plausible kind, the
// seat's own item and everything visible stay as they are.
func TestDeterminizeCapitals(t *testing.T) {
	s := capitalsMidgame(t, 60)
	seat := s.Current
	view := s.View(seat)
	rng := newRand(1, 1)
	kinds := map[state.Item]int{}
	for range 200 {
		w := determinizeCapitals(view, seat, rng)
		if w.Hidden {
			t.Fatal("a determinized state is still a view")
		}
		for i := range w.Seats {
			it := w.Seats[i].Capitals.Item
			switch {
			case i == seat && it != s.Seats[seat].Capitals.Item:
				t.Fatalf("the seat's own item changed: %s, really %s", it, s.Seats[seat].Capitals.Item)
			case (it != state.NoItem) != (s.Seats[i].Capitals.Item != state.NoItem):
				t.Fatalf("seat %d holds %s, really %s", i, it, s.Seats[i].Capitals.Item)
			case it != state.NoItem && !it.Kept():
				t.Fatalf("seat %d holds %s, which is never kept", i, it)
			case i != seat && it != state.NoItem:
				kinds[it]++
			}
		}
		for i := range w.Terr {
			it := w.Terr[i].Item
			if (it != state.NoItem) != (s.Terr[i].Item != state.NoItem) || (it == state.ItemFat) != (s.Terr[i].Item == state.ItemFat) {
				t.Fatalf("%s holds %s, really %s", s.Map.TerritoryName(i), it, s.Terr[i].Item)
			}
			if it != state.NoItem && !it.Known() {
				t.Fatalf("%s still holds %s", s.Map.TerritoryName(i), it)
			}
			if it != state.NoItem {
				kinds[it]++
			}
		}
		if err := w.Check(); err != nil {
			t.Fatal(err)
		}
		if _, err := engine.Apply(w.Clone(), seat, Fallback(w, seat)); err != nil {
			t.Fatalf("the engine refuses the determinized state: %v", err)
		}
	}
	if len(kinds) < 3 {
		t.Errorf("the hidden items were drawn as only %v", kinds)
	}
}

func TestFallChance(t *testing.T) {
	pu := state.PowerUnit
	tests := []struct {
		a, d, troops int
		want         float64
	}{
		{10 * pu, 10 * pu, 0, 0},            // not greater: no attack
		{11 * pu, 10 * pu, 0, 1},            // an empty territory always falls
		{30 * pu, 10 * pu, 16, 1},           // 20 x 0.8 = 16
		{30 * pu, 10 * pu, 25, 0},           // 20 x 1.2 = 24
		{30 * pu, 10 * pu, 20, 201.0 / 401}, // luck 1000 to 1200
	}
	for _, tt := range tests {
		if got := fallChance(tt.a, tt.d, tt.troops); got != tt.want {
			t.Errorf("fallChance(%d, %d, %d) = %v, want %v", tt.a/pu, tt.d/pu, tt.troops, got, tt.want)
		}
	}
	// Against the engine's damage, luck by luck.
	for _, c := range []struct{ a, d, troops int }{{31*pu + 7, 9 * pu, 19}, {100 * pu, 55 * pu, 40}, {12 * pu, 3*pu + 5, 8}} {
		n := 0
		for luck := engine.LuckMin; luck < engine.LuckMin+engine.LuckSpan; luck++ {
			if engine.Damage(c.a, c.d, luck) >= c.troops {
				n++
			}
		}
		if got, want := fallChance(c.a, c.d, c.troops), float64(n)/engine.LuckSpan; got != want {
			t.Errorf("fallChance%v = %v, the engine's draws give %v", c, got, want)
		}
	}
}

// TestCapitalsMatchesEnd: matches of easy and normal players end before
// the turn cap. Before easy concentrated its reinforcements, marched,
// built ports and moved into its conquests once only enemies were left
// around (issue 34), a quarter of the two-seat games of easy ran to the
// turn cap: their spread troops never made an attack legal against
// defences that count the troops around the target.
func TestCapitalsMatchesEnd(t *testing.T) {
	racetest.SkipManyGames(t)
	games := 60
	if testing.Short() {
		games = 20
	}
	for _, players := range [][]string{{"easy", "easy"}, {"easy", "easy", "easy"}, {"normal", "easy", "easy", "easy"}} {
		t.Run(fmt.Sprint(players), func(t *testing.T) {
			capped := 0
			for g := range games {
				s := newMatch(t, len(players), uint64(3400+g), state.CapitalsOptions())
				ps := make([]Player, len(players))
				for i, lvl := range players {
					ps[i] = mustNew(t, lvl, Options{Seed: uint64(g*10 + i)})
				}
				for steps := 0; s.Phase != state.PhaseOver && s.Turn <= 600; steps++ {
					if steps > 100000 {
						t.Fatalf("game %d: a turn does not end", g)
					}
					seat := s.Current
					c, err := ps[seat].Act(context.Background(), s.View(seat), seat)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := engine.Apply(s, seat, c); err != nil {
						t.Fatalf("game %d: %s: %v", g, engine.Describe(s.Map, c), err)
					}
				}
				if s.Phase != state.PhaseOver {
					capped++
				}
			}
			if capped > 0 {
				t.Errorf("%d of %d games reached the turn cap", capped, games)
			}
		})
	}
}

// TestCapWinChance: the learned capitals evaluation says 1 for a won
// match, and more for more troops on the seat's capital, less with a
// territory lost to a rival.
func TestCapWinChance(t *testing.T) {
	s := capitalsMidgame(t, 40)
	seat := s.Current
	base := capWinChance(s, seat)
	if base <= 0 || base >= 1 {
		t.Fatalf("midgame: %v, want in (0, 1)", base)
	}
	more := s.Clone()
	more.Terr[more.Capital(seat)].Armies += 30
	if got := capWinChance(more, seat); got <= base {
		t.Errorf("30 more troops on the capital: %v, want more than %v", got, base)
	}
	less := s.Clone()
	rival := (seat + 1) % len(s.Seats)
	for !less.Seats[rival].Alive() {
		rival = (rival + 1) % len(s.Seats)
	}
	for x := range less.Terr {
		if less.Terr[x].Owner == seat && x != less.Capital(seat) {
			less.Terr[x].Owner = rival
			break
		}
	}
	if got := capWinChance(less, seat); got >= base {
		t.Errorf("a territory lost to seat %d: %v, want less than %v", rival, got, base)
	}
	won := s.Clone()
	won.Phase, won.Winner = state.PhaseOver, seat
	if got := capWinChance(won, seat); got != 1 {
		t.Errorf("won: %v, want 1", got)
	}
}

// TestCapCandidatesWeighActions checks that hard's candidates at the start
// of a turn, on the view it is handed, hold the other actions than
// normal's after the reinforcement (actionVariants): until this test they
// were played on the view itself, which the engine refuses (it hides
// cards), and none was ever weighed.
func TestCapCandidatesWeighActions(t *testing.T) {
	opts := state.CapitalsOptions()
	for _, fog := range []bool{false, true} {
		opts.Fog = fog
		variants, bold := 0, 0
		for _, seed := range []uint64{3, 4, 5, 6, 7, 8} {
			s := capitalsMidgame(t, seed)
			if fog {
				s = fogMidgame(t, opts, seed)
			}
			seat := s.Current
			v := s.View(seat)
			own := rollout
			if fog {
				g := GuessFog(v, seat)
				own.fog = fogMargins(v, g, seat)
				v = g
			}
			if v.Phase != state.PhaseReinforce || !v.Hidden {
				t.Fatalf("seed %d: phase %v, hidden %v: want a view at the reinforcement", seed, v.Phase, v.Hidden)
			}
			for _, c := range (&hard{}).capCandidates(own, v, seat) {
				if c.reinforce >= 0 && c.action != actNormal {
					variants++
				}
				if c.bold {
					bold++
				}
			}
		}
		t.Logf("fog %v: %d action variants, %d bold", fog, variants, bold)
		if variants == 0 || fog && bold == 0 || !fog && bold > 0 {
			t.Errorf("fog %v: %d action variants, %d bold among the candidates of six turns", fog, variants, bold)
		}
	}
}
