package render

import (
	"bytes"
	"image"
	"image/color"
	"runtime"
	"slices"
	"sync"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/riskbot/riskbot/assets/lang"
)

// kit is what every render of one renderer draws with: made once (the
// fonts and textures on the first render), then only read.
type kit struct {
	th     *theme
	colors []Color // per seat
	fonts  *fonts
	tex    *textures
	p      lang.Printer // the language of every word drawn
}

// worker holds one render's mutable things, and draws with its
// renderer's kit.
type worker struct {
	*kit
	b      *board
	s      float64
	canvas *image.RGBA
	pal    *image.Paletted
	dc     *gg.Context
	f      *faces
	buf    bytes.Buffer
	badges map[badgeKey]*sprite
	names  []string   // the seats' names as drawn
	q      *quantizer // the palette pal was made with
	rows   []*[levels]color.RGBA
	// planning is set while composeIndexed asks the steps that draw over
	// the map where they would draw: they mark those tiles in dirty
	// instead.
	planning bool
	// indexed is set while composeIndexed draws: only the pixels marked in
	// dirty need drawing in RGBA.
	indexed bool
	dirty   dirty
	stamps  []stamp // the badges planned, in order
	// elems are the overlays planned, in order, and elemAt the next one
	// drawn; partial is set while a frame is drawn over the previous
	// frame of its match, only its changed tiles (incremental.go).
	elems   []elem
	elemAt  int
	partial bool
	// heldBy is the last frame (number heldSeq) of a match that wk.pal holds,
	// as that frame was encoded; nil when it holds any other.
	heldBy  *lastFrame
	heldSeq uint64
	// frame is the previous frame of the match being
	// drawn, if any; partialPanel is set when its panel's cards can be
	// kept, and kept are the boxes of the cards kept (keepCard).
	frame        *lastFrame
	partialPanel bool
	kept         []image.Rectangle
	// drawn are the parts of the panel drawn on its ground when its
	// cards can be kept (its first line, the cards drawn), when the
	// panel's kind lists them (the classic strip); empty when it does not.
	// touched are then the boxes of what was drawn in them (touch).
	drawn, touched []image.Rectangle
	// grounds are elements drawn on the panel's ground this frame that
	// most of their box keeps: the panel's mapping compares with them too.
	grounds []*memo
	// Scratch: the runs of changed tiles in a row of them, the panel's
	// stretches of a row (spans).
	runs, spans [][2]int
	// ground is the panel ground that the canvas's panel holds, as
	// composeIndexed leaves it; nil when it holds anything else.
	ground *image.RGBA
	// memos are the elements drawn by composeIndexed (memo.go), and
	// memoBytes what they keep.
	memos     map[memoKey]*memo
	memoBytes int
}

// faces are one worker's font faces, at the renderer's scale.
type faces struct {
	badge, badgeSmall font.Face // army counts
	tag, tagMid       font.Face // initials in swatches: legend, panel
	tagBig            font.Face // and the banner
	head, headBig     font.Face // the panel's first line
	name, stat, small font.Face // player cards
	banner, bannerSub font.Face
}

// newFaces makes the faces at scale s. Badge digits, the player to move and
// player names are at least 6 px tall when the image is shown 400 px wide,
// as Discord does on a phone (TestReadableInChat).
func newFaces(fs *fonts, s float64) (*faces, error) {
	var f faces
	glyphs := &glyphCache{m: map[glyphKey]glyph{}, bounds: map[glyphKey]glyphBounds{}, kerns: map[kernKey]fixed.Int26_6{}, adv: map[glyphKey]glyphBounds{}}
	for i, x := range []struct {
		dst  *font.Face
		ft   *opentype.Font
		size float64
	}{
		{&f.badge, fs.bold, 35}, {&f.badgeSmall, fs.bold, 34},
		{&f.tag, fs.bold, 16}, {&f.tagMid, fs.bold, 21}, {&f.tagBig, fs.bold, 30},
		{&f.head, fs.medium, 34}, {&f.headBig, fs.bold, 35},
		{&f.name, fs.bold, 34}, {&f.stat, fs.medium, 27}, {&f.small, fs.medium, 20},
		{&f.banner, fs.bold, 50}, {&f.bannerSub, fs.medium, 22},
	} {
		fc, err := face(x.ft, x.size*s)
		if err != nil {
			return nil, err
		}
		*x.dst = &cachedFace{Face: fc, id: uint8(i), cache: glyphs}
	}
	return &f, nil
}

