package engine

import (
	"slices"

	"github.com/riskbot/riskbot/state"
)

// escalating is the value of the first sets traded in a match; later sets
// are worth 5 more each.
var escalating = [...]int{4, 6, 8, 10, 12, 15}

// SetValue returns the armies a set of cards is worth as the match's next
// trade, or 0 if the cards do not form a set. It does not count the
// territory bonus.
func SetValue(s *state.State, cards [3]state.Card) int {
	kinds, ok := setKinds(s.Map, cards)
	if !ok {
		return 0
	}
	if s.Options.Cards == state.Fixed {
		return fixedValue(kinds)
	}
	return EscalatingValue(s.Trades)
}

// EscalatingValue returns the value of the i-th set traded in a match,
// counting from 0: 4, 6, 8, 10, 12, 15, 20, 25, ...
func EscalatingValue(i int) int {
	if i < len(escalating) {
		return escalating[i]
	}
	return escalating[len(escalating)-1] + 5*(i-len(escalating)+1)
}

// setKinds reports whether the cards form a set: three of a kind or one of
// each, a wild standing for any kind. It returns the kinds.
func setKinds(m *state.Map, cards [3]state.Card) ([3]state.Kind, bool) {
	var k [3]state.Kind
	wilds := 0
	for i, c := range cards {
		if int(c) >= m.NumCards() {
			return k, false
		}
		k[i] = m.CardKind(c)
		if k[i] == state.Wild {
			wilds++
		}
	}
	if wilds > 0 {
		return k, true
	}
	same := k[0] == k[1] && k[1] == k[2]
	distinct := k[0] != k[1] && k[1] != k[2] && k[0] != k[2]
	return k, same || distinct
}

// fixedValue is the best value of a set under the fixed scheme: one of each
// 10, three artillery 8, three cavalry 6, three infantry 4. A wild takes the
// kind that is worth most.
func fixedValue(k [3]state.Kind) int {
	var n [4]int
	for _, x := range k {
		n[x]++
	}
	plain := 3 - n[state.Wild]
	// One of each needs the real cards to be all different.
	if n[state.Infantry] <= 1 && n[state.Cavalry] <= 1 && n[state.Artillery] <= 1 {
		return 10
	}
	// Otherwise two or three real cards share a kind: three of that kind.
	for _, kind := range []state.Kind{state.Artillery, state.Cavalry, state.Infantry} {
		if n[kind] == plain {
			return [...]int{4, 6, 8}[kind]
		}
	}
	return 0
}

// trade hands a set in for armies.
func trade(s *state.State, seat int, c Trade) ([]Event, error) {
	switch s.Phase {
	case state.PhaseReinforce, state.PhaseOrders:
	case state.PhaseOccupy:
		return nil, fail(ErrWrongPhase, "engine.occupy.first", "Place", land(s, s.Occupy.To))
	default:
		return nil, fail(ErrWrongPhase, "engine.trade.wrong-phase", "Phase", phase(s.Phase))
	}
	hand := s.Seats[seat].Hand
	a, b, x := c.Cards[0], c.Cards[1], c.Cards[2]
	if a == b || b == x || a == x {
		return nil, fail(ErrBadCards, "engine.trade.same-card")
	}
	for _, card := range c.Cards {
		if int(card) >= s.Map.NumCards() || !hand.Has(card) {
			return nil, fail(ErrBadCards, "engine.cards.not-held", "Number", int(card))
		}
	}
	value := SetValue(s, c.Cards)
	if value == 0 {
		return nil, fail(ErrBadCards, "engine.trade.not-a-set",
			"A", cardName(s.Map, a), "B", cardName(s.Map, b), "C", cardName(s.Map, x))
	}
	ev := Traded{Seat: seat, Cards: c.Cards, Armies: value, BonusTerritory: -1}
	// At most one territory bonus per turn (the board game's rule): the first
	// card that shows a territory the seat owns.
	if !s.CardBonus && !hasBonusOrder(s, seat) {
		for _, card := range c.Cards {
			if t, ok := s.Map.CardTerritory(card); ok && s.Terr[t].Owner == seat {
				ev.Bonus, ev.BonusTerritory = 2, t
				if s.Phase == state.PhaseOrders {
					// Placed with the round's placements, as an order that
					// cannot be taken back.
					addOrder(s, state.Order{Seat: seat, Kind: state.OrderPlace, From: -1, To: t, Armies: 2, Bonus: true})
					break
				}
				s.Terr[t].Armies += 2
				s.CardBonus = true
				break
			}
		}
	}
	for _, card := range c.Cards {
		hand = hand.Remove(card)
		s.Discard = s.Discard.Add(card)
		if s.Phase == state.PhaseOrders {
			// An order: secret until the round resolves (State.View).
			s.Seats[seat].Traded = s.Seats[seat].Traded.Add(card)
		}
	}
	if s.Phase == state.PhaseOrders {
		// Told when the round resolves (RoundResolved).
		s.RoundTrades = append(slices.Clip(s.RoundTrades), state.Trade(ev))
	}
	s.Seats[seat].Hand = hand
	s.Seats[seat].Reserve += value
	s.Trades++
	maybeEndReinforce(s, seat)
	return []Event{ev}, nil
}

// Sets returns every set the hand can trade, as sorted card triples, each
// once, in ascending order.
func Sets(m *state.Map, hand state.CardSet) [][3]state.Card {
	cs := hand.Cards()
	var out [][3]state.Card
	for i := range cs {
		for j := i + 1; j < len(cs); j++ {
			for k := j + 1; k < len(cs); k++ {
				set := [3]state.Card{cs[i], cs[j], cs[k]}
				if _, ok := setKinds(m, set); ok {
					out = append(out, set)
				}
			}
		}
	}
	return out
}

// BestSet returns the set of the seat's hand that is worth most now,
// territory bonus included, sparing wild cards when it costs nothing. ok is
// false when the hand holds no set.
func BestSet(s *state.State, seat int) (set [3]state.Card, ok bool) {
	best := -1
	for _, c := range Sets(s.Map, s.Seats[seat].Hand) {
		v := SetValue(s, c) * 10
		if !s.CardBonus {
			for _, card := range c {
				if t, ok := s.Map.CardTerritory(card); ok && s.Terr[t].Owner == seat {
					v += 20
					break
				}
			}
		}
		for _, card := range c {
			if s.Map.CardKind(card) == state.Wild {
				v-- // keep wilds for later when the value is the same
			}
		}
		if v > best {
			best, set, ok = v, c, true
		}
	}
	return set, ok
}
