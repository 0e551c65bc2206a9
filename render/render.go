package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"slices"
	"sync"

	"github.com/fogleman/gg"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/render/internal/world"
	"github.com/riskbot/riskbot/state"
)

// DefaultWidth is the width of the image when Options.Width is 0: the
// width every size is designed at.
const DefaultWidth = refWidth

// minWidth and maxWidth are the limits on Options.Width.
const (
	minWidth = 800
	maxWidth = 3200
)

// Options configure a Renderer.
type Options struct {
	// Width of the image in pixels: 0 means DefaultWidth; otherwise 800
	// to 3200. The height follows from the map.
	Width int
	// Palette picks the player colours.
	Palette Palette
	// Lang is the language of every word drawn: the panel, the legend,
	// the key and the classic board's names (English when empty or not
	// in the catalogue). Generated and imported maps keep their own names.
	Lang lang.Tag
}

// Renderer draws match states as PNG images. The static layers of each map
// (land, sea, borders, names) are built on the first render of that map and
// cached. A Renderer is safe for concurrent use: every render draws with a
// worker (canvas, gg context, font faces) that no other render touches.
type Renderer struct {
	opts  Options
	width int
	kit   // theme and colours from New; fonts and textures from init

	setup     sync.Once
	setupErr  error
	classic   *look // the classic board's colours
	mu        sync.Mutex
	boards    map[string]*boardEntry
	workers   workerPool
	pngBuffer pngPool
	frames    frameCache // the last frames encoded, by match (frames.go)

	// Generated and imported maps: boards cached by name, least recently
	// used first out. Generated maps share a look, made on first use;
	// each imported map has its own.
	grids     map[string]*gridEntry
	gridUses  uint64
	gridSetup sync.Once
	gridLook  *look
}

// New returns a renderer. Invalid options are reported by Render.
func New(opts Options) *Renderer {
	r := &Renderer{opts: opts, width: opts.Width, kit: kit{th: newTheme(), p: lang.For(opts.Lang)}, boards: map[string]*boardEntry{}, grids: map[string]*gridEntry{}}
	if r.width == 0 {
		r.width = DefaultWidth
	}
	r.colors = PlayerColors(opts.Palette)
	return r
}

// init loads what every map shares (fonts, textures) and the classic
// board's look.
func (r *Renderer) init() error {
	r.setup.Do(func() {
		if r.width < minWidth || r.width > maxWidth {
			r.setupErr = fmt.Errorf("render: width %d out of range (%d to %d, or 0 for %d)", r.opts.Width, minWidth, maxWidth, DefaultWidth)
			return
		}
		if r.opts.Palette != Default && r.opts.Palette != ColorBlind {
			r.setupErr = fmt.Errorf("render: unknown palette %d", int(r.opts.Palette))
			return
		}
		if r.fonts, r.setupErr = parseFonts(); r.setupErr != nil {
			return
		}
		if r.tex, r.setupErr = loadTextures(worldFS()); r.setupErr != nil {
			return
		}
		r.classic = newClassicLook(r.th, r.colors)
	})
	return r.setupErr
}

// worker returns a worker from the pool, ready to draw on board b: its
// canvas sized for b, and its palette b's look's (a worker drawing another
// kind of map switches palettes). The worker that holds prev's frame is
// taken when it is idle (prev may be nil).
func (r *Renderer) worker(b *board, prev *lastFrame) (*worker, error) {
	return r.workerFrom(r.workers.get(prev), b)
}

// workerFrom readies wk (a new worker when nil) to draw on board b.
func (r *Renderer) workerFrom(wk *worker, b *board) (*worker, error) {
	if wk == nil {
		f, err := newFaces(r.fonts, float64(r.width)/refWidth)
		if err != nil {
			return nil, err
		}
		wk = &worker{kit: &r.kit, f: f, s: float64(r.width) / refWidth, badges: map[badgeKey]*sprite{}, memos: map[memoKey]*memo{}}
	}
	if wk.b != b {
		clear(wk.badges) // another board may size badges differently
	}
	q := b.look.quant
	if wk.canvas == nil || wk.canvas.Rect.Dx() != b.w || wk.canvas.Rect.Dy() != b.h || wk.q != q {
		wk.canvas = image.NewRGBA(image.Rect(0, 0, b.w, b.h))
		wk.pal = image.NewPaletted(wk.canvas.Rect, q.palette)
		wk.dc = gg.NewContextForRGBA(wk.canvas)
		wk.q = q
		wk.ground = nil
	}
	wk.b = b
	return wk, nil
}

