package render

import (
	"cmp"
	"image"
	"image/color"
	"iter"
	"math"
	"slices"

	"github.com/fogleman/gg"

	"github.com/riskbot/riskbot/state"
)

// lane is a border across water: territories a and b, and the line drawn
// between their coasts, in image pixels (two points or more).
type lane struct {
	a, b int
	pts  [][2]float64
}

// laneBorders returns the borders of m that its cells do not draw: the
// pairs of territories that border without sharing a cell edge.
func laneBorders(m *state.Map) [][2]int {
	g := m.Grid
	touch := map[[2]int]bool{}
	for y := range g.H {
		for x := range g.W {
			a := g.At(x, y)
			if a == state.Water {
				continue
			}
			for _, c := range [2]int{g.At(x+1, y), g.At(x, y+1)} {
				if c != state.Water && c != a {
					touch[[2]int{min(a, c), max(a, c)}] = true
				}
			}
		}
	}
	var out [][2]int
	for _, p := range m.Borders() {
		if !touch[p] {
			out = append(out, p)
		}
	}
	return out
}

// beside yields the cells of g beside cell i, four ways: right, down,
// left, up.
func beside(g *state.Grid, i int) iter.Seq[int] {
	return func(yield func(int) bool) {
		x, y := i%g.W, i/g.W
		for _, d := range [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}} {
			nx, ny := x+d[0], y+d[1]
			if nx < 0 || ny < 0 || nx >= g.W || ny >= g.H {
				continue
			}
			if !yield(ny*g.W + nx) {
				return
			}
		}
	}
}

// lanePath returns the line of the lane between territories a and b: the
// shortest path through the water from a's coast to b's (breadth-first,
// four ways), pulled taut where the water lets a straight line pass, from
// the middle of the edge where it leaves a's coast to the middle of the
// edge where it reaches b's. Points are in cells. ok is false if no water
// joins them.
func lanePath(g *state.Grid, a, b int) (pts [][2]float64, ok bool) {
	n := g.W * g.H
	// prev is the water cell each was reached from: -1 for the first ones,
	// off a's coast (shore is then the cell of a they touch), -2 unseen.
	prev := make([]int32, n)
	shore := make([]int32, n)
	for i := range prev {
		prev[i] = -2
	}
	var queue []int
	for i, c := range g.Cells {
		if int(c) != a {
			continue
		}
		for j := range beside(g, i) {
			if g.Cells[j] == state.Water && prev[j] == -2 {
				prev[j], shore[j] = -1, int32(i)
				queue = append(queue, j)
			}
		}
	}
	end, land := -1, -1
	for q := 0; q < len(queue) && end < 0; q++ {
		p := queue[q]
		for j := range beside(g, p) {
			switch c := int(g.Cells[j]); {
			case c == b:
				end, land = p, j
			case c == state.Water && prev[j] == -2:
				prev[j] = int32(p)
				queue = append(queue, j)
			}
			if end >= 0 {
				break
			}
		}
	}
	if end < 0 {
		return nil, false
	}
	// The shortest straight line over water between the two coasts, if
	// there is one: a lane across a bay reads best as a bridge.
	if pts, ok := straightLane(g, a, b); ok {
		return pts, true
	}
	centre := func(i int) [2]float64 { return [2]float64{float64(i%g.W) + 0.5, float64(i/g.W) + 0.5} }
	mid := func(p, q [2]float64) [2]float64 { return [2]float64{(p[0] + q[0]) / 2, (p[1] + q[1]) / 2} }
	// The water cells from b's side back to a's.
	var water []int
	i := end
	for {
		water = append(water, i)
		if prev[i] < 0 {
			break
		}
		i = int(prev[i])
	}
	start := int(shore[i])
	path := [][2]float64{mid(centre(start), centre(water[len(water)-1]))}
	for k := len(water) - 1; k >= 0; k-- {
		path = append(path, centre(water[k]))
	}
	path = append(path, mid(centre(end), centre(land)))
	// Pull the path taut: from each point, straight to the farthest point
	// of the path that a line over water alone reaches.
	pts = [][2]float64{path[0]}
	for at := 0; at < len(path)-1; {
		next := at + 1
		for k := len(path) - 1; k > at+1; k-- {
			if overWater(g, path[at], path[k]) {
				next = k
				break
			}
		}
		pts = append(pts, path[next])
		at = next
	}
	return pts, true
}

