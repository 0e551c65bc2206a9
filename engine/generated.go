package engine

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"strings"
	"sync"

	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/state"
)

// IslandsPrefix begins the map option of a match on generated islands
// whatever its rules: "islands-small", "islands-normal", "islands-large".
// A capitals match also takes the bare size ("small", ...), as it always
// has; a classic match needs the prefix, so that "classic" and the sizes
// never mix up in one option.
const IslandsPrefix = "islands-"

// IslandsSize returns the size that a map option naming generated islands
// names: "islands-small" (any case) is genmap.Small. ok is false for any
// other name.
func IslandsSize(name string) (z genmap.Size, ok bool) {
	if len(name) <= len(IslandsPrefix) || !strings.EqualFold(name[:len(IslandsPrefix)], IslandsPrefix) {
		return 0, false
	}
	z, err := genmap.ParseSize(name[len(IslandsPrefix):])
	return z, err == nil
}

// IslandsNames lists the map options of generated islands, smallest first.
func IslandsNames() []string {
	var out []string
	for _, z := range genmap.Sizes() {
		out = append(out, IslandsPrefix+z.String())
	}
	return out
}

// MatchMap returns the map a capitals match plays on: a size name
// ("small", "normal", "large", or "" for normal; "islands-small" and so on
// too) becomes the name of a map generated from the match's seed; any
// other name is kept.
func MatchMap(name string, seed uint64) string {
	if name == "" {
		name = genmap.Normal.String()
	}
	size, ok := IslandsSize(name)
	if !ok {
		z, err := genmap.ParseSize(name)
		if err != nil {
			return name
		}
		size = z
	}
	return genmap.Name(MapSeed(seed), size)
}

// ClassicMatchMap returns the map a classic match plays on: an islands
// name ("islands-large", see IslandsSize) becomes the name of the map
// generated from the match's seed with its sea links made borders
// (LanesName); any other name ("classic", a library map) is kept.
func ClassicMatchMap(name string, seed uint64) string {
	size, ok := IslandsSize(name)
	if !ok {
		return name
	}
	return LanesName(genmap.Name(MapSeed(seed), size))
}

// matchMap is the map a match with options o and seed plays on, by its
// rules (MatchMap, ClassicMatchMap).
func matchMap(o state.Options, seed uint64) string {
	if o.Rules == state.Capitals {
		return MatchMap(o.Map, seed)
	}
	return ClassicMatchMap(o.Map, seed)
}

// MapSeed derives a generated map's seed from a match's seed, one way:
// everyone sees the map, and it must tell nothing of the dice to come.
func MapSeed(matchSeed uint64) uint64 {
	var b [16]byte
	copy(b[:8], "riskmap1")
	binary.LittleEndian.PutUint64(b[8:], matchSeed)
	sum := sha256.Sum256(b[:])
	return binary.LittleEndian.Uint64(sum[:8])
}

// lanesSuffix ends the name of a generated map played with classic rules.
const lanesSuffix = "-lanes"

// LanesName is the name of the classic board made from the generated map
// named gen (genmap.Name): "gen-large-0123456789abcdef-lanes". LoadMap
// makes it with lanes.
func LanesName(gen string) string { return gen + lanesSuffix }

// parseLanesName returns the generated map a name made by LanesName is
// made from. Only the exact form is accepted, so that one map has one name.
func parseLanesName(name string) (gen string, ok bool) {
	gen, ok = strings.CutSuffix(name, lanesSuffix)
	if !ok {
		return "", false
	}
	if _, _, ok := genmap.ParseName(gen); !ok {
		return "", false
	}
	return gen, true
}

// lanes returns generated map g made a board for the classic rules, named
// name: its sea links become borders (sea lanes, like the classic board's
// Alaska–Kamchatka), so that a classic army, which has no ports, can cross
// the water; it has no sea links left, and no fortresses (the classic rules
// give them no meaning). The territories, their order, names and terrains,
// the regions as continents with their bonuses, and the cells it is drawn
// from are g's.
func lanes(name string, g *state.Map) (*state.Map, error) {
	if g.Grid == nil {
		return nil, fmt.Errorf("engine: lanes of map %s: not a generated map", g.Name)
	}
	spec := state.MapSpec{Name: name, Title: g.Title}
	for _, c := range g.Continents {
		cs := state.ContinentSpec{Name: c.Name, Bonus: c.Bonus}
		for _, t := range c.Territories {
			cs.Territories = append(cs.Territories, g.Territories[t].Name)
		}
		spec.Continents = append(spec.Continents, cs)
	}
	for a, t := range g.Territories {
		spec.Territories = append(spec.Territories, state.TerritorySpec{Name: t.Name, Terrain: t.Terrain, Aliases: t.Aliases})
		for _, b := range t.Adj {
			if a < b {
				spec.Borders = append(spec.Borders, [2]string{t.Name, g.Territories[b].Name})
			}
		}
		for _, b := range t.Sea {
			if a < b {
				spec.Borders = append(spec.Borders, [2]string{t.Name, g.Territories[b].Name})
			}
		}
	}
	// Built without the grid, which would take the borders from the cells
	// alone; the borders are checked (mutual, connected), then the grid
	// is attached to draw the map: its cells are g's, already checked.
	m, err := state.NewMap(spec)
	if err != nil {
		return nil, fmt.Errorf("engine: lanes of map %s: %w", g.Name, err)
	}
	m.Grid, m.WaterBodies = g.Grid, g.WaterBodies
	return m, nil
}

// generatedCache keeps the generated maps of recent matches: loading a
// match decodes its state, which needs its map, and generating one costs
// milliseconds. It memoizes a pure function (a name always gives the same
// map), so it changes no behaviour, only speed; it is bounded and safe for
// concurrent use.
type generatedCache struct {
	mu    sync.Mutex
	max   int
	order *list.List // of string, most recent first
	maps  map[string]*list.Element
	byKey map[string]*state.Map
}

var generated = &generatedCache{max: 256, order: list.New(), maps: map[string]*list.Element{}, byKey: map[string]*state.Map{}}

// load returns the generated map of this name (genmap.Name, or LanesName
// of one), or false if the name is not one of a generated map.
func (c *generatedCache) load(name string) (*state.Map, bool, error) {
	build := func() (*state.Map, error) {
		if gen, ok := parseLanesName(name); ok {
			g, _, err := c.load(gen)
			if err != nil {
				return nil, err
			}
			return lanes(name, g)
		}
		seed, size, _ := genmap.ParseName(name)
		return genmap.Generate(seed, size)
	}
	if _, ok := parseLanesName(name); !ok {
		if _, _, ok := genmap.ParseName(name); !ok {
			return nil, false, nil
		}
	}
	c.mu.Lock()
	if e, ok := c.maps[name]; ok {
		c.order.MoveToFront(e)
		m := c.byKey[name]
		c.mu.Unlock()
		return m, true, nil
	}
	c.mu.Unlock()
	m, err := build()
	if err != nil {
		return nil, true, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.maps[name]; ok { // generated meanwhile by another caller
		c.order.MoveToFront(e)
		return c.byKey[name], true, nil
	}
	c.maps[name] = c.order.PushFront(name)
	c.byKey[name] = m
	for c.order.Len() > c.max {
		old := c.order.Remove(c.order.Back()).(string)
		delete(c.maps, old)
		delete(c.byKey, old)
	}
	return m, true, nil
}
