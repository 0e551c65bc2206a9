package render

import (
	"context"
	"image"

	"github.com/riskbot/riskbot/state"
)

// Preview draws map m as a library shows it before anyone plays it: its
// territories unowned, with their names, badges and continent legend, and
// no players' panel. A map's maker checks it this way, and a host sees
// the board before choosing it.
func (r *Renderer) Preview(ctx context.Context, m *state.Map) ([]byte, error) {
	s := &state.State{
		Map:     m,
		Options: state.DefaultOptions(),
		Phase:   state.PhaseSetup,
		Winner:  -1,
		// One seat, because a state has players; the panel that would
		// show it is cut off.
		Seats: []state.Seat{{ID: "preview", Name: "preview"}},
		Terr:  make([]state.Terr, m.Len()),
	}
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: state.Neutral, Armies: 1}
	}
	return r.render(ctx, s, func(b *board) (image.Rectangle, error) {
		return image.Rect(0, 0, b.mw, b.mh), nil
	})
}
