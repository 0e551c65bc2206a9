package render

import (
	"bytes"
	"image"
)

// An element of a frame (a swatch, a marker, a card's highlight, a hero's
// token) drawn again in the same place, with the same arguments, on the
// same pixels, gives the same pixels: most of them are drawn every frame
// on the panel's ground. composeIndexed keeps, per worker, each element's
// box before and after it was drawn, and copies the after when the box
// holds the before again: the same image, bit for bit, without gg. An
// element must not draw outside its box (TestIndexedFrame draws states
// twice with one worker, and would see it).

// memoKey is an element: what it is and the arguments that draw it.
type memoKey struct {
	kind    uint8
	x, y, r float64
	w, h    float64
	a       int
	tag     string
}

// The kinds of element.
const (
	memoSwatch = iota
	memoHighlight
	memoHero
	memoDeadHero
	memoPadlock
	memoItem
	memoCrown
	memoArrowKey
)

// memo is an element's box, and its pixels before and after it was drawn;
// idx are the after pixels' indices, mapped by mappedBy, when asked for
// (memoIndices, indexed.go).
type memo struct {
	r             image.Rectangle
	before, after []uint8
	on            *image.RGBA // the ground it was drawn on, when its caller knows
	idx           []uint8
	mappedBy      any
}

// maxMemoBytes bounds a worker's memos (the classic board's panel needs
// about 0.5 MB of them, a capitals board's with its markers about 1 MB).
const maxMemoBytes = 4 << 20

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

// take appends canvas's pixels in r to buf.
func take(canvas *image.RGBA, r image.Rectangle, buf []uint8) []uint8 {
	for y := r.Min.Y; y < r.Max.Y; y++ {
		buf = append(buf, canvas.Pix[canvas.PixOffset(r.Min.X, y):canvas.PixOffset(r.Max.X, y)]...)
	}
	return buf
}

// holds reports whether canvas's pixels in r are px.
func holds(canvas *image.RGBA, r image.Rectangle, px []uint8) bool {
	n := 4 * r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := canvas.PixOffset(r.Min.X, y)
		if !bytes.Equal(canvas.Pix[i:i+n], px[:n]) {
			return false
		}
		px = px[n:]
	}
	return true
}

// put writes px to canvas's pixels in r.
func put(canvas *image.RGBA, r image.Rectangle, px []uint8) {
	n := 4 * r.Dx()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		i := canvas.PixOffset(r.Min.X, y)
		copy(canvas.Pix[i:i+n], px[:n])
		px = px[n:]
	}
}

// box is the rectangle of pixels that a shape within (x0, y0) to (x1, y1)
// may touch: anti-aliasing reaches the pixel beyond its edge.
func box(x0, y0, x1, y1 float64) image.Rectangle {
	return image.Rect(int(x0)-2, int(y0)-2, int(x1)+3, int(y1)+3)
}

// disc is box for the square around a disc of radius r centred on (x, y).
func disc(x, y, r float64) image.Rectangle { return box(x-r, y-r, x+r, y+r) }
