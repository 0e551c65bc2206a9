package state

import (
	"fmt"
	"iter"
	"slices"
	"strings"
)

// Water is the value of a sea cell in Grid.Cells.
const Water = -1

// SeaRange is how many water cells a fleet may cross: a port reaches every
// coastal territory of the same water within this many cells of travel
// (RULES.md section 2).
const SeaRange = 16

// Grid is the cell board of a generated map: W×H square cells in rows, each
// the id of the territory it belongs to, or Water. Territories are connected
// groups of cells; two territories border when two of their cells share an
// edge.
type Grid struct {
	W, H  int
	Cells []int16
}

// At returns the cell at column x, row y, or Water outside the board.
func (g *Grid) At(x, y int) int {
	if x < 0 || y < 0 || x >= g.W || y >= g.H {
		return Water
	}
	return int(g.Cells[y*g.W+x])
}

// gridAlphabet writes territory ids in GridSpec rows: one character a cell.
const gridAlphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// gridWater is a water cell in GridSpec rows.
const gridWater = '.'

// GridSpec is the text form of a Grid in map files and JSON: one string per
// row, one character per cell, '.' for water and 0-9, A-Z, a-z for the
// territories in their order (so at most 62 territories).
type GridSpec struct {
	Width  int      `json:"width"`
	Height int      `json:"height"`
	Rows   []string `json:"rows"`
}

// Spec returns the text form of g.
func (g *Grid) Spec() GridSpec {
	s := GridSpec{Width: g.W, Height: g.H}
	row := make([]byte, g.W)
	for y := range g.H {
		for x := range g.W {
			c := g.At(x, y)
			switch {
			case c == Water:
				row[x] = gridWater
			case c < len(gridAlphabet):
				row[x] = gridAlphabet[c]
			default:
				row[x] = '?'
			}
		}
		s.Rows = append(s.Rows, string(row))
	}
	return s
}

// Grid parses the text form; territories counts the map's territories.
func (s GridSpec) Grid(territories int) (*Grid, error) {
	if s.Width < 1 || s.Height < 1 || s.Width > 256 || s.Height > 256 {
		return nil, fmt.Errorf("grid of %d×%d cells, want 1 to 256 each way", s.Width, s.Height)
	}
	if len(s.Rows) != s.Height {
		return nil, fmt.Errorf("grid has %d rows, want %d", len(s.Rows), s.Height)
	}
	g := &Grid{W: s.Width, H: s.Height, Cells: make([]int16, 0, s.Width*s.Height)}
	for y, row := range s.Rows {
		if len(row) != s.Width {
			return nil, fmt.Errorf("grid row %d has %d cells, want %d", y, len(row), s.Width)
		}
		for x := range len(row) {
			if row[x] == gridWater {
				g.Cells = append(g.Cells, Water)
				continue
			}
			id := strings.IndexByte(gridAlphabet, row[x])
			if id < 0 || id >= territories {
				return nil, fmt.Errorf("grid cell (%d,%d) is %q: no such territory", x, y, row[x])
			}
			g.Cells = append(g.Cells, int16(id))
		}
	}
	return g, nil
}

// gridFacts is what a grid says about its territories.
type gridFacts struct {
	edges  [][2]int // land borders, a < b
	sea    [][2]int // sea links between territories that do not border, a < b
	coast  []bool   // the territory touches water
	cells  []int    // cells per territory
	bodies int      // separate bodies of water
}

// neighbours4 are the offsets of the four cells that share an edge.
var neighbours4 = [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}

