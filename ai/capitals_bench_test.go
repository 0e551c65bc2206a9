package ai

import (
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// capitalsBenchStates returns capitals positions at the start of a turn
// (4 seats on normal generated maps, turns 8 to 40 of matches between
// normal players), the same every run.
func capitalsBenchStates(b *testing.B) []*state.State {
	return benchPositions(b, 2000, state.CapitalsOptions(), 8, 41)
}

// benchCapitalsTurn plays one whole capitals turn per op: every decision
// of the seat to play (Act on its view) and the engine applying it.
func benchCapitalsTurn(b *testing.B, level string, opts Options) {
	states := capitalsBenchStates(b)
	p, err := New(level, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer Close(p)
	timeTurns(b, states, func() Player { return p })
}

func BenchmarkCapitalsTurnRandom(b *testing.B) { benchCapitalsTurn(b, "random", Options{Seed: 1}) }
func BenchmarkCapitalsTurnEasy(b *testing.B)   { benchCapitalsTurn(b, "easy", Options{Seed: 1}) }
func BenchmarkCapitalsTurnNormal(b *testing.B) { benchCapitalsTurn(b, "normal", Options{Seed: 1}) }

// BenchmarkCapitalsTurnHard100 is hard with 100 search iterations a turn.
func BenchmarkCapitalsTurnHard100(b *testing.B) {
	benchCapitalsTurn(b, "hard", Options{Seed: 1, Iterations: 100, Budget: time.Minute})
}

// BenchmarkCapitalsTurnHard300 is hard as in the recorded tournaments.
func BenchmarkCapitalsTurnHard300(b *testing.B) {
	benchCapitalsTurn(b, "hard", Options{Seed: 1, Iterations: 300, Budget: time.Minute})
}

// BenchmarkCapitalsTurnHardBudget100ms is hard bounded by time only: a turn
// must take about its budget.
func BenchmarkCapitalsTurnHardBudget100ms(b *testing.B) {
	benchCapitalsTurn(b, "hard", Options{Seed: 1, Budget: 100 * time.Millisecond})
}

// BenchmarkCapitalsPlayout is one iteration of hard's search: a
// determinized copy of the view, the seat's turn with normal's plan, two
// rounds of every seat with the normal player, the score. Its inverse is
// hard's iterations per second.
func BenchmarkCapitalsPlayout(b *testing.B) {
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
			if !playCapRound(sim, seat, nil) {
				break
			}
		}
		capEvaluate(sim, seat)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iterations/s")
}

// BenchmarkCapitalsDecisionNormal is one decision of the heuristic player
// at the start of a turn (where its reinforcements go: the costliest of
// its decisions with the move), the unit of hard's playouts.
func BenchmarkCapitalsDecisionNormal(b *testing.B) {
	states := capitalsBenchStates(b)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)]
		rollout.play(s, s.Current)
	}
}
