package ai

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// fogMidgame plays a match with fog of war between normal players for a
// few turns and returns it.
func fogMidgame(t *testing.T, opts state.Options, seed uint64) *state.State {
	t.Helper()
	opts.Fog = true
	// A match that ends before (a mission fulfilled early, say) gives way
	// to one of another seed, the same every run.
	for try := range uint64(10) {
		s := newMatch(t, 4, seed+1000*try, opts)
		players := make([]Player, 4)
		for i := range players {
			players[i] = mustNew(t, "normal", Options{Seed: uint64(i), Iterations: 8, Budget: time.Minute})
		}
		for s.Turn < 9 && s.Phase != state.PhaseOver {
			step(t, s, players)
		}
		if s.Phase != state.PhaseOver {
			return s
		}
	}
	t.Fatal("every match ended before the test could look at it")
	return nil
}

func TestGuessFogKeepsWhatIsSeenAndTheTotals(t *testing.T) {
	capitals := state.CapitalsOptions()
	for name, opts := range map[string]state.Options{"classic": state.DefaultOptions(), "capitals": capitals} {
		t.Run(name, func(t *testing.T) {
			s := fogMidgame(t, opts, 3)
			for seat := range s.Seats {
				v := s.View(seat)
				g := GuessFog(v, seat)
				fogged := 0
				for i := range g.Terr {
					if v.Terr[i].Fog {
						fogged++
					} else if g.Terr[i] != v.Terr[i] {
						t.Errorf("seat %d: %s, in sight, guessed as %+v, seen as %+v", seat, s.Map.TerritoryName(i), g.Terr[i], v.Terr[i])
					}
					if g.Terr[i].Fog {
						t.Fatalf("seat %d: the guess keeps fog", seat)
					}
				}
				if fogged == 0 {
					t.Fatalf("seat %d sees the whole board: the test tests nothing", seat)
				}
				for i := range s.Seats {
					if g.Owned(i) != s.Owned(i) || g.Armies(i) != s.Armies(i) {
						t.Errorf("seat %d's guess: seat %d holds %d territories and %d armies, want %d and %d", seat, i, g.Owned(i), g.Armies(i), s.Owned(i), s.Armies(i))
					}
					if opts.Rules == state.Capitals && s.Seats[i].Alive() && g.Capital(i) < 0 {
						t.Errorf("seat %d's guess: seat %d has no capital", seat, i)
					}
				}
				if err := g.Check(); err != nil {
					t.Errorf("seat %d's guess: %v", seat, err)
				}
			}
		})
	}
}

// TestFogHidesTheBoardFromComputerPlayers: two boards that differ only out
// of a seat's sight get the same decisions from every level, in both rule
// sets (in capitals, the margins the levels add for what the fog may hide
// come from the view too).
func TestFogHidesTheBoardFromComputerPlayers(t *testing.T) {
	for name, opts := range map[string]state.Options{"classic": state.DefaultOptions(), "capitals": state.CapitalsOptions()} {
		t.Run(name, func(t *testing.T) { fogHidesTheBoard(t, opts) })
	}
}

