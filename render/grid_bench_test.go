package render

import (
	"context"
	"testing"
)

// BenchmarkRenderCapitals is one warm render of a six-seat capitals middle
// game on a large generated map at the default width: compose, palette
// mapping and PNG encoding.
func BenchmarkRenderCapitals(b *testing.B) {
	s := gridMid(b)
	r := New(Options{})
	ctx := context.Background()
	benchWarm(b, func() ([]byte, error) { return r.Render(ctx, s) })
}

// BenchmarkRenderCapitalsCold is the first render of a new generated map
// by a warm renderer: the map's static layers are built, then drawn.
func BenchmarkRenderCapitalsCold(b *testing.B) {
	s := gridMid(b)
	ctx := context.Background()
	r := New(Options{})
	if _, err := r.Render(ctx, gridStart(b)); err != nil { // fonts, textures, palettes
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r.mu.Lock()
		clear(r.grids)
		r.mu.Unlock()
		if _, err := r.Render(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStagesCapitals splits a warm capitals render into its stages.
func BenchmarkStagesCapitals(b *testing.B) {
	benchStages(b, gridMid(b))
}
