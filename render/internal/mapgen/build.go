package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/render/internal/world"
	"github.com/riskbot/riskbot/state"
)

// build rasterizes the countries into a territory-index mask and derives
// contacts, anchors and connectors from it.
func build(m *state.Map, cs []country, p params) (*world.Geometry, []uint8, error) {
	rs := newRules()
	pr := newProjection(p.Width, p)
	W, H := pr.W, pr.H
	mask := make([]uint8, W*H)
	ids := map[string]int{}
	for i, t := range m.Territories {
		ids[t.Name] = i
	}
	var errs []error
	for _, c := range cs {
		if _, ok := rs.assign(c.Name, 0, 0); !ok {
			errs = append(errs, fmt.Errorf("no rule for country %q", c.Name))
			continue
		}
		// The largest polygon is the mainland, split pixel by pixel; the
		// others are islands, assigned whole by their centroid.
		main, best := -1, 0.0
		for i, poly := range c.Polygons {
			if a := math.Abs(area(poly[0])); a > best {
				main, best = i, a
			}
		}
		for i, poly := range c.Polygons {
			cen := centroid(poly[0])
			// Move the polygon into the window [lon0, lon0+360).
			dx := 0.0
			for cen.X+dx < p.Lon0 {
				dx += 360
			}
			for cen.X+dx >= p.Lon0+360 {
				dx -= 360
			}
			cen.X += dx
			fixed := ""
			perPixel := i == main
			if _, ok := rs.whole[c.Name]; ok || rs.dropped[c.Name] {
				perPixel = false
			}
			if !perPixel {
				t, _ := rs.assign(c.Name, cen.X, cen.Y)
				if t == "" {
					continue
				}
				fixed = t
			}
			rings := make([][]point, len(poly))
			for j, r := range poly {
				pr2 := make([]point, len(r))
				for k, q := range r {
					x, y := pr.Project(q.X+dx, q.Y)
					pr2[k] = point{x, y}
				}
				rings[j] = pr2
			}
			var fixedID uint8
			if fixed != "" {
				id, ok := ids[fixed]
				if !ok {
					return nil, nil, fmt.Errorf("rule names unknown territory %q", fixed)
				}
				fixedID = uint8(id + 1)
			}
			var spanErr error
			fillPolygon(rings, W, H, func(y, x0, x1 int) {
				row := mask[y*W:]
				if fixedID != 0 {
					for x := x0; x < x1; x++ {
						row[x] = fixedID
					}
					return
				}
				for x := x0; x < x1; x++ {
					lon, lat := pr.Inverse(float64(x)+0.5, float64(y)+0.5)
					t, _ := rs.assign(c.Name, lon, lat)
					if t == "" {
						continue
					}
					id, ok := ids[t]
					if !ok {
						spanErr = fmt.Errorf("rule names unknown territory %q", t)
						return
					}
					row[x] = uint8(id + 1)
				}
			})
			if spanErr != nil {
				return nil, nil, spanErr
			}
		}
	}
	if len(errs) > 0 {
		return nil, nil, errors.Join(errs...)
	}
	removeSpecks(mask, W, H, p.MinPixels)

	g := &world.Geometry{
		Map: m.Name, Width: W, Height: H,
		Source: "Natural Earth 4.1.0 via world-atlas 2.0.2 (countries-50m)",
		Projection: world.Projection{
			Name: "Miller cylindrical with a radial magnifier over Europe",
			Lon0: p.Lon0, LatMin: p.LatMin, LatMax: p.LatMax,
			MagLon: p.MagLon, MagLat: p.MagLat, Magnify: p.Magnify, MagRadius: p.MagRadius,
		},
	}
	// Contacts: land of two territories closer than ContactReach pixels.
	n := m.Len()
	touch := make([]bool, n*n)
	reach := p.ContactReach
	for y := range H {
		for x := range W {
			a := mask[y*W+x]
			if a == 0 {
				continue
			}
			for dy := -reach; dy <= reach; dy++ {
				for dx := 0; dx <= reach; dx++ {
					if dx == 0 && dy <= 0 {
						continue
					}
					xx, yy := x+dx, y+dy
					if xx >= W || yy < 0 || yy >= H {
						continue
					}
					b := mask[yy*W+xx]
					if b != 0 && b != a {
						touch[int(a-1)*n+int(b-1)] = true
						touch[int(b-1)*n+int(a-1)] = true
					}
				}
			}
		}
	}
	var bad []string
	for a := range n {
		for b := a + 1; b < n; b++ {
			if !touch[a*n+b] {
				continue
			}
			if !m.Adjacent(a, b) {
				bad = append(bad, m.Territories[a].Name+"–"+m.Territories[b].Name)
				continue
			}
			g.Contacts = append(g.Contacts, [2]int{a, b})
		}
	}
	if len(bad) > 0 {
		return nil, nil, fmt.Errorf("the geometry adds borders the map lacks: %s", strings.Join(bad, ", "))
	}
	// Anchors: the pixel of each territory farthest from its edges.
	dist := chamfer(mask, W, H)
	g.Territories = make([]world.Territory, n)
	for i, t := range m.Territories {
		g.Territories[i].Name = t.Name
	}
	best := make([]float64, n)
	for i := range mask {
		v := mask[i]
		if v == 0 {
			continue
		}
		t := int(v - 1)
		g.Territories[t].Pixels++
		if d := dist[i]; d > best[t] {
			best[t] = d
			g.Territories[t].Anchor = [2]float64{float64(i%W) + 0.5, float64(i/W) + 0.5}
			g.Territories[t].Room = d
		}
	}
	for i, t := range g.Territories {
		if t.Pixels == 0 {
			return nil, nil, fmt.Errorf("territory %s has no land", t.Name)
		}
		g.Territories[i].Room = math.Round(t.Room*10) / 10
	}
	// Connectors: every border without a contact.
	edgePix := coastPixels(mask, W, H, n)
	for _, e := range m.Borders() {
		if touch[e[0]*n+e[1]] {
			continue
		}
		g.Connectors = append(g.Connectors, nearest(e[0], e[1], edgePix[e[0]], edgePix[e[1]], W))
	}
	return g, mask, nil
}

