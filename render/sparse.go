package render

import "image"

// sparse is a mostly transparent layer kept as its non-transparent pixels:
// byte offsets into an RGBA image and premultiplied colours. Compositing it
// touches only those pixels.
type sparse struct {
	off []int32
	pix []uint8 // 4 bytes per offset
}

// sparseFrom keeps the non-transparent pixels of img, whose stride must be
// that of the destination it will be composited on.
func sparseFrom(img *image.RGBA) sparse {
	var sp sparse
	for i := 0; i < len(img.Pix); i += 4 {
		if img.Pix[i+3] != 0 {
			sp.off = append(sp.off, int32(i))
			sp.pix = append(sp.pix, img.Pix[i:i+4]...)
		}
	}
	return sp
}

// over composites the layer onto dst (RGBA pixels) with the Porter-Duff
// "over" operator.
func (sp *sparse) over(dst []uint8) {
	for k, o := range sp.off {
		s := sp.pix[4*k : 4*k+4 : 4*k+4]
		d := dst[o : o+4 : o+4]
		a := 255 - uint32(s[3])
		if a == 0 {
			copy(d, s)
			continue
		}
		d[0] = uint8(uint32(s[0]) + (uint32(d[0])*a+127)/255)
		d[1] = uint8(uint32(s[1]) + (uint32(d[1])*a+127)/255)
		d[2] = uint8(uint32(s[2]) + (uint32(d[2])*a+127)/255)
		d[3] = uint8(uint32(s[3]) + (uint32(d[3])*a+127)/255)
	}
}

// sparseFromRect is sparseFrom for the pixels of img inside r only.
func sparseFromRect(img *image.RGBA, r image.Rectangle) sparse {
	var sp sparse
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
