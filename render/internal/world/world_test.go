package world

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

func encode(t *testing.T, img image.Image) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestDecode(t *testing.T) {
	gray := image.NewGray(image.Rect(0, 0, 4, 2))
	gray.Pix[3] = 2
	meta := []byte(`{"map":"m","width":4,"height":2,"territories":[{"name":"a"},{"name":"b"}]}`)
	g, pix, err := Decode(meta, encode(t, gray))
	if err != nil {
		t.Fatal(err)
	}
	if g.Map != "m" || len(pix) != 8 || pix[3] != 2 {
		t.Errorf("got %+v %v", g, pix)
	}
	bad := image.NewGray(image.Rect(0, 0, 4, 2))
	bad.Pix[0] = 3
	rgba := image.NewRGBA(image.Rect(0, 0, 4, 2))
	rgba.Set(0, 0, color.RGBA{1, 2, 3, 255})
	for _, tt := range []struct {
		name       string
		meta, mask []byte
		want       string
	}{
		{"bad json", []byte(`{`), encode(t, gray), "decode geometry"},
		{"not a png", meta, []byte("nope"), "decode mask"},
		{"wrong size", []byte(`{"width":5,"height":2}`), encode(t, gray), "geometry says 5x2"},
		{"not grey", meta, encode(t, rgba), "want 8-bit grey"},
		{"unknown territory", meta, encode(t, bad), "territory 3 of 2"},
	} {
		if _, _, err := Decode(tt.meta, tt.mask); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want %q", tt.name, err, tt.want)
		}
	}
}