func fogHidesTheBoard(t *testing.T, opts state.Options) {
	base := fogMidgame(t, opts, 5)
	seat := base.Current
	sight := base.Sight(seat)
	// Two territories out of sight held by two other seats change hands:
	// the farthest from the seat's own, so that the turn goes on a while
	// before they come into sight.
	dist := make([]int, len(base.Terr))
	var q []int
	for i, tr := range base.Terr {
		dist[i] = -1
		if tr.Owner == seat {
			dist[i], q = 0, append(q, i)
		}
	}
	for ; len(q) > 0; q = q[1:] {
		for _, nb := range base.Map.Territories[q[0]].Adj {
			if dist[nb] < 0 {
				dist[nb], q = dist[q[0]]+1, append(q, nb)
			}
		}
	}
	// (Not a capital, whose place is public, nor a hero's ground.)
	free := func(i int) bool {
		o := base.Terr[i].Owner
		return !sight.Has(i) && o >= 0 && !base.IsCapital(i) && base.Hero(o) != i
	}
	a, b := -1, -1
	for i := range base.Terr {
		if free(i) && (a < 0 || dist[i] > dist[a]) {
			a = i
		}
	}
	for i, tr := range base.Terr {
		if free(i) && tr.Owner != base.Terr[a].Owner && (b < 0 || dist[i] > dist[b]) {
			b = i
		}
	}
	if b < 0 {
		t.Fatal("no two territories of different seats out of sight")
	}
	base.Terr[a].Armies, base.Terr[b].Armies = 3, 3
	twin := base.Clone()
	twin.Terr[a].Owner, twin.Terr[b].Owner = base.Terr[b].Owner, base.Terr[a].Owner
	levels := Levels()
	if opts.Rules == state.Classic {
		levels = append(levels, ReferenceLevel) // (a classic yardstick)
	}
	for _, l := range levels {
		t.Run(l, func(t *testing.T) {
			pa := mustNew(t, l, Options{Seed: 9, Iterations: 20, Budget: time.Minute})
			pb := mustNew(t, l, Options{Seed: 9, Iterations: 20, Budget: time.Minute})
			sa, sb := base.Clone(), twin.Clone()
			turn, compared := sa.Turn, 0
			// Until a conquest brings a or b into sight.
			for k := 0; k < 30 && sa.Turn == turn && sa.Phase != state.PhaseOver; k++ {
				if v := sa.Sight(seat); v.Has(a) || v.Has(b) {
					break
				}
				compared++
				ca, err := pa.Act(context.Background(), sa, seat)
				if err != nil {
					t.Fatal(err)
				}
				cb, err := pb.Act(context.Background(), sb, seat)
				if err != nil {
					t.Fatal(err)
				}
				if ca != cb {
					t.Fatalf("decision %d: %v on the board, %v on its twin", k, ca, cb)
				}
				sb.RNG = sa.RNG
				if _, err := engine.Apply(sa, seat, ca); err != nil {
					t.Fatal(err)
				}
				if _, err := engine.Apply(sb, seat, cb); err != nil {
					t.Fatal(err)
				}
			}
			if compared < 3 {
				t.Errorf("%d decisions compared: the test tests little", compared)
			}
			if Faults(pa) != 0 {
				t.Errorf("%s lost %d decisions to the safe default", l, Faults(pa))
			}
		})
	}
}

// TestFogMarginsBoundTheTruth: on capitals boards with fog, whatever the
// fog hides, a target in sight defends with no more than the guess of the
// seat's view plus its margin (fogMargins), so a plan the levels check
// with it is never refused; the worst the view allows is reached (all of
// an owner's unseen troops, and its hero, on one unseen territory next to
// the target) and met exactly, so the margin is no wider than it must be.
// Each board is played from a capitals match with fog, then rearranged
// out of the seat's sight that way, its view unchanged.
func TestFogMarginsBoundTheTruth(t *testing.T) {
	opts := state.CapitalsOptions()
	opts.Map = "small"
	checked, tight := 0, 0
	for _, seed := range []uint64{3, 4, 5} {
		s := fogMidgame(t, opts, seed)
		for seat := range s.Seats {
			if !s.Seats[seat].Alive() {
				continue
			}
			sight := s.Sight(seat)
			for o := range s.Seats {
				if o == seat || !s.Seats[o].Alive() {
					continue
				}
				for h := range s.Terr {
					if sight.Has(h) || s.Terr[h].Owner != o {
						continue
					}
					// Every unseen troop of o onto h, its hero too if
					// out of sight.
					x := s.Clone()
					for u := range x.Terr {
						if !sight.Has(u) && x.Terr[u].Owner == o && u != h {
							x.Terr[h].Armies += x.Terr[u].Armies
							x.Terr[u].Armies = 0
						}
					}
					if hero := x.Hero(o); hero < 0 || !sight.Has(hero) {
						x.Seats[o].Capitals.Hero, x.Seats[o].Capitals.HeroWon = int16(h+1), true
					}
					v := x.View(seat)
					g := GuessFog(v, seat)
					u := fogMargins(v, g, seat)
					for tt := range x.Terr {
						if !sight.Has(tt) || x.Terr[tt].Owner != o {
							continue
						}
						checked++
						truth, bound := x.DefenceTotal(tt), u.defence(g, tt)
						if truth > bound {
							t.Fatalf("seed %d, seat %d: %s defends with %s, more than the guess %s and its margin (%s)",
								seed, seat, x.Map.TerritoryName(tt), state.FormatPower(truth), state.FormatPower(g.DefenceTotal(tt)), state.FormatPower(bound))
						}
						if truth == bound && truth > g.DefenceTotal(tt) {
							tight++
						}
					}
					for tt := range x.Terr {
						if !sight.Has(tt) && u[tt] < blind {
							t.Fatalf("seed %d, seat %d: %s, out of sight, has margin %d, want blind", seed, seat, x.Map.TerritoryName(tt), u[tt])
						}
					}
				}
			}
		}
	}
	if checked == 0 || tight == 0 {
		t.Fatalf("%d targets checked, %d met the bound above the guess: the test tests little", checked, tight)
	}
	t.Logf("%d targets checked, %d at the bound", checked, tight)
}

