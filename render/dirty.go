package render

import (
	"image"
	"math"
	"math/bits"
	"slices"
)

// dirty is the set of pixels that a frame's overlays draw on (a bit per
// pixel, row after row), and the tiles that hold any of them.
type dirty struct {
	g     tileGrid
	bits  []uint64
	tiles []bool
	// While planning, the signature of each tile (incremental.go), and
	// the key and box of the overlay being planned (inElem).
	sig    []uint64
	key    uint64
	box    image.Rectangle
	inElem bool
	// changed are the tiles drawn again, when a frame is drawn over the
	// previous one (partial).
	changed []bool
	// open is markArrow's scratch: an arrow's stretches of a row.
	open [][2]int
}

func (d *dirty) reset(g tileGrid) {
	d.g = g
	if n := (g.w*g.h + 63) / 64; len(d.bits) != n {
		d.bits = make([]uint64, n)
		d.tiles = make([]bool, g.n())
		d.changed = make([]bool, g.n())
	}
	// The signatures' slice goes to the encoder each frame (composeIndexed)
	// and comes back from it: any length.
	d.sig = slices.Grow(d.sig[:0], g.n())[:g.n()]
	clear(d.bits)
	clear(d.tiles)
	d.inElem = false
}

// markRow adds the pixels x0 to x1 (not included) of row y.
func (d *dirty) markRow(y, x0, x1 int) {
	x0, x1 = max(x0, 0), min(x1, d.g.w)
	if y < 0 || y >= d.g.h || x0 >= x1 {
		return
	}
	row := d.tiles[(y>>tileShift)*d.g.tw:]
	for tx := x0 >> tileShift; tx <= (x1-1)>>tileShift; tx++ {
		row[tx] = true
	}
	if d.inElem {
		d.sigRow(y, x0, x1)
	}
	i, j := y*d.g.w+x0, y*d.g.w+x1 // bits i to j
	for i < j {
		w, b := i>>6, uint(i&63)
		n := min(64-int(b), j-i)
		d.bits[w] |= (1<<uint(n) - 1) << b
		i += n
	}
}

// marked reports whether pixel i (y*w + x) is marked.
func (d *dirty) marked(i int) bool { return d.bits[i>>6]>>uint(i&63)&1 != 0 }

// mark adds the pixels of r.
func (d *dirty) mark(r image.Rectangle) {
	for y := max(r.Min.Y, 0); y < min(r.Max.Y, d.g.h); y++ {
		d.markRow(y, r.Min.X, r.Max.X)
	}
}

// runs calls f for each run of marked pixels of each row of clip: row y,
// from x0 to x1 (not included).
func (d *dirty) runs(clip image.Rectangle, f func(y, x0, x1 int)) {
	clip = clip.Intersect(image.Rect(0, 0, d.g.w, d.g.h))
	ty, marked := -1, false // the row of tiles last looked at, and whether any of them is marked
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		if y>>tileShift != ty {
			ty = y >> tileShift
			marked = slices.Contains(d.tiles[ty*d.g.tw:][clip.Min.X>>tileShift:((clip.Max.X-1)>>tileShift)+1], true)
		}
		if !marked {
			continue
		}
		base := y * d.g.w
		i, end := base+clip.Min.X, base+clip.Max.X
		for i < end {
			i = d.next(i, end, false)
			if i >= end {
				break
			}
			j := d.next(i, end, true)
			f(y, i-base, j-base)
			i = j
		}
	}
}

// next returns the first bit from i (before end) that is set, or unset
// when unset is true; end when there is none.
func (d *dirty) next(i, end int, unset bool) int {
	for i < end {
		w := d.bits[i>>6]
		if unset {
			w = ^w
		}
		w >>= uint(i & 63)
		if w != 0 {
			return min(end, i+bits.TrailingZeros64(w))
		}
		i = (i | 63) + 1
	}
	return end
}

// over composites the pixels of sp that are marked onto pix, tile by
// marked tile.
func (d *dirty) over(sp *sparse, pix []uint8) {
	for t, on := range d.tiles {
		if !on {
			continue
		}
		for k := sp.tile[t]; k < sp.tile[t+1]; k++ {
			o := sp.off[k]
			if d.marked(int(o >> 2)) {
				overPixel(pix[o:o+4:o+4], sp.pix[4*k:4*k+4:4*k+4])
			}
		}
	}
}

