package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
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
func OrderText(s *state.State, o state.Order) string { return Voice{}.OrderText(s, o) }

// OrderText is the package's OrderText in the voice's language.
func (v Voice) OrderText(s *state.State, o state.Order) string {
	switch o.Kind {
	case state.OrderPlace:
		if o.Bonus {
			return v.p.T("voice.order.place-bonus", "Count", o.Armies, "To", v.place(s, o.To))
		}
		return v.p.T("voice.order.place", "Count", o.Armies, "To", v.place(s, o.To))
	case state.OrderAttack:
		return v.p.T("voice.order.attack", "Count", o.Armies, "From", v.place(s, o.From), "To", v.place(s, o.To))
	}
	return v.p.T("voice.order.move", "Count", o.Armies, "From", v.place(s, o.From), "To", v.place(s, o.To))
}

// describeOrders turns an event of a simultaneous round into a line for
// people, or reports that it is not one.
func (v Voice) describeOrders(s *state.State, e engine.Event) (string, bool) {
	if !IsSimultaneous(s) {
		return "", false
	}
	who := func(seat int) lang.Text { return lang.Text(v.Who(s, seat)) }
	switch e := e.(type) {
	case engine.Ordered:
		return v.p.T("voice.order.ordered", "Order", lang.Text(v.OrderText(s, e.Order))), true
	case engine.Unordered:
		return v.p.T("voice.order.taken-back", "Order", lang.Text(v.OrderText(s, e.Order))), true
	case engine.Committed:
		return v.p.T("voice.order.committed", "Player", who(e.Seat), "N", e.Round), true
	case engine.RoundResolved:
		names := make([]string, len(e.Order))
		for i, seat := range e.Order {
			names[i] = v.Who(s, seat)
		}
		return v.p.T("voice.order.resolved", "N", e.Round, "Players", lang.Text(strings.Join(names, ", "))), true
	case engine.RoundStarted:
		return v.p.T("voice.order.round-started", "N", e.Round, "Note", lang.Text(v.roundOf(s, e.Round))), true
	case engine.TurnStarted:
		return v.p.T("voice.order.receives", "Player", who(e.Seat), "Income", lang.Text(v.income(s, e.Income))), true
	case engine.OrderSkipped:
		var why lang.Msg
		switch e.Why {
		case engine.SkipSourceLost:
			why = lang.M("voice.order.why-lost", "Place", v.place(s, e.Order.From))
		case engine.SkipNoArmies:
			why = lang.M("voice.order.why-no-armies", "Place", v.place(s, e.Order.From))
		case engine.SkipTargetLost:
			why = lang.M("voice.order.why-lost", "Place", v.place(s, e.Order.To))
		}
		return v.p.T("voice.order.skipped", "Player", who(e.Seat), "Order", lang.Text(v.OrderText(s, e.Order)), "Why", why), true
	case engine.Transferred:
		taken := ""
		if e.Attack {
			taken = v.p.T("voice.order.found-taken")
		}
		return v.p.T("voice.order.transferred", "Player", who(e.Seat), "Armies", lang.M("n.armies", "Count", e.Armies),
			"From", v.place(s, e.From), "To", v.place(s, e.To), "Taken", taken), true
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
	return v.p.T("voice.order.readiness", "Count", ready, "Alive", alive, "Players", lang.Text(strings.Join(waiting, ", ")))
}

// OrdersReply is the reply to a command of a simultaneous round: what was
// ordered, the player's orders so far (theirs alone), and what is left to
// do; or, if the command resolved the round, that it did.
func (v Voice) OrdersReply(m *hosted.Match, seat int, msg chat.Message, resolved bool) chat.Message {
	s := m.Game.State
	if resolved || s.Phase != state.PhaseOrders {
		msg.Buttons = nil
		msg.Text = v.p.T("voice.order.round-resolved")
		if s.Phase == state.PhaseOrders {
			msg.Text += v.NextOrders(s, seat)
		}
		return msg
	}
	var b strings.Builder
	b.WriteString(msg.Text)
	mine := s.OrdersOf(seat)
	if len(mine) > 0 && !s.Seats[seat].Ready {
		b.WriteString("\n" + v.p.T("voice.order.yours", "N", s.Turn))
		for i, o := range mine {
			fmt.Fprintf(&b, "\n%d. %s", i+1, v.OrderText(s, o))
		}
	}
	b.WriteString(v.NextOrders(s, seat))
	msg.Text = b.String()
	if !s.Seats[seat].Ready && s.Seats[seat].Reserve == 0 {
		msg.Buttons = [][]chat.Button{{{ID: m.ButtonID("ready", s.Turn), Label: v.p.T("voice.button.ready"), Style: chat.Success}}}
	}
	return msg
}

// NextOrders says what seat may do next in a round.
func (v Voice) NextOrders(s *state.State, seat int) string {
	switch {
	case s.Seats[seat].Ready:
		return "\n" + v.p.T("voice.order.in", "Readiness", lang.Text(v.Readiness(s)))
	case s.Seats[seat].Hand.Len() >= 5:
		return "\n" + v.p.T("voice.order.trade-first")
	case s.Seats[seat].Reserve > 0:
		return "\n" + v.p.T("voice.order.place-first", "Armies", lang.M("n.armies", "Count", s.Seats[seat].Reserve))
	}
	return "\n" + v.p.T("voice.order.what-next")
}