// removeSpecks turns connected land regions smaller than minPixels into sea.
func removeSpecks(mask []uint8, w, h, minPixels int) {
	seen := make([]bool, len(mask))
	var stack, comp []int
	for i := range mask {
		if mask[i] == 0 || seen[i] {
			continue
		}
		v := mask[i]
		stack = append(stack[:0], i)
		comp = comp[:0]
		seen[i] = true
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, p)
			x, y := p%w, p/w
			for _, q := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if q[0] < 0 || q[0] >= w || q[1] < 0 || q[1] >= h {
					continue
				}
				j := q[1]*w + q[0]
				if !seen[j] && mask[j] == v {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
		if len(comp) < minPixels {
			for _, p := range comp {
				mask[p] = 0
			}
		}
	}
}

// chamfer returns, for every land pixel, its distance (3-4 chamfer, in
// pixels) to the nearest pixel of another territory, the sea or the edge.
func chamfer(mask []uint8, w, h int) []float64 {
	const inf = 1 << 30
	d := make([]int, len(mask))
	for i, v := range mask {
		if v != 0 {
			d[i] = inf
		}
	}
	at := func(x, y int, v uint8) int {
		if x < 0 || x >= w || y < 0 || y >= h {
			return 0
		}
		if mask[y*w+x] != v {
			return 0
		}
		return d[y*w+x]
	}
	for y := range h {
		for x := range w {
			i := y*w + x
			v := mask[i]
			if v == 0 {
				continue
			}
			d[i] = min(d[i], at(x-1, y, v)+3, at(x, y-1, v)+3, at(x-1, y-1, v)+4, at(x+1, y-1, v)+4)
		}
	}
	for y := h - 1; y >= 0; y-- {
		for x := w - 1; x >= 0; x-- {
			i := y*w + x
			v := mask[i]
			if v == 0 {
				continue
			}
			d[i] = min(d[i], at(x+1, y, v)+3, at(x, y+1, v)+3, at(x+1, y+1, v)+4, at(x-1, y+1, v)+4)
		}
	}
	out := make([]float64, len(d))
	for i, v := range d {
		out[i] = float64(v) / 3
	}
	return out
}