// around yields the cells that share an edge with cell i, inside the grid.
func (g *Grid) around(i int) iter.Seq[int] {
	return func(yield func(int) bool) {
		x, y := i%g.W, i/g.W
		for _, d := range neighbours4 {
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

// facts derives borders, coasts, water bodies and sea links from g, and
// reports cells that break the rules: ids out of range, and territories
// that are not one connected group of cells.
func (g *Grid) facts(names []string) (gridFacts, []string) {
	n := len(names)
	var problems []string
	f := gridFacts{coast: make([]bool, n), cells: make([]int, n)}
	if len(g.Cells) != g.W*g.H {
		return f, []string{fmt.Sprintf("grid has %d cells for %d×%d", len(g.Cells), g.W, g.H)}
	}
	border := make(map[[2]int]bool)
	for y := range g.H {
		for x := range g.W {
			c := g.At(x, y)
			if c == Water {
				continue
			}
			if c < 0 || c >= n {
				problems = append(problems, fmt.Sprintf("grid cell (%d,%d) holds territory %d of %d", x, y, c, n))
				continue
			}
			f.cells[c]++
			for _, d := range neighbours4 {
				o := g.At(x+d[0], y+d[1])
				switch {
				case o == Water:
					// The board's edge is open sea too.
					f.coast[c] = true
				case o != c && o >= 0 && o < n:
					border[[2]int{min(c, o), max(c, o)}] = true
				}
			}
		}
	}
	if len(problems) > 0 {
		return f, problems
	}
	for e := range border {
		f.edges = append(f.edges, e)
	}
	slices.SortFunc(f.edges, func(a, b [2]int) int { return cmpPair(a, b) })
	for t := range n {
		if f.cells[t] == 0 {
			problems = append(problems, fmt.Sprintf("territory %q has no cells", names[t]))
		} else if parts := g.pieces(t); parts > 1 {
			problems = append(problems, fmt.Sprintf("territory %q is in %d separate pieces", names[t], parts))
		}
	}
	f.bodies = g.waterBodies()
	f.sea = g.seaLinks(n, border)
	return f, problems
}

func cmpPair(a, b [2]int) int {
	if a[0] != b[0] {
		return a[0] - b[0]
	}
	return a[1] - b[1]
}

// pieces counts the separate groups of cells of territory t.
func (g *Grid) pieces(t int) int { return g.groups(func(c int16) bool { return int(c) == t }) }

// waterBodies counts the separate groups of water cells.
func (g *Grid) waterBodies() int { return g.groups(func(c int16) bool { return c == Water }) }

// groups counts the groups of edge-connected cells that are in.
func (g *Grid) groups(in func(int16) bool) int {
	seen := make([]bool, len(g.Cells))
	n := 0
	var stack []int
	for i, c := range g.Cells {
		if !in(c) || seen[i] {
			continue
		}
		n++
		seen[i] = true
		stack = append(stack[:0], i)
		for len(stack) > 0 {
			p := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for j := range g.around(p) {
				if in(g.Cells[j]) && !seen[j] {
					seen[j] = true
					stack = append(stack, j)
				}
			}
		}
	}
	return n
}

// seaLinks finds the pairs of territories that do not share a border but
// are joined by a path of at most SeaRange water cells (edge to edge): a
// breadth-first search through the water from each territory's shore.
func (g *Grid) seaLinks(n int, border map[[2]int]bool) [][2]int {
	dist := make([]int, len(g.Cells))
	var queue []int
	links := map[[2]int]bool{}
	for t := range n {
		for i := range dist {
			dist[i] = -1
		}
		queue = queue[:0]
		// The water cells touching t are one cell of travel.
		for i, c := range g.Cells {
			if int(c) != t {
				continue
			}
			for j := range g.around(i) {
				if g.Cells[j] == Water && dist[j] < 0 {
					dist[j] = 1
					queue = append(queue, j)
				}
			}
		}
		for q := 0; q < len(queue); q++ {
			p := queue[q]
			for j := range g.around(p) {
				c := int(g.Cells[j])
				if c == Water {
					if dist[j] < 0 && dist[p] < SeaRange {
						dist[j] = dist[p] + 1
						queue = append(queue, j)
					}
					continue
				}
				if c != t {
					pair := [2]int{min(c, t), max(c, t)}
					if !border[pair] {
						links[pair] = true
					}
				}
			}
		}
	}
	out := make([][2]int, 0, len(links))
	for p := range links {
		out = append(out, p)
	}
	slices.SortFunc(out, cmpPair)
	return out
}
