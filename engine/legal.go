package engine

import (
	"slices"

	"github.com/riskbot/riskbot/state"
)

// Legal lists the commands seat may play now. In classic matches, commands
// that carry an army count (Place, Occupy, Fortify, Blitz's Keep) are listed twice, with the
// smallest and the largest count; every count between is legal too (see
// Covers). Surrender is listed whenever the seat plays; Undo is not (it
// depends on the game's history, see Game.CanUndo), but in a simultaneous
// round, where the rules themselves take an order back.
func Legal(s *state.State, seat int) []Command {
	if seat < 0 || seat >= len(s.Seats) || s.Phase == state.PhaseOver || !s.Seats[seat].Alive() {
		return nil
	}
	switch s.Options.Rules {
	case state.Capitals:
		return legalCapitals(s, seat)
	case state.Classic:
	default:
		return nil
	}
	var out []Command
	add := func(c Command) { out = append(out, c) }
	ranged := func(lo, hi int, mk func(int) Command) {
		add(mk(lo))
		if hi > lo {
			add(mk(hi))
		}
	}
	mine := func(yield func(int)) {
		for t := range s.Terr {
			if s.Terr[t].Owner == seat {
				yield(t)
			}
		}
	}
	// friendly yields the territories armies may move into: the seat's
	// own and its teammates'.
	friendly := func(yield func(int)) {
		for t := range s.Terr {
			if o := s.Terr[t].Owner; o == seat || s.Sides().Teammates(seat, o) {
				yield(t)
			}
		}
	}
	if s.Phase == state.PhaseSetup {
		if r := s.Seats[seat].Reserve; r > 0 {
			mine(func(t int) {
				ranged(1, r, func(n int) Command { return Place{Territory: t, Armies: n} })
			})
			add(AutoPlace{})
		}
		add(Surrender{})
		return out
	}
	if s.Phase == state.PhaseOrders {
		return legalOrders(s, seat)
	}
	if seat != s.Current {
		return []Command{Surrender{}}
	}
	switch s.Phase {
	case state.PhaseReinforce:
		for _, set := range Sets(s.Map, s.Seats[seat].Hand) {
			add(Trade{Cards: set})
		}
		if r := s.Seats[seat].Reserve; r > 0 && !mustTrade(s, seat) {
			mine(func(t int) {
				ranged(1, r, func(n int) Command { return Place{Territory: t, Armies: n} })
			})
			add(AutoPlace{})
		}
	case state.PhaseOccupy:
		ranged(s.Occupy.Min, s.Occupy.Max, func(n int) Command { return Occupy{Armies: n} })
	case state.PhaseAttack, state.PhaseFortify:
		if s.Phase == state.PhaseAttack {
			mine(func(t int) {
				a := s.Terr[t].Armies
				if a < 2 {
					return
				}
				for _, n := range s.Map.Territories[t].Adj {
					if s.Sides().Same(s.Terr[n].Owner, seat) {
						continue
					}
					for dice := 1; dice <= MaxDice(a); dice++ {
						add(Attack{From: t, To: n, Dice: dice})
					}
					ranged(1, a-1, func(k int) Command { return Blitz{From: t, To: n, Keep: k} })
				}
			})
		}
		if s.Options.Fortify == state.Adjacent || s.Fortified == 0 {
			var comp []int // connected groups, for the connected variant only
			if s.Options.Fortify == state.Connected {
				comp = components(s, seat)
			}
			mine(func(from int) {
				m := Movable(s, from)
				if m == 0 {
					return
				}
				friendly(func(to int) {
					if to == from {
						return
					}
					if s.Options.Fortify == state.Adjacent && !s.Map.Adjacent(from, to) {
						return
					}
					if s.Options.Fortify == state.Connected && !sameComponent(s, comp, from, to) {
						return
					}
					ranged(1, m, func(n int) Command { return Fortify{From: from, To: to, Armies: n} })
				})
			})
		}
		hand := s.Seats[seat].Hand
		if s.Conquered && hand.Len() >= handLimit {
			for _, c := range hand.Cards() {
				add(Discard{Card: c})
			}
		} else {
			add(EndTurn{})
		}
	}
	add(Surrender{})
	return out
}

