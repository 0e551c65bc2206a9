package engine

import (
	"container/list"
	"crypto/sha256"
	"encoding/binary"
	"sync"

	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/state"
)

// MatchMap returns the map a capitals match plays on: a size name
// ("small", "normal", "large", or "" for normal) becomes the name of a map
// generated from the match's seed; any other name is kept.
func MatchMap(name string, seed uint64) string {
	if name == "" {
		name = genmap.Normal.String()
	}
	size, err := genmap.ParseSize(name)
	if err != nil {
		return name
	}
	return genmap.Name(MapSeed(seed), size)
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

// load returns the generated map of this name, or false if the name is not
// one of a generated map.
func (c *generatedCache) load(name string) (*state.Map, bool, error) {
	seed, size, ok := genmap.ParseName(name)
	if !ok {
		return nil, false, nil
	}
	c.mu.Lock()
	if e, ok := c.maps[name]; ok {
		c.order.MoveToFront(e)
		m := c.byKey[name]
		c.mu.Unlock()
		return m, true, nil
	}
	c.mu.Unlock()
	m, err := genmap.Generate(seed, size)
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
