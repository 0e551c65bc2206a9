package ai

import (
	"context"
	"math"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// UCB1: every plan once, then the best mean, unless another has been tried
// so rarely that its bonus outweighs the difference.
func TestNodeChoose(t *testing.T) {
	plans := make([]params, 3)
	tests := []struct {
		name   string
		visits []int
		means  []float64
		want   int
	}{
		{"untried first", []int{5, 0, 5}, []float64{0.6, 0, 0.5}, 1},
		{"best mean", []int{50, 50, 50}, []float64{0.50, 0.55, 0.52}, 1},
		{"rarely tried", []int{2000, 2000, 1}, []float64{0.50, 0.51, 0.49}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n := newNode(plans)
			for i, v := range tt.visits {
				n.visits[i], n.sum[i] = v, tt.means[i]*float64(v)
				n.total += v
			}
			if got := n.choose(); got != tt.want {
				t.Errorf("chose plan %d, want %d", got, tt.want)
			}
		})
	}
}

// The search is a tree: iterations go below the root, to hard's next turn,
// and the root's visits add up to the iterations.
func TestSearchGrowsATree(t *testing.T) {
	s := setupDone(t, 4, 3)
	h := newHard(Options{Seed: 1, Iterations: 300, Budget: time.Minute})
	seat := s.Current
	view := s.View(seat)
	root := newNode(h.candidates(view, seat))
	h.grow(context.Background(), root, view, seat)
	total, deeper := 0, 0
	for i, v := range root.visits {
		total += v
		if root.next[i] != nil {
			for _, w := range root.next[i].visits {
				deeper += w
			}
		}
	}
	if total != 300 || root.total != 300 {
		t.Errorf("root visits %d (total %d), want 300", total, root.total)
	}
	if deeper == 0 || deeper >= total {
		t.Errorf("%d visits below the root of %d: want some, fewer", deeper, total)
	}
}

