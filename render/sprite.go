package render

import "image"

// sprite is a badge drawn once, into a small image with room to spare,
// and kept as its runs of pixels along each row: the opaque ones with
// their palette indices, and those of the edges and the shadow, neither
// opaque nor transparent.
type sprite struct {
	img   *image.RGBA
	solid []spriteRun
	idx   []uint8 // the solid runs' indices, run after run
	edge  []spriteRun
}

type spriteRun struct{ y, x0, x1 int32 }

// stamp is a sprite to be written at a place of the frame.
type stamp struct {
	sp *sprite
	at image.Point
}

func newSprite(img *image.RGBA, q *quantizer) *sprite {
	sp := &sprite{img: img}
	for y := range img.Rect.Dy() {
		row := img.Pix[y*img.Stride : y*img.Stride+4*img.Rect.Dx()]
		for x := 0; x < img.Rect.Dx(); {
			a := row[4*x+3]
			x0 := x
			for x < img.Rect.Dx() && (row[4*x+3] == 255) == (a == 255) && (row[4*x+3] == 0) == (a == 0) {
				x++
			}
			r := spriteRun{int32(y), int32(x0), int32(x)}
			switch a {
			case 0:
			case 255:
				sp.solid = append(sp.solid, r)
				n := len(sp.idx)
				sp.idx = append(sp.idx, make([]uint8, x-x0)...)
				q.quantizePix(sp.idx[n:], row[4*x0:4*x])
			default:
				sp.edge = append(sp.edge, r)
			}
		}
	}
	return sp
}

// stamp writes the sprite's opaque pixels, at at, as indices into dst (a
// w x h frame): all of them when d is nil, else those of the tiles d
// draws again.
func (sp *sprite) stamp(dst []uint8, w, h int, at image.Point, d *dirty) {
	if d != nil && !d.anyChanged(sp.img.Rect.Add(at)) {
		return
	}
	n := 0
	for _, r := range sp.solid {
		y, x0, x1 := int(r.y)+at.Y, int(r.x0)+at.X, int(r.x1)+at.X
		idx := sp.idx[n : n+x1-x0]
		n += x1 - x0
		if y < 0 || y >= h {
			continue
		}
		lo, hi := max(x0, 0), min(x1, w) // the run within the frame
		if d == nil {
			if lo < hi {
				copy(dst[y*w+lo:y*w+hi], idx[lo-x0:hi-x0])
			}
			continue
		}
		changed := d.changed[(y>>tileShift)*d.g.tw:]
		for x := lo; x < hi; {
			e := min(hi, (x>>tileShift+1)<<tileShift)
			if changed[x>>tileShift] {
				copy(dst[y*w+x:y*w+e], idx[x-x0:e-x0])
			}
			x = e
		}
	}
}

// drawMarked draws the sprite at at on the pixels of dst that d marks:
// composeIndexed needs no others in RGBA (it stamps the opaque ones).
func (sp *sprite) drawMarked(dst *image.RGBA, at image.Point, d *dirty) {
	for _, r := range sp.edge {
		sp.drawRun(dst, at, r, nil)
	}
	for _, r := range sp.solid {
		sp.drawRun(dst, at, r, d)
	}
}

// drawRun draws run r of the sprite at at, only when d marks one of its
// pixels unless d is nil.
func (sp *sprite) drawRun(dst *image.RGBA, at image.Point, r spriteRun, d *dirty) {
	y := int(r.y) + at.Y
	x0, x1 := max(int(r.x0)+at.X, 0), min(int(r.x1)+at.X, dst.Rect.Dx())
	if y < 0 || y >= dst.Rect.Dy() || x0 >= x1 {
		return
	}
	if d != nil {
		if i := y*dst.Rect.Dx() + x0; d.next(i, i+x1-x0, false) == i+x1-x0 {
			return // none marked
		}
	}
	overRow(dst.Pix[dst.PixOffset(x0, y):dst.PixOffset(x1, y)], sp.img.Pix[sp.img.PixOffset(x0-at.X, int(r.y)):sp.img.PixOffset(x1-at.X, int(r.y))])
}

// drawSprite composites sprite sp over dst at r (sp's size, clipped to dst),
// as draw.Draw with draw.Over does, to the bit; but a sprite is mostly
// transparent or opaque pixels, which it skips or copies.
func drawSprite(dst *image.RGBA, r image.Rectangle, sp *image.RGBA) {
	c := r.Intersect(dst.Rect)
	if c.Empty() {
		return
	}
	n := 4 * c.Dx()
	for y := c.Min.Y; y < c.Max.Y; y++ {
		overRow(dst.Pix[dst.PixOffset(c.Min.X, y):][:n:n], sp.Pix[sp.PixOffset(c.Min.X-r.Min.X, y-r.Min.Y):][:n:n])
	}
}

// overRow composites the RGBA pixels s over d (as long) with draw.Over's
// arithmetic.
func overRow(d, s []uint8) {
	const m = 1<<16 - 1
	for i := 0; i+4 <= len(s); i += 4 {
		switch s[i+3] {
		case 0:
			continue
		case 255:
			copy(d[i:i+4], s[i:i+4])
			continue
		}
		sa := uint32(s[i+3]) * 0x101
		a := (m - sa) * 0x101
		d[i] = uint8((uint32(d[i])*a/m + uint32(s[i])*0x101) >> 8)
		d[i+1] = uint8((uint32(d[i+1])*a/m + uint32(s[i+1])*0x101) >> 8)
		d[i+2] = uint8((uint32(d[i+2])*a/m + uint32(s[i+2])*0x101) >> 8)
		d[i+3] = uint8((uint32(d[i+3])*a/m + sa) >> 8)
	}
}
