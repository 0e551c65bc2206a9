package ai

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// TestCapitalsHardMoveSavesCapital: in the move phase, with an enemy
// stack next to hard's capital that will take it next turn unless the
// defence grows, hard's move search brings troops of a stack two steps
// away next to the capital (the defence counts the troops around it), so
// that the next attack cannot take it. The turn's plan is not cached (as
// after a restart), so the search starts from normal's move.
func TestCapitalsHardMoveSavesCapital(t *testing.T) {
	f, cap0, near, cap1 := newCapFixture(t)
	m := f.s.Map
	// x borders y, a neighbour of the capital, but not the capital.
	x, y := -1, -1
	for _, c := range near[1:] {
		for _, d := range m.Territories[c].Adj {
			if d != cap0 && d != cap1 && !slices.Contains(near, d) && !m.Adjacent(d, cap0) && !m.Adjacent(d, near[0]) {
				x, y = d, c
				break
			}
		}
		if x >= 0 {
			break
		}
	}
	if x < 0 {
		t.Fatal("no territory two steps from the capital")
	}
	f.set(near[0], 1, 60) // with its 6 reinforcements, 66 against 11 now: the capital falls
	f.set(y, 0, 1)
	f.set(x, 0, 100)
	s := f.s
	s.Phase = state.PhaseMove
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	h := mustNew(t, "hard", Options{Seed: 3, Iterations: capIterations, Budget: time.Minute})
	c, err := h.Act(context.Background(), s.View(0), 0)
	if err != nil {
		t.Fatal(err)
	}
	if mv, ok := c.(engine.Move); !ok || mv.From != x || mv.To != y {
		t.Fatalf("hard plays %s, want troops of %s moved to %s, next to the capital", engine.Describe(s.Map, c), m.TerritoryName(x), m.TerritoryName(y))
	}
	if _, err := engine.Apply(s, 0, c); err != nil {
		t.Fatal(err)
	}
	a := (s.Terr[near[0]].Armies + 3*s.Owned(1)) * state.PowerUnit
	if p := fallChance(a, s.DefenceTotal(cap0), s.Terr[cap0].Armies); p > 0 {
		t.Errorf("after the move: the capital falls to the next attack with chance %v", p)
	}
}
