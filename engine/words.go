package engine

import (
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// The arguments of a refusal: what a sentence names, as the catalogue
// words it in the reader's language.

// land is territory t as a refusal names it: its name on the map, which
// the catalogue may have in another language.
func land(s *state.State, t int) any {
	if t < 0 || t >= len(s.Map.Territories) {
		return lang.M("engine.territory.number", "Number", t)
	}
	return lang.Place(s.Map.TerritoryName(t))
}

// player is a seat as a refusal names it: its player's name, or neutral.
func player(s *state.State, seat int) any {
	if seat < 0 || seat >= len(s.Seats) {
		return lang.M("engine.seat.neutral")
	}
	return lang.Text(s.Seats[seat].Name)
}

// armies is "1 army", "3 armies".
func armies(n int) lang.Msg { return lang.M("n.armies", "Count", n) }

// remaining is "1 remaining army", "3 remaining armies".
func remaining(n int) lang.Msg { return lang.M("n.remaining-armies", "Count", n) }

// troops is "1 troop", "3 troops" (capitals).
func troops(n int) lang.Msg { return lang.M("n.troops", "Count", n) }

// phase is a phase's name. The catalogue's keys are the phases' stable
// names (state's String), so a phase added to state needs only its words.
func phase(p state.Phase) lang.Msg {
	if p > state.PhaseOrders {
		return lang.M("engine.phase.other", "Name", lang.Text(p.String()))
	}
	return lang.M("engine.phase." + p.String())
}

// status is a seat's status, keyed by its stable name like phase. A value
// past the last status (state decodes none) reads as playing.
func status(st state.Status) lang.Msg {
	if st > state.Surrendered {
		st = state.Playing
	}
	return lang.M("engine.status." + st.String())
}

// cardName is a card as a refusal names it: "Alaska (infantry)", "wild".
func cardName(m *state.Map, c state.Card) lang.Msg {
	t, ok := m.CardTerritory(c)
	if !ok {
		return lang.M("engine.card.wild")
	}
	return lang.M("engine.card.territory", "Place", lang.Place(m.Territories[t].Name), "Kind", cardKind(m.CardKind(c)))
}

// cardKind names a card's kind: infantry, cavalry, artillery (or wild),
// keyed by its stable name like phase. A value past the last kind (state
// makes none) reads as artillery.
func cardKind(k state.Kind) lang.Msg {
	if k > state.Wild {
		k = state.Artillery
	}
	return lang.M("engine.card." + k.String())
}

// power is a capitals total in tenths as state.FormatPower writes it
// ("12", "13.2"), with the reader's decimal mark.
func power(units int) lang.Msg {
	tenths := units * 10 / state.PowerUnit
	return lang.M("n.power", "Whole", tenths/10, "Tenth", tenths%10)
}

// ordinal is "2nd", "3rd", "11th".
func ordinal(n int) lang.Msg {
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		return lang.M("n.ordinal.st", "Number", n)
	case n%10 == 2:
		return lang.M("n.ordinal.nd", "Number", n)
	case n%10 == 3:
		return lang.M("n.ordinal.rd", "Number", n)
	}
	return lang.M("n.ordinal.th", "Number", n)
}

// quarters names a move's share of the troops: "1/4", "all".
func quarters(q int) any {
	if q == 4 {
		return lang.M("engine.move.all")
	}
	return lang.Text(quartersText(q))
}

// cards is "1 card", "5 cards".
func cards(n int) lang.Msg { return lang.M("n.cards", "Count", n) }
