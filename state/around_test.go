package state

import (
	"slices"
	"testing"
)

// TestGridAround: the cells sharing an edge with a cell, in neighbours4's
// order, none outside the board.
func TestGridAround(t *testing.T) {
	g := &Grid{W: 3, H: 2, Cells: make([]int16, 6)}
	tests := []struct {
		cell int
		want []int
	}{
		{0, []int{1, 3}},    // top left corner
		{1, []int{2, 0, 4}}, // top edge
		{5, []int{4, 2}},    // bottom right corner
		{3, []int{4, 0}},    // bottom left corner
	}
	for _, tt := range tests {
		if got := slices.Collect(g.around(tt.cell)); !slices.Equal(got, tt.want) {
			t.Errorf("around(%d): got %v, want %v", tt.cell, got, tt.want)
		}
	}
	// A loop that stops early stops the sequence.
	for j := range g.around(4) {
		if j != 5 {
			t.Errorf("around(4) first: got %d, want 5", j)
		}
		break
	}
}
