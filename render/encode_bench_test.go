package render

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"image"
	"image/png"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// BenchmarkEncodeChoices weighs what a better compressor or PNG filter
// would buy on the frames Render makes (both boards' middle games): the
// standard library's paletted PNG at each of its levels, and the zlib
// stream of the frame's rows (what a PNG's IDAT holds) under each PNG
// filter at zlib levels 1 to 9, which image/png does not offer (it never
// filters paletted rows, and has no level between BestSpeed and Default).
// A PNG adds to such a stream its header and palette, about 0.8 KB.
func BenchmarkEncodeChoices(b *testing.B) {
	for _, c := range []struct {
		name  string
		state func(testing.TB) *state.State
	}{
		{"classic", func(t testing.TB) *state.State { return playGame(t, 6, 3, 600).State }},
		{"capitals", gridMid},
	} {
		data, err := New(Options{}).Render(context.Background(), c.state(b))
		if err != nil {
			b.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		pal := img.(*image.Paletted)
		var buf bytes.Buffer
		for _, lv := range []struct {
			name  string
			level png.CompressionLevel
		}{{"BestSpeed", png.BestSpeed}, {"Default", png.DefaultCompression}, {"BestCompression", png.BestCompression}} {
			b.Run(fmt.Sprintf("%s/png/%s", c.name, lv.name), func(b *testing.B) {
				enc := png.Encoder{CompressionLevel: lv.level, BufferPool: &pngPool{}}
				for b.Loop() {
					buf.Reset()
					if err := enc.Encode(&buf, pal); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(buf.Len()), "png-bytes")
			})
		}
		for _, f := range []filter{filterNone, filterSub, filterUp, filterPaeth, filterMinSum} {
			raw := filterRows(pal, f)
			for _, level := range []int{1, 2, 4, 6, 9} {
				if level == 9 && f != filterNone {
					continue // seconds a frame
				}
				b.Run(fmt.Sprintf("%s/zlib%d/%s", c.name, level, f), func(b *testing.B) {
					for b.Loop() {
						buf.Reset()
						zw, err := zlib.NewWriterLevel(&buf, level)
						if err != nil {
							b.Fatal(err)
						}
						zw.Write(raw)
						if err := zw.Close(); err != nil {
							b.Fatal(err)
						}
					}
					b.ReportMetric(float64(buf.Len()), "zlib-bytes")
				})
			}
		}
	}
}

// filter is a PNG row filter, or filterMinSum: per row, the filter whose
// bytes have the least sum taken as signed (libpng's heuristic).
type filter int

const (
	filterNone filter = iota
	filterSub
	filterUp
	filterAverage
	filterPaeth
	filterMinSum
)

func (f filter) String() string {
	return [...]string{"none", "sub", "up", "average", "paeth", "minsum"}[f]
}

// filterRows returns p's rows as a PNG's IDAT holds them before
// compression: each row's filter byte, then its filtered bytes.
func filterRows(p *image.Paletted, f filter) []byte {
	w, h := p.Rect.Dx(), p.Rect.Dy()
	out := make([]byte, 0, (w+1)*h)
	prev := make([]byte, w)
	row := make([]byte, w)
	for y := range h {
		cur := p.Pix[y*p.Stride : y*p.Stride+w]
		ft := f
		if f == filterMinSum {
			best := -1
			for c := filterNone; c <= filterPaeth; c++ {
				sum := 0
				for x := range w {
					v := int(int8(filterByte(c, cur, prev, x)))
					sum += max(v, -v)
				}
				if best < 0 || sum < best {
					best, ft = sum, c
				}
			}
		}
		for x := range w {
			row[x] = filterByte(ft, cur, prev, x)
		}
		out = append(out, byte(ft))
		out = append(out, row...)
		prev = cur
	}
	return out
}

// filterByte is byte x of row cur under filter f, prev being the row
// above (PNG specification, section 9).
func filterByte(f filter, cur, prev []byte, x int) byte {
	var a, c byte
	if x > 0 {
		a, c = cur[x-1], prev[x-1]
	}
	b := prev[x]
	switch f {
	case filterSub:
		return cur[x] - a
	case filterUp:
		return cur[x] - b
	case filterAverage:
		return cur[x] - byte((int(a)+int(b))/2)
	case filterPaeth:
		p := int(a) + int(b) - int(c)
		pa, pb, pc := abs(p-int(a)), abs(p-int(b)), abs(p-int(c))
		switch {
		case pa <= pb && pa <= pc:
			return cur[x] - a
		case pb <= pc:
			return cur[x] - b
		}
		return cur[x] - c
	}
	return cur[x]
}
