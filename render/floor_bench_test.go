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
//
// classic and capitals render one middle game again and again (as
// BenchmarkRender does); the -turns cases render twelve turns of a played
// match in a loop, one after the other, as the bot posts them, so that
// nothing a worker keeps from the frame before is the same by chance.
func BenchmarkRenderVsFloor(b *testing.B) {
	for _, c := range []struct {
		name   string
		states func(testing.TB) []*state.State
	}{
		{"classic", func(t testing.TB) []*state.State { return []*state.State{playGame(t, 6, 3, 600).State} }},
		{"capitals", func(t testing.TB) []*state.State { return []*state.State{gridMid(t)} }},
		{"classic-turns", func(t testing.TB) []*state.State { return playedTurns(t, state.DefaultOptions(), 6, 11, 42)[30:42] }},
		{"capitals-turns", func(t testing.TB) []*state.State { return playedTurns(t, capitalsOptions("large"), 6, 11, 42)[30:42] }},
	} {
		states := c.states(b)
		r := New(Options{})
		ctx := context.Background()
		b.Run(c.name+"/render", func(b *testing.B) {
			i := 0
			benchWarm(b, func() ([]byte, error) {
				i++
				return r.Render(ctx, states[i%len(states)])
			})
		})
		b.Run(c.name+"/floor", func(b *testing.B) {
			var frames []*image.Paletted
			for _, s := range states {
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
				frames = append(frames, pal)
			}
			var (
				buf  bytes.Buffer
				pool pngPool
			)
			enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pool}
			i := 0
			benchWarm(b, func() ([]byte, error) {
				i++
				buf.Reset()
				err := enc.Encode(&buf, frames[i%len(frames)])
				return buf.Bytes(), err
			})
		})
	}
}
