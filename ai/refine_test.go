package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// At every decision of hard's turns the refinement weighs the plan's own
// command first, then other legal commands without repeats, stopping among
// them when attacking; and it does not always keep the plan's command
// (else it would be dead weight). A command that only another plan plays
// is judged with that plan playing on, and when it wins, that plan is the
// one returned to play the rest of the turn. A command other than the
// plan's is played only when it beats the plan's by its margin.
func TestRefineCandidates(t *testing.T) {
	s := newMatch(t, 4, 41, state.DefaultOptions())
	ps := make([]Player, 4)
	for i := range ps {
		ps[i] = mustNew(t, "normal", Options{Seed: uint64(i)})
	}
	h := newHard(Options{Seed: 5, Iterations: 60, Budget: 1 << 62})
	var r refiner
	rng := rand.New(rand.NewPCG(1, 2))
	ctx := context.Background()
	decisions, changed, stops, switched := 0, 0, 0, 0
	for s.Phase != state.PhaseOver && s.Turn < 60 {
		seat := toMove(s)
		view := s.View(seat)
		if seat == 0 && s.Phase != state.PhaseSetup {
			alts := h.candidates(view, seat)
			p := h.search(ctx, view, seat, alts)
			cands := append([]engine.Command(nil), r.candidates(view, seat, p, alts)...)
			if want := p.play(view, seat); cands[0] != want {
				t.Fatalf("turn %d: first candidate %v, want the plan's %v", s.Turn, cands[0], want)
			}
			if len(r.conts) != len(cands) || r.conts[0] != p {
				t.Fatalf("turn %d: %d plans to play on for %d candidates", s.Turn, len(r.conts), len(cands))
			}
			for i, q := range r.conts {
				if q != p && q.play(view, seat) != cands[i] {
					t.Fatalf("turn %d: candidate %v plays on with a plan whose command is %v", s.Turn, cands[i], q.play(view, seat))
				}
			}
			for i, c := range cands {
				for _, d := range cands[:i] {
					if c == d {
						t.Fatalf("turn %d: %v weighed twice", s.Turn, c)
					}
				}
				if _, err := engine.Apply(s.Clone(), seat, c); err != nil {
					t.Fatalf("turn %d (%s): candidate %s: %v", s.Turn, s.Phase, engine.Describe(s.Map, c), err)
				}
				if _, ok := c.(engine.EndTurn); ok && s.Phase == state.PhaseAttack {
					stops++
				}
				if _, ok := c.(engine.Fortify); ok && s.Phase == state.PhaseAttack {
					stops++
				}
			}
			c, next := r.choose(view, view, seat, p, alts, func(n int) bool { return n >= 8 }, rng)
			decisions++
			if c != cands[0] {
				changed++
				if i := slices.Index(cands, c); !r.beatsPlan(i, 8) {
					t.Fatalf("turn %d: %v played over the plan's %v, within the noise of 8 samples", s.Turn, c, cands[0])
				}
			}
			if next != p {
				if next.play(view, seat) != c {
					t.Fatalf("turn %d: %v played, and the plan to play on would play %v", s.Turn, c, next.play(view, seat))
				}
				switched++
			}
		}
		c, err := ps[seat].Act(ctx, view, seat)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := engine.Apply(s, seat, c); err != nil {
			t.Fatal(err)
		}
	}
	if decisions < 20 || stops == 0 {
		t.Fatalf("%d decisions, %d with stopping weighed: want more", decisions, stops)
	}
	if changed == 0 || changed == decisions {
		t.Errorf("the refinement changed %d of %d decisions: want some, not all", changed, decisions)
	}
	if switched == 0 {
		t.Errorf("no decision of %d handed the turn to another plan", decisions)
	}
	t.Logf("the refinement changed %d of %d decisions, %d to another plan's", changed, decisions, switched)
}

// The refinement plays another command than the plan's only when its
// paired gain over the plan's is at least one standard error, so a gain
// that the samples' spread could explain does not move it, and more
// samples of the same gain do; and halving never drops the plan's command,
// the yardstick of the others.
func TestRefineMargin(t *testing.T) {
	repeat := func(n int, ds ...float64) []float64 {
		var out []float64
		for range n {
			out = append(out, ds...)
		}
		return out
	}
	tests := []struct {
		name  string
		diffs []float64 // candidate 1's score minus the plan's, sample by sample
		want  bool
	}{
		{"a steady gain", repeat(8, 0.01), true},
		{"a steady loss", repeat(8, -0.01), false},
		{"the same gain on a wide spread, 8 samples", repeat(4, 0.05, -0.03), false},
		{"the same gain on a wide spread, 64 samples", repeat(32, 0.05, -0.03), true},
		{"one sample differs, and gains", append(repeat(7, 0), 0.02), true},
		{"no difference at all", repeat(8, 0), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := refiner{diffs: make([]float64, 2), sqDiffs: make([]float64, 2)}
			for _, d := range tt.diffs {
				r.diffs[1] += d
				r.sqDiffs[1] += d * d
			}
			if got := r.beatsPlan(1, len(tt.diffs)); got != tt.want {
				t.Errorf("beatsPlan = %v, want %v", got, tt.want)
			}
		})
	}

	r := refiner{sums: []float64{1, 4, 3, 2}, live: []bool{true, true, true, true}}
	if live := r.halve(4); live != 2 || !r.live[0] || !r.live[1] {
		t.Errorf("halve kept %v of sums %v: want the plan's command and the best", r.live, r.sums)
	}
}

// The learned evaluation reads a position as a player would: in positions
// of real games, the seat it gives the best chance is nearly always the
// one with the most armies or territories, and every chance is strictly
// between 0 and 1.
func TestWinChance(t *testing.T) {
	agree, n := 0, 0
	for g := range uint64(6) {
		s := newMatch(t, 4, 50+g, state.DefaultOptions())
		ps := make([]Player, 4)
		for i := range ps {
			ps[i] = mustNew(t, "normal", Options{Seed: g + uint64(i)})
		}
		for s.Phase != state.PhaseOver && s.Turn < 40 {
			turn := s.Turn
			step(t, s, ps)
			if s.Turn == turn || s.Phase != state.PhaseReinforce || s.Turn < 8 {
				continue
			}
			best, bestArm, bestTerr := -1, -1, -1
			for p := range s.Seats {
				if !s.Seats[p].Alive() {
					continue
				}
				w := winChance(s, p)
				if w <= 0 || w >= 1 {
					t.Fatalf("turn %d: chance %v of seat %d", s.Turn, w, p)
				}
				if best < 0 || w > winChance(s, best) {
					best = p
				}
				if bestArm < 0 || s.Armies(p) > s.Armies(bestArm) {
					bestArm = p
				}
				if bestTerr < 0 || s.Owned(p) > s.Owned(bestTerr) {
					bestTerr = p
				}
			}
			n++
			if best == bestArm || best == bestTerr {
				agree++
			}
		}
	}
	if n < 50 || float64(agree) < 0.8*float64(n) {
		t.Errorf("the favourite leads in armies or territories in %d of %d positions", agree, n)
	}
	t.Logf("the favourite leads in armies or territories in %d of %d positions", agree, n)
}