// board returns the board of map m, building it on first use: an imported
// map's from its picture, a generated map's from its cells, any other
// map's from its geometry.
func (r *Renderer) board(m *state.Map) (*board, error) {
	switch {
	case m.Art != nil:
		return r.artBoardFor(m)
	case m.Grid != nil:
		return r.gridBoardFor(m)
	}
	return r.classicBoard(m)
}

// boardEntry is a cached board of a map drawn from its geometry: the
// geometry is loaded once, the board built once.
type boardEntry struct {
	load     sync.Once
	geo      *world.Geometry
	mask     []uint8
	err      error
	build    sync.Once
	b        *board
	buildErr error
}

// classicBoard returns the board of a map drawn from its geometry,
// building it on first use; boards are kept for good (the classic board is
// one map). The geometry is found by the map's name; a map whose
// territories are not the geometry's is refused without spoiling the cache
// for the real one.
func (r *Renderer) classicBoard(m *state.Map) (*board, error) {
	r.mu.Lock()
	e, ok := r.boards[m.Name]
	if !ok {
		e = &boardEntry{}
		r.boards[m.Name] = e
	}
	r.mu.Unlock()
	e.load.Do(func() {
		e.geo, e.mask, e.err = loadGeometry(worldFS(), m.Name)
	})
	if e.err != nil {
		// Forget maps without geometry: generated maps have names of their
		// own, and their failures must not pile up.
		r.mu.Lock()
		if r.boards[m.Name] == e {
			delete(r.boards, m.Name)
		}
		r.mu.Unlock()
		return nil, e.err
	}
	if err := matchGeometry(e.geo, m); err != nil {
		return nil, err
	}
	e.build.Do(func() {
		e.b, e.buildErr = buildBoard(m, &classicKind{geo: e.geo, mask: e.mask}, r.classic, &r.kit, r.width)
	})
	if e.buildErr != nil {
		return nil, e.buildErr
	}
	if e.b.m != m && !sameTerritories(e.b.m, m) {
		return nil, fmt.Errorf("render: map %q differs from the one its board was built for", m.Name)
	}
	return e.b, nil
}

func sameTerritories(a, b *state.Map) bool {
	if a.Len() != b.Len() || len(a.Continents) != len(b.Continents) {
		return false
	}
	for i := range a.Territories {
		if a.Territories[i].Name != b.Territories[i].Name || a.Territories[i].Continent != b.Territories[i].Continent {
			return false
		}
	}
	return true
}

// maxGridBoards bounds the cache of generated and imported maps' boards:
// unlike the classic board, every capitals match has its own map, and a
// server its own library. A board at the default width takes about 20 MB.
// (A variable for tests.)
var maxGridBoards = 8

// gridEntry is a cached board of a generated or imported map.
type gridEntry struct {
	build sync.Once
	m     *state.Map
	b     *board
	err   error
	used  uint64 // for eviction: the render count when last used
}

// gridBoardFor returns the board of generated map m, building it on first
// use (cachedBoard).
func (r *Renderer) gridBoardFor(m *state.Map) (*board, error) {
	r.gridSetup.Do(func() { r.gridLook = newGridLook(r.th, r.colors) })
	return r.cachedBoard(m, sameGrid, func() (*board, error) {
		return buildBoard(m, &gridKind{g: m.Grid}, r.gridLook, &r.kit, r.width)
	})
}

// artBoardFor returns the board of imported map m, building it on first
// use (cachedBoard).
func (r *Renderer) artBoardFor(m *state.Map) (*board, error) {
	return r.cachedBoard(m, sameArt, func() (*board, error) { return buildArtBoard(m, &r.kit, r.width) })
}

