package render

import (
	"image"
	"image/color"
	"testing"
)

// TestQuantizerTable checks the pruned table against trying every palette
// entry for every key, and that palette colours come out as themselves.
func TestQuantizerTable(t *testing.T) {
	r := New(Options{})
	q := newClassicLook(r.th, r.colors).quant
	if n := len(q.palette); n > 256 || n < 150 {
		t.Fatalf("%d palette colours", n)
	}
	table := q.table()
	for k := range table {
		cr, cg, cb := keyColor(k)
		want := q.nearest(cr, cg, cb)
		if got := table[k]; got != want && q.dist(cr, cg, cb, int(got)) != q.dist(cr, cg, cb, int(want)) {
			t.Fatalf("key %#x: entry %d, want %d", k, got, want)
		}
	}
	src := image.NewRGBA(image.Rect(0, 0, len(q.palette), 1))
	for i, c := range q.palette {
		src.Set(i, 0, c)
	}
	dst := image.NewPaletted(src.Rect, q.palette)
	q.quantize(dst, src)
	exact := 0
	for i, c := range q.palette {
		if dst.Palette[dst.Pix[i]].(color.RGBA) == c.(color.RGBA) {
			exact++
		}
	}
	// Two palette colours in one 5-6-5 cell cannot both come out exactly.
	if exact < len(q.palette)*9/10 {
		t.Errorf("only %d of %d palette colours survive quantization", exact, len(q.palette))
	}
}
