// Package genmap generates the maps of the capitals rule set (RULES.md
// section 2): a 64×64 grid of land and water cells cut into territories,
// with terrains, fortresses, regions and names, all from a seed.
//
// The same seed and size give the same map on every platform and with
// every Go version: the generator has its own integer random generator and
// integer noise, and never ranges over a Go map. A match stores only its
// map's name (Name), and the engine regenerates the map from it (ParseName,
// Generate).
package genmap

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/state"
)

// Side is the width and height of the grid, in cells.
const Side = 64

// Size is how many territories a generated map has.
type Size uint8

// The sizes, by territory count.
const (
	Small  Size = iota // 12 to 18 territories
	Normal             // 20 to 28 territories
	Large              // 30 to 40 territories
)

var sizeNames = [...]string{"small", "normal", "large"}

// Sizes returns every size, smallest first.
func Sizes() []Size { return []Size{Small, Normal, Large} }

func (z Size) String() string {
	if int(z) < len(sizeNames) {
		return sizeNames[z]
	}
	return fmt.Sprintf("size(%d)", uint8(z))
}

// ParseSize returns the size named s: small, normal or large.
func ParseSize(s string) (Size, error) {
	for i, n := range sizeNames {
		if strings.EqualFold(s, n) {
			return Size(i), nil
		}
	}
	return 0, fmt.Errorf("genmap: unknown map size %q (want small, normal or large)", s)
}

// Territories returns the fewest and the most territories a map of size z
// has.
func (z Size) Territories() (lo, hi int) {
	p := paramsOf(z)
	return p.minT, p.maxT
}

// params are the knobs of one size.
type params struct {
	minT, maxT int // territory count
	land       int // land cells aimed at, before clean-up
	minIsland  int // smaller islands are sunk
}

func paramsOf(z Size) params {
	switch z {
	case Small:
		return params{minT: 12, maxT: 18, land: 1350, minIsland: 70}
	case Large:
		return params{minT: 30, maxT: 40, land: 1900, minIsland: 45}
	}
	return params{minT: 20, maxT: 28, land: 1650, minIsland: 55}
}

// namePrefix starts the name of every generated map.
const namePrefix = "gen-"

// Name returns the name of the map generated from seed at size z:
// "gen-<size>-<16 hex digits>". The engine stores it with a match and
// regenerates the map from it with ParseName and Generate.
func Name(seed uint64, z Size) string {
	return fmt.Sprintf("%s%s-%016x", namePrefix, z, seed)
}

// ParseName reads a name made by Name. Only the exact form Name writes is
// accepted, so that one map has one name.
func ParseName(name string) (seed uint64, z Size, ok bool) {
	rest, found := strings.CutPrefix(name, namePrefix)
	if !found {
		return 0, 0, false
	}
	sz, hex, found := strings.Cut(rest, "-")
	if !found || len(hex) != 16 {
		return 0, 0, false
	}
	z = Size(255)
	for i, n := range sizeNames {
		if sz == n {
			z = Size(i)
		}
	}
	if z == 255 {
		return 0, 0, false
	}
	for i := range len(hex) {
		if c := hex[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return 0, 0, false
		}
	}
	seed, err := strconv.ParseUint(hex, 16, 64)
	if err != nil {
		return 0, 0, false
	}
	return seed, z, true
}

// maxAttempts bounds the retries of Generate. A test runs 10,000 seeds of
// every size; the most any needed is far below this.
const maxAttempts = 64

// Generate makes the map of seed at size z. A first attempt that fails one
// of the checks is retried from a sub-seed derived from seed, size and the
// attempt number, so the result is still a function of (seed, z) alone.
func Generate(seed uint64, z Size) (*state.Map, error) {
	m, _, err := generate(seed, z)
	return m, err
}

// generate is Generate that also says how many attempts it took.
func generate(seed uint64, z Size) (*state.Map, int, error) {
	if int(z) >= len(sizeNames) {
		return nil, 0, fmt.Errorf("genmap: unknown map size %d", uint8(z))
	}
	var errs []error
	for attempt := range maxAttempts {
		sub := mix64(seed ^ mix64(uint64(z)+1) ^ mix64(uint64(attempt)+0x51ed27))
		m, err := attemptMap(seed, z, sub)
		if err == nil {
			return m, attempt + 1, nil
		}
		if len(errs) < 3 {
			errs = append(errs, err)
		}
	}
	return nil, maxAttempts, fmt.Errorf("genmap: no valid map for seed %d at size %s after %d attempts: %w",
		seed, z, maxAttempts, errors.Join(errs...))
}

