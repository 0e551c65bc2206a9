package ai

import (
	"context"
	"math"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Simultaneous rounds (turns:simultaneous, docs/rules.md): a seat gives
// its orders one command at a time, like a person typing them, and each
// decision is read off its view, where its own orders so far are kept
// (the others' are hidden): trade, place, order attacks, move the
// interior's armies to the front, commit. Every command adds an order or
// commits, so a round always ends.

// ordersPolicy is how a level orders.
type ordersPolicy struct {
	// reckless: attack the weakest neighbour from every front with
	// everything, whatever the odds (easy).
	reckless bool
	// minOdds is the least chance of taking the target an attack needs,
	// against its armies and a guess of the reinforcements its owner may
	// put there this round.
	minOdds float64
	// values weighs targets by what they do: a continent completed or
	// broken, a player eliminated (hard).
	values bool
	// allIn orders every spare army of the source into an attack, not
	// just enough to take the target surely (one of hard's candidates).
	allIn bool
	// targets, if set, are the only territories attacked (a continent to
	// take or to break: one of hard's candidates).
	targets []bool
	// guards, if set, are guard's guesses for every territory, worked out
	// once for the board (guards): the board does not change while the
	// orders are given, and hard's search gives many.
	guards []int
}

// guard is guard(s, t), from p.guards when they are set.
func (p *ordersPolicy) guard(s *state.State, t int) int {
	if p.guards != nil {
		return p.guards[t]
	}
	return guard(s, t)
}

// ordersDecider is what a level implements to order its own way in a
// simultaneous round; a level without it (random, exec:) plays its decide.
type ordersDecider interface {
	decideOrders(ctx context.Context, s *state.State, seat int) engine.Command
}

func (e *easy) decideOrders(_ context.Context, s *state.State, seat int) engine.Command {
	return orders(s, seat, ordersPolicy{reckless: true})
}

func (n *normal) decideOrders(_ context.Context, s *state.State, seat int) engine.Command {
	return orders(s, seat, ordersPolicy{minOdds: oddsFor(n.p.style)})
}

// oddsFor is the least chance of a conquest an attack order needs, by the
// heuristics' internal style (bias): 0.6 at the balanced setting, more for
// a defensive one.
func oddsFor(style float64) float64 { return max(0.3, min(0.85, 0.5-0.1*style)) }

// orders decides seat's next command of the round.
func orders(s *state.State, seat int, p ordersPolicy) engine.Command {
	return ordersWith(s, seat, p, &chances{})
}

// ordersWith is orders weighing odds with memo, which a search shares
// across its many calls (the odds of a pair never change).
func ordersWith(s *state.State, seat int, p ordersPolicy, memo *chances) engine.Command {
	hand := s.Seats[seat].Hand
	if set, ok := engine.BestSet(s, seat); ok && (hand.Len() >= 5 || !p.reckless) {
		return engine.Trade{Cards: set}
	}
	if r := s.Seats[seat].Reserve; r > 0 {
		return engine.Place{Territory: placeFor(s, seat, p, memo), Armies: r}
	}
	if c := attackOrder(s, seat, p, memo); c != nil {
		return c
	}
	if c := frontMove(s, seat); c != nil {
		return c
	}
	return engine.EndTurn{}
}

// targeted reports whether seat has ordered an attack on t this round.
func targeted(s *state.State, seat, t int) bool {
	for _, o := range s.Orders {
		if o.Seat == seat && o.Kind == state.OrderAttack && o.To == t {
			return true
		}
	}
	return false
}

// guard guesses the armies on enemy territory t when the round resolves:
// those there, and the owner's reinforcements spread over its fronts.
func guard(s *state.State, t int) int {
	owner := s.Terr[t].Owner
	if owner < 0 {
		return s.Terr[t].Armies
	}
	fronts := 0
	for u := range s.Terr {
		if s.Terr[u].Owner == owner && bordersOther(s, u, owner) {
			fronts++
		}
	}
	in := s.Income(owner).Total
	return s.Terr[t].Armies + int(math.Ceil(float64(in)/float64(max(fronts, 1))))
}

// guards is guard(s, t) for every territory t, into dst (reused), at the
// cost of one guard: the fronts and incomes of every seat counted once.
func guards(dst []int, s *state.State) []int {
	var fronts, income [state.MaxSeats]int
	for u := range s.Terr {
		if o := s.Terr[u].Owner; o >= 0 && bordersOther(s, u, o) {
			fronts[o]++
		}
	}
	for i := range s.Seats {
		if i < state.MaxSeats {
			income[i] = s.Income(i).Total
		}
	}
	dst = dst[:0]
	for t := range s.Terr {
		g := s.Terr[t].Armies
		if o := s.Terr[t].Owner; o >= 0 && o < state.MaxSeats {
			g += int(math.Ceil(float64(income[o]) / float64(max(fronts[o], 1))))
		}
		dst = append(dst, g)
	}
	return dst
}

// chances are the odds of the attacks one decision weighs, worked out
// exactly (engine.AttackOdds) once each: sizing an attack asks for the same
// few pairs again and again. (winProb's table is faster but scales large
// stacks down, off by up to a fifth for large even ones.)
type chances struct {
	memo map[[2]int]float64
	// scaled takes winProb's odds for stacks of more than exactUpTo
	// armies: hard's search meets more large stacks than it can afford to
	// work out exactly. (Its model of normal keeps the exact odds
	// otherwise: the same ties between targets, the same choices.)
	scaled bool
}

// exactUpTo is the largest stack whose odds hard's search works out
// exactly.
const exactUpTo = 200

// take is the chance that n armies ordered against def take the target:
// a blitz with n armies, the source keeping its one.
func (c *chances) take(n, def int) float64 {
	switch {
	case n < 1:
		return 0
	case def < 1:
		return 1
	case c.scaled && (n >= exactUpTo || def > exactUpTo):
		return winProb(n+1, def)
	}
	key := [2]int{n, def}
	if w, ok := c.memo[key]; ok {
		return w
	}
	o, err := engine.AttackOdds(min(n+1, 1000), min(def, 1000))
	if err != nil {
		return 0
	}
	if c.memo == nil {
		c.memo = make(map[[2]int]float64)
	}
	c.memo[key] = o.Win
	return o.Win
}

// sureOdds is the chance of a conquest an attack order is sized for, when
// the source has the armies.
const sureOdds = 0.85

// armiesFor is the fewest armies whose attack on def takes the target with
// at least chance p (at most 200).
func (c *chances) armiesFor(p float64, def int) int {
	lo, hi := 1, 200
	for lo < hi {
		mid := (lo + hi) / 2
		if c.take(mid, def) >= p {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}

// value is what taking t is worth to seat, 1 for a plain territory.
func value(s *state.State, seat, t int, p ordersPolicy) float64 {
	if !p.values {
		return 1
	}
	v := 1.0
	c := s.Map.Continents[s.Map.Territories[t].Continent]
	mine, theirs := 0, 0
	owner := s.Terr[t].Owner
	for _, u := range c.Territories {
		switch {
		case s.Terr[u].Owner == seat || targeted(s, seat, u):
			mine++
		case s.Terr[u].Owner == owner:
			theirs++
		}
	}
	if mine == len(c.Territories)-1 {
		v += float64(c.Bonus) / 2 // the continent is ours with it
	}
	if owner >= 0 && theirs == len(c.Territories) {
		v += float64(c.Bonus) / 3 // their continent is broken
	}
	if owner >= 0 && s.Owned(owner) == 1 {
		v += 2 + float64(s.HandSize(owner))/2 // they are out, and we take their cards
	}
	return v
}

// placeFor chooses where the round's reinforcements go: the front whose
// best attack they make likeliest (easy: the front facing the weakest
// neighbour).
func placeFor(s *state.State, seat int, p ordersPolicy, c *chances) int {
	best, bestScore := -1, math.Inf(-1)
	r := s.Seats[seat].Reserve
	for t := range s.Terr {
		if s.Terr[t].Owner != seat {
			continue
		}
		have := engine.Projected(s, seat, t) - 1 + r
		for _, n := range s.Map.Territories[t].Adj {
			if s.Terr[n].Owner == seat || (p.targets != nil && !p.targets[n]) {
				continue
			}
			var score float64
			if p.reckless {
				score = -float64(s.Terr[n].Armies)
			} else {
				score = c.take(have, p.guard(s, n)) * value(s, seat, n, p)
			}
			if score > bestScore {
				best, bestScore = t, score
			}
		}
	}
	if best < 0 { // no front: anywhere
		for t := range s.Terr {
			if s.Terr[t].Owner == seat {
				return t
			}
		}
	}
	return best
}

// attackOrder orders the best attack left, with every spare army of its
// source, or returns nil.
func attackOrder(s *state.State, seat int, p ordersPolicy, c *chances) engine.Command {
	var best engine.Command
	bestScore := math.Inf(-1)
	for t := range s.Terr {
		if s.Terr[t].Owner != seat {
			continue
		}
		spare := engine.Projected(s, seat, t) - 1
		if spare < 1 {
			continue
		}
		for _, n := range s.Map.Territories[t].Adj {
			if s.Sides().Same(s.Terr[n].Owner, seat) || targeted(s, seat, n) || (p.targets != nil && !p.targets[n]) {
				continue
			}
			var score float64
			armies := spare
			if p.reckless {
				score = -float64(s.Terr[n].Armies)
			} else {
				def := p.guard(s, n)
				chance := c.take(spare, def)
				if chance < p.minOdds {
					continue
				}
				// Enough to take it surely, and two more to hold it; the
				// rest stays for the source's other neighbours.
				if !p.allIn {
					armies = min(spare, c.armiesFor(sureOdds, def)+2)
				}
				score = c.take(armies, def) * value(s, seat, n, p)
			}
			if score > bestScore {
				best, bestScore = engine.Assault{From: t, To: n, Armies: armies}, score
			}
		}
	}
	return best
}

// frontMove moves the spare armies of a territory with no enemy neighbour
// one step toward the nearest front, or returns nil.
func frontMove(s *state.State, seat int) engine.Command {
	dist := frontDistances(s, seat)
	for t := range s.Terr {
		if s.Terr[t].Owner != seat || dist[t] <= 0 {
			continue
		}
		spare := engine.Projected(s, seat, t) - 1
		if spare < 1 {
			continue
		}
		for _, n := range s.Map.Territories[t].Adj {
			if s.Terr[n].Owner == seat && dist[n] >= 0 && dist[n] < dist[t] {
				return engine.Fortify{From: t, To: n, Armies: spare}
			}
		}
	}
	return nil
}

// frontDistances is, for each of seat's territories, the steps through its
// own territories to one that borders another's (0 for a front, -1 if none
// is reachable or the territory is not seat's).
func frontDistances(s *state.State, seat int) []int {
	dist := make([]int, len(s.Terr))
	var queue []int
	for t := range s.Terr {
		dist[t] = -1
		if s.Terr[t].Owner == seat && bordersOther(s, t, seat) {
			dist[t] = 0
			queue = append(queue, t)
		}
	}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		for _, n := range s.Map.Territories[t].Adj {
			if s.Terr[n].Owner == seat && dist[n] < 0 {
				dist[n] = dist[t] + 1
				queue = append(queue, n)
			}
		}
	}
	return dist
}
