package genmap

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/state"
)

// Check verifies a generated map against the generator's own rules, on top
// of what state.NewMap already checks (connected territories, borders from
// the cells, every territory reachable by land or sea): the territory count
// of its size, the size rule (MinCells, a Block×Block square), every terrain
// at least MinPerTerrain times, one fortress per eight territories, regions
// of MinRegion to MaxRegion, water that makes ports matter, and names whose
// first three letters tell the territories apart.
func Check(m *state.Map, z Size) error {
	var problems []string
	add := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	g := m.Grid
	if g == nil || g.W != Side || g.H != Side || len(g.Cells) != Side*Side {
		return fmt.Errorf("genmap: map %s has no %d×%d grid", m.Name, Side, Side)
	}
	n := m.Len()
	lo, hi := z.Territories()
	if n < lo || n > hi {
		add("%d territories, want %d to %d for a %s map", n, lo, hi, z)
	}
	if err := checkCells(g.Cells, n); err != nil {
		add("%v", strings.TrimPrefix(err.Error(), "genmap: "))
	}
	var count [state.NumTerrains]int
	forts := 0
	for _, t := range m.Territories {
		count[t.Terrain]++
		if t.Fortress {
			forts++
		}
	}
	for _, k := range terrains {
		if count[k] < MinPerTerrain {
			add("%d %s territories, want at least %d", count[k], k, MinPerTerrain)
		}
	}
	if sum := count[state.Plain] + count[state.Forest] + count[state.Mountain] + count[state.Desert] + count[state.Coastal]; sum != n {
		add("%d territories have a terrain outside the five of the capitals rules", n-sum)
	}
	if want := (n + 4) / 8; forts != want {
		add("%d fortresses, want %d", forts, want)
	}
	for _, c := range m.Continents {
		if len(c.Territories) < MinRegion || len(c.Territories) > MaxRegion {
			add("region %s has %d territories, want %d to %d", c.Name, len(c.Territories), MinRegion, MaxRegion)
		}
		if c.Bonus < 1 {
			add("region %s has bonus %d", c.Name, c.Bonus)
		}
	}
	if m.WaterBodies < 2 && largestWater(g) < Side*Side/5 {
		add("one body of water of %d cells: want two or more, or a sea of at least %d cells", largestWater(g), Side*Side/5)
	}
	links := 0
	for _, t := range m.Territories {
		links += len(t.Sea)
	}
	if links/2 < MinSeaLinks(n) {
		add("%d sea links, want at least %d so that ports matter", links/2, MinSeaLinks(n))
	}
	for i, t := range m.Territories {
		if !clean(t.Name) {
			add("territory name %q is blocked", t.Name)
		}
		if len(t.Name) < 3 {
			add("territory name %q is shorter than three letters", t.Name)
			continue
		}
		if got, err := m.Lookup(t.Name[:3]); err != nil || got != i {
			add("the prefix %q does not name %s alone", t.Name[:3], t.Name)
		}
	}
	if strings.TrimSpace(m.Title) == "" || m.Title == m.Name {
		add("the map has no title")
	}
	if len(problems) > 0 {
		return fmt.Errorf("genmap: map %s breaks the generator's rules:\n  %s", m.Name, strings.Join(problems, "\n  "))
	}
	return nil
}

// MinSeaLinks is the fewest sea links a map of n territories has: one for
// every four territories, so that a port opens real routes.
func MinSeaLinks(n int) int { return max(2, n/4) }

// largestWater returns the cells of the largest body of water.
func largestWater(g *state.Grid) int {
	l := &land{isLand: make([]bool, len(g.Cells))}
	for i, c := range g.Cells {
		l.isLand[i] = c != state.Water
	}
	best := 0
	for _, c := range l.components(false) {
		best = max(best, len(c))
	}
	return best
}
