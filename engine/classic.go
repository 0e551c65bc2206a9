package engine

import (
	"slices"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// applyClassic is Apply for the classic rule set. Every command validates in
// full before it changes anything. In a missions match every accepted
// command is followed by a look at the missions: a placement or a
// fortification can fulfil one as well as a conquest.
func applyClassic(s *state.State, seat int, c Command, d *dice) ([]Event, error) {
	ev, err := classicCommand(s, seat, c, d)
	if err != nil {
		return nil, err
	}
	return append(ev, checkMissions(s, seat)...), nil
}

// classicCommand validates and applies one classic command.
func classicCommand(s *state.State, seat int, c Command, d *dice) ([]Event, error) {
	if s.Phase == state.PhaseOver {
		return nil, fail(ErrGameOver, "engine.over.won", "Player", player(s, s.Winner))
	}
	if !s.Seats[seat].Alive() {
		return nil, fail(ErrNotPlaying, "engine.seat.out", "Status", status(s.Seats[seat].Status))
	}
	switch c := c.(type) {
	case Surrender:
		ev := surrender(s, seat)
		return append(ev, maybeResolve(s, d)...), nil
	case Place:
		if s.Phase == state.PhaseSetup {
			return placeSetup(s, seat, c)
		}
	case AutoPlace:
		if s.Phase == state.PhaseSetup {
			return autoPlace(s, seat, d)
		}
	}
	if s.Phase == state.PhaseSetup {
		return nil, fail(ErrWrongPhase, "engine.setup.place-first", "Armies", armies(s.Seats[seat].Reserve))
	}
	if s.Phase == state.PhaseOrders {
		return applyOrders(s, seat, c, d)
	}
	if seat != s.Current {
		return nil, fail(ErrNotYourTurn, "engine.turn.not-yours", "Player", player(s, s.Current))
	}
	return turnCommand(s, seat, c, d)
}

// turnCommand applies a command of the seat's turn; a simultaneous round
// places and trades with it too.
func turnCommand(s *state.State, seat int, c Command, d *dice) ([]Event, error) {
	switch c := c.(type) {
	case Place:
		return place(s, seat, c)
	case AutoPlace:
		if err := checkReinforce(s, seat); err != nil {
			return nil, err
		}
		return autoPlace(s, seat, d)
	case Trade:
		return trade(s, seat, c)
	case Attack:
		return attack(s, seat, c, d)
	case Blitz:
		return blitz(s, seat, c, d)
	case Occupy:
		return occupy(s, seat, c)
	case Fortify:
		return fortify(s, seat, c)
	case Discard:
		return discard(s, seat, c)
	case EndTurn:
		return endTurn(s, seat, d)
	case Undo:
		return nil, fail(ErrUnsupported, "engine.undo.no-history")
	}
	return nil, fail(ErrBadCommand, "engine.classic.not-a-command", "Command", lang.Text(c.Name()))
}

// placeSetup places armies during the simultaneous initial placement.
func placeSetup(s *state.State, seat int, c Place) ([]Event, error) {
	if err := checkPlace(s, seat, c); err != nil {
		return nil, err
	}
	ev := []Event{putArmies(s, seat, c.Territory, c.Armies)}
	return append(ev, maybeFinishSetup(s)...), nil
}

func checkPlace(s *state.State, seat int, c Place) *Error {
	if err := checkTerritory(s, c.Territory); err != nil {
		return err
	}
	if o := s.Terr[c.Territory].Owner; o != seat {
		return fail(ErrNotYourTerritory, "engine.territory.not-yours", "Place", land(s, c.Territory), "Player", player(s, o))
	}
	r := s.Seats[seat].Reserve
	if r == 0 {
		return fail(ErrNotEnoughArmies, "engine.place.none-left")
	}
	if c.Armies < 1 || c.Armies > r {
		return fail(ErrBadArmies, "engine.place.range", "Max", r, "Number", c.Armies)
	}
	return nil
}

// maybeFinishSetup starts the first turn once every seat has placed all.
func maybeFinishSetup(s *state.State) []Event {
	for i := range s.Seats {
		if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
			return nil
		}
	}
	if s.Options.Turns == state.Simultaneous {
		return append([]Event{SetupDone{}}, startRound(s)...)
	}
	first := 0
	if !s.Seats[first].Alive() {
		first = nextAlive(s, first)
	}
	return append([]Event{SetupDone{}}, startTurn(s, first)...)
}

// handTurn makes seat's the next turn, in its reinforcement phase, unless
// the match ends at its round limit first: then it returns the events
// that end it.
func handTurn(s *state.State, seat int) (over []Event) {
	round := roundOf(s, seat)
	if over := roundLimit(s, round); over != nil {
		return over
	}
	s.Round = round
	s.Current = seat
	s.Turn++
	s.Phase = state.PhaseReinforce
	return nil
}

