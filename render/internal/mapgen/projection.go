package main

import "math"

// projection maps longitude/latitude to mask pixels: Miller cylindrical over
// the window [lon0, lon0+360) x [latMin, latMax], then a smooth local
// magnification (a radial "fisheye") around Europe, whose seven territories
// would otherwise be too small for their badges and names.
type projection struct {
	W, H           int
	lon0           float64
	yTop           float64 // Miller y of latMax
	scale          float64 // pixels per radian
	cx, cy, radius float64 // magnifier centre and radius, pixels
	k              float64 // magnification at the centre
}

func millerY(lat float64) float64 {
	phi := lat * math.Pi / 180
	return 1.25 * math.Log(math.Tan(math.Pi/4+0.4*phi))
}

func millerLat(y float64) float64 {
	return (2.5*math.Atan(math.Exp(0.8*y)) - 0.625*math.Pi) * 180 / math.Pi
}

// newProjection builds the board's projection for a mask w pixels wide.
func newProjection(w int, p params) *projection {
	pr := &projection{W: w, lon0: p.Lon0, scale: float64(w) / (2 * math.Pi), k: p.Magnify}
	pr.yTop = millerY(p.LatMax)
	pr.H = int(math.Round((pr.yTop - millerY(p.LatMin)) * pr.scale))
	pr.cx, pr.cy = pr.miller(p.MagLon, p.MagLat)
	pr.radius = p.MagRadius * float64(w)
	return pr
}

// miller is the plain projection, without magnification.
func (pr *projection) miller(lon, lat float64) (float64, float64) {
	return (lon - pr.lon0) * math.Pi / 180 * pr.scale, (pr.yTop - millerY(lat)) * pr.scale
}

// h is the magnifier's radial profile on [0, 1]: h(0)=0, h'(0)=k, h(1)=1,
// h'(1)=1; it is increasing for k < 4, so the map stays one to one.
func (pr *projection) h(u float64) float64 {
	k := pr.k
	return k*u + (2-2*k)*u*u + (k-1)*u*u*u
}

// Project maps a longitude (already in the window) and latitude to pixels.
func (pr *projection) Project(lon, lat float64) (float64, float64) {
	x, y := pr.miller(lon, lat)
	dx, dy := x-pr.cx, y-pr.cy
	r := math.Hypot(dx, dy) / pr.radius
	if r >= 1 || r == 0 {
		return x, y
	}
	f := pr.h(r) / r
	return pr.cx + dx*f, pr.cy + dy*f
}

// Inverse maps a pixel back to longitude and latitude.
func (pr *projection) Inverse(x, y float64) (float64, float64) {
	dx, dy := x-pr.cx, y-pr.cy
	r := math.Hypot(dx, dy) / pr.radius
	if r < 1 && r > 0 {
		lo, hi := 0.0, 1.0
		for range 40 {
			mid := (lo + hi) / 2
			if pr.h(mid) < r {
				lo = mid
			} else {
				hi = mid
			}
		}
		f := (lo + hi) / 2 / r
		x, y = pr.cx+dx*f, pr.cy+dy*f
	}
	return x/pr.scale*180/math.Pi + pr.lon0, millerLat(pr.yTop - y/pr.scale)
}
