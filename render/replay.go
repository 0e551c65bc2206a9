package render

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"math"
	"time"

	xdraw "golang.org/x/image/draw"
	"golang.org/x/image/font"
	"golang.org/x/image/font/basicfont"
	"golang.org/x/image/math/fixed"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// DefaultReplayLimit is the size a replay fits in when ReplayOptions.Limit
// is 0: 8 MiB, the smallest upload limit a Discord server may have.
const DefaultReplayLimit = 8 << 20

// The replay's frame sizes: frames start at most maxReplayWidth wide (the
// map stays readable in a chat's image viewer) and shrink to fit the limit
// down to minReplayWidth; below that, frames are dropped instead.
const (
	maxReplayWidth = 800
	minReplayWidth = 320
	defaultDelay   = 700 * time.Millisecond
	lastHold       = 4 * time.Second
)

// ReplayOptions configure Replay and Strip.
type ReplayOptions struct {
	// Limit is the most bytes the image may take: the chat's upload limit
	// (Discord's attachment_size_limit). 0 means DefaultReplayLimit.
	Limit int
	// Width of the frames (of each small multiple, for Strip) before any
	// shrinking to fit; 0 chooses. It is at most the renderer's width.
	Width int
	// Delay is how long each frame shows (Replay); 0 means 0.7 s. The
	// last frame stays 4 s.
	Delay time.Duration
}

// ReplayInfo says what an encoded replay holds: the size of its frames,
// how many of the turns it shows, and its length in bytes.
type ReplayInfo struct {
	Width, Height int
	Frames        int // frames (or small multiples) in the image
	Dropped       int // turns left out to fit the limit
	Bytes         int
}

// film is a match's frames, drawn once and quantized to one palette.
type film struct {
	frames  []*image.Paletted
	palette color.Palette
	q       *quantizer
	// full: the quantizer's palette had no room for the transparent
	// colour, which took the place of its last; lost is what the pixels of
	// that colour become.
	full bool
	lost uint8
}

// quantize writes src in the film's palette into dst.
func (f *film) quantize(dst *image.Paletted, src *image.RGBA) {
	f.q.quantize(dst, src)
	if !f.full {
		return
	}
	hole := uint8(len(f.palette) - 1)
	for i, v := range dst.Pix {
		if v == hole {
			dst.Pix[i] = f.lost
		}
	}
}

// shootFor checks o's size limit and returns it, with the frames shot at
// o's width, or at width when o gives none (never wider than the
// renderer's).
func (r *Renderer) shootFor(ctx context.Context, turns []*state.State, o ReplayOptions, width int) (*film, int, error) {
	limit, err := o.limit()
	if err != nil {
		return nil, 0, err
	}
	if o.Width > 0 {
		width = o.Width
	}
	f, err := r.shoot(ctx, turns, min(width, r.width))
	if err != nil {
		return nil, 0, err
	}
	return f, limit, nil
}

// shoot draws every state at the renderer's width, scales it to width w
// and quantizes it.
func (r *Renderer) shoot(ctx context.Context, turns []*state.State, w int) (*film, error) {
	if len(turns) == 0 {
		return nil, errors.New("render: a replay needs at least one turn")
	}
	f := &film{}
	var small *image.RGBA
	for i, s := range turns {
		if s == nil || s.Map == nil || i > 0 && s.Map.Name != turns[0].Map.Name {
			return nil, fmt.Errorf("render: replay: turn %d is not on the first turn's map", i)
		}
		wk, _, err := r.draw(ctx, s, nil, false, nil)
		if err != nil {
			return nil, fmt.Errorf("render: replay: turn %d: %w", i, err)
		}
		src := wk.canvas
		if f.q == nil {
			f.q = wk.q
			f.palette = withTransparent(wk.q.palette)
			if f.full = len(wk.q.palette) >= 256; f.full {
				f.lost = paletteIndex(f.palette, color.RGBAModel.Convert(wk.q.palette[255]).(color.RGBA))
			}
		}
		if w < src.Rect.Dx() {
			if small == nil {
				small = image.NewRGBA(image.Rect(0, 0, w, scaledHeight(src.Rect, w)))
			}
			xdraw.ApproxBiLinear.Scale(small, small.Rect, src, src.Rect, xdraw.Src, nil)
			src = small
		}
		if i > 0 && src.Rect != f.frames[0].Rect {
			r.workers.put(wk)
			return nil, fmt.Errorf("render: replay: turn %d is drawn %v, the first %v", i, src.Rect.Size(), f.frames[0].Rect.Size())
		}
		p := image.NewPaletted(src.Rect, f.palette)
		f.quantize(p, src)
		r.workers.put(wk)
		f.frames = append(f.frames, p)
	}
	return f, nil
}

