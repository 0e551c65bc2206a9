package render

import (
	"slices"
	"testing"

	"github.com/riskbot/riskbot/state"
)

func TestBeside(t *testing.T) {
	g := &state.Grid{W: 3, H: 2, Cells: make([]int16, 6)}
	for _, tc := range []struct {
		i    int
		want []int
	}{
		{0, []int{1, 3}},    // top left: right, down
		{1, []int{2, 4, 0}}, // top middle: right, down, left
		{2, []int{5, 1}},    // top right: down, left
		{4, []int{5, 3, 1}}, // bottom middle: right, left, up
		{5, []int{4, 2}},    // bottom right: left, up
	} {
		if got := slices.Collect(beside(g, tc.i)); !slices.Equal(got, tc.want) {
			t.Errorf("beside(3x2, %d) = %v, want %v", tc.i, got, tc.want)
		}
	}
	// A loop that breaks early stops the walk.
	for j := range beside(g, 1) {
		if j != 2 {
			t.Errorf("beside(3x2, 1) began with %d, want 2", j)
		}
		break
	}
}
