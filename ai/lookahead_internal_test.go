package ai

import (
	"math"
	"testing"
)

func TestArgmax(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		xs   []float64
		want int
	}{
		{nil, 0},
		{[]float64{3}, 0},
		{[]float64{1, 3, 2}, 1},
		{[]float64{1, 3, 3}, 1}, // the first of equals
		{[]float64{-2, -1, -3}, 1},
		{[]float64{nan, 1, 2}, 0}, // NaN first compares false with all
		{[]float64{1, nan, 2}, 2},
	} {
		if got := argmax(tc.xs); got != tc.want {
			t.Errorf("argmax(%v) = %d, want %d", tc.xs, got, tc.want)
		}
	}
}
