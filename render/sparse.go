package render

import "image"

// sparse is a mostly transparent layer kept as its non-transparent pixels:
// byte offsets into an RGBA image and premultiplied colours. Compositing it
// touches only those pixels.
type sparse struct {
	off []int32
	pix []uint8 // 4 bytes per offset
	// tile, when the layer was made by sparseFrom, gives the pixels of
	// each tile of the frame (see tileSize): those of tile k are
	// [tile[k], tile[k+1]), so a frame that redraws some tiles only
	// composites their part. Tiles are numbered row by row.
	tile []int32
	// box bounds the pixels of a layer made by sparseFromRect.
	box image.Rectangle
}

// sparseFrom keeps the non-transparent pixels of img, whose stride must be
// that of the destination it will be composited on, tile by tile.
func sparseFrom(img *image.RGBA) sparse {
	var sp sparse
	g := newTileGrid(img.Rect.Dx(), img.Rect.Dy())
	sp.tile = make([]int32, 0, g.n()+1)
	for ty := range g.th {
		for tx := range g.tw {
			sp.tile = append(sp.tile, int32(len(sp.off)))
			r := g.rect(tx, ty)
			for y := r.Min.Y; y < r.Max.Y; y++ {
				for i := img.PixOffset(r.Min.X, y); i < img.PixOffset(r.Max.X, y); i += 4 {
					if img.Pix[i+3] != 0 {
						sp.off = append(sp.off, int32(i))
						sp.pix = append(sp.pix, img.Pix[i:i+4]...)
					}
				}
			}
		}
	}
	sp.tile = append(sp.tile, int32(len(sp.off)))
	return sp
}

// over composites the layer onto dst (RGBA pixels) with the Porter-Duff
// "over" operator.
func (sp *sparse) over(dst []uint8) { sp.overRange(dst, 0, len(sp.off)) }

// overRange composites the layer's pixels i to j (not included).
func (sp *sparse) overRange(dst []uint8, i, j int) {
	for k := i; k < j; k++ {
		o := sp.off[k]
		overPixel(dst[o:o+4:o+4], sp.pix[4*k:4*k+4:4*k+4])
	}
}

// overPixel composites the premultiplied pixel s onto d ("over").
func overPixel(d, s []uint8) {
	a := 255 - uint32(s[3])
	if a == 0 {
		copy(d, s)
		return
	}
	d[0] = uint8(uint32(s[0]) + (uint32(d[0])*a+127)/255)
	d[1] = uint8(uint32(s[1]) + (uint32(d[1])*a+127)/255)
	d[2] = uint8(uint32(s[2]) + (uint32(d[2])*a+127)/255)
	d[3] = uint8(uint32(s[3]) + (uint32(d[3])*a+127)/255)
}

// sparseFromRect is sparseFrom for the pixels of img inside r only, row by
// row (no tiles).
func sparseFromRect(img *image.RGBA, r image.Rectangle) sparse {
	sp := sparse{box: r}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for i := img.PixOffset(r.Min.X, y); i < img.PixOffset(r.Max.X, y); i += 4 {
			if img.Pix[i+3] != 0 {
				sp.off = append(sp.off, int32(i))
				sp.pix = append(sp.pix, img.Pix[i:i+4]...)
			}
		}
	}
	return sp
}