// straightLane returns the shortest segment over water from the middle
// of a coast edge of a to that of one of b, in cells, if there is one.
func straightLane(g *state.Grid, a, b int) ([][2]float64, bool) {
	edges := func(t int) [][2]float64 {
		var out [][2]float64
		for y := range g.H {
			for x := range g.W {
				if g.At(x, y) != t {
					continue
				}
				for _, d := range [4][2]int{{1, 0}, {0, 1}, {-1, 0}, {0, -1}} {
					if g.At(x+d[0], y+d[1]) == state.Water {
						out = append(out, [2]float64{float64(x) + 0.5 + float64(d[0])*0.5, float64(y) + 0.5 + float64(d[1])*0.5})
					}
				}
			}
		}
		return out
	}
	ea, eb := edges(a), edges(b)
	type pair struct {
		p, q [2]float64
		d    float64
	}
	var pairs []pair
	for _, p := range ea {
		for _, q := range eb {
			pairs = append(pairs, pair{p, q, math.Hypot(q[0]-p[0], q[1]-p[1])})
		}
	}
	// Shortest first, ties in the order found, so that the result is the
	// same on every run.
	slices.SortStableFunc(pairs, func(x, y pair) int { return cmp.Compare(x.d, y.d) })
	for _, pr := range pairs {
		if pr.d > state.SeaRange+1 {
			break
		}
		if overWater(g, pr.p, pr.q) {
			return [][2]float64{pr.p, pr.q}, true
		}
	}
	return nil, false
}

// overWater reports whether the segment from p to q (in cells) crosses
// only water, its ends aside (they lie on coasts).
func overWater(g *state.Grid, p, q [2]float64) bool {
	l := math.Hypot(q[0]-p[0], q[1]-p[1])
	steps := int(l*4) + 1
	for k := 1; k < steps; k++ {
		f := float64(k) / float64(steps)
		x, y := p[0]+(q[0]-p[0])*f, p[1]+(q[1]-p[1])*f
		if math.Hypot(x-p[0], y-p[1]) < 0.3 || math.Hypot(x-q[0], y-q[1]) < 0.3 {
			continue
		}
		if g.At(int(math.Floor(x)), int(math.Floor(y))) != state.Water {
			return false
		}
	}
	return true
}

// findLanes appends to lanes those of map m on grid g and their lines, in
// pixels: cell pixels a cell, (ox, oy) the cell at the top-left corner.
func findLanes(lanes []lane, m *state.Map, g *state.Grid, cell, ox, oy float64) []lane {
	for _, p := range laneBorders(m) {
		pts, ok := lanePath(g, p[0], p[1])
		if !ok {
			continue // a border the map draws some other way: nothing to add
		}
		for i := range pts {
			pts[i] = [2]float64{(pts[i][0] - ox) * cell, (pts[i][1] - oy) * cell}
		}
		lanes = append(lanes, lane{a: p[0], b: p[1], pts: pts})
	}
	return lanes
}

// drawLanes draws the lanes as dashed lines with a dot on each coast, on
// the lines layer (at scale s); a short straight one is lengthened so
// that it shows.
func drawLanes(dst *image.RGBA, lanes []lane, s float64, th *theme) {
	dc := gg.NewContextForRGBA(dst)
	minLen := 30 * s
	for _, l := range lanes {
		pts := l.pts
		if len(pts) == 2 {
			f, t := pts[0], pts[1]
			if d := math.Hypot(t[0]-f[0], t[1]-f[1]); d < minLen && d > 1e-6 {
				ux, uy := (t[0]-f[0])/d, (t[1]-f[1])/d
				mx, my := (f[0]+t[0])/2, (f[1]+t[1])/2
				pts = [][2]float64{{mx - ux*minLen/2, my - uy*minLen/2}, {mx + ux*minLen/2, my + uy*minLen/2}}
			}
		}
		laneLine(dc, pts, s, th)
		laneDot(dc, pts[0], s, th)
		laneDot(dc, pts[len(pts)-1], s, th)
	}
}

// laneLine draws a lane's line: the classic board's connector made bolder,
// for it must read on a phone across a map with many more of them.
func laneLine(dc *gg.Context, pts [][2]float64, s float64, th *theme) {
	dc.SetLineCapRound()
	dc.SetLineJoinRound()
	for _, pass := range []struct {
		w float64
		c color.RGBA
	}{{7.5, color.RGBA{th.labelHalo.R, th.labelHalo.G, th.labelHalo.B, 170}}, {4, th.connector}} {
		dc.SetDash(11*s, 8*s)
		dc.SetLineWidth(pass.w * s)
		dc.SetColor(pass.c)
		dc.MoveTo(pts[0][0], pts[0][1])
		for _, p := range pts[1:] {
			dc.LineTo(p[0], p[1])
		}
		dc.Stroke()
	}
	dc.SetDash()
}

// laneDot marks where a lane meets a coast.
func laneDot(dc *gg.Context, p [2]float64, s float64, th *theme) {
	dc.DrawCircle(p[0], p[1], 5.5*s)
	dc.SetColor(th.labelHalo)
	dc.Fill()
	dc.DrawCircle(p[0], p[1], 3.8*s)
	dc.SetColor(th.connector)
	dc.Fill()
}
