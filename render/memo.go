package render

import (
	"bytes"
	"image"
	"slices"
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
// (memoIndices).
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

// memoIndices returns the indices of m's after pixels by quantizer q,
// mapped on first use; held counts the memos' bytes.
func memoIndices(m *memo, q *quantizer, held *int) []uint8 {
	if m.mappedBy != q || len(m.idx) == 0 {
		n := len(m.after) / 4
		*held += n - len(m.idx)
		m.idx = slices.Grow(m.idx[:0], n)[:n]
		q.quantizePix(m.idx, m.after)
		m.mappedBy = q
	}
	return m.idx
}