// normalTurns plays games of four normal and calls turn at the start of
// every turn after the setup with the view of the seat to play, the seat,
// and the plan normal's look ahead picked for the turn.
func normalTurns(t *testing.T, games int, turn func(view *state.State, seat int, played params)) {
	t.Helper()
	for g := range games {
		s := newMatch(t, 4, uint64(500+g), state.DefaultOptions())
		players := make([]*normal, 4)
		for i := range players {
			players[i] = newNormal(Options{Seed: uint64(g*4 + i)})
		}
		for lastTurn := -1; s.Phase != state.PhaseOver && s.Turn <= 600; {
			seat := toMove(s)
			v := s.View(seat)
			if s.Phase != state.PhaseSetup && s.Turn != lastTurn {
				lastTurn = s.Turn
				turn(v, seat, players[seat].l.plan(players[seat].p, v, seat))
			}
			c := players[seat].decide(context.Background(), v, seat)
			if _, err := engine.Apply(s, seat, c); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// planKind says which kind of plan (planOwn, ...) p is around base.
func planKind(p, base params) int {
	switch {
	case p.goal >= 0:
		return planGoal
	case p.passive:
		return planPassive
	case p.style < base.style:
		return planDefensive
	case p.style > base.style:
		return planAggressive
	}
	return planOwn
}

// TestNormalPlanShares checks hard's model of normal (normalModel): normal
// plays each kind of plan about as often as the model assumes, with a
// runner-up continent and without, and the model picks them in those
// shares.
func TestNormalPlanShares(t *testing.T) {
	racetest.SkipManyGames(t)
	// By whether the seat has a runner-up continent: the turns, and
	// those normal and the model played with each kind of plan.
	var turns [2]int
	var played, modelled [2][numPlanKinds]int
	var m normalModel
	var b board
	m.reset(0)
	base := m.plans[0]
	normalTurns(t, 30, func(v *state.State, seat int, p params) {
		m.reset(uint64(turns[0] + turns[1]))
		goals := 0
		if len(newBoard(v, seat).runnerUpGoals(nil, 2)) > 0 {
			goals = 1
		}
		turns[goals]++
		played[goals][planKind(p, base)]++
		modelled[goals][planKind(m.plan(&b, v, seat), base)]++
	})
	for goals := range 2 {
		want := normalShares(goals == 1)
		for k := range numPlanKinds {
			n := float64(turns[goals])
			got, mod := 100*float64(played[goals][k])/n, 100*float64(modelled[goals][k])/n
			t.Logf("runner-up continent %v, plan kind %d: normal %.1f%%, model %.1f%%, assumed %d%% (%d turns)", goals == 1, k, got, mod, want[k], turns[goals])
			if math.Abs(got-float64(want[k])) > 8 || math.Abs(mod-float64(want[k])) > 8 {
				t.Errorf("runner-up continent %v, plan kind %d: normal plays it %.1f%% of its turns and the model %.1f%%; the model assumes %d%%", goals == 1, k, got, mod, want[k])
			}
		}
	}
}

// TestRefineMost: a decision's refinement plays up to refineWideSamples
// where 64 samples leave too much to chance (fog, and teams of two scored
// by the side's chance), and refineMaxSamples elsewhere, where more lose
// games.
func TestRefineMost(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*state.Options)
		want int
	}{
		{"classic", func(*state.Options) {}, refineMaxSamples},
		{"fog", func(o *state.Options) { o.Fog = true }, refineWideSamples},
		{"teams of two, domination", func(o *state.Options) { o.Teams, o.Victory = 2, state.Domination }, refineWideSamples},
		{"teams of two, two thirds", func(o *state.Options) { o.Teams, o.Victory = 2, state.TwoThirds }, refineWideSamples},
		{"missions", func(o *state.Options) { o.Victory = state.Missions }, refineMaxSamples},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := state.DefaultOptions()
			tc.set(&o)
			if got := refineMost(newMatch(t, 4, 1, o).View(0)); got != tc.want {
				t.Errorf("refineMost = %d, want %d", got, tc.want)
			}
		})
	}
}

// TestRefineStop: a decision's refinement never plays more than 64
// samples (refineMaxSamples), or 256 in fog and teams (refineWideSamples), whether
// the turn is bounded by iterations or by time (more lose games:
// docs/ai.md, ninth pass, and "Fog of war"), and at least
// refineMinSamples while the turn has time.
func TestRefineStop(t *testing.T) {
	for _, tc := range []struct {
		name       string
		opts       Options
		most       int
		want, over int // done at want samples, not before; and at over
	}{
		{"an hour a turn", Options{Budget: time.Hour}, refineMaxSamples, 64, 65},
		{"1,200 iterations", Options{Iterations: 1200, Budget: time.Hour}, refineMaxSamples, 64, 65},
		{"320 iterations", Options{Iterations: 320, Budget: time.Hour}, refineMaxSamples, 32, 33},
		{"20 iterations", Options{Iterations: 20, Budget: time.Hour}, refineMaxSamples, refineMinSamples, refineMinSamples + 1},
		{"an hour a turn, fog", Options{Budget: time.Hour}, refineWideSamples, 256, 257},
		{"1,200 iterations, fog", Options{Iterations: 1200, Budget: time.Hour}, refineWideSamples, 256, 257},
		{"320 iterations, fog", Options{Iterations: 320, Budget: time.Hour}, refineWideSamples, 128, 129},
		{"20 iterations, fog", Options{Iterations: 20, Budget: time.Hour}, refineWideSamples, refineMinSamples, refineMinSamples + 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			done := newHard(tc.opts).refineStop(context.Background(), time.Now(), tc.most)
			if done(tc.want - 1) {
				t.Errorf("done at %d samples, want %d", tc.want-1, tc.want)
			}
			if !done(tc.want) || !done(tc.over) {
				t.Errorf("not done at %d or %d samples", tc.want, tc.over)
			}
		})
	}
}

