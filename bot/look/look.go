// Package look is how a match looks: the palettes a match may choose, each
// with its renderer per language; the map of a moment, drawn once (the maps
// drawn lately are kept by match, version, palette and language, so that
// every post and answer of one moment shows the same image); and the
// match's voice, in its palette's colours, showing that map.
package look

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/internal/lru"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
)

// Renderer draws the map of a state as a PNG.
type Renderer interface {
	Render(ctx context.Context, s *state.State) ([]byte, error)
}

// Palette is a set of player colours: their names for the chat, in turn
// order, and the renderer that draws them: Render in English, and In's in
// another language.
type Palette struct {
	Colors []string
	RGB    []int // the colours as 0xRRGGBB; may be empty
	Render Renderer
	// In makes the palette's renderer for a language other than English,
	// on the first map drawn in it; nil when Render draws every language.
	In func(lang.Tag) Renderer
}

// Palette returns the palette of match m: its choice, or the default.
func (ms *Maps) Palette(m *hosted.Match) Palette {
	p, _ := ms.palette(m)
	return p
}

// palette returns the palette of match m and its name ("" for the
// default).
func (ms *Maps) palette(m *hosted.Match) (Palette, string) {
	if p, ok := ms.palettes[m.Meta.Settings.Palette]; ok && p.Render != nil {
		return p, m.Meta.Settings.Palette
	}
	return ms.def, ""
}

// rendererKey names a renderer of Maps: a palette's, in a language.
type rendererKey struct {
	palette string
	lang    lang.Tag
}

// Renderer is the renderer of match m's maps: its palette's, in the
// match's language (its public one, as every image of a moment is shared).
// A language's renderer is made on its first map, then kept.
func (ms *Maps) Renderer(m *hosted.Match) Renderer {
	p, name := ms.palette(m)
	return ms.rendererIn(p, name, m.Meta.Settings.Language())
}

// rendererIn is palette p's (named name) renderer in language t.
func (ms *Maps) rendererIn(p Palette, name string, t lang.Tag) Renderer {
	if t == lang.English || p.In == nil {
		return p.Render
	}
	k := rendererKey{palette: name, lang: t}
	ms.mu.Lock()
	defer ms.mu.Unlock()
	r, ok := ms.renderers[k]
	if !ok {
		r = p.In(t)
		ms.renderers[k] = r
	}
	return r
}

// mapKey names one image of a match: its map at a moment, drawn in a
// palette, or its whole history (kind "replay" or "strip").
type mapKey struct {
	match int64
	// version is the match's version for its present moment; 0 for a past
	// moment, known by the commands played to it (at).
	version int64
	at      int
	palette string
	lang    lang.Tag // the language of its words
	kind    string
	// viewer is the seat whose view the image shows, plus one (0: the
	// public's); only matches with fog of war have others.
	viewer int
	// revealed: a past moment drawn once the match is over, when its fog
	// of war has lifted.
	revealed bool
}

// cachedMaps is how many images the process keeps: a few per busy
// channel. A map is about 360 KB once drawn.
const cachedMaps = 64

// Image is the map of the match as it is, drawn once for this moment in
// the whole process (however many posts, answers, pages and API requests
// show it) from a copy of the state, so later changes do not show.
func (ms *Maps) Image(m *hosted.Match) *chat.Image { return ms.ImageFor(m, -1) }

// ImageFor is Image as seat viewer sees it (-1: the public map): in a
// match with fog of war, each player's map shows what they see.
func (ms *Maps) ImageFor(m *hosted.Match, viewer int) *chat.Image {
	if !m.Game.State.HasFog() || viewer < 0 || viewer >= len(m.Game.State.Seats) {
		viewer = -1
	}
	key := mapKey{match: m.ID, version: m.Version, palette: m.Meta.Settings.Palette, lang: m.Meta.Settings.Language(), viewer: viewer + 1}
	return ms.cache.GetOrAdd(key, func() *chat.Image {
		s := m.Game.State
		render := ms.Renderer(m)
		cp := s.View(viewer)
		name := fmt.Sprintf("risk-turn-%d.png", s.Turn)
		if viewer >= 0 {
			name = fmt.Sprintf("risk-turn-%d-view.png", s.Turn)
		}
		return chat.NewImage(name, func(ctx context.Context) ([]byte, error) {
			return render.Render(ctx, cp)
		})
	})
}