// TestSamplesDrawTheFog: hard's samples of a view with fog (determinizeInto,
// determinizeCapitals) are whole boards that keep what the seat sees and
// every seat's totals, and differ out of sight from one sample to the
// next: the search weighs what the view leaves open rather than one guess
// taken for the truth.
func TestSamplesDrawTheFog(t *testing.T) {
	for name, opts := range map[string]state.Options{"classic": state.DefaultOptions(), "capitals": state.CapitalsOptions()} {
		t.Run(name, func(t *testing.T) {
			s := fogMidgame(t, opts, 3)
			seat := s.Current
			v := s.View(seat)
			rng := newRand(7, 1)
			var first *state.State
			differ := false
			for range 8 {
				var g *state.State
				if opts.Rules == state.Capitals {
					g = determinizeCapitals(v, seat, rng)
				} else {
					g = determinize(v, seat, rng)
				}
				for i := range g.Terr {
					if g.Terr[i].Fog {
						t.Fatalf("a sample keeps the fog on %s", s.Map.TerritoryName(i))
					}
					if !v.Terr[i].Fog && (g.Terr[i].Owner != v.Terr[i].Owner || g.Terr[i].Armies != v.Terr[i].Armies) {
						t.Errorf("%s, in sight, sampled as %+v, seen as %+v", s.Map.TerritoryName(i), g.Terr[i], v.Terr[i])
					}
				}
				for i := range s.Seats {
					if g.Owned(i) != s.Owned(i) || g.Armies(i) != s.Armies(i) {
						t.Errorf("a sample: seat %d holds %d territories and %d armies, want %d and %d", i, g.Owned(i), g.Armies(i), s.Owned(i), s.Armies(i))
					}
				}
				if first == nil {
					first = g
					continue
				}
				for i := range g.Terr {
					if g.Terr[i] != first.Terr[i] {
						differ = true
					}
				}
			}
			if !differ {
				t.Errorf("8 samples drew the same board out of sight, want the fog drawn anew")
			}
		})
	}
}

