package voice

import (
	"slices"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// The chat of a match with fog of war (docs/rules.md, "Fog of war"): what
// the channel is told is what every player sees, and each player is told
// privately what they see. A voice speaks for a public (Fogged) or for a
// seat (As); it tells only the events its audience saw, and never the
// reserves or income of others.

// Fogged returns the voice of a match with fog of war as the channel hears
// it: what every player sees.
func (v Voice) Fogged() Voice {
	v.to = audience{fog: true, seat: -1}
	return v
}

// As returns the voice speaking to seat alone: in a match with fog of war,
// it tells what seat sees. Without fog it changes nothing.
func (v Voice) As(seat int) Voice {
	if v.to.fog {
		v.to.seat = seat
	}
	return v
}

// viewer is the seat whose view v shows: its audience's in a match with
// fog of war, else the public's (-1).
func (v Voice) viewer() int {
	if v.to.fog {
		return v.to.seat
	}
	return -1
}

// Hides reports whether v leaves out what its audience does not see in s,
// a match with fog of war in play.
func (v Voice) Hides(s *state.State) bool { return v.to.fog && s.HasFog() }

// hidesFrom reports whether v keeps seat's own numbers (income, reserve)
// from its audience.
func (v Voice) hidesFrom(s *state.State, seat int) bool { return v.Hides(s) && seat != v.to.seat }

// seatOf is the seat an event of one player's belongs to.
func seatOf(e engine.Event) int {
	switch e := e.(type) {
	case engine.Undone:
		return e.Seat
	case engine.Ordered:
		return e.Seat
	case engine.Unordered:
		return e.Seat
	case engine.OrderSkipped:
		return e.Seat
	case engine.ItemUsed:
		return e.Seat
	}
	return -2
}

// placementsState is s as it stood when the placements of the round that
// events resolve were made: before the round's conquests and
// eliminations. ok is false if events resolve no round.
func placementsState(s *state.State, events []engine.Event) (before *state.State, ok bool) {
	i := slices.IndexFunc(events, func(e engine.Event) bool { _, ok := e.(engine.RoundResolved); return ok })
	if i < 0 {
		return nil, false
	}
	before = s.Clone()
	for j := len(events) - 1; j > i; j-- {
		switch e := events[j].(type) {
		case engine.Conquered:
			before.Terr[e.To].Owner = e.Defender
		case engine.Eliminated:
			before.Seats[e.Seat].Status = state.Playing
		}
	}
	return before, true
}
