package render

import (
	"encoding/binary"
	"image"
	"image/color"
)

// quantizer maps the composed RGBA frame to at most 256 colours, so that
// the PNG is paletted: a third of the bytes of RGB and much faster to
// compress. The palette is made of the colours the board is built from
// (every owner's land shades, the sea, the glows, the panel); a lookup table
// indexed by a 16-bit (5-6-5) form of the colour gives each pixel the
// nearest of them. Both are made once per renderer and kind of map (look.go).
type quantizer struct {
	palette color.Palette
	rgb     [][3]int32
	lut     []uint8 // 1<<16 entries
}

func key565(r, g, b uint8) int {
	return int(r>>3)<<11 | int(g>>2)<<5 | int(b>>3)
}

// add puts c in the palette unless it is there or the palette is full.
func (q *quantizer) add(c color.RGBA) {
	c.A = 255
	if len(q.palette) >= 256 {
		return
	}
	for _, p := range q.palette {
		if p == c {
			return
		}
	}
	q.palette = append(q.palette, c)
	q.rgb = append(q.rgb, [3]int32{int32(c.R), int32(c.G), int32(c.B)})
}

// finish builds the lookup table once the palette is complete.
func (q *quantizer) finish() {
	q.lut = q.table()
	// Palette colours map to themselves even when two share a cell.
	for i, c := range q.palette {
		c := c.(color.RGBA)
		k := key565(c.R, c.G, c.B)
		if q.palette[q.lut[k]] != c && q.closer(c, i, int(q.lut[k])) {
			q.lut[k] = uint8(i)
		}
	}
}

// keyColor is the colour at the centre of a table entry's cell.
func keyColor(k int) (r, g, b int32) {
	return int32(k>>11)<<3 | 4, int32(k>>5&63)<<2 | 2, int32(k&31)<<3 | 4
}

// table computes the nearest palette entry of every 5-6-5 key. Keys are
// taken in blocks of 4 x 8 x 4; for each block only the palette entries
// that can be nearest to some point of the block are tried: those whose
// least distance to the block is within the smallest greatest distance of
// any entry. The result is the same as trying every entry, in a fraction of
// the time.
func (q *quantizer) table() []uint8 {
	lut := make([]uint8, 1<<16)
	weights := [3]int32{3, 4, 2} // as in dist
	var cand []int
	for br := 0; br < 32; br += 4 {
		for bg := 0; bg < 64; bg += 8 {
			for bb := 0; bb < 32; bb += 4 {
				r0, g0, b0 := keyColor(br<<11 | bg<<5 | bb)
				r1, g1, b1 := keyColor((br+3)<<11 | (bg+7)<<5 | (bb + 3))
				lo := [3]int32{r0, g0, b0}
				hi := [3]int32{r1, g1, b1}
				far := int32(1<<31 - 1)
				for _, p := range q.rgb {
					var d int32
					for c := range 3 {
						e := max(p[c]-lo[c], hi[c]-p[c])
						d += weights[c] * e * e
					}
					far = min(far, d)
				}
				cand = cand[:0]
				for i, p := range q.rgb {
					var d int32
					for c := range 3 {
						var e int32
						if p[c] < lo[c] {
							e = lo[c] - p[c]
						} else if p[c] > hi[c] {
							e = p[c] - hi[c]
						}
						d += weights[c] * e * e
					}
					if d <= far {
						cand = append(cand, i)
					}
				}
				for r := br; r < br+4; r++ {
					for g := bg; g < bg+8; g++ {
						for b := bb; b < bb+4; b++ {
							k := r<<11 | g<<5 | b
							cr, cg, cb := keyColor(k)
							best, bi := int32(1<<31-1), 0
							for _, i := range cand {
								if d := q.dist(cr, cg, cb, i); d < best {
									best, bi = d, i
								}
							}
							lut[k] = uint8(bi)
						}
					}
				}
			}
		}
	}
	return lut
}

// closer reports whether entry i is nearer to c than entry j (it always is
// when i is c itself).
func (q *quantizer) closer(c color.RGBA, i, j int) bool {
	return q.dist(int32(c.R), int32(c.G), int32(c.B), i) <= q.dist(int32(c.R), int32(c.G), int32(c.B), j)
}

func (q *quantizer) dist(r, g, b int32, i int) int32 {
	p := q.rgb[i]
	dr, dg, db := r-p[0], g-p[1], b-p[2]
	// Weighted towards green, as the eye is.
	return 3*dr*dr + 4*dg*dg + 2*db*db
}

func (q *quantizer) nearest(r, g, b int32) uint8 {
	best, bi := int32(1<<31-1), 0
	for i := range q.rgb {
		if d := q.dist(r, g, b, i); d < best {
			best, bi = d, i
		}
	}
	return uint8(bi)
}

// quantize writes src's pixels as palette indices into dst (same size).
func (q *quantizer) quantize(dst *image.Paletted, src *image.RGBA) {
	q.quantizePix(dst.Pix, src.Pix)
}

// quantizePix maps the RGBA pixels sp (4 bytes each, no gaps) to the
// indices dp.
func (q *quantizer) quantizePix(dp, sp []uint8) {
	lut := (*[1 << 16]uint8)(q.lut)
	sp = sp[:4*len(dp)]
	for i := range dp {
		c := binary.LittleEndian.Uint32(sp) // r, g, b, a from the low byte
		sp = sp[4:]
		dp[i] = lut[uint16(c>>3&0x1f<<11|c>>10&0x3f<<5|c>>19&0x1f)]
	}
}
