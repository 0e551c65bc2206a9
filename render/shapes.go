package render

import (
	"math"

	"github.com/fogleman/gg"
)

// shapePath adds the outline of a badge shape of radius r centred on (x, y),
// stretched horizontally by sx >= 1 for long numbers.
func shapePath(dc *gg.Context, sh Shape, x, y, r, sx float64) {
	poly := func(pts [][2]float64) {
		for i, p := range pts {
			px, py := x+p[0]*r*sx, y+p[1]*r
			if i == 0 {
				dc.MoveTo(px, py)
			} else {
				dc.LineTo(px, py)
			}
		}
		dc.ClosePath()
	}
	regular := func(n int, rot, k float64) [][2]float64 {
		pts := make([][2]float64, n)
		for i := range pts {
			a := rot + 2*math.Pi*float64(i)/float64(n)
			pts[i] = [2]float64{k * math.Cos(a), k * math.Sin(a)}
		}
		return pts
	}
	switch sh {
	case Square:
		dc.DrawRoundedRectangle(x-0.9*r*sx, y-0.9*r, 1.8*r*sx, 1.8*r, 0.18*r)
	case Diamond:
		poly([][2]float64{{0, -1.22}, {1.22, 0}, {0, 1.22}, {-1.22, 0}})
	case Hexagon:
		poly(regular(6, 0, 1.12))
	case Shield:
		poly([][2]float64{{-0.98, -0.92}, {0.98, -0.92}, {0.98, 0.2}, {0, 1.2}, {-0.98, 0.2}})
	case House:
		poly([][2]float64{{0, -1.2}, {0.98, -0.2}, {0.98, 0.92}, {-0.98, 0.92}, {-0.98, -0.2}})
	case NeutralShape:
		dc.DrawEllipse(x, y, 0.82*r*sx, 0.82*r)
	default:
		dc.DrawEllipse(x, y, r*sx, r)
	}
}

// star adds a five-pointed star of outer radius r centred on (x, y).
func star(dc *gg.Context, x, y, r float64) {
	for i := range 10 {
		a := -math.Pi/2 + float64(i)*math.Pi/5
		k := r
		if i%2 == 1 {
			k = r * 0.45
		}
		if i == 0 {
			dc.MoveTo(x+k*math.Cos(a), y+k*math.Sin(a))
		} else {
			dc.LineTo(x+k*math.Cos(a), y+k*math.Sin(a))
		}
	}
	dc.ClosePath()
}
