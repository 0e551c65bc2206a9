package ai

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// benchStates returns mid-game positions at the start of a turn (4 seats,
// turns 5 to 24 of matches between normal players), the same every run.
func benchStates(b *testing.B) []*state.State {
	return benchPositions(b, 1000, state.DefaultOptions(), 5, 25)
}

// capitalsBenchStates returns capitals positions at the start of a turn
// (4 seats on normal generated maps, turns 8 to 40 of matches between
// normal players), the same every run.
func capitalsBenchStates(b *testing.B) []*state.State {
	return benchPositions(b, 2000, state.CapitalsOptions(), 8, 41)
}

// classicFogBenchStates is benchStates with fog of war.
func classicFogBenchStates(b *testing.B) []*state.State {
	opts := state.DefaultOptions()
	opts.Fog = true
	return benchPositions(b, 1000, opts, 5, 25)
}

// teamsTwoThirdsBenchStates is teamsBenchStates with the default victory,
// two thirds of the map: shorter matches, so positions from fewer turns.
func teamsTwoThirdsBenchStates(b *testing.B) []*state.State {
	opts := state.DefaultOptions()
	opts.Teams = 2
	return benchPositions(b, 1000, opts, 3, 25)
}

// teamsBenchStates is benchStates with two teams of two (seats 0 and 2
// against 1 and 3) playing for domination.
func teamsBenchStates(b *testing.B) []*state.State {
	opts := state.DefaultOptions()
	opts.Teams, opts.Victory = 2, state.Domination
	return benchPositions(b, 1000, opts, 5, 25)
}

// capitalsFogBenchStates is capitalsBenchStates with fog of war.
func capitalsFogBenchStates(b *testing.B) []*state.State {
	opts := state.CapitalsOptions()
	opts.Fog = true
	return benchPositions(b, 2000, opts, 8, 41)
}

// benchPositions returns 40 positions at the start of a turn, the same
// every run, from 4-seat matches with opts between normal players, the
// first started from seed, the next from seed+1 and so on: of each match,
// one turn in four from turn first on, until the match reaches turn end.
// Each match gives other turns so that the positions vary.
func benchPositions(b *testing.B, seed uint64, opts state.Options, first, end int) []*state.State {
	b.Helper()
	var out []*state.State
	for g := uint64(0); len(out) < 40; g++ {
		s := newMatch(b, 4, seed+g, opts)
		ps := make([]Player, 4)
		for i := range ps {
			ps[i], _ = New("normal", Options{Seed: g + uint64(i)})
		}
		for s.Phase != state.PhaseOver && s.Turn < end {
			turn := s.Turn
			step(b, s, ps)
			if s.Turn != turn && s.Turn >= first && s.Phase != state.PhaseOver && s.Turn%4 == int(g%4) {
				out = append(out, s.Clone())
			}
		}
	}
	return out
}