// coastPixels lists, per territory, its pixels that touch the sea.
func coastPixels(mask []uint8, w, h, n int) [][][2]int {
	out := make([][][2]int, n)
	for y := 1; y < h-1; y++ {
		for x := 1; x < w-1; x++ {
			v := mask[y*w+x]
			if v == 0 {
				continue
			}
			if mask[y*w+x-1] == 0 || mask[y*w+x+1] == 0 || mask[(y-1)*w+x] == 0 || mask[(y+1)*w+x] == 0 {
				out[v-1] = append(out[v-1], [2]int{x, y})
			}
		}
	}
	return out
}

// nearest finds the closest pair of coast pixels of a and b, allowing the
// line to wrap around the map's left and right edges.
func nearest(a, b int, pa, pb [][2]int, w int) world.Connector {
	best := math.Inf(1)
	var c world.Connector
	try := func(p, q [2]int) {
		dx := float64(q[0] - p[0])
		wrap := false
		if dx > float64(w)/2 {
			dx -= float64(w)
			wrap = true
		} else if dx < -float64(w)/2 {
			dx += float64(w)
			wrap = true
		}
		dy := float64(q[1] - p[1])
		if d := dx*dx + dy*dy; d < best {
			best = d
			c = world.Connector{A: a, B: b, From: [2]float64{float64(p[0]) + 0.5, float64(p[1]) + 0.5},
				To: [2]float64{float64(p[0]) + 0.5 + dx, float64(q[1]) + 0.5}, Wrap: wrap}
		}
	}
	// Coarse pass on a subsample, then a fine pass near the best pair.
	step := func(n int) int { return max(1, n/1500) }
	sa, sb := step(len(pa)), step(len(pb))
	for i := 0; i < len(pa); i += sa {
		for j := 0; j < len(pb); j += sb {
			try(pa[i], pb[j])
		}
	}
	from := c.From
	to := [2]float64{math.Mod(c.To[0]+float64(w), float64(w)), c.To[1]}
	near := func(p [2]int, q [2]float64) bool {
		return math.Abs(float64(p[0])-q[0]) < 40 && math.Abs(float64(p[1])-q[1]) < 40
	}
	var fa, fb [][2]int
	for _, p := range pa {
		if near(p, from) {
			fa = append(fa, p)
		}
	}
	for _, q := range pb {
		if near(q, to) {
			fb = append(fb, q)
		}
	}
	for _, p := range fa {
		for _, q := range fb {
			try(p, q)
		}
	}
	return c
}

// marshalGeometry encodes the geometry with coordinates rounded to a tenth
// of a pixel, one territory or connector per line.
func marshalGeometry(g *world.Geometry) ([]byte, error) {
	r := func(v float64) float64 { return math.Round(v*10) / 10 }
	for i := range g.Territories {
		t := &g.Territories[i]
		t.Anchor = [2]float64{r(t.Anchor[0]), r(t.Anchor[1])}
	}
	for i := range g.Connectors {
		c := &g.Connectors[i]
		c.From = [2]float64{r(c.From[0]), r(c.From[1])}
		c.To = [2]float64{r(c.To[0]), r(c.To[1])}
	}
	slices.SortFunc(g.Connectors, func(x, y world.Connector) int {
		if x.A != y.A {
			return x.A - y.A
		}
		return x.B - y.B
	})
	return json.MarshalIndent(g, "", " ")
}