// TestHardPlanIterations: without an iteration cap the plan search runs
// planIterations, the budget only a ceiling (issue 34: a turn's thinking
// should not depend on the machine's load), and a budget too short for
// them cuts it.
func TestHardPlanIterations(t *testing.T) {
	s := setupDone(t, 4, 8)
	seat := s.Current
	v := s.View(seat)
	for _, tt := range []struct {
		budget time.Duration
		full   bool
	}{{time.Hour, true}, {8 * time.Millisecond, false}} {
		h := newHard(Options{Seed: 1, Budget: tt.budget})
		root := newNode(h.candidates(v, seat))
		h.grow(context.Background(), root, v, seat)
		if got := root.total == planIterations; got != tt.full {
			t.Errorf("budget %v: %d iterations (planIterations %d)", tt.budget, root.total, planIterations)
		}
	}
}

// Hard searches its setup: the plan it places by is the root plan the
// search played most (among every continent it has a foothold in as a
// goal), kept for the whole setup; every sample of the search plays the
// setup out to the seat's first turn; and in simultaneous rounds, which
// the playouts do not play, it places as normal does.
func TestHardSearchesTheSetup(t *testing.T) {
	s := newMatch(t, 4, 7, state.DefaultOptions())
	h := newHard(Options{Seed: 3, Iterations: 120, Budget: time.Minute})
	const seat = 2
	view := s.View(seat)
	first := h.decide(context.Background(), view, seat)
	tp, ok := h.plans[planKey{match: matchKey(view), turn: 0, seat: seat}]
	if !ok {
		t.Fatal("no setup plan kept")
	}
	if goals := newBoard(view, seat).runnerUpGoals(nil, len(view.Map.Continents)); len(tp.alts) != 4+len(goals) || len(goals) < 3 {
		t.Errorf("%d plans weighed for %d goal continents, want the 4 of every turn and one a continent (at least 3)", len(tp.alts), len(goals))
	}
	if want := tp.p.play(view, seat); first != want {
		t.Errorf("placed %v, want the kept plan's %v", first, want)
	}

	var scratch state.State
	var cards []state.Card
	sim := determinizeInto(&scratch, &cards, view, seat, h.rng)
	var b board
	finishSetup(&b, sim, seat, tp.p)
	if sim.Phase == state.PhaseSetup || sim.Turn != 1 {
		t.Fatalf("setup played out to phase %v, turn %d", sim.Phase, sim.Turn)
	}
	for p := range sim.Seats {
		if r := sim.Seats[p].Reserve; r != 0 && p != sim.Current {
			t.Errorf("seat %d still holds %d armies after the setup", p, r)
		}
	}

	// Decisions later in the setup keep the plan: no new search.
	if _, err := engine.Apply(s, seat, first); err != nil {
		t.Fatal(err)
	}
	h.rng = newRand(99, 4) // a new search would draw other samples
	if got, want := h.decide(context.Background(), s.View(seat), seat), tp.p.play(s.View(seat), seat); got != want {
		t.Errorf("second placement %v, want the kept plan's %v", got, want)
	}

	for _, fog := range []bool{false, true} {
		opts := state.DefaultOptions()
		opts.Turns, opts.Fog = state.Simultaneous, fog
		r := newMatch(t, 4, 7, opts)
		p := mustNew(t, "hard", Options{Seed: 3, Iterations: 120, Budget: time.Minute})
		got, err := p.Act(context.Background(), r.Clone(), seat)
		if err != nil {
			t.Fatal(err)
		}
		if want := h.base.play(r.View(seat), seat); got != want && !fog {
			t.Errorf("in simultaneous rounds placed %v, want normal's %v", got, want)
		}
		if len(p.(*guarded).p.(*hard).plans) != 0 {
			t.Errorf("fog %v: searched the setup of simultaneous rounds", fog)
		}
	}
}