func scaledHeight(r image.Rectangle, w int) int {
	return max(1, int(math.Round(float64(r.Dy())*float64(w)/float64(r.Dx()))))
}

// withTransparent returns the palette with a transparent colour at its end,
// for the pixels a frame leaves as they were; a full palette gives up its
// last colour, the rarest (the quantizer adds the board's colours first).
func withTransparent(p color.Palette) color.Palette {
	out := append(color.Palette(nil), p...)
	if len(out) >= 256 {
		out = out[:255]
	}
	return append(out, color.RGBA{})
}

// shrink returns the film's frames scaled to width w and quantized again.
func (f *film) shrink(w int) []*image.Paletted {
	if w >= f.frames[0].Rect.Dx() {
		return f.frames
	}
	src := image.NewRGBA(f.frames[0].Rect)
	dst := image.NewRGBA(image.Rect(0, 0, w, scaledHeight(src.Rect, w)))
	out := make([]*image.Paletted, len(f.frames))
	for i, p := range f.frames {
		xdraw.Draw(src, src.Rect, p, image.Point{}, xdraw.Src)
		xdraw.BiLinear.Scale(dst, dst.Rect, src, src.Rect, xdraw.Src, nil)
		out[i] = image.NewPaletted(dst.Rect, f.palette)
		f.quantize(out[i], dst)
	}
	return out
}

// pickFrames returns the indices of n frames of total, evenly spread, the
// first and the last always among them.
func pickFrames(total, n int) []int {
	if n >= total {
		n = total
	}
	idx := make([]int, 0, n)
	for i := range n {
		if n == 1 {
			return []int{total - 1}
		}
		idx = append(idx, int(math.Round(float64(i)*float64(total-1)/float64(n-1))))
	}
	return idx
}

// fit encodes at shrinking widths, then with fewer frames, until the
// result is at most limit bytes. encode gets the frames to encode.
func (f *film) fit(ctx context.Context, limit int, encode func([]*image.Paletted) ([]byte, error)) ([]byte, ReplayInfo, error) {
	frames := f.frames
	keep := len(frames)
	w := frames[0].Rect.Dx()
	for attempt := 0; ; attempt++ {
		if err := ctx.Err(); err != nil {
			return nil, ReplayInfo{}, fmt.Errorf("render: replay: %w", err)
		}
		chosen := make([]*image.Paletted, 0, keep)
		for _, i := range pickFrames(len(frames), keep) {
			chosen = append(chosen, frames[i])
		}
		b, err := encode(chosen)
		if err != nil {
			return nil, ReplayInfo{}, err
		}
		info := ReplayInfo{Width: chosen[0].Rect.Dx(), Height: chosen[0].Rect.Dy(), Frames: len(chosen), Dropped: len(f.frames) - len(chosen), Bytes: len(b)}
		if len(b) <= limit {
			return b, info, nil
		}
		// Size goes roughly with the area, so with the square of the width.
		ratio := float64(limit) / float64(len(b)) * 0.92
		switch {
		case w > minReplayWidth:
			w = max(minReplayWidth, int(float64(w)*math.Sqrt(ratio)))
			frames = f.shrink(w)
		case keep > 1:
			if keep == len(frames) { // before dropping turns, see that one frame fits
				one, err := encode(frames[len(frames)-1:])
				if err != nil {
					return nil, ReplayInfo{}, err
				}
				if len(one) > limit {
					return nil, info, fmt.Errorf("render: replay: even one frame %d pixels wide takes %d bytes, over the limit of %d", w, len(one), limit)
				}
			}
			keep = max(1, int(float64(keep)*ratio))
		default:
			return nil, info, fmt.Errorf("render: replay: even one frame %d pixels wide takes %d bytes, over the limit of %d", w, len(b), limit)
		}
		if attempt > 20 {
			return nil, info, fmt.Errorf("render: replay: no fit in %d bytes", limit)
		}
	}
}