// components labels the seat's territories by the connected group of own
// territories they belong to (others get -1).
func components(s *state.State, seat int) []int {
	comp := make([]int, len(s.Terr))
	for i := range comp {
		comp[i] = -1
	}
	var stack []int
	for start := range s.Terr {
		if s.Terr[start].Owner != seat || comp[start] >= 0 {
			continue
		}
		comp[start] = start
		stack = append(stack[:0], start)
		for len(stack) > 0 {
			t := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, n := range s.Map.Territories[t].Adj {
				if s.Terr[n].Owner == seat && comp[n] < 0 {
					comp[n] = start
					stack = append(stack, n)
				}
			}
		}
	}
	return comp
}

// sameComponent reports whether a connected fortification leads from own
// territory from to to: in from's group of own territories, or a
// teammate's territory bordering that group.
func sameComponent(s *state.State, comp []int, from, to int) bool {
	if comp[to] >= 0 {
		return comp[to] == comp[from]
	}
	for _, n := range s.Map.Territories[to].Adj {
		if comp[n] == comp[from] {
			return true
		}
	}
	return false
}

// Covers reports whether the list from Legal allows c: c is listed, or it
// differs from listed commands only by an army count between the smallest
// and largest of them.
func Covers(legal []Command, c Command) bool {
	key, n, ranged := SetAmount(c, 0)
	lo, hi := 1<<62, -1<<62
	for _, l := range legal {
		if l == c {
			return true
		}
		if lk, ln, ok := SetAmount(l, 0); ranged && ok && lk == key {
			lo, hi = min(lo, ln), max(hi, ln)
		}
	}
	return ranged && n >= lo && n <= hi
}

// SetAmount returns c with its army count (Blitz: Keep) set to n, and the
// count c had; ok is false, and c returned as it is, for a command without
// a count. Each case copies every field of its command but the count
// (TestSetAmountKeepsFields fills every field to check).
func SetAmount(c Command, n int) (_ Command, had int, ok bool) {
	switch c := c.(type) {
	case Place:
		return Place{Territory: c.Territory, Armies: n}, c.Armies, true
	case Occupy:
		return Occupy{Armies: n}, c.Armies, true
	case Fortify:
		return Fortify{From: c.From, To: c.To, Armies: n}, c.Armies, true
	case Blitz:
		return Blitz{From: c.From, To: c.To, Keep: n}, c.Keep, true
	case Assault:
		return Assault{From: c.From, To: c.To, Armies: n}, c.Armies, true
	}
	return c, 0, false
}

// legalOrders is Legal in a simultaneous round: placements while armies
// remain, attack and move orders with what the seat's earlier orders leave
// (smallest and largest counts, see Covers), the commit once all is placed,
// and the undo of its last order.
func legalOrders(s *state.State, seat int) []Command {
	if s.Seats[seat].Ready {
		return []Command{Surrender{}}
	}
	var out []Command
	add := func(c Command) { out = append(out, c) }
	for _, set := range Sets(s.Map, s.Seats[seat].Hand) {
		add(Trade{Cards: set})
	}
	if mustTrade(s, seat) {
		return append(out, Surrender{})
	}
	if r := s.Seats[seat].Reserve; r > 0 {
		for t := range s.Terr {
			if s.Terr[t].Owner == seat {
				add(Place{Territory: t, Armies: 1})
				if r > 1 {
					add(Place{Territory: t, Armies: r})
				}
			}
		}
		add(AutoPlace{})
	}
	for t := range s.Terr {
		if s.Terr[t].Owner != seat {
			continue
		}
		spare := Projected(s, seat, t) - 1
		if spare < 1 {
			continue
		}
		for _, n := range s.Map.Territories[t].Adj {
			var mk func(int) Command
			if s.Sides().Same(s.Terr[n].Owner, seat) {
				mk = func(k int) Command { return Fortify{From: t, To: n, Armies: k} }
			} else {
				mk = func(k int) Command { return Assault{From: t, To: n, Armies: k} }
			}
			add(mk(1))
			if spare > 1 {
				add(mk(spare))
			}
		}
	}
	if s.Seats[seat].Reserve == 0 {
		add(EndTurn{})
	}
	if slices.ContainsFunc(s.Orders, func(o state.Order) bool { return o.Seat == seat && !o.Bonus }) {
		add(Undo{})
	}
	return append(out, Surrender{})
}