// startTurn hands the turn to seat and gives it its reinforcements.
func startTurn(s *state.State, seat int) []Event {
	if over := handTurn(s, seat); over != nil {
		return over
	}
	in := s.Income(seat)
	s.Seats[seat].Reserve += in.Total
	return []Event{TurnStarted{Seat: seat, Turn: s.Turn, Armies: in.Total, Income: in, Round: s.Round}}
}

// mustTrade reports whether seat must trade before placing: five or more
// cards in hand, whether at the start of a turn or after taking the cards of
// an eliminated player.
func mustTrade(s *state.State, seat int) bool { return s.Seats[seat].Hand.Len() >= 5 }

// checkReinforce refuses to place outside the seat's reinforcement or a
// simultaneous round (where placements are orders), or before a due trade.
func checkReinforce(s *state.State, seat int) *Error {
	switch s.Phase {
	case state.PhaseReinforce, state.PhaseOrders:
	case state.PhaseOccupy:
		return fail(ErrWrongPhase, "engine.occupy.first", "Place", land(s, s.Occupy.To))
	default:
		return fail(ErrWrongPhase, "engine.place.wrong-phase", "Phase", phase(s.Phase))
	}
	return checkTraded(s, seat)
}

// checkTraded refuses to place (or order, in a simultaneous round) while
// the seat's hand is too full not to trade first.
func checkTraded(s *state.State, seat int) *Error {
	if mustTrade(s, seat) {
		return fail(ErrMustTrade, "engine.trade.must-before-place", "Cards", cards(s.Seats[seat].Hand.Len()))
	}
	return nil
}

// place places reinforcements during the seat's turn, or orders their
// placement in a simultaneous round.
func place(s *state.State, seat int, c Place) ([]Event, error) {
	if err := checkReinforce(s, seat); err != nil {
		return nil, err
	}
	if err := checkPlace(s, seat, c); err != nil {
		return nil, err
	}
	ev := []Event{putArmies(s, seat, c.Territory, c.Armies)}
	maybeEndReinforce(s, seat)
	return ev, nil
}

// putArmies moves n armies of the seat's reserve onto its territory t: at
// once, or in a simultaneous round as a placement order, which the round
// carries out when it resolves.
func putArmies(s *state.State, seat, t, n int) Event {
	s.Seats[seat].Reserve -= n
	if s.Phase == state.PhaseOrders {
		return addOrder(s, state.Order{Seat: seat, Kind: state.OrderPlace, From: -1, To: t, Armies: n})
	}
	s.Terr[t].Armies += n
	return Placed{Seat: seat, Territory: t, Armies: n}
}

// maybeEndReinforce moves on to the attack once everything is placed.
func maybeEndReinforce(s *state.State, seat int) {
	if s.Phase == state.PhaseReinforce && s.Seats[seat].Reserve == 0 && !mustTrade(s, seat) {
		s.Phase = state.PhaseAttack
	}
}

// autoPlace spreads the seat's reserve at random over its territories that
// border an enemy, one army at a time (as orders in a simultaneous round).
func autoPlace(s *state.State, seat int, d *dice) ([]Event, error) {
	if s.Seats[seat].Reserve == 0 {
		return nil, fail(ErrNotEnoughArmies, "engine.place.none-left")
	}
	var ev []Event
	for t, n := range spread(s, seat, d) {
		if n > 0 {
			ev = append(ev, putArmies(s, seat, t, n))
		}
	}
	if s.Phase == state.PhaseSetup {
		return append(ev, maybeFinishSetup(s)...), nil
	}
	maybeEndReinforce(s, seat)
	return ev, nil
}

// spread draws where the seat's reserve goes, one army at a time, at
// random among its territories that border an enemy (or any of its own):
// the armies each territory gets.
func spread(s *state.State, seat int, d *dice) []int {
	var targets []int
	for t := range s.Terr {
		if s.Terr[t].Owner == seat && s.BordersEnemy(t) {
			targets = append(targets, t)
		}
	}
	if len(targets) == 0 {
		for t := range s.Terr {
			if s.Terr[t].Owner == seat {
				targets = append(targets, t)
			}
		}
	}
	added := make([]int, len(s.Terr))
	for range s.Seats[seat].Reserve {
		added[targets[d.intn(len(targets))]]++
	}
	return added
}

