package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/png"
	"sync"

	"github.com/fogleman/gg"

	"github.com/riskbot/riskbot/state"
)

// DefaultWidth is the width of the image when Options.Width is 0.
const DefaultWidth = 1600

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
}

// Renderer draws match states as PNG images. The static layers of each map
// (land, sea, borders, names) are built on the first render of that map and
// cached. A Renderer is safe for concurrent use: every render draws with a
// worker (canvas, gg context, font faces) that no other render touches.
type Renderer struct {
	opts   Options
	width  int
	colors []Color
	th     *theme

	setup     sync.Once
	setupErr  error
	fonts     *fonts
	tex       *textures
	classic   *look // the classic board's colours
	mu        sync.Mutex
	boards    map[string]*boardEntry
	workers   sync.Pool // *worker
	pngBuffer pngPool

	// Generated maps (capitals): boards cached by name, least recently
	// used first out; their own look, made on first use.
	grids     map[string]*gridEntry
	gridUses  uint64
	gridSetup sync.Once
	gridLook  *look
}

// New returns a renderer. Invalid options are reported by Render.
func New(opts Options) *Renderer {
	r := &Renderer{opts: opts, width: opts.Width, th: newTheme(), boards: map[string]*boardEntry{}, grids: map[string]*gridEntry{}}
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

// worker holds one render's mutable things.
type worker struct {
	r      *Renderer
	b      *board
	s      float64
	canvas *image.RGBA
	pal    *image.Paletted
	dc     *gg.Context
	f      *faces
	buf    bytes.Buffer
	badges map[badgeKey]*image.RGBA
	names  []string   // the seats' names as drawn
	q      *quantizer // the palette pal was made with
}

func (r *Renderer) worker(b *board) (*worker, error) {
	wk, _ := r.workers.Get().(*worker)
	if wk == nil {
		f, err := newFaces(r.fonts, float64(r.width)/refWidth)
		if err != nil {
			return nil, err
		}
		wk = &worker{r: r, f: f, s: float64(r.width) / refWidth, badges: map[badgeKey]*image.RGBA{}}
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
	}
	wk.b = b
	return wk, nil
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
	wk, rect, err := r.draw(ctx, s, crop)
	if err != nil {
		return nil, err
	}
	defer r.workers.Put(wk)
	var out image.Image = wk.pal
	if rect == wk.pal.Rect {
		wk.q.quantize(wk.pal, wk.canvas)
	} else {
		wk.q.quantizeRect(wk.pal, wk.canvas, rect)
		out = wk.pal.SubImage(rect)
	}
	wk.buf.Reset()
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &r.pngBuffer}
	if err := enc.Encode(&wk.buf, out); err != nil {
		return nil, fmt.Errorf("render: encode png: %w", err)
	}
	return bytes.Clone(wk.buf.Bytes()), nil
}

// draw composes s on a worker's canvas and returns it with the part of the
// frame that crop returns (the whole frame when crop is nil); the caller
// puts the worker back.
func (r *Renderer) draw(ctx context.Context, s *state.State, crop func(*board) (image.Rectangle, error)) (*worker, image.Rectangle, error) {
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
	wk, err := r.worker(b)
	if err != nil {
		return nil, image.Rectangle{}, err
	}
	wk.compose(s)
	if err := ctx.Err(); err != nil {
		r.workers.Put(wk)
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