// attemptMap runs the whole pipeline once from the sub-seed sub.
func attemptMap(seed uint64, z Size, sub uint64) (*state.Map, error) {
	p := paramsOf(z)
	r := &rng{s: sub}
	n := r.between(p.minT, p.maxT)
	// Islands smaller than 70% of the average territory are sunk: as one
	// territory they would be much smaller than the others.
	g := newLand(r, p, max(p.minIsland, p.land/n*7/10))
	terr, err := g.territories(r, n)
	if err != nil {
		return nil, err
	}
	grid := &state.Grid{W: Side, H: Side, Cells: terr}
	// A first map with placeholder names gives the borders, coasts and sea
	// links that the terrain and the regions are chosen from.
	probe, err := state.NewMap(placeholderSpec(grid, n))
	if err != nil {
		return nil, err
	}
	terrains, err := chooseTerrains(r, g, terr, probe)
	if err != nil {
		return nil, err
	}
	regions, err := chooseRegions(r, probe)
	if err != nil {
		return nil, err
	}
	forts := chooseFortresses(r, probe, terrains)
	bonus := make([]int, len(regions))
	for i, reg := range regions {
		bonus[i] = regionBonus(probe, reg)
	}
	// Number the territories region by region, each in reading order, so
	// that the grid's letters and the lists read naturally.
	perm, regions := renumber(terr, n, regions)
	inv := make([]int16, n)
	for nw, old := range perm {
		inv[old] = int16(nw)
	}
	for i, c := range terr {
		if c >= 0 {
			terr[i] = inv[c]
		}
	}
	nm, err := chooseNames(r, n, regions, reorder(terrains, perm), len(g.components(true)))
	if err != nil {
		return nil, err
	}
	spec := state.MapSpec{Name: Name(seed, z), Title: nm.title, Grid: grid}
	for i := range n {
		spec.Territories = append(spec.Territories, state.TerritorySpec{
			Name: nm.territories[i], Terrain: terrains[perm[i]], Fortress: forts[perm[i]]})
	}
	for ri, reg := range regions {
		c := state.ContinentSpec{Name: nm.regions[ri], Bonus: bonus[ri]}
		for _, t := range reg {
			c.Territories = append(c.Territories, nm.territories[t])
		}
		spec.Continents = append(spec.Continents, c)
	}
	m, err := state.NewMap(spec)
	if err != nil {
		return nil, err
	}
	if err := Check(m, z); err != nil {
		return nil, err
	}
	return m, nil
}

// renumber orders the regions by the centroid of their cells, top to bottom
// then left to right, and the territories region by region in the same
// order. It returns perm (new id -> old id) and the regions in new ids,
// in their new order.
func renumber(cells []int16, n int, regions [][]int) (perm []int, out [][]int) {
	var sx, sy, cnt = make([]int, n), make([]int, n), make([]int, n)
	for i, c := range cells {
		if c >= 0 {
			sx[c] += i % Side
			sy[c] += i / Side
			cnt[c]++
		}
	}
	// Reading order: bands of eight rows, then left to right, by the
	// centroid of the cells.
	key := func(x, y, k int) int { return (y/k/8)*Side + x/k }
	type item struct{ id, key int }
	regs := make([]item, len(regions))
	for i, reg := range regions {
		var x, y, k int
		for _, t := range reg {
			x, y, k = x+sx[t], y+sy[t], k+cnt[t]
		}
		regs[i] = item{i, key(x, y, k)}
	}
	slices.SortStableFunc(regs, func(a, b item) int { return a.key - b.key })
	for _, rg := range regs {
		ts := make([]item, len(regions[rg.id]))
		for j, t := range regions[rg.id] {
			ts[j] = item{t, key(sx[t], sy[t], cnt[t])}
		}
		slices.SortStableFunc(ts, func(a, b item) int { return a.key - b.key })
		var reg []int
		for _, t := range ts {
			reg = append(reg, len(perm))
			perm = append(perm, t.id)
		}
		out = append(out, reg)
	}
	return perm, out
}

func reorder[T any](s []T, perm []int) []T {
	out := make([]T, len(perm))
	for i, p := range perm {
		out[i] = s[p]
	}
	return out
}

func placeholderSpec(grid *state.Grid, n int) state.MapSpec {
	spec := state.MapSpec{Name: "probe", Grid: grid}
	c := state.ContinentSpec{Name: "all"}
	for i := range n {
		name := "t" + strconv.Itoa(i)
		spec.Territories = append(spec.Territories, state.TerritorySpec{Name: name})
		c.Territories = append(c.Territories, name)
	}
	spec.Continents = []state.ContinentSpec{c}
	return spec
}