// surrender turns the seat's territories neutral and takes it out of the
// match; its cards go to the discard pile.
func surrender(s *state.State, seat int) []Event {
	for t := range s.Terr {
		if s.Terr[t].Owner == seat {
			s.Terr[t].Owner = state.Neutral
			s.Terr[t].Arrived = 0
		}
	}
	st := &s.Seats[seat]
	s.Discard = s.Discard.Union(st.Hand)
	st.Hand = state.CardSet{}
	st.Traded = state.CardSet{} // on the pile with the rest, face up
	// Its sets of the round go with its orders, untold, even when its
	// surrender ends the match.
	s.RoundTrades = slices.DeleteFunc(slices.Clone(s.RoundTrades), func(t state.Trade) bool { return t.Seat == seat })
	st.Reserve = 0
	st.Status = state.Surrendered
	ev := []Event{Surrendered{Seat: seat}}
	ev = append(ev, missionTargetOut(s, seat, -1)...)
	if won := checkVictory(s, -1); won != nil {
		return append(ev, won...)
	}
	switch {
	case s.Phase == state.PhaseSetup:
		ev = append(ev, maybeFinishSetup(s)...)
	case s.Phase == state.PhaseOrders:
		// Its orders go; the round resolves if it was the last one waited
		// for (maybeResolve, by the caller, which holds the dice).
		s.Orders = slices.DeleteFunc(slices.Clone(s.Orders), func(o state.Order) bool { return o.Seat == seat })
		st.Ready = false
		if s.Current == seat {
			s.Current = nextAlive(s, seat)
		}
	case seat == s.Current:
		ev = append(ev, passTurn(s)...)
	}
	return ev
}

// checkVictory ends the match if a seat has won: with secret missions the
// first whose mission is done (seat first), then the last one standing (the
// last team, with seat winning for it if it plays there), or (after a
// conquest by seat) the owner of enough territories, with its teammates.
func checkVictory(s *state.State, seat int) []Event {
	winner := -1
	var ev []Event
	if s.Options.Victory == state.Missions {
		if winner = missionWinner(s, seat); winner >= 0 {
			ev = append(ev, MissionFulfilled{Seat: winner, Mission: s.Seats[winner].Mission})
		}
	}
	if winner >= 0 {
		// Won by a mission.
	} else if w := sideWinner(s, seat); w >= 0 {
		winner = w
	} else if seat >= 0 && s.Sides().Owned(seat) >= s.VictoryTarget() {
		// With teams, the share is the team's together.
		winner = seat
	}
	if winner < 0 {
		return nil
	}
	return append(ev, won(s, winner))
}

// endTurn draws the turn's card and passes to the next seat.
func endTurn(s *state.State, seat int, d *dice) ([]Event, error) {
	switch s.Phase {
	case state.PhaseAttack, state.PhaseFortify:
	case state.PhaseReinforce:
		if mustTrade(s, seat) {
			return nil, fail(ErrMustTrade, "engine.trade.must-then-place", "Cards", cards(s.Seats[seat].Hand.Len()))
		}
		return nil, fail(ErrWrongPhase, "engine.place.first", "Armies", remaining(s.Seats[seat].Reserve))
	case state.PhaseOccupy:
		return nil, fail(ErrWrongPhase, "engine.occupy.first", "Place", land(s, s.Occupy.To))
	}
	var ev []Event
	if s.Conquered {
		if s.Seats[seat].Hand.Len() >= handLimit {
			return nil, fail(ErrMustDiscard, "engine.discard.first", "Cards", cards(s.Seats[seat].Hand.Len()))
		}
		ev = drawCard(s, seat, d)
	}
	return append(ev, passTurn(s)...), nil
}

// handLimit is the most cards a seat may hold when it draws.
const handLimit = 5

func drawCard(s *state.State, seat int, d *dice) []Event {
	var ev []Event
	if s.Deck.Empty() {
		if s.Discard.Empty() {
			return nil
		}
		ev = append(ev, Reshuffled{Cards: s.Discard.Len()})
		s.Deck, s.Discard = s.Discard, state.CardSet{}
	}
	c := d.card(s, seat)
	s.Deck = s.Deck.Remove(c)
	s.Seats[seat].Hand = s.Seats[seat].Hand.Add(c)
	return append(ev, CardDrawn{Seat: seat, Card: c})
}

// passTurn closes the current turn and starts the next seat's.
func passTurn(s *state.State) []Event {
	for t := range s.Terr {
		s.Terr[t].Arrived = 0
	}
	s.Last = s.This
	s.This.Reset()
	s.Conquered = false
	s.CardBonus = false
	s.Fortified = 0
	s.Occupy = state.Occupy{}
	return startTurn(s, nextAlive(s, s.Current))
}

// discard drops a card from a full hand before the end-of-turn draw.
func discard(s *state.State, seat int, c Discard) ([]Event, error) {
	hand := s.Seats[seat].Hand
	if !s.Conquered || hand.Len() < handLimit || (s.Phase != state.PhaseAttack && s.Phase != state.PhaseFortify) {
		return nil, fail(ErrWrongPhase, "engine.discard.not-now")
	}
	if int(c.Card) >= s.Map.NumCards() || !hand.Has(c.Card) {
		return nil, fail(ErrBadCards, "engine.cards.not-held", "Number", int(c.Card))
	}
	s.Seats[seat].Hand = hand.Remove(c.Card)
	s.Discard = s.Discard.Add(c.Card)
	return []Event{Discarded{Seat: seat, Card: c.Card}}, nil
}