// BenchmarkTurn plays one whole turn per op, for each rule set and level:
// every decision of the seat to play (Act on its view) and the engine
// applying it.
func BenchmarkTurn(b *testing.B) {
	type level struct {
		name, level string
		opts        Options
		fresh       bool // a new player each turn, whatever the rule set
	}
	for _, rs := range []struct {
		name   string
		states func(b *testing.B) []*state.State
		// fresh: a new player each turn (classic normal and hard cache the
		// plan of a turn, and the positions repeat); else one for the run.
		fresh  bool
		levels []level
	}{
		{"classic", benchStates, true, []level{
			{"random", "random", Options{Seed: 1}, false},
			{"easy", "easy", Options{Seed: 1}, false},
			{"normal", "normal", Options{Seed: 1}, false},
			// as in the recorded tournament: 1200 search iterations a turn
			{"hard1200", "hard", Options{Seed: 1, Iterations: 1200, Budget: time.Minute}, false},
			// bounded by time only: a turn must take about its budget
			{"hardBudget100ms", "hard", Options{Seed: 1, Budget: 100 * time.Millisecond}, false},
			// as /risk addbot seats it: the default budget of 2 s per turn
			{"hardDefault", "hard", Options{Seed: 1}, false},
		}},
		{"capitals", capitalsBenchStates, false, []level{
			{"random", "random", Options{Seed: 1}, false},
			{"easy", "easy", Options{Seed: 1}, false},
			{"normal", "normal", Options{Seed: 1}, false},
			{"hard100", "hard", Options{Seed: 1, Iterations: 100, Budget: time.Minute}, false},
			// as in the recorded tournaments
			{"hard300", "hard", Options{Seed: 1, Iterations: 300, Budget: time.Minute}, false},
			// bounded by time only: a turn must take about its budget
			{"hardBudget100ms", "hard", Options{Seed: 1, Budget: 100 * time.Millisecond}, false},
			// as /risk addbot seats it: 400 playouts and 128 for the move,
			// the 2 s budget a ceiling; a new player each turn, or the
			// positions repeat and hit its cache
			{"hardDefault", "hard", Options{Seed: 1}, true},
		}},
		// classic with fog of war, the positions of matches played in
		// fog: each level decides on its view
		{"classicFog", classicFogBenchStates, true, []level{
			{"normal", "normal", Options{Seed: 1}, false},
			{"hardDefault", "hard", Options{Seed: 1}, false},
		}},
		// classic with two teams of two playing for domination
		{"teams", teamsBenchStates, true, []level{
			{"normal", "normal", Options{Seed: 1}, false},
			{"hardDefault", "hard", Options{Seed: 1}, false},
		}},
		// the same teams playing for two thirds of the map
		{"teamsTwoThirds", teamsTwoThirdsBenchStates, true, []level{
			{"normal", "normal", Options{Seed: 1}, false},
			{"hardDefault", "hard", Options{Seed: 1}, false},
		}},
		// capitals with fog of war, the positions of matches played in
		// fog: each level decides on its view
		{"capitalsFog", capitalsFogBenchStates, false, []level{
			{"normal", "normal", Options{Seed: 1}, false},
			{"hardDefault", "hard", Options{Seed: 1}, true},
		}},
	} {
		b.Run(rs.name, func(b *testing.B) {
			states := rs.states(b)
			for _, l := range rs.levels {
				b.Run(l.name, func(b *testing.B) {
					newPlayer := func() Player {
						p, err := New(l.level, l.opts)
						if err != nil {
							b.Fatal(err)
						}
						return p
					}
					if rs.fresh || l.fresh {
						timeTurns(b, states, newPlayer)
						return
					}
					p := newPlayer()
					defer Close(p)
					timeTurns(b, states, func() Player { return p })
				})
			}
		})
	}
}

// timeTurns plays one whole turn per op from states, in turn, with the
// player that player returns for it, and reports the slowest turns as well
// as the mean: a bot's reply time is bounded by its slowest turns.
func timeTurns(b *testing.B, states []*state.State, player func() Player) {
	ctx := context.Background()
	took := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)].Clone()
		p := player()
		seat, turn := s.Current, s.Turn
		start := time.Now()
		for s.Turn == turn && s.Phase != state.PhaseOver {
			c, err := p.Act(ctx, s.View(seat), seat)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := engine.Apply(s, seat, c); err != nil {
				b.Fatal(err)
			}
		}
		took = append(took, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(took)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(took[len(took)*99/100]), "p99-ms/turn")
	b.ReportMetric(ms(took[len(took)-1]), "max-ms/turn")
}

