package engine

import (
	"slices"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// Simultaneous turns (RULES.md section 3, turns:simultaneous): a round is
// one phase, Orders, in which every living seat places its reinforcements,
// trades and gives attack and move orders, privately and in any order,
// until it commits (EndTurn). When the last one commits, the round
// resolves: every placement, then one attack or move order of each seat at
// a time, in a seat order drawn each round, until all are done; then a
// card to each seat that conquered, and the next round's reinforcements.
// The choices where the rule book is silent are in docs/rules.md.

// Assault orders Armies of From to attack the adjacent To when the round
// resolves (simultaneous turns): at most the armies on From above one at
// that moment, rolling as a blitz until To falls or they are spent; the
// survivors move in.
type Assault struct {
	From   int `json:"from"`
	To     int `json:"to"`
	Armies int `json:"armies"`
}

// Name is the command's type.
func (Assault) Name() string { return "assault" }

// applyOrders is Apply for a seat of a simultaneous round (PhaseOrders);
// a surrender is the classic one (applyClassic).
func applyOrders(s *state.State, seat int, c Command, d *dice) ([]Event, error) {
	if s.Seats[seat].Ready {
		return nil, fail(ErrCommitted, "engine.orders.committed", "Round", s.Turn)
	}
	switch c := c.(type) {
	case Place, AutoPlace, Trade:
		// As in a turn; a placement is an order (putArmies).
		return turnCommand(s, seat, c, d)
	case Assault:
		return armiesOrder(s, seat, state.OrderAttack, c.From, c.To, c.Armies)
	case Fortify:
		return armiesOrder(s, seat, state.OrderMove, c.From, c.To, c.Armies)
	case EndTurn:
		return commit(s, seat, d)
	case Undo:
		return undoOrder(s, seat)
	case Attack, Blitz:
		return nil, fail(ErrWrongPhase, "engine.orders.attack")
	}
	return nil, fail(ErrBadCommand, "engine.orders.not-an-order", "Command", lang.Text(c.Name()))
}

// addOrder appends o to the round's orders in a new slice: states that
// share the old one (clones, views) keep it as it was. It returns the
// event that tells of it.
func addOrder(s *state.State, o state.Order) Event {
	s.Orders = append(slices.Clip(s.Orders), o)
	return Ordered{Seat: o.Seat, Order: o}
}

// hasBonusOrder reports whether seat has had a traded card's territory
// bonus this round: one a round, as one a turn.
func hasBonusOrder(s *state.State, seat int) bool {
	return slices.ContainsFunc(s.Orders, func(o state.Order) bool { return o.Seat == seat && o.Bonus })
}

// Projected is the armies seat will have on t once its orders of the
// round so far have run as given, if nothing else happens: what its next
// order may count on (one army stays). Armies ordered into an attack have
// left. In a view, the seat's own orders are all there.
func Projected(s *state.State, seat, t int) int {
	n := s.Terr[t].Armies
	for _, o := range s.Orders {
		if o.Seat != seat {
			continue
		}
		switch {
		case o.To == t && o.Kind != state.OrderAttack:
			n += o.Armies
		case o.From == t:
			n -= o.Armies
		}
	}
	return n
}

// checkOrderArmies checks an attack or move order of n armies from From
// (the seat's, with n armies to spare as its earlier orders leave it) to
// the adjacent To (another's for an attack, the seat's for a move).
func checkOrderArmies(s *state.State, seat int, kind state.OrderKind, from, to, n int) *Error {
	if err := checkRoute(s, seat, from, to, "engine.territory.not-yours"); err != nil {
		return err
	}
	if !s.Map.Adjacent(from, to) {
		return fail(ErrNotAdjacent, "engine.border.none", "From", land(s, from), "To", land(s, to))
	}
	switch o := s.Terr[to].Owner; {
	case kind == state.OrderAttack && o == seat:
		return fail(ErrOwnTerritory, "engine.orders.own", "Place", land(s, to))
	case kind == state.OrderAttack && s.Sides().Teammates(seat, o):
		return checkNotTeammate(s, seat, to)
	case kind == state.OrderMove && o != seat && !s.Sides().Teammates(seat, o):
		return fail(ErrNotYourTerritory, "engine.orders.enemy", "Place", land(s, to), "Player", player(s, o))
	}
	spare := Projected(s, seat, from) - 1
	if spare < 1 {
		return fail(ErrNotEnoughArmies, "engine.orders.none-spare", "From", land(s, from))
	}
	if n < 1 || n > spare {
		return fail(ErrBadArmies, "engine.orders.range", "Max", spare, "From", land(s, from), "Number", n)
	}
	return nil
}

// armiesOrder orders n armies from one territory to another: an attack
// (Assault) or a move (Fortify) of a simultaneous round.
func armiesOrder(s *state.State, seat int, kind state.OrderKind, from, to, n int) ([]Event, error) {
	if err := checkTraded(s, seat); err != nil {
		return nil, err
	}
	if err := checkOrderArmies(s, seat, kind, from, to, n); err != nil {
		return nil, err
	}
	return []Event{addOrder(s, state.Order{Seat: seat, Kind: kind, From: from, To: to, Armies: n})}, nil
}

// undoOrder takes back the seat's last order (a placement's armies return
// to its reserve). A trade, and the bonus armies it placed, stay.
func undoOrder(s *state.State, seat int) ([]Event, error) {
	i := len(s.Orders) - 1
	for ; i >= 0 && (s.Orders[i].Seat != seat || s.Orders[i].Bonus); i-- {
	}
	if i < 0 {
		return nil, fail(ErrNothingToUndo, "engine.orders.nothing-to-undo")
	}
	o := s.Orders[i]
	if o.Kind == state.OrderPlace {
		s.Seats[seat].Reserve += o.Armies
	}
	s.Orders = slices.Concat(s.Orders[:i], s.Orders[i+1:])
	return []Event{Unordered{Seat: seat, Order: o}}, nil
}

// commit ends the seat's part of the round; the last commit resolves it.
func commit(s *state.State, seat int, d *dice) ([]Event, error) {
	if mustTrade(s, seat) {
		return nil, fail(ErrMustTrade, "engine.trade.must-then-place", "Cards", cards(s.Seats[seat].Hand.Len()))
	}
	if r := s.Seats[seat].Reserve; r > 0 {
		return nil, fail(ErrWrongPhase, "engine.place.first", "Armies", remaining(r))
	}
	s.Seats[seat].Ready = true
	ev := []Event{Committed{Seat: seat, Round: s.Turn}}
	return append(ev, maybeResolve(s, d)...), nil
}

// maybeResolve resolves the round once every living seat has committed.
func maybeResolve(s *state.State, d *dice) []Event {
	if s.Phase != state.PhaseOrders {
		return nil
	}
	for i := range s.Seats {
		if s.Seats[i].Alive() && !s.Seats[i].Ready {
			return nil
		}
	}
	return resolve(s, d)
}

// startRound begins round s.Turn+1: every living seat gets its
// reinforcements, from the map as it stands.
func startRound(s *state.State) []Event {
	if over := roundLimit(s, s.Turn+1); over != nil {
		return over
	}
	s.Turn++
	s.Round = s.Turn
	s.Phase = state.PhaseOrders
	s.Orders = nil
	s.Last = s.This
	s.This.Reset()
	s.Occupy = state.Occupy{}
	s.Conquered, s.CardBonus, s.Fortified = false, false, 0
	ev := []Event{RoundStarted{Round: s.Turn}}
	first := -1
	for i := range s.Seats {
		s.Seats[i].Ready = false
		if !s.Seats[i].Alive() {
			continue
		}
		if first < 0 {
			first = i
		}
		in := s.Income(i)
		s.Seats[i].Reserve += in.Total
		ev = append(ev, TurnStarted{Seat: i, Turn: s.Turn, Armies: in.Total, Income: in, Round: s.Round})
	}
	s.Current = max(first, 0)
	return ev
}

// resolve plays the round's orders (RULES.md section 3).
func resolve(s *state.State, d *dice) []Event {
	order := make([]int, 0, len(s.Seats))
	for i := range s.Seats {
		s.Seats[i].Traded = state.CardSet{} // the orders show now
		if s.Seats[i].Alive() {
			order = append(order, i)
		}
	}
	shuffleDice(d, order)
	r := RoundResolved{Round: s.Turn, Order: slices.Clone(order)}
	for _, t := range s.RoundTrades {
		r.Trades = append(r.Trades, Traded(t))
	}
	s.RoundTrades = nil
	ev := []Event{r}
	orders := s.Orders
	s.Orders = nil
	queues := make([][]state.Order, len(s.Seats))
	for _, o := range orders {
		if o.Kind == state.OrderPlace {
			// Placements first; a seat out since it gave them places nothing.
			if s.Seats[o.Seat].Alive() && s.Terr[o.To].Owner == o.Seat {
				s.Terr[o.To].Armies += o.Armies
				ev = append(ev, Placed{Seat: o.Seat, Territory: o.To, Armies: o.Armies})
			}
			continue
		}
		queues[o.Seat] = append(queues[o.Seat], o)
	}
	if len(order) > 0 {
		// The placements can fulfil a mission (18 territories with two
		// armies): the first in the round's order wins.
		ev = append(ev, checkMissions(s, order[0])...)
	}
	conquered := make([]bool, len(s.Seats))
	for more := true; more && s.Phase != state.PhaseOver; {
		more = false
		for _, seat := range order {
			q := queues[seat]
			if len(q) == 0 {
				continue
			}
			queues[seat], more = q[1:], true
			if !s.Seats[seat].Alive() {
				continue
			}
			e, took := runOrder(s, q[0], d)
			ev = append(ev, e...)
			conquered[seat] = conquered[seat] || took
			if s.Phase == state.PhaseOver {
				break
			}
		}
	}
	if s.Phase == state.PhaseOver {
		return ev
	}
	// Drawn in the round's seat order, as the deck runs out.
	for _, seat := range order {
		if conquered[seat] && s.Seats[seat].Alive() {
			ev = append(ev, drawCard(s, seat, d)...)
		}
	}
	for t := range s.Terr {
		s.Terr[t].Arrived = 0
	}
	return append(ev, startRound(s)...)
}

// shuffleDice shuffles a with the match's generator (Fisher-Yates).
func shuffleDice(d *dice, a []int) {
	for i := len(a) - 1; i > 0; i-- {
		j := d.intn(i + 1)
		a[i], a[j] = a[j], a[i]
	}
}

// runOrder plays one attack or move order when the round resolves, and
// reports whether it took a territory.
func runOrder(s *state.State, o state.Order, d *dice) ([]Event, bool) {
	seat := o.Seat
	if s.Terr[o.From].Owner != seat {
		return []Event{OrderSkipped{Seat: seat, Order: o, Why: SkipSourceLost}}, false
	}
	n := min(o.Armies, s.Terr[o.From].Armies-1)
	if n < 1 {
		return []Event{OrderSkipped{Seat: seat, Order: o, Why: SkipNoArmies}}, false
	}
	if s.Sides().Same(s.Terr[o.To].Owner, seat) {
		// A move, or an attack on a territory already taken this round
		// (by a teammate, too: it reinforces their conquest), or a move
		// to a teammate.
		s.Terr[o.From].Armies -= n
		s.Terr[o.To].Armies += n
		s.This.Add(state.Arrow{From: int16(o.From), To: int16(o.To), Kind: state.ArrowFortify, Seat: int8(seat), Count: int32(n)})
		return []Event{Transferred{Seat: seat, From: o.From, To: o.To, Armies: n, Attack: o.Kind == state.OrderAttack}}, false
	}
	if o.Kind == state.OrderMove {
		return []Event{OrderSkipped{Seat: seat, Order: o, Why: SkipTargetLost}}, false
	}
	// An attack: blitz with the committed armies until the target falls
	// or they are spent.
	var ev []Event
	def := s.Terr[o.To].Owner
	for n > 0 && s.Terr[o.To].Armies > 0 {
		r := throw(s, seat, o.From, o.To, min(3, n), d)
		n -= r.AttackerLost
		ev = append(ev, r)
	}
	if s.Terr[o.To].Armies > 0 {
		s.This.Add(state.Arrow{From: int16(o.From), To: int16(o.To), Kind: state.ArrowAttack, Seat: int8(seat), Count: 1})
		return ev, false
	}
	// Taken: every surviving committed army moves in.
	s.Terr[o.To].Owner = seat
	s.Terr[o.To].Armies = n
	s.Terr[o.From].Armies -= n
	s.This.Add(state.Arrow{From: int16(o.From), To: int16(o.To), Kind: state.ArrowConquest, Seat: int8(seat), Count: 1})
	ev = append(ev, Conquered{Seat: seat, Defender: def, From: o.From, To: o.To, Armies: n})
	if def >= 0 && s.Owned(def) == 0 {
		s.Seats[def].Ready = false // no longer in the rounds
		ev = append(ev, conquerSeat(s, def, seat)...)
	}
	return append(ev, checkVictory(s, seat)...), true
}

// RoundStart is the length of log at which the round in progress began, if
// the match it records is in a simultaneous round (its orders since are
// secret until it resolves); otherwise the length of the whole log.
func RoundStart(setup Setup, log []Entry) (int, error) {
	g, err := NewGame(setup)
	if err != nil {
		return 0, err
	}
	start := 0
	for i, e := range log {
		turn, phase := g.State.Turn, g.State.Phase
		if _, err := g.Replay(e); err != nil {
			return 0, err
		}
		// A rollback starts no round: the orders given before it, in a
		// round that never resolved, stay secret like those after it.
		if _, back := e.Cmd.(Rollback); (g.State.Turn != turn || g.State.Phase != phase) && !back {
			start = i + 1
		}
	}
	if g.State.Phase != state.PhaseOrders {
		return len(log), nil
	}
	return start, nil
}