func (o ReplayOptions) limit() (int, error) {
	switch {
	case o.Limit < 0:
		return 0, fmt.Errorf("render: replay: negative size limit %d", o.Limit)
	case o.Limit == 0:
		return DefaultReplayLimit, nil
	}
	return o.Limit, nil
}

// Replay draws a match as an animated GIF, one frame per state: the states
// a match's turns end with (engine.Record.Turns gives them), each with the
// arrows of its turn. Frames after the first store only the pixels that
// changed. The GIF fits in the size limit: frames shrink (down to 320
// pixels wide), then turns are left out, evenly, keeping the first and
// the last. It is safe for concurrent use.
func (r *Renderer) Replay(ctx context.Context, turns []*state.State, o ReplayOptions) ([]byte, ReplayInfo, error) {
	f, limit, err := r.shootFor(ctx, turns, o, maxReplayWidth)
	if err != nil {
		return nil, ReplayInfo{}, err
	}
	delay := o.Delay
	if delay <= 0 {
		delay = defaultDelay
	}
	return f.fit(ctx, limit, func(frames []*image.Paletted) ([]byte, error) {
		return encodeGIF(frames, f.palette, delay)
	})
}

// encodeGIF writes the frames as a looping GIF; each frame after the first
// is the box of pixels that changed, the unchanged ones transparent.
func encodeGIF(frames []*image.Paletted, pal color.Palette, delay time.Duration) ([]byte, error) {
	hole := uint8(len(pal) - 1)
	rect := frames[0].Rect
	g := &gif.GIF{Config: image.Config{ColorModel: pal, Width: rect.Dx(), Height: rect.Dy()}}
	cs := int(delay / (10 * time.Millisecond))
	for i, p := range frames {
		img := p
		if i > 0 {
			img = delta(frames[i-1], p, hole)
		}
		g.Image = append(g.Image, img)
		g.Delay = append(g.Delay, cs)
		g.Disposal = append(g.Disposal, gif.DisposalNone)
	}
	g.Delay[len(g.Delay)-1] = int(lastHold / (10 * time.Millisecond))
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, g); err != nil {
		return nil, fmt.Errorf("render: encode gif: %w", err)
	}
	return buf.Bytes(), nil
}

// delta returns the box of next's pixels that differ from prev's, the
// pixels that do not set to the transparent index hole.
func delta(prev, next *image.Paletted, hole uint8) *image.Paletted {
	w, h := next.Rect.Dx(), next.Rect.Dy()
	x0, y0, x1, y1 := w, h, -1, -1
	for y := range h {
		row := y * w
		for x := range w {
			if prev.Pix[row+x] != next.Pix[row+x] {
				x0, x1 = min(x0, x), max(x1, x)
				y0, y1 = min(y0, y), max(y1, y)
			}
		}
	}
	if x1 < 0 { // nothing changed: one clear pixel
		x0, y0, x1, y1 = 0, 0, 0, 0
	}
	box := image.Rect(x0, y0, x1+1, y1+1)
	out := image.NewPaletted(box, next.Palette)
	for y := y0; y <= y1; y++ {
		for x := x0; x <= x1; x++ {
			i := y*w + x
			v := next.Pix[i]
			if prev.Pix[i] == v {
				v = hole
			}
			out.Pix[(y-y0)*out.Stride+(x-x0)] = v
		}
	}
	return out
}