// BenchmarkPlayout is one playout of hard's search. classic: one segment,
// a copy of the match, the seat's turn and every other seat's with the
// heuristic player, scored, the others' plans from the model of normal
// (normalModel). capitals: one iteration, a determinized copy of the view,
// the seat's turn with normal's plan, two rounds of every seat with the
// normal player, the score; its inverse is hard's iterations per second.
func BenchmarkPlayout(b *testing.B) {
	b.Run("classic", func(b *testing.B) {
		states := benchStates(b)
		rng := newRand(1, 1)
		views := make([]*state.State, len(states))
		for i, s := range states {
			views[i] = s.View(s.Current)
		}
		p := params{style: bias(0), goal: -1}
		var (
			scratch state.State
			bd      board
			cards   []state.Card
			model   normalModel
		)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			v := views[i%len(views)]
			sim := determinizeInto(&scratch, &cards, v, v.Viewer, rng)
			model.reset(rng.Uint64())
			playTurns(&bd, sim, v.Viewer, p, &model)
			evaluate(sim, v.Viewer)
		}
	})
	b.Run("capitals", func(b *testing.B) {
		states := capitalsBenchStates(b)
		rng := newRand(1, 1)
		pl := capPlan{reinforce: -1, gather: -1}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			s := states[i%len(states)]
			seat := s.Current
			sim := determinizeCapitals(s.View(seat), seat, rng)
			playCapTurn(sim, seat, func(x *state.State, seat int) engine.Command { return pl.play(rollout, x, seat) })
			for range capRounds {
				if !playCapRound(sim, seat, nil, rollout.play) {
					break
				}
			}
			capEvaluate(sim, seat)
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iterations/s")
	})
}

// BenchmarkRefine is one decision of hard's refinement at the start of a
// turn (the reinforcement): its candidates, played on 64 samples (a
// command, the rest of the turn and the others' turns, the learned
// evaluation), the worse half dropped after 8, 16 and 32, with the others'
// plans by the model of normal. It reports the rollouts per decision.
func BenchmarkRefine(b *testing.B) {
	states := benchStates(b)
	rng := newRand(1, 1)
	base := defaultPlan()
	var r refiner
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)]
		v := s.View(s.Current)
		alts := candidatePlans(base, v, v.Viewer, 2)
		r.choose(v, v, v.Viewer, base, alts, func(n int) bool { return n >= 64 }, rng)
	}
	b.ReportMetric(float64(r.played)/float64(b.N), "rollouts/op")
}

// BenchmarkDecisionNormal is one decision of the heuristic player, the
// unit of hard's playouts; in capitals, at the start of a turn (where its
// reinforcements go: the costliest of its decisions with the move).
func BenchmarkDecisionNormal(b *testing.B) {
	b.Run("classic", func(b *testing.B) {
		states := benchStates(b)
		p := params{style: bias(0), goal: -1}
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			s := states[i%len(states)]
			p.play(s, s.Current)
		}
	})
	b.Run("capitals", func(b *testing.B) {
		states := capitalsBenchStates(b)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			s := states[i%len(states)]
			rollout.play(s, s.Current)
		}
	})
}

// BenchmarkSetup is hard's first placement of a classic setup, where it
// searches the plan it places all its setup armies by (decideSetup), at
// the default budget as /risk addbot seats it.
func BenchmarkSetup(b *testing.B) {
	var views []*state.State
	for seed := range uint64(8) {
		views = append(views, newMatch(b, 4, 100+seed, state.DefaultOptions()).View(1))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		h := newHard(Options{Seed: uint64(i)})
		h.decide(context.Background(), views[i%len(views)], 1)
	}
}

// BenchmarkMissionEval is hard's evaluation of a missions position
// (missionWinChance), once for each leaf of its search: on samples of
// eight matches after their setup, each other seat holding a mission
// dealt to the sample.
func BenchmarkMissionEval(b *testing.B) {
	var sims []*state.State
	for seed := range uint64(8) {
		s := newMatch(b, 4, 200+seed, missionsOptions())
		for s.Phase == state.PhaseSetup {
			if _, err := engine.Apply(s, toMove(s), engine.AutoPlace{}); err != nil {
				b.Fatal(err)
			}
		}
		sims = append(sims, determinize(s.View(0), 0, newRand(seed, 1)))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, ok := missionWinChance(sims[i%len(sims)], 0); !ok {
			b.Fatal("no mission")
		}
	}
}