// sameArt reports whether two imported maps draw the same: the same
// picture, index and markers, and the same territories and continents.
func sameArt(a, b *state.Map) bool {
	x, y := a.Art, b.Art
	if x == nil || y == nil || !sameTerritories(a, b) {
		return false
	}
	return x == y || x.W == y.W && x.H == y.H && bytes.Equal(x.Picture, y.Picture) &&
		bytes.Equal(x.Index, y.Index) && slices.Equal(x.Markers, y.Markers)
}

// cachedBoard returns the board of map m, which build builds on first
// use. Boards are cached by map name, at most maxGridBoards of them; a map
// whose name is cached but which does not draw the same as the cached one
// (same reports whether two maps do) gets a board of its own.
func (r *Renderer) cachedBoard(m *state.Map, same func(a, b *state.Map) bool, build func() (*board, error)) (*board, error) {
	r.mu.Lock()
	r.gridUses++
	e, ok := r.grids[m.Name]
	if ok && e.m != m && !same(e.m, m) {
		ok = false
	}
	if !ok {
		if len(r.grids) >= maxGridBoards {
			// Evict the least recently used board.
			var oldest string
			first := true
			for name, o := range r.grids {
				if first || o.used < r.grids[oldest].used || (o.used == r.grids[oldest].used && name < oldest) {
					oldest, first = name, false
				}
			}
			delete(r.grids, oldest)
		}
		e = &gridEntry{m: m}
		r.grids[m.Name] = e
	}
	e.used = r.gridUses
	r.mu.Unlock()
	e.build.Do(func() { e.b, e.err = build() })
	return e.b, e.err
}

// sameGrid reports whether two maps draw the same: same cells, names and
// features.
func sameGrid(a, b *state.Map) bool {
	if a.Grid == nil || b.Grid == nil || a.Grid.W != b.Grid.W || a.Grid.H != b.Grid.H ||
		!slices.Equal(a.Grid.Cells, b.Grid.Cells) || a.Len() != b.Len() {
		return false
	}
	for i := range a.Territories {
		ta, tb := &a.Territories[i], &b.Territories[i]
		if ta.Name != tb.Name || ta.Terrain != tb.Terrain || ta.Fortress != tb.Fortress {
			return false
		}
	}
	return true
}

// Render draws s as a PNG: the map with its owners and armies, the last
// turn's moves, the continent legend and the players' panel. A view (a
// state with hidden cards) renders the same. Bad input is an error, never a
// half-drawn image.
func (r *Renderer) Render(ctx context.Context, s *state.State) ([]byte, error) {
	return r.render(ctx, s, nil)
}

// render draws s and encodes the part of the frame that crop returns (the
// whole frame when crop is nil).
func (r *Renderer) render(ctx context.Context, s *state.State, crop func(*board) (image.Rectangle, error)) ([]byte, error) {
	// The whole frame is drawn over the previous frame of its match,
	// and encoded by bands reusing what did not change (incremental.go,
	// frames.go).
	var (
		key  frameKey
		last *lastFrame
	)
	frame := func(b *board) *lastFrame {
		key = frameKeyOf(b, s)
		last = r.frames.take(key)
		return last
	}
	if crop != nil {
		frame = nil
	}
	wk, rect, err := r.draw(ctx, s, crop, true, frame)
	if last != nil {
		defer r.frames.put(key, last)
	}
	if err != nil {
		return nil, err
	}
	defer r.workers.put(wk)
	if last != nil {
		data, err := last.encode(wk.pal)
		if err != nil {
			return nil, fmt.Errorf("render: encode png: %w", err)
		}
		if last.enc.Valid() {
			wk.heldBy, wk.heldSeq = last, last.seq
		}
		return data, nil
	}
	out := wk.pal.SubImage(rect)
	wk.buf.Reset()
	std := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &r.pngBuffer}
	if err := std.Encode(&wk.buf, out); err != nil {
		return nil, fmt.Errorf("render: encode png: %w", err)
	}
	return bytes.Clone(wk.buf.Bytes()), nil
}

