package render

import (
	"bytes"
	"image"
	"image/color"
	"math/rand/v2"
	"testing"

	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// TestDrawText draws strings with drawText and with font.Drawer (and so
// draw.DrawMask) on the same grounds, a plain one and a noisy one, in
// opaque and translucent colours, at places that cut the text at the
// image's edges, and requires the same pixels.
func TestDrawText(t *testing.T) {
	fs, err := parseFonts()
	if err != nil {
		t.Fatal(err)
	}
	f, err := newFaces(fs, 1)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	ground := func(noisy bool) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, 160, 60))
		for i := 0; i < len(img.Pix); i += 4 {
			c := color.RGBA{30, 40, 50, 255}
			if noisy && rng.IntN(3) == 0 {
				c = color.RGBA{uint8(rng.IntN(256)), uint8(rng.IntN(256)), uint8(rng.IntN(256)), 255}
			}
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
		}
		return img
	}
	for _, fc := range []font.Face{f.name, f.stat, f.small, f.badge} {
		for _, c := range []color.RGBA{{240, 230, 200, 255}, {0, 0, 0, 120}, {200, 30, 30, 235}} {
			for _, noisy := range []bool{false, true} {
				for _, at := range [][2]float64{{3.4, 40.7}, {-12.25, 20}, {120.6, 58.3}, {40, 5}} {
					s := []string{"Ann (red) · to play", "12 terr · 34 armies", "Wÿ ÉQ 0.9"}[rng.IntN(3)]
					got, want := ground(noisy), ground(false)
					copy(want.Pix, got.Pix)
					drawText(got, fc, s, at[0], at[1], c)
					d := font.Drawer{Dst: want, Src: image.NewUniform(c), Face: fc, Dot: fixed.Point26_6{X: fixed.Int26_6(at[0] * 64), Y: fixed.Int26_6(at[1] * 64)}}
					d.DrawString(s)
					if !bytes.Equal(got.Pix, want.Pix) {
						t.Errorf("%q in %v at %v (noisy %v): not the pixels font.Drawer draws", s, c, at, noisy)
					}
				}
			}
		}
	}
}

// TestTextBox requires textBox to hold what drawText draws, for strings,
// faces and places like the panel's (keepCardTop relies on it), the
// glyphs' bounds kept by cachedFace included.
func TestTextBox(t *testing.T) {
	fs, err := parseFonts()
	if err != nil {
		t.Fatal(err)
	}
	f, err := newFaces(fs, 1)
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(image.Rect(0, 0, 700, 120))
	for _, fc := range []font.Face{f.stat, f.name, f.small, f.headBig} {
		for _, s := range []string{"12 terr · 34 armies · 3 cards · +5 next", "Wÿ ÉQ gjpq", "1", "Ǻ ǻ ß ğ"} {
			for _, at := range [][2]float64{{3.4, 60.7}, {80.25, 90}, {17.6, 40.3}} {
				for round := range 2 { // the bounds as the face gives them, then as kept
					got := drawText(img, fc, s, at[0], at[1], color.RGBA{255, 255, 255, 255})
					if box := textBox(fc, s, at[0], at[1]); !got.In(box) {
						t.Errorf("round %d: %q at %v drew on %v, outside textBox %v", round, s, at, got, box)
					}
				}
			}
		}
	}
}
