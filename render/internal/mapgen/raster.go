package main

import (
	"math"
	"slices"
)

// fillPolygon calls span(y, x0, x1) for every run of pixels [x0, x1) of a
// w x h grid whose centres lie inside the polygon (even-odd rule, so holes
// stay empty). Rings are in pixel coordinates.
func fillPolygon(rings [][]point, w, h int, span func(y, x0, x1 int)) {
	type edge struct{ x0, y0, x1, y1 float64 }
	var edges []edge
	ymin, ymax := math.Inf(1), math.Inf(-1)
	for _, r := range rings {
		for i, p := range r {
			q := r[(i+1)%len(r)]
			if p.Y == q.Y {
				continue
			}
			edges = append(edges, edge{p.X, p.Y, q.X, q.Y})
			ymin = math.Min(ymin, math.Min(p.Y, q.Y))
			ymax = math.Max(ymax, math.Max(p.Y, q.Y))
		}
	}
	y0 := max(0, int(math.Floor(ymin)))
	y1 := min(h-1, int(math.Ceil(ymax)))
	var xs []float64
	for y := y0; y <= y1; y++ {
		cy := float64(y) + 0.5
		xs = xs[:0]
		for _, e := range edges {
			if (e.y0 <= cy) != (e.y1 <= cy) {
				xs = append(xs, e.x0+(cy-e.y0)*(e.x1-e.x0)/(e.y1-e.y0))
			}
		}
		slices.Sort(xs)
		for i := 0; i+1 < len(xs); i += 2 {
			a := max(0, int(math.Ceil(xs[i]-0.5)))
			b := min(w, int(math.Ceil(xs[i+1]-0.5)))
			if a < b {
				span(y, a, b)
			}
		}
	}
}