// TestGuessFogPutsTroopsOnTheCapital: in capitals, a seat whose capital
// lies in the fog keeps two fifths of its unseen troops there in the
// guess (where normal players keep them: 41% in matches of four normal),
// not a share as small as any territory's far from sight.
func TestGuessFogPutsTroopsOnTheCapital(t *testing.T) {
	opts := state.CapitalsOptions()
	checked := 0
	for _, seed := range []uint64{3, 4, 5} {
		s := fogMidgame(t, opts, seed)
		for seat := range s.Seats {
			v := s.View(seat)
			g := GuessFog(v, seat)
			for o := range s.Seats {
				c := s.Capital(o)
				if o == seat || c < 0 || !v.Terr[c].Fog || g.Terr[c].Owner != o {
					continue
				}
				checked++
				if got, want := g.Terr[c].Armies, v.Seats[o].HiddenArmies*2/5; got < want {
					t.Errorf("seed %d, seat %d's guess: seat %d's capital holds %d of its %d unseen troops, want %d at least", seed, seat, o, got, v.Seats[o].HiddenArmies, want)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no capital in the fog: the test tests nothing")
	}
}

// TestFogPlayoutsPlanAsThePlayersDo: in hard's playouts of a capitals
// match with fog of war, every seat plans an attack only where the players
// of the match would: where it is legal whatever the seat's own view of
// the playout's board hides (fogMargins on GuessFog, as the match's
// players check theirs). Playouts without the margins foresaw attacks
// nobody in the match could plan.
func TestFogPlayoutsPlanAsThePlayersDo(t *testing.T) {
	opts := state.CapitalsOptions()
	opts.Map = "small"
	plans, nearFog := 0, 0
	for _, seed := range []uint64{3, 4, 5} {
		s := fogMidgame(t, opts, seed)
		seat := s.Current
		view := s.View(seat)
		play := capRollout(view.Options.Fog)
		check := func(x *state.State, p int) engine.Command {
			c := play(x, p)
			pl, ok := c.(engine.Plan)
			if !ok {
				return c
			}
			plans++
			x.Options.Fog = true
			v := x.View(p)
			x.Options.Fog = false
			g := GuessFog(v, p)
			u := fogMargins(v, g, p)
			if u[pl.To] > 0 {
				nearFog++
			}
			a, d := x.AttackTotal(pl.From, pl.To, int(x.Cap.NPlan)+1).Total, u.defence(g, pl.To)
			if a <= d {
				t.Errorf("seed %d, turn %d: seat %d plans %s on %s with %s, not above %s, the defence its view allows",
					seed, x.Turn, p, x.Map.TerritoryName(pl.From), x.Map.TerritoryName(pl.To), state.FormatPower(a), state.FormatPower(d))
			}
			return c
		}
		for k := range uint64(20) {
			sim := determinizeCapitals(view, seat, newRand(seed, k))
			playCapTurn(sim, seat, check)
			for range 4 {
				if !playCapRound(sim, seat, nil, check) {
					break
				}
			}
		}
	}
	if plans == 0 || nearFog == 0 {
		t.Fatalf("%d attacks planned, %d next to the fog: the test tests little", plans, nearFog)
	}
	t.Logf("%d attacks planned, %d next to the fog", plans, nearFog)
}

// TestSamplesPlaceUnseenHeroes: a hero out of sight looks in a view as a
// dead one does (none); hard's samples of a capitals match with fog of war
// put it, alive, on a territory of its owner out of sight (its stack),
// while the guess every level's commands are made on keeps to the view.
// Without this every sample played each unseen hero as dead.
func TestSamplesPlaceUnseenHeroes(t *testing.T) {
	opts := state.CapitalsOptions()
	opts.Fog = true
	checked := 0
	for _, seed := range []uint64{3, 4, 5} {
		s := newMatch(t, 4, seed, opts)
		players := make([]Player, 4)
		for i := range players {
			players[i] = mustNew(t, "normal", Options{Seed: uint64(i)})
		}
		for s.Phase != state.PhaseOver && s.Turn < 200 {
			step(t, s, players)
			if s.Phase == state.PhaseOver || s.Phase == state.PhaseSetup {
				continue
			}
			seat := s.Current
			sight := s.Sight(seat)
			view := s.View(seat)
			for o := range s.Seats {
				h := s.Hero(o)
				if o == seat || h < 0 || sight.Has(h) {
					continue
				}
				checked++
				if g := GuessFog(view, seat); g.Hero(o) >= 0 {
					t.Fatalf("seed %d, turn %d: the guess puts seat %d's unseen hero on %s, want none (the view's)", seed, s.Turn, o, g.Map.TerritoryName(g.Hero(o)))
				}
				sim := determinizeCapitals(view, seat, newRand(seed, uint64(s.Turn)))
				x := sim.Hero(o)
				if x < 0 || sight.Has(x) || sim.Terr[x].Owner != o {
					t.Fatalf("seed %d, turn %d: seat %d's hero out of sight is on %d in a sample, want a territory of its out of sight", seed, s.Turn, o, x)
				}
			}
		}
	}
	if checked == 0 {
		t.Fatal("no hero out of sight: the test tests little")
	}
	t.Logf("%d unseen heroes", checked)
}

// TestBoldPlansAreAccepted plays the action of hard's bold plans
// (capPlan.bold), decided on the guess with no margin in sight, on the
// true board of capitals matches with fog: every plan passes the guarded
// check on the guess and the engine accepts it on the true board, so the
// bold plans cost no fault; the launch skips those the fog stopped. And on
// a sample of hard's search, boldOn makes every defence in sight the
// guess's.
func TestBoldPlansAreAccepted(t *testing.T) {
	opts := state.CapitalsOptions()
	opts.Map = "small"
	players := make([]Player, 4)
	for i := range players {
		players[i] = mustNew(t, "normal", Options{Seed: uint64(i), Iterations: 8, Budget: time.Minute})
	}
	turns, bolder, plans, skipped := 0, 0, 0, 0
	for _, seed := range []uint64{3, 4, 5, 6, 7, 8, 9, 10} {
		s := fogMidgame(t, opts, seed)
		for k := 0; k < 24 && s.Phase != state.PhaseOver; k++ {
			turns++
			seat := s.Current
			x := s.Clone()
			for x.Phase == state.PhaseReinforce && x.Current == seat {
				if _, err := engine.Apply(x, seat, rollout.play(x, seat)); err != nil {
					t.Fatal(err)
				}
			}
			v := x.View(seat)
			g := GuessFog(v, seat)
			u := fogMargins(v, g, seat)
			bold := rollout
			bold.fog = u.bold()
			bp, _ := bold.bestPlan(newCapBoard(g, seat, bold.fog), nil)
			sp, _ := bold.bestPlan(newCapBoard(g, seat, u), nil)
			if len(bp) > 0 && !slices.Equal(bp, sp) {
				bolder++
			}
			sample := determinizeCapitals(v, seat, newRand(seed, uint64(k)))
			on := boldOn(make(unseen, len(u)), sample, boldDefences(g, u))
			for tt := range g.Terr {
				if u[tt] < blind && on.defence(sample, tt) != g.DefenceTotal(tt) {
					t.Fatalf("seed %d, turn %d: on the sample %s defends with %d, the guess with %d",
						seed, x.Turn, g.Map.TerritoryName(tt), on.defence(sample, tt), g.DefenceTotal(tt))
				}
			}
			// The bold action: its plans, on the guess and on the truth,
			// up to the launch.
			for steps := 0; x.Phase == state.PhaseAction && steps < 10; steps++ {
				c := bold.play(g, seat)
				if !Legal(g, seat, c) {
					t.Fatalf("seed %d, turn %d: %s refused on the guess (a fault)", seed, x.Turn, engine.Describe(g.Map, c))
				}
				ev, err := engine.Apply(x, seat, c)
				if err != nil {
					t.Fatalf("seed %d, turn %d: %s refused on the true board: %v", seed, x.Turn, engine.Describe(x.Map, c), err)
				}
				if _, ok := c.(engine.Plan); ok {
					plans++
				}
				for _, e := range ev {
					if _, ok := e.(engine.AttackSkipped); ok {
						skipped++
					}
				}
				if _, err := engine.Apply(g, seat, c); err != nil {
					break // the guess's launch may go otherwise: the action is over
				}
			}
			for s.Current == seat && s.Phase != state.PhaseOver {
				step(t, s, players)
			}
		}
	}
	t.Logf("%d turns, %d where the bold attacks differ, %d plans, %d skipped at the launch", turns, bolder, plans, skipped)
	if bolder == 0 || plans == 0 {
		t.Fatalf("%d bold attacks other than the safe one, %d plans: the test tests little", bolder, plans)
	}
}
