package ai

import (
	"cmp"
	"context"
	"math/rand/v2"
	"slices"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// hard in simultaneous rounds searches. At its first order of a round
// (after any card trade) it writes several candidate order sets for its
// seat: normal's, its own weighing targets, bolder and more careful ones,
// one that puts the reserve on its most threatened front, one that goes
// for a continent or breaks another's. Then, on a few samples of what it
// cannot see, it resolves the round with the engine for each candidate
// against the same guess of the others' orders and the same dice (common
// random numbers), plays one more round of everyone's likely orders, so
// that a candidate that leaves a front open to a counter-attack pays for
// it, and scores the position with the learned evaluation (hardEvaluate).
// The candidate with the best mean plays, one command a call, from a
// cache; without the cache (a restart) it searches again from the round's
// start and goes on with the same orders (next).
//
// A sample is built from the seat's view alone: the hidden cards dealt at
// random (determinize), the others' reserves their income on the board
// (which is public), their orders those normal would give from that
// guess, and the dice and the round's seat order from a generator seeded
// by the position and the sample's number; so a position always gets the
// same orders.

// The search's size: samples of the others' cards and the dice, and the
// rounds played after the one ordered before the evaluation.
const (
	roundSamples    = 8
	roundLookahead  = 1
	roundMaxOrders  = 100
	roundMemoLimit  = 1 << 16
	roundCacheLimit = 64
)

// roundPlan is one way to order a round: a policy and, if placeAt is not
// -1, the territory the whole reserve goes to.
type roundPlan struct {
	p       ordersPolicy
	placeAt int
}

// roundOrders is the order set chosen for a round: cmds, given from the
// position where the seat had start orders.
type roundOrders struct {
	start int
	cmds  []engine.Command
}

// roundSearch is hard's search of simultaneous rounds and its scratch
// memory, which it reuses.
type roundSearch struct {
	memo      chances // scaled
	chosen    map[planKey]roundOrders
	base, sim state.State
	cards     []state.Card
	sums      []float64
	guards    []int // for the round ordered
	later     []int // for a round after it
	src       *rand.PCG
	rng       *rand.Rand
	// noSearching plays the first candidate (normal's orders weighing
	// targets: hard before its search) without searching; for tests.
	noSearching bool
}

// decideOrders is hard's next command of a simultaneous round: a trade
// when it holds a set, then the orders its search chose.
func (h *hard) decideOrders(_ context.Context, s *state.State, seat int) engine.Command {
	p := ordersPolicy{minOdds: oddsFor(h.base.style), values: true}
	if set, ok := engine.BestSet(s, seat); ok {
		return engine.Trade{Cards: set}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.rounds.next(s, seat, p)
}

// next is seat's next command of the round in the view s. The order set
// is searched from the round's start (the view without the seat's own
// orders), so that a player that lost its cache finds the same set again
// and goes on with it; if the orders given are not its start (another
// player's, or a search that changed), it searches from where they stand.
func (rs *roundSearch) next(s *state.State, seat int, p ordersPolicy) engine.Command {
	key := planKey{match: matchKey(s), turn: s.Turn, seat: seat}
	own := ownOrders(s, seat)
	if o, ok := rs.chosen[key]; ok {
		if c, ok := o.follow(own); ok {
			return c
		}
	}
	if rs.chosen == nil || len(rs.chosen) >= roundCacheLimit {
		rs.chosen = make(map[planKey]roundOrders)
	}
	o := roundOrders{cmds: rs.search(withoutOrders(s, seat), seat, p)}
	if c, ok := o.follow(own); ok {
		rs.chosen[key] = o
		return c
	}
	o = roundOrders{start: len(own), cmds: rs.search(s, seat, p)}
	rs.chosen[key] = o
	c, _ := o.follow(own)
	return c
}

// follow is the command after the orders own, if the order set gave them.
func (o roundOrders) follow(own []state.Order) (engine.Command, bool) {
	i := len(own) - o.start
	if i < 0 || i > len(o.cmds) {
		return nil, false
	}
	for k, c := range o.cmds[:i] {
		if !sameOrder(c, own[o.start+k]) {
			return nil, false
		}
	}
	if i == len(o.cmds) {
		return engine.EndTurn{}, true
	}
	return o.cmds[i], true
}

// sameOrder reports whether command c gives order o.
func sameOrder(c engine.Command, o state.Order) bool {
	switch c := c.(type) {
	case engine.Place:
		return o.Kind == state.OrderPlace && o.To == c.Territory && o.Armies == c.Armies
	case engine.Assault:
		return o.Kind == state.OrderAttack && o.From == c.From && o.To == c.To && o.Armies == c.Armies
	case engine.Fortify:
		return o.Kind == state.OrderMove && o.From == c.From && o.To == c.To && o.Armies == c.Armies
	}
	return false
}

// ownOrders are seat's orders of the round in s but for a traded card's
// bonus, which the trade placed.
func ownOrders(s *state.State, seat int) []state.Order {
	var out []state.Order
	for _, o := range s.Orders {
		if o.Seat == seat && !o.Bonus {
			out = append(out, o)
		}
	}
	return out
}

// withoutOrders is a copy of s without seat's orders (ownOrders), their
// placements back in its reserve.
func withoutOrders(s *state.State, seat int) *state.State {
	x := s.Clone()
	x.Orders = nil
	for _, o := range s.Orders {
		switch {
		case o.Seat != seat || o.Bonus:
			x.Orders = append(x.Orders, o)
		case o.Kind == state.OrderPlace:
			x.Seats[seat].Reserve += o.Armies
		}
	}
	return x
}

// search returns the order set seat gives for the rest of the round in
// the view s.
func (rs *roundSearch) search(s *state.State, seat int, p ordersPolicy) []engine.Command {
	if rs.memo.scaled = true; len(rs.memo.memo) > roundMemoLimit {
		rs.memo.memo = nil
	}
	// The board stays as it is while the round's orders are given.
	rs.guards = guards(rs.guards, s)
	p.guards = rs.guards
	cands := rs.candidates(s, seat, p)
	if len(cands) == 1 || rs.noSearching {
		return cands[0]
	}
	if rs.src == nil {
		rs.src = rand.NewPCG(0, 0)
		rs.rng = rand.New(rs.src)
	}
	rs.sums = append(rs.sums[:0], make([]float64, len(cands))...)
	model := ordersPolicy{minOdds: p.minOdds, guards: p.guards}
	pos := positionSeed(s, seat)
	for r := range roundSamples {
		seedRand(rs.src, mix(pos, uint64(r)), 11)
		base := determinizeInto(&rs.base, &rs.cards, s, seat, rs.rng)
		for j := range base.Seats {
			if j != seat && base.Seats[j].Alive() {
				// The view hides the others' reserves and orders; their
				// income is public.
				base.Seats[j].Ready = false
				base.Seats[j].Reserve = base.Income(j).Total
				rs.give(base, j, rs.likely(model), true)
			}
		}
		for k, cmds := range cands {
			sim := base.CopyInto(&rs.sim)
			for _, c := range cmds {
				if _, err := engine.Apply(sim, seat, c); err != nil {
					break
				}
			}
			rs.commitAll(sim, seat)
			for range roundLookahead {
				if sim.Phase != state.PhaseOrders {
					break
				}
				// A round after the one ordered: its moves change nothing
				// the evaluation reads, and are left out.
				rs.later = guards(rs.later, sim)
				mine, theirs := p, model
				mine.guards, theirs.guards = rs.later, rs.later
				for j := range sim.Seats {
					if !sim.Seats[j].Alive() {
						continue
					}
					if j == seat {
						rs.give(sim, j, mine, false)
					} else {
						rs.give(sim, j, theirs, false)
					}
				}
				rs.commitAll(sim, seat)
			}
			rs.sums[k] += hardEvaluate(sim, seat)
		}
	}
	return cands[argmax(rs.sums)]
}

// likely is the way one of the others orders in a sample: mostly as
// normal does (model), at times weighing targets as hard does, or more
// boldly or more carefully, so that the orders chosen do not hang on one
// guess of how the others play.
func (rs *roundSearch) likely(model ordersPolicy) ordersPolicy {
	switch rs.rng.IntN(8) {
	case 0:
		model.values = true
	case 1:
		model.minOdds = max(0.3, model.minOdds-0.15)
	case 2:
		model.minOdds = min(sureOdds, model.minOdds+0.15)
	}
	return model
}

// give plays seat's orders by policy p in the full state s, without
// committing them; its moves too if moves.
func (rs *roundSearch) give(s *state.State, seat int, p ordersPolicy, moves bool) {
	for range roundMaxOrders {
		c := ordersWith(s, seat, p, &rs.memo)
		if _, end := c.(engine.EndTurn); end {
			break
		}
		if _, move := c.(engine.Fortify); move && !moves {
			break
		}
		if _, err := engine.Apply(s, seat, c); err != nil {
			break
		}
	}
	if r := s.Seats[seat].Reserve; r > 0 {
		// Whatever went wrong, the reserve must be placed to commit.
		for t := range s.Terr {
			if s.Terr[t].Owner == seat {
				_, _ = engine.Apply(s, seat, engine.Place{Territory: t, Armies: r})
				break
			}
		}
	}
}

// commitAll commits every living seat that has not, seat last: the last
// commit resolves the round.
func (rs *roundSearch) commitAll(s *state.State, seat int) {
	for j := range s.Seats {
		if j != seat && s.Seats[j].Alive() && !s.Seats[j].Ready {
			_, _ = engine.Apply(s, j, engine.EndTurn{})
		}
	}
	if s.Phase == state.PhaseOrders && !s.Seats[seat].Ready {
		_, _ = engine.Apply(s, seat, engine.EndTurn{})
	}
}

// candidates are the order sets hard weighs for the rest of seat's round
// in the view s, the first its own way of ordering (p), no two the same.
func (rs *roundSearch) candidates(s *state.State, seat int, p ordersPolicy) [][]engine.Command {
	with := func(f func(*ordersPolicy)) ordersPolicy {
		q := p
		f(&q)
		return q
	}
	plans := []roundPlan{
		{p: p, placeAt: -1},
		{p: ordersPolicy{minOdds: p.minOdds, guards: p.guards}, placeAt: -1}, // normal's
		{p: with(func(q *ordersPolicy) { q.minOdds, q.allIn = 0.3, true }), placeAt: -1},
		{p: with(func(q *ordersPolicy) { q.allIn = true }), placeAt: -1},
		{p: with(func(q *ordersPolicy) { q.minOdds = 0.75 }), placeAt: -1},
	}
	if s.Seats[seat].Reserve > 0 {
		if t := threatened(s, seat, &rs.memo); t >= 0 {
			plans = append(plans,
				roundPlan{p: with(func(q *ordersPolicy) { q.minOdds = sureOdds }), placeAt: t},
				roundPlan{p: p, placeAt: t})
		}
	}
	for _, targets := range continentTargets(s, seat) {
		plans = append(plans, roundPlan{p: with(func(q *ordersPolicy) { q.targets = targets }), placeAt: -1})
	}
	var out [][]engine.Command
	for _, rp := range plans {
		cmds := rs.write(s, seat, rp)
		if !slices.ContainsFunc(out, func(o []engine.Command) bool { return slices.Equal(o, cmds) }) {
			out = append(out, cmds)
		}
	}
	return out
}

// write is the order set of plan rp for the rest of seat's round in the
// view s.
func (rs *roundSearch) write(s *state.State, seat int, rp roundPlan) []engine.Command {
	x := s.Clone()
	x.Hidden = false // its own orders only: nothing hidden is read
	x.RNG = state.RNG{Seed: 1}
	var out []engine.Command
	for range roundMaxOrders {
		var c engine.Command
		if r := x.Seats[seat].Reserve; r > 0 && rp.placeAt >= 0 {
			c = engine.Place{Territory: rp.placeAt, Armies: r}
		} else {
			c = ordersWith(x, seat, rp.p, &rs.memo)
		}
		switch c.(type) {
		case engine.EndTurn, engine.Trade:
			return out
		}
		if _, err := engine.Apply(x, seat, c); err != nil {
			return out
		}
		out = append(out, c)
	}
	return out
}

// threatened is seat's front most likely to fall to its strongest
// neighbour's attack, weighed by what its loss costs (a continent held
// whole), or -1.
func threatened(s *state.State, seat int, c *chances) int {
	best, bestRisk := -1, 0.0
	for t := range s.Terr {
		if s.Terr[t].Owner != seat {
			continue
		}
		enemy := 0
		for _, n := range s.Map.Territories[t].Adj {
			if !s.Sides().Same(s.Terr[n].Owner, seat) && s.Terr[n].Owner >= 0 {
				enemy = max(enemy, guard(s, n)-1)
			}
		}
		if enemy == 0 {
			continue
		}
		worth := 1.0
		if k := s.Map.Territories[t].Continent; s.ContinentOwner(k) == seat {
			worth += float64(s.Map.Continents[k].Bonus)
		}
		if risk := c.take(enemy, engine.Projected(s, seat, t)) * worth; risk > bestRisk {
			best, bestRisk = t, risk
		}
	}
	return best
}

// continentTargets are the territories of the continents seat might go
// for this round: the two it holds most of without holding them whole
// (the rest of the continent to take), and those held whole by another
// that seat borders (to break).
func continentTargets(s *state.State, seat int) [][]bool {
	type cont struct {
		k     int
		share float64
	}
	var take []cont
	var out [][]bool
	for k, c := range s.Map.Continents {
		mine, borders := 0, false
		for _, t := range c.Territories {
			if s.Terr[t].Owner == seat {
				mine++
				continue
			}
			for _, n := range s.Map.Territories[t].Adj {
				borders = borders || s.Terr[n].Owner == seat
			}
		}
		switch o := s.ContinentOwner(k); {
		case !borders:
		case o >= 0 && o != seat:
			out = append(out, territoriesOf(s, k))
		case mine > 0 && mine < len(c.Territories):
			take = append(take, cont{k, float64(mine) / float64(len(c.Territories))})
		}
	}
	slices.SortStableFunc(take, func(a, b cont) int { return cmp.Compare(b.share, a.share) })
	for _, c := range take[:min(2, len(take))] {
		out = append(out, territoriesOf(s, c.k))
	}
	return out
}

// territoriesOf marks the territories of continent k.
func territoriesOf(s *state.State, k int) []bool {
	in := make([]bool, len(s.Terr))
	for _, t := range s.Map.Continents[k].Territories {
		in[t] = true
	}
	return in
}