// Strip draws the same frames as Replay side by side, in rows, as one PNG
// of small multiples, each captioned with its turn: the whole match at a
// glance. It fits in the size limit as Replay does.
func (r *Renderer) Strip(ctx context.Context, turns []*state.State, o ReplayOptions) ([]byte, ReplayInfo, error) {
	// About 3200 pixels across unless o says: ten columns of 320 for a
	// long match.
	f, limit, err := r.shootFor(ctx, turns, o, max(minReplayWidth, min(maxReplayWidth, 3200/columns(len(turns)))))
	if err != nil {
		return nil, ReplayInfo{}, err
	}
	labels := make([]string, len(turns))
	for i, s := range turns {
		labels[i] = caption(r.p, s, i)
	}
	b, info, err := f.fit(ctx, limit, func(frames []*image.Paletted) ([]byte, error) {
		var ls []string
		for _, i := range pickFrames(len(f.frames), len(frames)) {
			ls = append(ls, labels[i])
		}
		return encodeStrip(frames, ls, f.palette)
	})
	return b, info, err
}

// columns is the number of small multiples in a row.
func columns(n int) int {
	return max(1, min(10, int(math.Ceil(math.Sqrt(float64(n)*1.5)))))
}

// caption names a frame, in pr's language: the turn it ends, or the
// start, or the end.
func caption(pr lang.Printer, s *state.State, i int) string {
	switch {
	case s.Phase == state.PhaseOver:
		return pr.T("render.caption.end", "Turn", s.Turn)
	case i == 0 && s.Last.Len() == 0:
		return pr.T("render.caption.start")
	case s.This.Len() > 0:
		return pr.T("render.caption.turn", "Turn", s.Turn)
	}
	return pr.T("render.caption.after", "Turn", s.Turn-1)
}

const captionHeight = 16

// encodeStrip lays the frames out in rows under their captions.
func encodeStrip(frames []*image.Paletted, labels []string, pal color.Palette) ([]byte, error) {
	fw, fh := frames[0].Rect.Dx(), frames[0].Rect.Dy()
	cols := min(len(frames), columns(len(frames)))
	rows := (len(frames) + cols - 1) / cols
	const gap = 4
	cw, ch := fw+gap, fh+captionHeight+gap
	out := image.NewPaletted(image.Rect(0, 0, cols*cw+gap, rows*ch+gap), pal)
	bg, fg := paletteIndex(pal, color.RGBA{0x20, 0x24, 0x2c, 255}), paletteIndex(pal, color.RGBA{0xf0, 0xf0, 0xf0, 255})
	for i := range out.Pix {
		out.Pix[i] = bg
	}
	for i, p := range frames {
		x, y := gap+(i%cols)*cw, gap+(i/cols)*ch
		for row := range fh {
			copy(out.Pix[(y+captionHeight+row)*out.Stride+x:], p.Pix[row*p.Stride:row*p.Stride+fw])
		}
		d := font.Drawer{Dst: out, Src: image.NewUniform(pal[fg]), Face: basicfont.Face7x13,
			Dot: fixed.P(x+2, y+captionHeight-4)}
		d.DrawString(labels[i])
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, out); err != nil {
		return nil, fmt.Errorf("render: encode strip: %w", err)
	}
	return buf.Bytes(), nil
}

// paletteIndex returns the index of the palette colour closest to c, the
// last aside (a linear search: for a few colours, never per pixel).
func paletteIndex(pal color.Palette, c color.RGBA) uint8 {
	return uint8(pal[:len(pal)-1].Index(c))
}
