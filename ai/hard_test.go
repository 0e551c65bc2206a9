package ai

import (
	"context"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
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
	s := newMatch(t, 4, 3, state.DefaultOptions())
	for s.Phase == state.PhaseSetup {
		if _, err := engine.Apply(s, toMove(s), engine.AutoPlace{}); err != nil {
			t.Fatal(err)
		}
	}
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
