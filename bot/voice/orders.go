package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
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

// OrderText says what an order does: "5 from Alaska attack Kamchatka".
func OrderText(s *state.State, o state.Order) string {
	t := s.Map.TerritoryName
	switch o.Kind {
	case state.OrderPlace:
		if o.Bonus {
			return fmt.Sprintf("place %d on %s (a card's bonus)", o.Armies, t(o.To))
		}
		return fmt.Sprintf("place %d on %s", o.Armies, t(o.To))
	case state.OrderAttack:
		return fmt.Sprintf("%d from %s attack %s", o.Armies, t(o.From), t(o.To))
	}
	return fmt.Sprintf("move %d from %s to %s", o.Armies, t(o.From), t(o.To))
}

// describeOrders turns an event of a simultaneous round into a line for
// people, or reports that it is not one.
func (v Voice) describeOrders(s *state.State, e engine.Event) (string, bool) {
	if !IsSimultaneous(s) {
		return "", false
	}
	t := s.Map.TerritoryName
	switch e := e.(type) {
	case engine.Ordered:
		return "📝 Order: " + OrderText(s, e.Order), true
	case engine.Unordered:
		return "↩️ Taken back: " + OrderText(s, e.Order), true
	case engine.Committed:
		return fmt.Sprintf("✅ %s is ready for round %d", v.Who(s, e.Seat), e.Round), true
	case engine.RoundResolved:
		names := make([]string, len(e.Order))
		for i, seat := range e.Order {
			names[i] = v.Who(s, seat)
		}
		return fmt.Sprintf("🔔 Round %d: everyone is ready. The orders run one per player at a time, in this order: %s", e.Round, strings.Join(names, ", ")), true
	case engine.RoundStarted:
		return fmt.Sprintf("⏩ Round %d%s: everyone orders at once", e.Round, roundNote(s, e.Round)), true
	case engine.TurnStarted:
		return fmt.Sprintf("💰 %s receives %s", v.Who(s, e.Seat), incomeText(s, e.Income)), true
	case engine.OrderSkipped:
		var why string
		switch e.Why {
		case engine.SkipSourceLost:
			why = t(e.Order.From) + " was lost before it ran"
		case engine.SkipNoArmies:
			why = t(e.Order.From) + " had no army to spare"
		case engine.SkipTargetLost:
			why = t(e.Order.To) + " was lost before it ran"
		}
		return fmt.Sprintf("⏭️ %s's order skipped (%s): %s", v.Who(s, e.Seat), OrderText(s, e.Order), why), true
	case engine.Transferred:
		taken := ""
		if e.Attack {
			taken = " (its attack found it taken already)"
		}
		return fmt.Sprintf("🚚 %s moved %s from %s to %s%s", v.Who(s, e.Seat), chat.Plural(e.Armies, "army", "armies"), t(e.From), t(e.To), taken), true
	}
	return "", false
}

// Readiness says who the round waits for: "2 of 3 ready; waiting for
// 🟦 Bob". Empty outside a simultaneous round.
func (v Voice) Readiness(s *state.State) string {
	if s.Phase != state.PhaseOrders {
		return ""
	}
	ready, alive := 0, 0
	var waiting []string
	for i := range s.Seats {
		if !s.Seats[i].Alive() {
			continue
		}
		alive++
		if s.Seats[i].Ready {
			ready++
		} else {
			waiting = append(waiting, v.Who(s, i))
		}
	}
	return fmt.Sprintf("%d of %d ready; waiting for %s", ready, alive, strings.Join(waiting, ", "))
}

// OrdersReply is the reply to a command of a simultaneous round: what was
// ordered, the player's orders so far (theirs alone), and what is left to
// do; or, if the command resolved the round, that it did.
func (v Voice) OrdersReply(m *hosted.Match, seat int, msg chat.Message, resolved bool) chat.Message {
	s := m.Game.State
	if resolved || s.Phase != state.PhaseOrders {
		msg.Buttons = nil
		msg.Text = "Your orders are in, and everyone's: the round resolved, told in the channel with the map."
		if s.Phase == state.PhaseOrders {
			msg.Text += v.NextOrders(s, seat)
		}
		return msg
	}
	var b strings.Builder
	b.WriteString(msg.Text)
	mine := s.OrdersOf(seat)
	if len(mine) > 0 && !s.Seats[seat].Ready {
		fmt.Fprintf(&b, "\nYour orders for round %d (only you see them):", s.Turn)
		for i, o := range mine {
			fmt.Fprintf(&b, "\n%d. %s", i+1, OrderText(s, o))
		}
	}
	b.WriteString(v.NextOrders(s, seat))
	msg.Text = b.String()
	if !s.Seats[seat].Ready && s.Seats[seat].Reserve == 0 {
		msg.Buttons = [][]chat.Button{{{ID: m.ButtonID("ready", s.Turn), Label: "Ready", Style: chat.Success}}}
	}
	return msg
}

// NextOrders says what seat may do next in a round.
func (v Voice) NextOrders(s *state.State, seat int) string {
	switch {
	case s.Seats[seat].Ready:
		return "\nYour orders are in. " + v.Readiness(s) + "."
	case s.Seats[seat].Hand.Len() >= 5:
		return "\nYou hold 5 cards: trade a set first (/risk trade)."
	case s.Seats[seat].Reserve > 0:
		return fmt.Sprintf("\nPlace your %s (/risk place), then order attacks (/risk attack from: to: armies:) and moves (/risk fortify), and say you are ready with /risk end.",
			chat.Plural(s.Seats[seat].Reserve, "army", "armies"))
	}
	return "\nOrder attacks (/risk attack from: to: armies:) and moves to a neighbour (/risk fortify), take the last back with /risk undo, and say you are ready with /risk end: the round resolves when everyone is."
}