// draw composes s on a worker and returns it with the part of the frame
// that crop returns (the whole frame when crop is nil); the caller puts
// the worker back. The frame is drawn as palette indices (wk.pal) when
// indexed is set, else in RGBA (wk.canvas); over the previous frame of its
// match when frame, given the board, returns that frame (frames.go).
func (r *Renderer) draw(ctx context.Context, s *state.State, crop func(*board) (image.Rectangle, error), indexed bool, frame func(*board) *lastFrame) (*worker, image.Rectangle, error) {
	if err := ctx.Err(); err != nil {
		return nil, image.Rectangle{}, fmt.Errorf("render: %w", err)
	}
	if err := validate(s); err != nil {
		return nil, image.Rectangle{}, err
	}
	if err := r.init(); err != nil {
		return nil, image.Rectangle{}, err
	}
	b, err := r.board(s.Map)
	if err != nil {
		return nil, image.Rectangle{}, err
	}
	rect := image.Rect(0, 0, b.w, b.h)
	if crop != nil {
		if rect, err = crop(b); err != nil {
			return nil, image.Rectangle{}, err
		}
	}
	var prev *lastFrame
	if indexed && frame != nil {
		prev = frame(b)
	}
	wk, err := r.worker(b, prev)
	if err != nil {
		return nil, image.Rectangle{}, err
	}
	if indexed {
		wk.composeIndexed(s, prev)
	} else {
		wk.heldBy = nil
		wk.compose(s)
	}
	if err := ctx.Err(); err != nil {
		r.workers.put(wk)
		return nil, image.Rectangle{}, fmt.Errorf("render: %w", err)
	}
	return wk, rect, nil
}

// validate checks that s can be drawn at all.
func validate(s *state.State) error {
	if s == nil {
		return errors.New("render: no state")
	}
	if s.Map == nil {
		return errors.New("render: the state has no map")
	}
	m := s.Map
	if len(s.Seats) == 0 {
		return errors.New("render: the match has no players")
	}
	if len(s.Seats) > state.MaxSeats {
		return fmt.Errorf("render: %d players, at most %d can be drawn", len(s.Seats), state.MaxSeats)
	}
	if len(s.Terr) != m.Len() {
		return fmt.Errorf("render: the state has %d territories, map %q has %d", len(s.Terr), m.Name, m.Len())
	}
	for c, ct := range m.Continents {
		for _, t := range ct.Territories {
			if t < 0 || t >= m.Len() {
				return fmt.Errorf("render: continent %d names unknown territory %d", c, t)
			}
		}
	}
	for i, st := range s.Seats {
		c := st.Capitals
		if c.Capital < 0 || int(c.Capital) > m.Len() || c.Hero < 0 || int(c.Hero) > m.Len() {
			return fmt.Errorf("render: seat %d has its capital or hero on unknown territory (%d, %d)", i, c.Capital-1, c.Hero-1)
		}
	}
	for i, t := range s.Terr {
		if t.Owner < state.Neutral || t.Owner >= len(s.Seats) {
			return fmt.Errorf("render: %s is owned by unknown seat %d", m.TerritoryName(i), t.Owner)
		}
		if t.Armies < 0 {
			return fmt.Errorf("render: %s has %d armies", m.TerritoryName(i), t.Armies)
		}
	}
	for _, tr := range []*state.Trail{&s.Last, &s.This} {
		for _, a := range tr.Arrows() {
			if from, to := int(a.From), int(a.To); from < 0 || from >= m.Len() || to < 0 || to >= m.Len() {
				return fmt.Errorf("render: an arrow names unknown territory (%d to %d)", a.From, a.To)
			}
			if seat := int(a.Seat); seat < state.Neutral || seat >= len(s.Seats) {
				return fmt.Errorf("render: an arrow names unknown seat %d", a.Seat)
			}
		}
	}
	if s.Current < 0 || s.Current >= len(s.Seats) {
		return fmt.Errorf("render: the current seat %d is not a player", s.Current)
	}
	if s.Phase == state.PhaseOver && (s.Winner < 0 || s.Winner >= len(s.Seats)) {
		return fmt.Errorf("render: the match is over but winner %d is not a player", s.Winner)
	}
	return nil
}

// pngPool reuses the PNG encoder's buffers across renders.
type pngPool struct{ p sync.Pool }

func (p *pngPool) Get() *png.EncoderBuffer {
	b, _ := p.p.Get().(*png.EncoderBuffer)
	return b
}

func (p *pngPool) Put(b *png.EncoderBuffer) { p.p.Put(b) }
