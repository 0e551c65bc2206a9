package main

import (
	"encoding/json"
	"fmt"
	"math"
)

// unwrap makes a ring's longitudes continuous: world-atlas rings are not cut
// at the antimeridian, so a step of more than 180 degrees is a crossing.
func unwrap(r ring) ring {
	out := make(ring, len(r))
	off := 0.0
	for i, p := range r {
		if i > 0 {
			d := p.X + off - out[i-1].X
			switch {
			case d > 180:
				off -= 360
			case d < -180:
				off += 360
			}
		}
		out[i] = point{p.X + off, p.Y}
	}
	return out
}

// area returns the signed area of r in square degrees (shoelace).
func area(r ring) float64 {
	s := 0.0
	for i, p := range r {
		q := r[(i+1)%len(r)]
		s += p.X*q.Y - q.X*p.Y
	}
	return s / 2
}

// centroid returns the area centroid of r, or the vertex mean of a
// degenerate ring.
func centroid(r ring) point {
	var cx, cy, a float64
	for i, p := range r {
		q := r[(i+1)%len(r)]
		c := p.X*q.Y - q.X*p.Y
		a += c
		cx += (p.X + q.X) * c
		cy += (p.Y + q.Y) * c
	}
	if math.Abs(a) < 1e-12 {
		var m point
		for _, p := range r {
			m.X += p.X
			m.Y += p.Y
		}
		return point{m.X / float64(len(r)), m.Y / float64(len(r))}
	}
	return point{cx / (3 * a), cy / (3 * a)}
}

// simplify reduces a closed ring with Douglas-Peucker at tolerance tol
// degrees, keeping at least 4 points.
func simplify(r ring, tol float64) ring {
	if len(r) <= 4 {
		return r
	}
	// Split the closed ring at its first point and the point farthest from it.
	far, best := 0, -1.0
	for i, p := range r {
		if d := math.Hypot(p.X-r[0].X, p.Y-r[0].Y); d > best {
			far, best = i, d
		}
	}
	keep := make([]bool, len(r))
	keep[0], keep[far] = true, true
	var dp func(a, b int)
	dp = func(a, b int) {
		if b-a < 2 {
			return
		}
		pa, pb := r[a], r[b%len(r)]
		idx, dmax := -1, tol
		for i := a + 1; i < b; i++ {
			if d := segDist(r[i], pa, pb); d > dmax {
				idx, dmax = i, d
			}
		}
		if idx >= 0 {
			keep[idx] = true
			dp(a, idx)
			dp(idx, b)
		}
	}
	dp(0, far)
	dp(far, len(r))
	var out ring
	for i, k := range keep {
		if k {
			out = append(out, r[i])
		}
	}
	if len(out) < 4 {
		return r
	}
	return out
}

// segDist is the distance from p to the segment ab.
func segDist(p, a, b point) float64 {
	dx, dy := b.X-a.X, b.Y-a.Y
	l := dx*dx + dy*dy
	if l == 0 {
		return math.Hypot(p.X-a.X, p.Y-a.Y)
	}
	t := ((p.X-a.X)*dx + (p.Y-a.Y)*dy) / l
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(p.X-a.X-t*dx, p.Y-a.Y-t*dy)
}

// sourceFile is the compact extract of world-atlas committed to the
// repository: what the build stage reads, so that it runs without npm.
// Coordinates are hundredths of a degree, delta-encoded along each ring
// (the first pair absolute); longitudes are unwrapped along each ring.
type sourceFile struct {
	Source    string          `json:"source"`
	License   string          `json:"license"`
	Precision int             `json:"precision"`
	Countries []sourceCountry `json:"countries"`
}

type sourceCountry struct {
	Name     string      `json:"name"`
	Polygons [][][]int32 `json:"polygons"`
}

const sourcePrecision = 100

// encodeSource turns countries into the compact committed form.
func encodeSource(cs []country, source string) ([]byte, error) {
	f := sourceFile{
		Source:    source,
		License:   "Natural Earth data: public domain. world-atlas packaging: ISC, Copyright 2013-2019 Michael Bostock.",
		Precision: sourcePrecision,
	}
	for _, c := range cs {
		sc := sourceCountry{Name: c.Name}
		for _, p := range c.Polygons {
			var rings [][]int32
			for _, r := range p {
				enc := make([]int32, 0, 2*len(r))
				var px, py int32
				for i, q := range r {
					x := int32(math.Round(q.X * sourcePrecision))
					y := int32(math.Round(q.Y * sourcePrecision))
					if i > 0 && x == px && y == py {
						continue
					}
					if i == 0 {
						enc = append(enc, x, y)
					} else {
						enc = append(enc, x-px, y-py)
					}
					px, py = x, y
				}
				if len(enc) >= 6 {
					rings = append(rings, enc)
				}
			}
			if len(rings) > 0 {
				sc.Polygons = append(sc.Polygons, rings)
			}
		}
		if len(sc.Polygons) > 0 {
			f.Countries = append(f.Countries, sc)
		}
	}
	return json.Marshal(f)
}

// decodeSource reads the committed extract.
func decodeSource(data []byte) ([]country, error) {
	var f sourceFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("mapgen: decode source: %w", err)
	}
	if f.Precision <= 0 {
		return nil, fmt.Errorf("mapgen: source precision %d", f.Precision)
	}
	scale := 1 / float64(f.Precision)
	var out []country
	for _, sc := range f.Countries {
		c := country{Name: sc.Name}
		for _, p := range sc.Polygons {
			var poly polygon
			for _, enc := range p {
				if len(enc)%2 != 0 {
					return nil, fmt.Errorf("mapgen: %s: odd coordinate count", sc.Name)
				}
				r := make(ring, 0, len(enc)/2)
				var x, y int32
				for i := 0; i < len(enc); i += 2 {
					if i == 0 {
						x, y = enc[0], enc[1]
					} else {
						x += enc[i]
						y += enc[i+1]
					}
					r = append(r, point{float64(x) * scale, float64(y) * scale})
				}
				poly = append(poly, r)
			}
			c.Polygons = append(c.Polygons, poly)
		}
		out = append(out, c)
	}
	return out, nil
}

// extract prepares world-atlas countries for the committed extract: rings
// unwrapped, simplified, tiny islands and far southern lands dropped.
func extract(cs []country, tol, minArea float64) []country {
	skip := map[string]bool{"Antarctica": true, "Fr. S. Antarctic Lands": true, "Heard I. and McDonald Is.": true, "S. Geo. and the Is.": true}
	var out []country
	for _, c := range cs {
		if skip[c.Name] {
			continue
		}
		nc := country{Name: c.Name}
		for _, p := range c.Polygons {
			outer := unwrap(p[0])
			if math.Abs(area(outer)) < minArea {
				continue
			}
			np := polygon{simplify(outer, tol)}
			for _, h := range p[1:] {
				h = unwrap(h)
				// Holes follow their outer ring across the antimeridian.
				if d := h[0].X - outer[0].X; d > 180 {
					h = shift(h, -360)
				} else if d < -180 {
					h = shift(h, 360)
				}
				if math.Abs(area(h)) >= minArea {
					np = append(np, simplify(h, tol))
				}
			}
			nc.Polygons = append(nc.Polygons, np)
		}
		if len(nc.Polygons) > 0 {
			out = append(out, nc)
		}
	}
	return out
}

// shift moves a ring by dx degrees of longitude.
func shift(r ring, dx float64) ring {
	out := make(ring, len(r))
	for i, p := range r {
		out[i] = point{p.X + dx, p.Y}
	}
	return out
}