// ImageAt is the map of match m after its first at commands, drawn once in
// the whole process: the present moment's map if at is all of them,
// otherwise a past one, rebuilt by past when first drawn (a past moment
// never changes).
func (ms *Maps) ImageAt(m *hosted.Match, at int, past func(ctx context.Context) (*state.State, error)) *chat.Image {
	if at == m.Game.Version {
		return ms.Image(m)
	}
	over := m.Game.State.Phase == state.PhaseOver
	key := mapKey{match: m.ID, at: at, palette: m.Meta.Settings.Palette, lang: m.Meta.Settings.Language(), revealed: over}
	return ms.cache.GetOrAdd(key, func() *chat.Image {
		render := ms.Renderer(m)
		return chat.NewImage(fmt.Sprintf("risk-%d-at-%d.png", m.ID, at), func(ctx context.Context) ([]byte, error) {
			s, err := past(ctx)
			if err != nil {
				return nil, err
			}
			if over {
				// The fog lifts at the end, over the past too.
				s = s.Clone()
				s.Options.Fog = false
			}
			return render.Render(ctx, s.View(-1))
		})
	})
}

// Whole is an image of match m's whole history as it is now (kind
// "replay" or "strip"), made by mk once in the whole process for this
// moment.
func (ms *Maps) Whole(m *hosted.Match, kind string, mk func() *chat.Image) *chat.Image {
	key := mapKey{match: m.ID, version: m.Version, palette: m.Meta.Settings.Palette, lang: m.Meta.Settings.Language(), kind: kind}
	return ms.cache.GetOrAdd(key, mk)
}

// Voice returns the public voice of match m: its seats in its palette's
// colours, with its map, in the match's language.
func (ms *Maps) Voice(m *hosted.Match) voice.Voice {
	p := ms.Palette(m)
	v := voice.New(p.Colors, p.RGB, ms.ImageFor).In(m.Meta.Settings.Language())
	if m.Game != nil && m.Game.State.HasFog() {
		v = v.Fogged()
	}
	if ms.onMap {
		v = v.OnMap()
	}
	return v
}

// To returns the voice of match m answering the command at hand, in its
// author's language (hosted.Match.ReaderLang).
func (ms *Maps) To(m *hosted.Match) voice.Voice {
	return ms.Voice(m).In(m.ReaderLang())
}

// Maps draws the maps of the matches.
type Maps struct {
	palettes map[string]Palette
	def      Palette
	cache    *lru.Cache[mapKey, *chat.Image]

	mu        sync.Mutex
	renderers map[rendererKey]Renderer // made by the palettes' In

	// onMap: the turns' posts offer to play on the map (PlayOnMap).
	onMap bool
}

// PlayOnMap makes the voices of the matches offer, on each turn's living
// post, to play it on its map in the chat (voice.Voice.OnMap): for a bot
// whose chat opens the map beside a channel (Discord's Activity). Call it
// before the Maps are used.
func (ms *Maps) PlayOnMap() { ms.onMap = true }

// New returns Maps drawing with the palettes a match may choose, by name,
// and def for the matches that choose none.
func New(palettes map[string]Palette, def Palette) *Maps {
	return &Maps{palettes: palettes, def: def, cache: lru.New[mapKey, *chat.Image](cachedMaps), renderers: map[rendererKey]Renderer{}}
}

// Has reports whether a palette of that name may be chosen.
func (ms *Maps) Has(name string) bool {
	_, ok := ms.palettes[name]
	return ok
}

// previewer is a renderer that draws a map before anyone plays on it
// (render.Renderer.Preview).
type previewer interface {
	Preview(ctx context.Context, m *state.Map) ([]byte, error)
}

// Preview is map m drawn unowned, with its names, in the default palette
// and language t: what a library shows of a map (nil if the renderer
// cannot draw one).
func (ms *Maps) Preview(m *state.Map, t lang.Tag) *chat.Image {
	p, ok := ms.rendererIn(ms.def, "", t).(previewer)
	if !ok {
		return nil
	}
	return chat.NewImage("map-preview.png", func(ctx context.Context) ([]byte, error) {
		return p.Preview(ctx, m)
	})
}

// regioner is a renderer that tells where the territories lie in the
// images it draws (render.Renderer.Regions).
type regioner interface {
	Regions(ctx context.Context, s *state.State) (*render.Regions, error)
}

// Regions returns where the territories of match m's map lie in its maps
// (drawn by its renderer, whose boards it shares): the map's, the same at
// every moment and for every viewer.
func (ms *Maps) Regions(ctx context.Context, m *hosted.Match) (*render.Regions, error) {
	if m.Game == nil {
		return nil, fmt.Errorf("look: match %d has no map yet", m.ID)
	}
	r := ms.Renderer(m)
	for {
		if rg, ok := r.(regioner); ok {
			return rg.Regions(ctx, m.Game.State)
		}
		w, ok := r.(interface{ Unwrap() Renderer }) // a renderer wrapped for metrics
		if !ok {
			return nil, errors.New("look: the renderer cannot tell where the territories lie")
		}
		r = w.Unwrap()
	}
}
