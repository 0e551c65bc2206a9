// Package look is how a match looks: the palettes a match may choose, each
// with its renderer; the map of a moment, drawn once (the maps drawn lately
// are kept by match, version and palette, so that every post and answer of
// one moment shows the same image); and the match's voice, in its palette's
// colours, showing that map.
package look

import (
	"container/list"
	"context"
	"fmt"
	"sync"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/state"
)

// Renderer draws the map of a state as a PNG.
type Renderer interface {
	Render(ctx context.Context, s *state.State) ([]byte, error)
}

// Palette is a set of player colours: their names for the chat, in turn
// order, and the renderer that draws them.
type Palette struct {
	Colors []string
	RGB    []int // the colours as 0xRRGGBB; may be empty
	Render Renderer
}

// Palette returns the palette of match m: its choice, or the default.
func (ms *Maps) Palette(m *hosted.Match) Palette {
	if p, ok := ms.palettes[m.Meta.Settings.Palette]; ok && p.Render != nil {
		return p
	}
	return ms.def
}

// mapCache keeps the maps drawn lately, by match, version and palette: a
// map of the same moment is drawn once, however many posts and /risk show status
// show it.
type mapCache struct {
	mu    sync.Mutex
	max   int
	items map[mapKey]*list.Element
	order *list.List // of *mapEntry, most recent first
}

type mapKey struct {
	match, version int64
	palette        string
}

type mapEntry struct {
	key mapKey
	im  *chat.Image
}

func newMapCache(n int) *mapCache {
	return &mapCache{max: n, items: map[mapKey]*list.Element{}, order: list.New()}
}

// get returns the image of key, made by mk on the first ask.
func (c *mapCache) get(key mapKey, mk func() *chat.Image) *chat.Image {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[key]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*mapEntry).im
	}
	im := mk()
	c.items[key] = c.order.PushFront(&mapEntry{key, im})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*mapEntry).key)
	}
	return im
}

// cachedMaps is how many maps the bot keeps: a few per busy channel.
const cachedMaps = 64

// Image is the map of the match as it is, drawn once for this
// moment (the cache) from a copy of the state, so later changes do not
// show.
func (ms *Maps) Image(m *hosted.Match) *chat.Image {
	key := mapKey{match: m.ID, version: m.Version, palette: m.Meta.Settings.Palette}
	return ms.cache.get(key, func() *chat.Image {
		s := m.Game.State
		render := ms.Palette(m).Render
		cp := s.View(-1)
		name := fmt.Sprintf("risk-turn-%d.png", s.Turn)
		return chat.NewImage(name, func(ctx context.Context) ([]byte, error) {
			return render.Render(ctx, cp)
		})
	})
}

// Voice returns the voice of match m: its seats in its palette's colours,
// with its map.
func (ms *Maps) Voice(m *hosted.Match) voice.Voice {
	p := ms.Palette(m)
	return voice.New(p.Colors, p.RGB, ms.Image)
}

// Maps draws the maps of the matches.
type Maps struct {
	palettes map[string]Palette
	def      Palette
	cache    *mapCache
}

// New returns Maps drawing with the palettes a match may choose, by name,
// and def for the matches that choose none.
func New(palettes map[string]Palette, def Palette) *Maps {
	return &Maps{palettes: palettes, def: def, cache: newMapCache(cachedMaps)}
}

// Has reports whether a palette of that name may be chosen.
func (ms *Maps) Has(name string) bool {
	_, ok := ms.palettes[name]
	return ok
}
