package voice

import (
	"slices"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// The chat of a match with fog of war (docs/rules.md, "Fog of war"): what
// the channel is told is what every player sees, and each player is told
// privately what they see. A voice speaks for a public (Fogged) or for a
// seat (As); it tells only the events its audience saw, and never the
// reserves or income of others.

// audience is whom a voice speaks to in a match with fog of war.
type audience struct {
	fog  bool // the match has fog: tell what the audience sees only
	seat int  // the seat spoken to, or -1 for everyone
}

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

// fogHint tells a player of a match with fog of war where their view is.
func (v Voice) fogHint() string { return v.p.T("voice.fog.hint") }

// ViewButton opens a player's own view of the match: their map, what they
// saw since their last turn, the standings (play's "view" action).
func (v Voice) ViewButton(m *hosted.Match) chat.Button {
	return chat.Button{ID: m.ButtonID("view"), Label: v.p.T("voice.fog.my-view"), Style: chat.Secondary}
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

// sight is what v's audience sees of s.
func (v Voice) sight(s *state.State) state.Sight {
	if i := v.to.seat; i >= 0 && i < len(s.Seats) && s.Seats[i].Alive() {
		return s.Sight(i)
	}
	return s.PublicSight()
}

// seenOnly keeps the events v's audience saw: its own, those against it,
// and those whose territories it sees; what every player learns (cards
// drawn, eliminations, the end) stays.
func (v Voice) seenOnly(s *state.State, events []engine.Event) []engine.Event {
	if !v.Hides(s) {
		return events
	}
	sight := v.sight(s)
	me := v.to.seat
	in := func(ts ...int) bool {
		for _, t := range ts {
			if t < 0 || t >= len(s.Terr) || !sight.Has(t) {
				return false
			}
		}
		return true
	}
	// A round's placements are made before its attacks: they are judged
	// by what was seen then, not once the round's conquests (and the
	// eliminations that widen what everyone sees) have moved the fog.
	placed := in
	if before, ok := placementsState(s, events); ok {
		at := v.sight(before)
		placed = func(ts ...int) bool {
			for _, t := range ts {
				if t < 0 || t >= len(s.Terr) || !at.Has(t) {
					return false
				}
			}
			return true
		}
	}
	var out []engine.Event
	for _, e := range events {
		var ok bool
		switch e := e.(type) {
		case engine.Placed:
			ok = e.Seat == me || placed(e.Territory)
		case engine.TurnStarted:
			ok = e.Seat == me
		case engine.Traded:
			ok = e.Seat == me
		case engine.Rolled:
			ok = e.Seat == me || e.Defender == me || in(e.From, e.To)
		case engine.Conquered:
			ok = e.Seat == me || e.Defender == me || in(e.From, e.To)
		case engine.Occupied:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Fortified:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Transferred:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Undone, engine.Ordered, engine.Unordered, engine.OrderSkipped, engine.ItemUsed:
			ok = seatOf(e) == me
		case engine.Captured:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.PortBuilt:
			ok = e.Seat == me || in(e.Territory)
		case engine.AttackPlanned:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Struck:
			ok = e.Seat == me || e.Defender == me || in(e.From, e.To)
		case engine.AttackSkipped:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Moved:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.HeroUnlocked:
			ok = e.Seat == me || in(e.Territory)
		case engine.HeroDied:
			ok = e.Seat == me || in(e.Territory)
		case engine.ItemSpawned:
			ok = in(e.Territory)
		case engine.ItemVanished:
			ok = in(e.Territory)
		case engine.ItemCollected:
			ok = e.Seat == me || in(e.Territory)
		case engine.TerritoryLost:
			ok = e.Seat == me || in(e.Territory)
		case engine.Seized:
			ok = e.Seat == me || e.Victim == me || in(e.Territory)
		case engine.CardDrawn, engine.Discarded, engine.Reshuffled, engine.Eliminated, engine.Surrendered, engine.Won,
			engine.SetupDone, engine.CapitalChosen, engine.CapitalTaken, engine.TroopsScaled,
			engine.Committed, engine.RoundResolved, engine.RoundStarted, engine.RoundLimit, engine.RolledBack:
			// What every player learns: hand sizes, who is out, who is
			// ready, the end; capitals are chosen in the open.
			ok = true
		}
		if ok {
			out = append(out, e)
		}
	}
	return out
}

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

// seenPart reports whether a count of what seat did is told to a player
// in the fog who sees only part of it: "… you see". (The player's own
// counts are whole; what the channel is told is for the public voice to
// say.)
func (v Voice) seenPart(s *state.State, seat int) bool {
	return v.Hides(s) && v.to.seat >= 0 && seat != v.to.seat
}
