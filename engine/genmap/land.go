package genmap

import (
	"errors"
	"slices"
)

// land is the board before it is cut into territories: which cells are
// land, and the elevation and moisture fields terrain is chosen from.
type land struct {
	isLand    []bool
	elevation []int64 // 16.16, before the fall-off toward the edges
	moisture  []int64 // 16.16
}

// offsets4 are the four cells that share an edge with a cell, in a fixed
// order (breadth-first searches depend on it).
var offsets4 = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}

// inside reports whether (x, y) is on the board.
func inside(x, y int) bool { return x >= 0 && y >= 0 && x < Side && y < Side }

// eachSide calls f with each cell of the board that shares an edge with
// cell p, in the order of offsets4.
func eachSide(p int, f func(j int)) {
	x, y := p%Side, p/Side
	for _, d := range offsets4 {
		if nx, ny := x+d[0], y+d[1]; inside(nx, ny) {
			f(ny*Side + nx)
		}
	}
}

// newLand draws the land mask: fractal noise falling off toward the edges,
// cut at the level that keeps about p.land cells, smoothed, with a ring of
// open sea around the board (so the outer sea is one body), small islands
// sunk and small lakes filled.
func newLand(r *rng, p params, minIsland int) *land {
	g := &land{
		elevation: fbm(r.next(), Side, Side),
		moisture:  fbm(r.next(), Side, Side),
		isLand:    make([]bool, Side*Side),
	}
	// Noise by rank, so that its spread is the same on every map: then
	// the fall-off weighs the same against it everywhere.
	eq := equalize(g.elevation)
	// Fall-off: 0 at the centre, one at the middle of an edge. Squared
	// distance in doubled coordinates keeps it in integers.
	height := make([]int64, Side*Side)
	const c = Side - 1
	for y := range Side {
		for x := range Side {
			dx, dy := int64(2*x-c), int64(2*y-c)
			f := (dx*dx + dy*dy) * one / (c * c)
			// Near the board's edge the land sinks steeply, so that coasts
			// curve before the ring of open sea instead of being cut straight.
			h := eq[y*Side+x] - f*falloff/100
			e := int64(min(x, y, c-x, c-y))
			if e < edgeBand {
				h -= (edgeBand - e) * (edgeBand - e) * one / (edgeBand * edgeBand)
			}
			height[y*Side+x] = h
		}
	}
	// The p.land highest cells are land (ties to the earlier cell).
	for _, i := range rankOrder(height, true)[:p.land] {
		g.isLand[i] = true
	}
	for range 2 {
		g.smooth()
	}
	g.clearRing(2)
	g.open()
	g.sink(minIsland)
	g.fill(12)
	return g
}

// open keeps only the land cells that lie in some 3×3 square of land (a
// morphological opening): strips of land one or two cells wide would make
// territories too thin to click or label.
func (g *land) open() {
	core := make([]bool, Side*Side) // the top-left cells of all-land squares
	for y := 0; y+3 <= Side; y++ {
		for x := 0; x+3 <= Side; x++ {
			all := true
			for dy := range 3 {
				for dx := range 3 {
					all = all && g.isLand[(y+dy)*Side+x+dx]
				}
			}
			core[y*Side+x] = all
		}
	}
	for i := range g.isLand {
		g.isLand[i] = false
	}
	for i, ok := range core {
		if ok {
			x, y := i%Side, i/Side
			for dy := range 3 {
				for dx := range 3 {
					g.isLand[(y+dy)*Side+x+dx] = true
				}
			}
		}
	}
}

const falloff = 60

const edgeBand = 8

// equalize replaces each value by its rank, scaled to [0, one).
func equalize(v []int64) []int64 {
	out := make([]int64, len(v))
	for rank, i := range rankOrder(v, false) {
		out[i] = int64(rank) * one / int64(len(v))
	}
	return out
}

// rankOrder returns the indices of v sorted by value, ascending or (desc)
// descending, ties by index. Each value and its index are packed into one
// integer and sorted natively: several times faster than a comparison
// function. Values must lie within ±2^40.
func rankOrder(v []int64, desc bool) []int {
	keys := make([]int64, len(v))
	for i, x := range v {
		if desc {
			x = -x
		}
		keys[i] = x<<13 | int64(i)
	}
	slices.Sort(keys)
	out := make([]int, len(v))
	for i, k := range keys {
		out[i] = int(k & (1<<13 - 1))
	}
	return out
}

// smooth is one step of a cellular automaton that rounds coastlines: a cell
// with five or more land cells among its eight neighbours becomes land, one
// with three or fewer becomes water.
func (g *land) smooth() {
	next := slices.Clone(g.isLand)
	for y := range Side {
		for x := range Side {
			n := 0
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					if (dx != 0 || dy != 0) && inside(x+dx, y+dy) && g.isLand[(y+dy)*Side+x+dx] {
						n++
					}
				}
			}
			switch {
			case n >= 5:
				next[y*Side+x] = true
			case n <= 3:
				next[y*Side+x] = false
			}
		}
	}
	g.isLand = next
}

// clearRing turns the outer k cells of the board into water.
func (g *land) clearRing(k int) {
	for y := range Side {
		for x := range Side {
			if x < k || y < k || x >= Side-k || y >= Side-k {
				g.isLand[y*Side+x] = false
			}
		}
	}
}

// components returns the 4-connected groups of cells whose isLand equals
// want, each in breadth-first order from its first cell in row order.
func (g *land) components(want bool) [][]int {
	seen := make([]bool, Side*Side)
	var out [][]int
	for start := range g.isLand {
		if g.isLand[start] != want || seen[start] {
			continue
		}
		seen[start] = true
		part := []int{start}
		for q := 0; q < len(part); q++ {
			eachSide(part[q], func(j int) {
				if g.isLand[j] == want && !seen[j] {
					seen[j] = true
					part = append(part, j)
				}
			})
		}
		out = append(out, part)
	}
	return out
}

// sink turns islands of fewer than min cells into water: too small to hold
// a territory one can click and label.
func (g *land) sink(min int) {
	for _, c := range g.components(true) {
		if len(c) < min {
			for _, i := range c {
				g.isLand[i] = false
			}
		}
	}
}

// fill turns lakes of fewer than min cells into land: a pond would be a
// water body of its own too small to sail.
func (g *land) fill(min int) {
	for _, c := range g.components(false) {
		if len(c) < min && !touchesEdge(c) {
			for _, i := range c {
				g.isLand[i] = true
			}
		}
	}
}

func touchesEdge(cells []int) bool {
	for _, i := range cells {
		x, y := i%Side, i/Side
		if x == 0 || y == 0 || x == Side-1 || y == Side-1 {
			return true
		}
	}
	return false
}

var errTooManyIslands = errors.New("genmap: more islands than territories")