// sigRow adds the key of the overlay being planned to the signatures of
// the tiles of row y from x0 to x1, and the row to its box.
func (d *dirty) sigRow(y, x0, x1 int) {
	d.box = d.box.Union(image.Rect(x0, y, x1, y+1))
	row := d.sig[(y>>tileShift)*d.g.tw:]
	for tx := x0 >> tileShift; tx <= (x1-1)>>tileShift; tx++ {
		row[tx] = sigMix(row[tx], d.key)
	}
}

// sigBox is sigRow for the rows of r, once per tile (a stamp's box).
func (d *dirty) sigBox(r image.Rectangle) {
	r = r.Intersect(image.Rect(0, 0, d.g.w, d.g.h))
	if !d.inElem || r.Empty() {
		return
	}
	d.box = d.box.Union(r)
	for ty := r.Min.Y >> tileShift; ty <= (r.Max.Y-1)>>tileShift; ty++ {
		row := d.sig[ty*d.g.tw:]
		for tx := r.Min.X >> tileShift; tx <= (r.Max.X-1)>>tileShift; tx++ {
			row[tx] = sigMix(row[tx], d.key)
		}
	}
}

// anyChanged reports whether a tile of r is drawn again.
func (d *dirty) anyChanged(r image.Rectangle) bool {
	r = r.Intersect(image.Rect(0, 0, d.g.w, d.g.h))
	if r.Empty() {
		return false
	}
	for ty := r.Min.Y >> tileShift; ty <= (r.Max.Y-1)>>tileShift; ty++ {
		if slices.Contains(d.changed[ty*d.g.tw+r.Min.X>>tileShift:ty*d.g.tw+(r.Max.X-1)>>tileShift+1], true) {
			return true
		}
	}
	return false
}

// keepUnchanged leaves in the dirty set only the pixels of tiles drawn
// again.
func (d *dirty) keepUnchanged() {
	for t, on := range d.tiles {
		if !on || d.changed[t] {
			continue
		}
		d.tiles[t] = false
		r := d.g.rect(t%d.g.tw, t/d.g.tw)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			i, j := y*d.g.w+r.Min.X, y*d.g.w+r.Max.X
			for i < j {
				w, b := i>>6, uint(i&63)
				n := min(64-int(b), j-i)
				d.bits[w] &^= (1<<uint(n) - 1) << b
				i += n
			}
		}
	}
}

// markArrow marks the tiles under a stroke lw wide along the quadratic
// curve from (x0, y0) to (x2, y2) with control point (x1, y1): squares
// around points of the curve at most 3 px apart (the curve is no longer
// than its control polygon).
func (d *dirty) markArrow(x0, y0, x1, y1, x2, y2, lw float64) {
	n := int(math.Ceil((math.Hypot(x1-x0, y1-y0)+math.Hypot(x2-x1, y2-y1))/3)) + 1
	r := lw/2 + 2
	// The squares overlap their neighbours along the curve: each row's
	// stretch grows while the next square's meets it, and is marked once
	// when one does not (open, per row of the curve's bounds).
	top := int(min(y0, y1, y2)-r) - 2
	open := d.open[:0]
	for range int(max(y0, y1, y2)+r) + 3 - top {
		open = append(open, [2]int{})
	}
	d.open = open
	for i := range n + 1 {
		t := float64(i) / float64(n)
		u := 1 - t
		sq := disc(u*u*x0+2*u*t*x1+t*t*x2, u*u*y0+2*u*t*y1+t*t*y2, r)
		for y := sq.Min.Y; y < sq.Max.Y; y++ {
			o := &open[y-top]
			switch {
			case o[0] == o[1]:
				*o = [2]int{sq.Min.X, sq.Max.X}
			case sq.Min.X <= o[1] && sq.Max.X >= o[0]:
				o[0], o[1] = min(o[0], sq.Min.X), max(o[1], sq.Max.X)
			default:
				d.markRow(y, o[0], o[1])
				*o = [2]int{sq.Min.X, sq.Max.X}
			}
		}
	}
	for k, o := range open {
		if o[0] != o[1] {
			d.markRow(top+k, o[0], o[1])
		}
	}
}
