package engine

import (
	"testing"

	"github.com/riskbot/riskbot/state"
)

// Turns gives the board as the first turn began, then once per turn as it
// ended, then the end, all as spectators see them.
func TestTurns(t *testing.T) {
	for _, tt := range []struct {
		name   string
		rec    Record
		sealed bool
	}{
		{"classic", finishedRecord(t, 8), false},
		{"classic sealed", finishedRecord(t, 8), true},
		{"capitals", capitalsRecord(t, 5), false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rec := tt.rec
			if tt.sealed {
				var err error
				if rec, err = rec.Seal(); err != nil {
					t.Fatal(err)
				}
			}
			turns, err := rec.Turns()
			if err != nil {
				t.Fatal(err)
			}
			g, err := tt.rec.Game(-1)
			if err != nil {
				t.Fatal(err)
			}
			last := g.State.Turn
			if want := last + 1; len(turns) != want && len(turns) != want-1 {
				t.Fatalf("%d frames for %d turns", len(turns), last)
			}
			if turns[0].Turn != 1 || turns[0].Last.Len() != 0 || turns[0].Phase == state.PhaseSetup {
				t.Errorf("first frame: turn %d, phase %s, %d arrows", turns[0].Turn, turns[0].Phase, turns[0].Last.Len())
			}
			for i, s := range turns {
				if !s.IsView() || s.RNG != (state.RNG{}) || s.Deck.Len() != 0 {
					t.Fatalf("frame %d shows hidden things", i)
				}
				if i > 0 && i < len(turns)-1 && s.Turn != turns[i-1].Turn+1 {
					t.Fatalf("frame %d is turn %d after turn %d", i, s.Turn, turns[i-1].Turn)
				}
			}
			end := turns[len(turns)-1]
			if g.State.Phase == state.PhaseOver && (end.Phase != state.PhaseOver || end.Winner != g.State.Winner) {
				t.Errorf("the last frame is %s, not the end", end.Phase)
			}
			arrows := 0
			for _, s := range turns {
				arrows += s.Last.Len() + s.This.Len()
			}
			if arrows == 0 {
				t.Error("no arrows in any frame")
			}
		})
	}
}
