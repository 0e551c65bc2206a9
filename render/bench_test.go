package render

import (
	"context"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/fogleman/gg"
	"github.com/riskbot/riskbot/state"
)

// BenchmarkRender is one warm render of a mid-game classic board at the
// default width (1600 px): compose, quantize and PNG-encode.
func BenchmarkRender(b *testing.B) {
	s := playGame(b, 6, 3, 600).State
	r := New(Options{})
	ctx := context.Background()
	benchWarm(b, func() ([]byte, error) { return r.Render(ctx, s) })
}

// benchWarm times draw once a first call has built what a renderer keeps
// (the static layers), and reports the CPU time and the size of the PNG
// (the mean, when draw draws several).
func benchWarm(b *testing.B, draw func() ([]byte, error)) {
	if _, err := draw(); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	cpu := startCPU()
	var size, n int
	for b.Loop() {
		cpu.op()
		data, err := draw()
		if err != nil {
			b.Fatal(err)
		}
		size += len(data)
		n++
	}
	cpu.report(b)
	b.ReportMetric(float64(size)/float64(n), "png-bytes")
}

// BenchmarkRenderCold is the first render of a new Renderer: fonts,
// textures, palette and the map's static layers are all built.
func BenchmarkRenderCold(b *testing.B) {
	s := playGame(b, 6, 3, 600).State
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Options{}).Render(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRenderParallel renders one state from every core at once with
// one shared renderer: throughput, and the pools and caches under load.
func BenchmarkRenderParallel(b *testing.B) {
	s := playGame(b, 6, 3, 600).State
	r := New(Options{})
	ctx := context.Background()
	if _, err := r.Render(ctx, s); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := r.Render(ctx, s); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

// BenchmarkStages splits a warm render into its stages: drawing the frame,
// mapping it to the palette, and PNG encoding.
func BenchmarkStages(b *testing.B) {
	benchStages(b, playGame(b, 6, 3, 600).State)
}

// benchStages times the stages of a warm render of s, one sub-benchmark
// each: compose (which draws the frame on a worker's canvas), the palette
// mapping and the PNG encoding; and indexed, which draws the same frame
// as palette indices (what Render does instead of compose and the
// mapping). Every kind of map goes through the same stages.
func benchStages(b *testing.B, s *state.State) {
	r := New(Options{})
	if _, err := r.Render(context.Background(), s); err != nil {
		b.Fatal(err)
	}
	bd, err := r.board(s.Map)
	if err != nil {
		b.Fatal(err)
	}
	wk, err := r.worker(bd, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("compose", func(b *testing.B) {
		for b.Loop() {
			wk.compose(s)
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
	// Last: it leaves the canvas as only composeIndexed needs it.
	b.Run("indexed", func(b *testing.B) {
		for b.Loop() {
			wk.composeIndexed(s, nil)
		}
	})
}

// BenchmarkZoom is one warm zoom on the same board: the frame drawn as for
// Render, the part around the turn's arrows mapped and encoded.
func BenchmarkZoom(b *testing.B) {
	s := playGame(b, 6, 3, 600).State
	r := New(Options{})
	ctx := context.Background()
	at := ZoomOn(s)
	if len(at) == 0 {
		b.Fatal("no arrows to zoom on")
	}
	benchWarm(b, func() ([]byte, error) { return r.Zoom(ctx, s, at) })
}

// BenchmarkShaft strokes an arrow's shaft (a curve 350 px long, at the
// default width's scale) three times as arrowAt does: as gg's QuadraticTo,
// which cuts a curve into a segment a pixel of its length and joins each
// to the next, and as quadTo's few segments.
func BenchmarkShaft(b *testing.B) {
	for _, c := range []struct {
		name  string
		curve func(dc *gg.Context)
	}{
		{"gg", func(dc *gg.Context) { dc.QuadraticTo(250, 150, 400, 300) }},
		{"quadTo", func(dc *gg.Context) { quadTo(dc, 100, 200, 250, 150, 400, 300) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			dc := gg.NewContextForRGBA(image.NewRGBA(image.Rect(0, 0, 1600, 1125)))
			s, width := 1.6, 7*1.6
			b.ReportAllocs()
			cpu := startCPU()
			for b.Loop() {
				cpu.op()
				for _, lw := range []float64{width + 6*s, width + 2.6*s, width} {
					dc.SetLineCapRound()
					dc.SetLineWidth(lw)
					dc.SetColor(color.White)
					dc.MoveTo(100, 200)
					c.curve(dc)
					dc.Stroke()
				}
			}
			cpu.report(b)
		})
	}
}
