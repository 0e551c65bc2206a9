package mapfile

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // a picture or index may be a GIF
	_ "image/jpeg" // a picture may be a JPEG
	"image/png"
	"io"

	_ "golang.org/x/image/bmp" // old maps are often BMPs
)

// decode checks an image's size from its header before decoding it, so
// that a small file announcing a huge image is refused unread.
func decode(what string, data []byte) (image.Image, string, error) {
	if len(data) == 0 {
		return nil, "", fmt.Errorf("the %s is empty", what)
	}
	if len(data) > MaxImageBytes {
		return nil, "", fmt.Errorf("the %s is %s: at most %s", what, size(int64(len(data))), size(MaxImageBytes))
	}
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return nil, "", fmt.Errorf("the %s cannot be read: want a PNG, JPEG, GIF or BMP image", what)
	}
	if cfg.Width < 1 || cfg.Height < 1 || cfg.Width > MaxImageSide || cfg.Height > MaxImageSide {
		return nil, "", fmt.Errorf("the %s is %dx%d pixels: at most %dx%d", what, cfg.Width, cfg.Height, MaxImageSide, MaxImageSide)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return nil, "", fmt.Errorf("the %s cannot be decoded (%s): %v", what, format, err)
	}
	if b := img.Bounds(); b.Dx() != cfg.Width || b.Dy() != cfg.Height {
		return nil, "", fmt.Errorf("the %s is %dx%d pixels but says %dx%d", what, b.Dx(), b.Dy(), cfg.Width, cfg.Height)
	}
	return img, format, nil
}

// indexValues reads each pixel's value as Domination does: the low byte
// of its sRGB value (Java's getRGB() & 0xff), the blue channel. A grey
// image's grey level is its blue; a paletted image's is its colour's.
func indexValues(img image.Image) []uint8 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	out := make([]uint8, w*h)
	switch m := img.(type) {
	case *image.Paletted:
		blue := make([]uint8, 256)
		for i, c := range m.Palette {
			blue[i] = color.NRGBAModel.Convert(c).(color.NRGBA).B
		}
		for y := range h {
			row := m.Pix[y*m.Stride : y*m.Stride+w]
			for x, p := range row {
				out[y*w+x] = blue[p]
			}
		}
	case *image.Gray:
		for y := range h {
			copy(out[y*w:(y+1)*w], m.Pix[y*m.Stride:y*m.Stride+w])
		}
	case *image.NRGBA:
		for y := range h {
			for x := range w {
				out[y*w+x] = m.Pix[y*m.Stride+4*x+2]
			}
		}
	default:
		for y := range h {
			for x := range w {
				out[y*w+x] = color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA).B
			}
		}
	}
	return out
}

// none is an index value that is no territory (Domination's NO_COUNTRY is
// 255; 0 is taken as none too, as map makers use both).
func none(v uint8) bool { return v == 0 || v == 255 }

// encodeIndex writes the canonical index image: an 8-bit grey PNG whose
// grey level is the territory's number, 255 where there is none, which
// Domination reads back as it reads any index.
func encodeIndex(w, h int, ids []uint8) ([]byte, error) {
	g := image.NewGray(image.Rect(0, 0, w, h))
	for i, v := range ids {
		if v == 0 {
			g.Pix[i] = 255
		} else {
			g.Pix[i] = v
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, g); err != nil {
		return nil, fmt.Errorf("mapfile: encode index: %w", err)
	}
	return buf.Bytes(), nil
}

// encodePNG re-encodes a picture whose format the renderer does not read
// (BMP) as a PNG.
func encodePNG(img image.Image) ([]byte, error) {
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("mapfile: encode picture: %w", err)
	}
	return buf.Bytes(), nil
}

// readLimited reads at most max bytes of r, and fails if there are more:
// never trust a size a header announces.
func readLimited(r io.Reader, max int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("more than %s", size(max))
	}
	return b, nil
}
