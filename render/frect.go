package render

import (
	"image"
	"math"
)

// frect is a rectangle in image pixels.
type frect struct{ x0, y0, x1, y1 float64 }

func (r frect) overlaps(o frect) bool {
	return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1
}

// dist returns the distance from (x, y) to the nearest point of r.
func (r frect) dist(x, y float64) float64 {
	dx := math.Max(0, math.Max(r.x0-x, x-r.x1))
	dy := math.Max(0, math.Max(r.y0-y, y-r.y1))
	return math.Hypot(dx, dy)
}

func (r frect) inset(d float64) frect { return frect{r.x0 + d, r.y0 + d, r.x1 - d, r.y1 - d} }

func overlapsAny(r frect, rs []frect) bool {
	for _, o := range rs {
		if r.overlaps(o) {
			return true
		}
	}
	return false
}

// rectOf converts an image rectangle to frect.
func rectOf(r image.Rectangle) frect {
	return frect{float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)}
}

// box is the rectangle of pixels that a shape within (x0, y0) to (x1, y1)
// may touch: anti-aliasing reaches the pixel beyond its edge.
func box(x0, y0, x1, y1 float64) image.Rectangle {
	return image.Rect(int(x0)-2, int(y0)-2, int(x1)+3, int(y1)+3)
}

// disc is box for the square around a disc of radius r centred on (x, y).
func disc(x, y, r float64) image.Rectangle { return box(x-r, y-r, x+r, y+r) }