// badgeKey identifies a badge sprite.
type badgeKey struct {
	owner  int8
	armies int32
}

// maxSprites bounds a worker's badge cache (about 15 KB a sprite).
const maxSprites = 600

// workerPool keeps the idle workers, at most maxIdle of them. A render
// of a match's next moment takes the worker that holds the match's frame
// when it is idle (worker.heldBy), which need not copy it. So that two
// matches drawn in turn (two channels posting alternately) each keep
// their frame, a match whose frame no idle worker holds gets a new worker
// while fewer than maxIdle are alive, rather than another match's.
type workerPool struct {
	mu   sync.Mutex
	idle []*worker // the most recently put last
	busy int       // workers out of the pool (the ones get handed out, or had made)
}

// maxIdle bounds the idle workers kept: the renders that run at once.
func maxIdle() int { return max(2, runtime.GOMAXPROCS(0)) }

// get returns an idle worker: the one that holds prev's frame if any
// (prev may be nil). Else, for a match's frame (prev not nil), nil while
// fewer than maxIdle workers are alive, then one that holds no frame, or
// the least recently put; without prev, the most recently put. nil tells
// the caller to make a worker.
func (p *workerPool) get(prev *lastFrame) *worker {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy++
	if len(p.idle) == 0 {
		return nil
	}
	i := len(p.idle) - 1
	if prev != nil {
		j := slices.IndexFunc(p.idle, func(wk *worker) bool { return wk.heldBy == prev && wk.heldSeq == prev.seq })
		if j < 0 && len(p.idle)+p.busy-1 < maxIdle() {
			return nil
		}
		if j < 0 {
			j = max(0, slices.IndexFunc(p.idle, func(wk *worker) bool { return wk.heldBy == nil }))
		}
		i = j
	}
	wk := p.idle[i]
	p.idle = slices.Delete(p.idle, i, i+1)
	return wk
}

// put makes wk idle, forgetting the least recently put when too many are.
func (p *workerPool) put(wk *worker) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.busy = max(0, p.busy-1)
	if len(p.idle) >= maxIdle() {
		p.idle = slices.Delete(p.idle, 0, 1)
	}
	p.idle = append(p.idle, wk)
}

// touch notes that r was drawn on, when the panel's parts drawn are
// listed (only those pixels are then compared with the ground).
func (wk *worker) touch(r image.Rectangle) {
	if len(wk.drawn) > 0 {
		wk.touched = append(wk.touched, r)
	}
}

// text draws s on the canvas (drawText) and touches what it drew on,
// which it returns.
func (wk *worker) text(fc font.Face, s string, x, y float64, c color.Color) image.Rectangle {
	r := drawText(wk.canvas, fc, s, x, y, c)
	wk.touch(r)
	return r
}

// memoized draws an element whose pixels lie in r, or copies what it drew
// when r holds what it held then, and returns its memo. Outside
// composeIndexed it just draws, and returns nil. A caller that knows r
// holds the panel's ground on (the element is the first drawn there) says
// so: then r is not compared with what it held, nor touched (the
// element's memo is mapPanel's ground there).
func (wk *worker) memoized(k memoKey, r image.Rectangle, on *image.RGBA, draw func()) *memo {
	if !wk.indexed {
		draw()
		return nil
	}
	r = r.Intersect(wk.canvas.Rect)
	if on == nil {
		wk.touch(r)
	}
	m := wk.memos[k]
	if m != nil && m.r == r && (on != nil && m.on == on || holds(wk.canvas, r, m.before)) {
		put(wk.canvas, r, m.after)
		return m
	}
	if m == nil {
		if wk.memoBytes > maxMemoBytes {
			clear(wk.memos)
			wk.memoBytes = 0
		}
		m = &memo{}
		wk.memos[k] = m
	}
	wk.memoBytes -= len(m.before) + len(m.after) + len(m.idx)
	m.r = r
	m.before = take(wk.canvas, r, m.before[:0])
	draw()
	m.after = take(wk.canvas, r, m.after[:0])
	m.idx, m.mappedBy, m.on = m.idx[:0], nil, on
	wk.memoBytes += len(m.before) + len(m.after)
	return m
}
