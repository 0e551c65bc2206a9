package render

import (
	"fmt"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// TestIndexedFrame checks that composeIndexed gives, index for index, the
// frame that compose draws and the quantizer maps: at several widths (one
// not a multiple of the tiles), both palettes, both kinds of map, from the
// start of a match to its end, with every kind of arrow, marker and the
// banner. One worker draws them all in turn, as a renderer's workers do,
// and its map area is scribbled on before each frame, so that nothing
// depends on what an earlier frame left there but what it is meant to
// (the panel's ground).
func TestIndexedFrame(t *testing.T) {
	states := []struct {
		name  string
		state func(testing.TB) *state.State
	}{
		// In an order that draws the same board with as many seats twice
		// running (the panel's ground kept), and both kinds in turn.
		// Drawing a state again finds every element drawn before (memo.go).
		{"start", fixtureStart}, {"capitals-start", gridStart}, {"mid", fixtureMid},
		{"played-600", func(t testing.TB) *state.State { return playGame(t, 6, 3, 600).State }},
		{"mid-again", fixtureMid}, {"over", fixtureOver}, {"over-again", fixtureOver},
		{"capitals-mid", gridMid}, {"capitals-planned", gridPlanned}, {"capitals-mid-again", gridMid},
		{"capitals-over", gridOver}, {"capitals-over-again", gridOver},
		{"played-end", func(t testing.TB) *state.State { return playGame(t, 4, 5, -1).State }},
		{"start-again", fixtureStart},
		{"played-40", func(t testing.TB) *state.State { return playGame(t, 2, 11, 40).State }},
		{"capitals-mid-last", gridMid},
		{"round", fixtureRound}, {"round-again", fixtureRound},
		{"art-mid", artMid}, {"art-fog", fogged(artMid)}, {"art-tall-over", artTallOver}, {"art-mid-again", artMid},
	}
	widths := []int{800, 1237, 1600, 2400}
	palettes := []Palette{Default, ColorBlind}
	switch {
	case racetest.Enabled:
		// Each frame takes seconds under the race detector, and the
		// frames are drawn in one goroutine: one width and palette say
		// what the others would.
		widths, palettes = []int{800}, palettes[:1]
	case testing.Short():
		widths = []int{800, 1237}
	}
	for _, w := range widths {
		for _, p := range palettes {
			r := shared(Options{Width: w, Palette: p})
			if err := r.init(); err != nil {
				t.Fatal(err)
			}
			var ref, wk *worker // two workers: Put neither back
			for _, st := range states {
				t.Run(fmt.Sprintf("%s/%d/%d", st.name, w, p), func(t *testing.T) {
					s := st.state(t)
					b, err := r.board(s.Map)
					if err != nil {
						t.Fatal(err)
					}
					if ref, err = r.workerFrom(ref, b); err != nil {
						t.Fatal(err)
					}
					if wk, err = r.workerFrom(wk, b); err != nil {
						t.Fatal(err)
					}
					ref.compose(s)
					ref.q.quantize(ref.pal, ref.canvas)
					want := ref.pal.Pix
					for y := range b.mh {
						for i := 4 * y * b.w; i < 4*(y*b.w+b.mw); i++ {
							wk.canvas.Pix[i] = uint8(i * 7)
						}
					}
					clear(wk.pal.Pix)
					wk.composeIndexed(s, nil)
					if got := wk.pal.Pix; !slices.Equal(got, want) {
						n, first := 0, -1
						for i := range got {
							if got[i] != want[i] {
								if first < 0 {
									first = i
								}
								n++
							}
						}
						t.Errorf("%d pixels differ from the quantized frame, the first at (%d, %d)", n, first%b.w, first/b.w)
					}
				})
			}
		}
	}
}

// fixtureRound is a simultaneous round of the mid-game fixture: a seat
// ready, the others ordering.
func fixtureRound(t testing.TB) *state.State {
	s := fixtureMid(t).Clone()
	s.Options.Turns = state.Simultaneous
	s.Phase = state.PhaseOrders
	s.Seats[0].Ready = true
	return s
}
