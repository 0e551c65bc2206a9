package voice

import (
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Simultaneous rounds (turns:simultaneous): the orders a player gives are
// told to them alone; the channel hears who is ready, and the round's
// resolution, order by order.

// IsSimultaneous reports whether s is a match of simultaneous rounds.
func IsSimultaneous(s *state.State) bool { return s.Options.Turns == state.Simultaneous }

// private reports whether e, told in s, is told to its author only: an
// order given or taken back, or cards traded, before its round resolves.
func private(s *state.State, e engine.Event) bool {
	switch e.(type) {
	case engine.Ordered, engine.Unordered:
		return true
	case engine.Traded:
		// A trade in a round is one of the orders: State.View hides it
		// from the others until the round resolves, and RoundResolved
		// tells it then (tell).
		return s.Phase == state.PhaseOrders
	}
	return false
}
