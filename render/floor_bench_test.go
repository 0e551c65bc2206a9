package render

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"slices"
	"testing"
	"time"

	"github.com/riskbot/riskbot/state"
)

// momentSet is a run of moments of a played match, one after the other
// as the bot posts them (a frame a turn: engine.Record.Turns).
type momentSet struct {
	name   string
	states []*state.State
}

// playedMoments are the moments the renderer is measured and checked on
// (issue 48): turns 30 to 59 of a four-player classic match, of a
// six-player capitals match on a large map, and turns 200 to 229 of a
// six-player classic match (its late game: it ends at turn 261). n
// moments of each.
func playedMoments(t testing.TB, n int) []momentSet {
	return append(earlyMoments(t, n), momentSet{"late", playedTurns(t, state.DefaultOptions(), 6, 11, 200+n)[200 : 200+n]})
}

// earlyMoments are the first two of playedMoments: the late game takes
// 200 turns of play to reach, long under the race detector.
func earlyMoments(t testing.TB, n int) []momentSet {
	return []momentSet{
		{"classic", playedTurns(t, state.DefaultOptions(), 4, 5, 30+n)[30 : 30+n]},
		{"capitals", playedTurns(t, capitalsOptions("large"), 6, 11, 30+n)[30 : 30+n]},
	}
}

// BenchmarkRenderVsFloor pairs, moment by moment, a render (compose,
// palette mapping, PNG) with its floor: the very image that render
// produced, as palette indices, encoded alone by the standard library at
// BestSpeed, what the PNG would cost if drawing were free and each PNG
// were made from scratch. Each loop renders the next moment of a played
// match (playedMoments, in order, starting over after the last) and
// encodes its floor; the CPU time of each is taken on its own and
// x-floor is the median over the loops of render/floor (issue 48: at
// most 0.5). The -cold cases render each moment as if it were the first
// of its match: nothing kept from the moment before (at most 1.3).
//
// render-ms and floor-ms are the medians of each, png-bytes and
// floor-bytes the mean sizes. two-in-turn draws the moments of two
// matches in turn (classic and late, one of each).
func BenchmarkRenderVsFloor(b *testing.B) {
	for _, m := range playedMoments(b, 30) {
		frames := floorFrames(b, m.states)
		for _, cold := range []bool{false, true} {
			name := m.name
			if cold {
				name += "-cold"
			}
			b.Run(name, func(b *testing.B) { benchMoments(b, m.states, frames, cold) })
		}
	}
	// Two matches in turn, as two channels posting alternately: the
	// classic and the late game's moments, one of each.
	ms := playedMoments(b, 30)
	classic, late := ms[0], ms[2]
	cf, lf := floorFrames(b, classic.states), floorFrames(b, late.states)
	var states []*state.State
	var frames []*image.Paletted
	for k := range classic.states {
		states = append(states, classic.states[k], late.states[k])
		frames = append(frames, cf[k], lf[k])
	}
	b.Run("two-in-turn", func(b *testing.B) { benchMoments(b, states, frames, false) })
}

// floorFrames returns the frames that a renderer draws for states, as
// paletted images (what the floor encodes).
func floorFrames(b *testing.B, states []*state.State) []*image.Paletted {
	r := New(Options{})
	var frames []*image.Paletted
	for _, s := range states {
		data, err := r.Render(context.Background(), s)
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
	return frames
}

func benchMoments(b *testing.B, states []*state.State, frames []*image.Paletted, cold bool) {
	r := New(Options{})
	ctx := context.Background()
	var (
		buf  bytes.Buffer
		pool pngPool
	)
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &pool}
	// A first round warms the renderer (fonts, boards, workers) and the
	// floor's buffers.
	for i, s := range states {
		if _, err := r.Render(ctx, s); err != nil {
			b.Fatal(err)
		}
		buf.Reset()
		if err := enc.Encode(&buf, frames[i]); err != nil {
			b.Fatal(err)
		}
	}
	var (
		renders, floors, ratios []float64
		size, floorSize         int
		i                       int
	)
	b.ReportAllocs()
	b.ResetTimer()

	for b.Loop() {
		k := i % len(states)
		i++
		if cold {
			r.frames.forget()
		}
		t0 := cpuNow()
		data, err := r.Render(ctx, states[k])
		t1 := cpuNow()
		if err != nil {
			b.Fatal(err)
		}
		buf.Reset()
		if err := enc.Encode(&buf, frames[k]); err != nil {
			b.Fatal(err)
		}
		t2 := cpuNow()
		size += len(data)
		floorSize += buf.Len()
		renders = append(renders, float64(t1-t0))
		floors = append(floors, float64(t2-t1))
		if t2 > t1 {
			ratios = append(ratios, float64(t1-t0)/float64(t2-t1))
		}
	}
	b.ReportMetric(median(renders)/1e6, "render-ms")
	b.ReportMetric(median(floors)/1e6, "floor-ms")
	b.ReportMetric(median(ratios), "x-floor")
	b.ReportMetric(float64(size)/float64(i), "png-bytes")
	b.ReportMetric(float64(floorSize)/float64(i), "floor-bytes")
}

// cpuNow is the process's CPU time so far, or the wall clock where it is
// not measured.
func cpuNow() time.Duration {
	if c, ok := processCPU(); ok {
		return c
	}
	return time.Duration(time.Now().UnixNano())
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	v = slices.Clone(v)
	slices.Sort(v)
	return v[len(v)/2]
}
