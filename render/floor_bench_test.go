package render

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// BenchmarkRenderVsFloor pairs, for each board, a warm render (compose,
// palette mapping, PNG) with its floor: the very image that render
// produced, decoded to its palette indices and encoded alone by the
// standard library at BestSpeed. The floor is what the PNG would cost if
// drawing were free, so render/floor is what drawing adds (issue 33:
// at most 1.5). Run the two in the same process, several times, and
// compare them run by run: the machine's noise is larger than the gap.
func BenchmarkRenderVsFloor(b *testing.B) {
	for _, c := range []struct {
		name  string
		state func(testing.TB) *state.State
	}{
		{"classic", func(t testing.TB) *state.State { return playGame(t, 6, 3, 600).State }},
		{"capitals", gridMid},
	} {
		s := c.state(b)
		r := New(Options{})
		ctx := context.Background()
		b.Run(c.name+"/render", func(b *testing.B) {
			benchWarm(b, func() ([]byte, error) { return r.Render(ctx, s) })
		})
		b.Run(c.name+"/floor", func(b *testing.B) {
			data, err := r.Render(ctx, s)
			if err != nil {
				b.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				b.Fatal(err)
			}
			pal, ok := img.(*image.Paletted)
			if !ok {
				b.Fatalf("the render decodes as %T, not paletted", img)
			}
			var (
				buf  bytes.Buffer
				pool pngPool
			)
			enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pool}
			benchWarm(b, func() ([]byte, error) {
				buf.Reset()
				err := enc.Encode(&buf, pal)
				return buf.Bytes(), err
			})
		})
	}
}
