package render

import (
	"context"
	"image/png"
	"testing"
)

// BenchmarkRenderCapitals is one warm render of a six-seat capitals middle
// game on a large generated map at the default width: compose, palette
// mapping and PNG encoding.
func BenchmarkRenderCapitals(b *testing.B) {
	s := gridMid(b)
	r := New(Options{})
	ctx := context.Background()
	if _, err := r.Render(ctx, s); err != nil { // build the static layers
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU()
	var size int
	for b.Loop() {
		cpu.op()
		data, err := r.Render(ctx, s)
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	cpu.report(b)
	b.ReportMetric(float64(size), "png-bytes")
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
	s := gridMid(b)
	r := New(Options{})
	ctx := context.Background()
	if _, err := r.Render(ctx, s); err != nil {
		b.Fatal(err)
	}
	bd, err := r.gridBoardFor(s.Map)
	if err != nil {
		b.Fatal(err)
	}
	wk, err := r.worker(bd)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("compose", func(b *testing.B) {
		for b.Loop() {
			wk.composeGrid(s)
		}
	})
	b.Run("quantize", func(b *testing.B) {
		for b.Loop() {
			wk.q.quantize(wk.pal, wk.canvas)
		}
	})
	b.Run("encode", func(b *testing.B) {
		enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &r.pngBuffer}
		for b.Loop() {
			wk.buf.Reset()
			if err := enc.Encode(&wk.buf, wk.pal); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(wk.buf.Len()), "png-bytes")
	})
}
