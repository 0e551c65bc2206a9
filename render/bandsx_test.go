package render

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"
)

func BenchmarkBandsX(b *testing.B) {
	for _, m := range playedMoments(b, 2) {
		r := New(Options{})
		wk, _, err := r.draw(context.Background(), m.states[0], nil, true)
		if err != nil {
			b.Fatal(err)
		}
		img := image.NewPaletted(wk.pal.Rect, wk.pal.Palette)
		copy(img.Pix, wk.pal.Pix)
		b.Run(m.name+"/cold", func(b *testing.B) {
			var e pngBands
			var n int
			cpu := startCPU()
			for b.Loop() {
				cpu.op()
				e.valid = false
				data, _ := e.encode(img)
				n = len(data)
			}
			cpu.report(b)
			b.ReportMetric(float64(n), "bytes")
		})
		b.Run(m.name+"/std", func(b *testing.B) {
			var buf bytes.Buffer
			enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pngPool{}}
			cpu := startCPU()
			for b.Loop() {
				cpu.op()
				buf.Reset()
				enc.Encode(&buf, img)
			}
			cpu.report(b)
			b.ReportMetric(float64(buf.Len()), "bytes")
		})
	}
}

