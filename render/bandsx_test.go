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
		wk, _, err := r.draw(context.Background(), m.states[0], nil, true, nil)
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

func BenchmarkBandsWarmX(b *testing.B) {
	for _, m := range playedMoments(b, 30) {
		r := New(Options{})
		var frames []*image.Paletted
		for k := range m.states {
			frames = append(frames, drawFrame(b, r, m, k))
		}
		b.Run(m.name, func(b *testing.B) {
			var e pngBands
			i := 0
			cpu := startCPU()
			for b.Loop() {
				cpu.op()
				e.encode(frames[i%len(frames)])
				i++
			}
			cpu.report(b)
		})
	}
}

func BenchmarkComposeX(b *testing.B) {
	for _, m := range playedMoments(b, 30) {
		r := New(Options{})
		for _, s := range m.states {
			r.Render(context.Background(), s)
		}
		b.Run(m.name, func(b *testing.B) {
			i := 0
			cpu := startCPU()
			for b.Loop() {
				cpu.op()
				wk, _, _ := r.draw(context.Background(), m.states[i%len(m.states)], nil, true, nil)
				r.workers.Put(wk)
				i++
			}
			cpu.report(b)
		})
	}
}

func TestBandsKeepX(t *testing.T) {
	for _, m := range playedMoments(t, 30) {
		r := New(Options{})
		var frames []*image.Paletted
		for k := range m.states {
			frames = append(frames, drawFrame(t, r, m, k))
		}
		var e pngBands
		size := 0
		for _, f := range frames {
			d, _ := e.encode(f)
			size += len(d)
		}
		t.Logf("%s: kept codes %d, new codes %d, builds %d, mean size %d", m.name, e.dbgKeep, e.dbgNew, e.dbgBuild, size/len(frames))
	}
}

func BenchmarkParseX(b *testing.B) {
	m := playedMoments(b, 1)[0]
	r := New(Options{})
	img := drawFrame(b, r, m, 0)
	var e pngBands
	e.encode(img)
	b.Run("parse", func(b *testing.B) {
		cpu := startCPU()
		for b.Loop() {
			cpu.op()
			for bi := range e.bands {
				y0, y1 := bi*bandRows, min(e.h, (bi+1)*bandRows)
				for t := range e.perRow {
					e.parse(&e.tiles[bi*e.perRow+t], img, y0, y1, t*tileWidth, min(e.w, (t+1)*tileWidth))
				}
			}
		}
		cpu.report(b)
	})
}

func TestChangedWhereX(t *testing.T) {
	for _, m := range playedMoments(t, 12) {
		r := New(Options{})
		var prev *image.Paletted
		var mapT, panT, mapAll, panAll int
		for k := range m.states {
			img := drawFrame(t, r, m, k)
			b, _ := r.board(m.states[k].Map)
			if prev != nil {
				w, h := img.Rect.Dx(), img.Rect.Dy()
				for y0 := 0; y0 < h; y0 += bandRows {
					for x0 := 0; x0 < w; x0 += tileWidth {
						ch := false
						for y := y0; y < min(h, y0+bandRows); y++ {
							if !bytes.Equal(img.Pix[y*w+x0:y*w+min(w, x0+tileWidth)], prev.Pix[y*w+x0:y*w+min(w, x0+tileWidth)]) {
								ch = true
							}
						}
						inPanel := image.Rect(x0, y0, x0+tileWidth, y0+bandRows).Overlaps(b.panel)
						if inPanel {
							panAll++
							if ch {
								panT++
							}
						} else {
							mapAll++
							if ch {
								mapT++
							}
						}
					}
				}
			}
			prev = img
		}
		t.Logf("%s: map tiles changed %d/%d (%.0f%%), panel %d/%d (%.0f%%), panel %v", m.name, mapT, mapAll, 100*float64(mapT)/float64(mapAll), panT, panAll, 100*float64(panT)/float64(panAll), func() image.Rectangle { b, _ := r.board(m.states[0].Map); return b.panel }())
	}
}

func TestMarkedX(t *testing.T) {
	for _, m := range playedMoments(t, 5) {
		r := New(Options{})
		for _, s := range m.states {
			wk, _, _ := r.draw(context.Background(), s, nil, true, nil)
			n := 0
			wk.dirty.runs(image.Rect(0, 0, wk.b.mw, wk.b.mh), func(y, x0, x1 int) { n += x1 - x0 })
			t.Logf("%s: %d marked pixels, %d arrows", m.name, n, len(s.Last.Arrows())+len(s.This.Arrows()))
			r.workers.Put(wk)
		}
	}
}

func TestRecolorX(t *testing.T) {
	for _, m := range playedMoments(t, 12) {
		r := New(Options{})
		var prev *image.Paletted
		var changed, recolor int
		for k := range m.states {
			img := drawFrame(t, r, m, k)
			if prev != nil {
				w, h := img.Rect.Dx(), img.Rect.Dy()
				for y0 := 0; y0 < h; y0 += bandRows {
					for x0 := 0; x0 < w; x0 += tileWidth {
						var f [256]int
						for i := range f {
							f[i] = -1
						}
						ch, ok := false, true
						for y := y0; y < min(h, y0+bandRows); y++ {
							for x := x0; x < min(w, x0+tileWidth); x++ {
								a, b := prev.Pix[y*w+x], img.Pix[y*w+x]
								if a != b {
									ch = true
								}
								if f[a] < 0 {
									f[a] = int(b)
								} else if f[a] != int(b) {
									ok = false
								}
							}
						}
						if ch {
							changed++
							if ok {
								recolor++
							}
						}
					}
				}
			}
			prev = img
		}
		t.Logf("%s: %d changed tiles, %d recolors", m.name, changed, recolor)
	}
}

func TestPartialX(t *testing.T) {
	for _, m := range playedMoments(t, 8) {
		r := New(Options{})
		for _, s := range m.states {
			var wkp *worker
			r.Render(context.Background(), s)
			wkp, _ = r.workers.Get().(*worker)
			if wkp == nil {
				continue
			}
			n, all := 0, 0
			b := wkp.b
			for k, c := range wkp.dirty.changed {
				if (k%b.tiles.tw)<<tileShift < b.mw && (k/b.tiles.tw)<<tileShift < b.mh {
					all++
					if c {
						n++
					}
				}
			}
			t.Logf("%s: changed %d/%d map tiles (%.0f%%), elems %d", m.name, n, all, 100*float64(n)/float64(all), len(wkp.elems))
			r.workers.Put(wkp)
		}
	}
}
