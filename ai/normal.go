package ai

import (
	"context"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// normal is the heuristic player with a short look ahead: once a turn it
// plays its candidate plans a round ahead (lookahead) and then plays the
// best by the heuristics. Only the plan of the turn is cached; every
// decision is read off the view.
type normal struct {
	p  params
	cp capParams // the capitals rules (capitals_normal.go)
	l  lookahead
}

func newNormal(opts Options) *normal {
	odds() // build the odds table now, not in the first decision
	return &normal{p: stylePlan(opts.Style), cp: capParams{style: max(-1, min(1, opts.Style))}, l: lookahead{samples: normalSamples}}
}

// normalSamples is how many times normal plays each plan of its turn
// ahead (lookahead): 4 keeps a turn near 2 ms (0.5 ms on an idle core);
// measured against the reference player, 2, 4, 6 and 8 samples win
// 36%, 39%, 39% and 39% with the plain heuristics (docs/ai.md).
const normalSamples = 4

// bias maps the public style knob (-1 defensive .. +1 aggressive) to the
// heuristics' internal bias. Measured against the other levels, the
// strongest internal setting is 1 (thin guards, attacks at 40% odds and up),
// so the balanced public style 0 sits there; -1 is the fully defensive
// setting (attacks at 80% odds, borders manned) and +1 reckless.
func bias(style float64) float64 {
	style = max(-1, min(1, style))
	if style < 0 {
		return 1 + 2*style
	}
	return 1 + 0.8*style
}

func (n *normal) decide(_ context.Context, s *state.State, seat int) engine.Command {
	if n.l.samples == 0 || s.Phase == state.PhaseSetup {
		return n.p.play(s, seat)
	}
	return n.l.plan(n.p, s, seat).play(s, seat)
}

// params are the knobs of the heuristic player. hard searches over them.
type params struct {
	// style is the internal bias, -1 (defensive) .. 1.8 (reckless); see
	// bias.
	style float64
	// goal, if not -1, is the continent to work toward instead of the one
	// the board picks.
	goal int
	// passive: attack only for the turn's card, a completed continent or an
	// elimination.
	passive bool
	// ref: place, occupy and fortify (connected) as the reference player
	// does (reference.go), attack by normal's own scoring. Measured against
	// the reference player, this mix wins more than either alone
	// (docs/ai.md). Cautious keeps normal's own, style-driven placement.
	ref bool
}

// stylePlan is the heuristic player at the public style knob: normal's
// plan, and hard's base.
func stylePlan(style float64) params { return params{style: bias(style), goal: -1, ref: true} }

// defaultPlan is normal's plan at the balanced style: how the playouts
// play the other seats.
func defaultPlan() params { return stylePlan(0) }

// play returns the heuristic player's command for seat in s (a view or a
// full state; only what the view shows is read).
func (p params) play(s *state.State, seat int) engine.Command {
	return p.playOn(new(board), s, seat)
}

// playOn is play reading the board into b, whose memory it reuses: search
// playouts keep one board for all their decisions.
func (p params) playOn(b *board, s *state.State, seat int) engine.Command {
	p.read(b, s, seat)
	switch s.Phase {
	case state.PhaseSetup:
		if p.ref {
			r := readRef(b, p.goal)
			return r.place(min(s.Seats[seat].Reserve, 3))
		}
		return p.place(b, true)
	case state.PhaseReinforce:
		if c, ok := p.trade(b); ok {
			return c
		}
		if c, ok := missionPlace(s, seat); ok {
			return c
		}
		if s.Seats[seat].Reserve > 0 {
			if p.ref {
				r := readRef(b, p.goal)
				return r.place(s.Seats[seat].Reserve)
			}
			return p.place(b, false)
		}
	case state.PhaseOccupy:
		if p.ref {
			r := readRef(b, p.goal)
			return missionOccupy(s, seat, r.occupy())
		}
		return missionOccupy(s, seat, p.occupy(b))
	case state.PhaseAttack:
		if a, ok := p.bestAttack(b); ok {
			return missionKeep(s, seat, engine.Blitz{From: a.from, To: a.to, Keep: a.keep})
		}
		return p.stop(b)
	case state.PhaseFortify:
		if s.Options.Fortify == state.Adjacent {
			if c, ok := p.fortify(b); ok {
				return c
			}
		}
	}
	return endTurn(s, seat)
}

// read reads s into b from seat's point of view, with the plan's goal
// continent, if it has one the seat does not hold yet.
func (p params) read(b *board, s *state.State, seat int) {
	b.reset(s, seat)
	if p.goal >= 0 && p.goal < len(s.Map.Continents) && b.contOwner[p.goal] != seat {
		b.goal = p.goal
	}
}

// stop is what the plan plays in the attack phase once it attacks no
// more, on the board read: its fortification, or the end of the turn.
func (p params) stop(b *board) engine.Command {
	if p.ref && b.s.Options.Fortify == state.Connected {
		r := readRef(b, p.goal)
		if c, ok := r.fortify(); ok {
			return c
		}
	} else if c, ok := p.fortify(b); ok {
		return c
	}
	return endTurn(b.s, b.seat)
}

// endTurn ends the turn, discarding first when the hand is full and a card
// is due.
func endTurn(s *state.State, seat int) engine.Command {
	if hand := s.Seats[seat].Hand; s.Conquered && hand.Len() >= 5 {
		return engine.Discard{Card: discardChoice(s.Map, hand)}
	}
	return engine.EndTurn{}
}

// trade decides whether to hand in a set now. A full hand must trade. With
// escalating values a set's worth grows only when someone trades, and a
// held set only risks being lost, so the player trades at once. With fixed
// values it holds a weak set (three infantry) while the hand has room, in
// the hope of one of each, unless the armies are needed against a threat.
func (p params) trade(b *board) (engine.Command, bool) {
	s, seat := b.s, b.seat
	set, ok := engine.BestSet(s, seat)
	if !ok {
		return nil, false
	}
	hand := s.Seats[seat].Hand.Len()
	if hand >= 5 || s.Options.Cards == state.Escalating || hand >= 4 || engine.SetValue(s, set) >= 8 {
		return engine.Trade{Cards: set}, true
	}
	for t := range s.Terr {
		if b.mine(t) && b.guard(t, p.style) > s.Terr[t].Armies+3 {
			return engine.Trade{Cards: set}, true
		}
	}
	return nil, false
}

// targetValue is what taking territory t is worth to the seat, in
// territories: a continent completed or broken, an elimination and its
// cards, the goal continent, the turn's card.
func (p params) targetValue(b *board, t int) float64 {
	s := b.s
	v := 1.0
	c := b.m.Territories[t].Continent
	bonus := float64(b.m.Continents[c].Bonus)
	switch {
	case b.completes(t):
		v += 2 + 2.5*bonus
	case c == b.goal:
		share := float64(b.contMine[c]+1) / float64(len(b.m.Continents[c].Territories))
		v += 0.5 + bonus*share
	}
	v += 1.5 * float64(b.breaks(t))
	if def := s.Terr[t].Owner; def >= 0 {
		cards := s.HandSize(def)
		switch left := b.owned[def]; {
		case left == 1:
			v += 4 + 2.5*float64(cards)
		case left <= 4 && cards >= 3:
			v += float64(cards) / float64(left)
		}
		// Weakening the leader counts a little.
		if b.income[def] > b.income[b.seat]+3 {
			v += 0.3
		}
	}
	return v + missionValue(b, t)
}

// attack is a candidate blitz.
type attack struct {
	from, to, keep int
	score          float64
}

// bestAttack picks the attack worth most, weighing the exact odds of
// taking the target against its value and the armies it costs; it returns
// false when no attack clears the style's threshold.
func (p params) bestAttack(b *board) (attack, bool) {
	best, found := attack{score: 0}, false
	p.eachAttack(b, false, func(a attack, clears bool) {
		if clears && a.score > best.score {
			best, found = a, true
		}
	})
	return best, found
}

// teamFocus is the value of a target held by the team's common enemy.
const teamFocus = 0.25

// eachAttack calls f with the attacks the seat could make, scored, and
// whether each clears the style's threshold: all of them, or (all false,
// cheaper) only those that clear it.
func (p params) eachAttack(b *board, all bool, f func(a attack, clears bool)) {
	s := b.s
	pmin := 0.6 - 0.22*p.style
	card := 0.0
	if !s.Conquered {
		card = 2.5
	}
	for from := range s.Terr {
		a := s.Terr[from].Armies
		if a < 2 || !b.mine(from) || !b.front[from] {
			continue
		}
		for _, to := range b.m.Territories[from].Adj {
			if b.mine(to) || b.ally(to) {
				continue
			}
			d := s.Terr[to].Armies
			// Keep a guard on the source against its other neighbours.
			other := 0
			for _, x := range b.m.Territories[from].Adj {
				if x != to && b.hostile(x) {
					other = max(other, s.Terr[x].Armies-1)
				}
			}
			keep := 1
			if other > 0 {
				keep = min(a-1, max(1, int(float64(other)*(0.5-0.4*p.style)+0.5)))
			}
			ae := a - keep + 1
			if ae < 2 {
				continue
			}
			win := winProb(ae, d)
			value := p.targetValue(b, to)
			special := b.completes(to) || (s.Terr[to].Owner >= 0 && b.owned[s.Terr[to].Owner] == 1)
			clears := !(p.passive && s.Conquered && !special)
			threshold := pmin
			if card > 0 || special {
				threshold -= 0.1
			}
			if win < threshold {
				clears = false
			}
			if !clears && !all {
				continue
			}
			lost := float64(ae) - expectedLeft(ae, d)
			exposure := 0
			for _, x := range b.m.Territories[to].Adj {
				if x != to && b.hostile(x) {
					exposure += s.Terr[x].Armies - 1
				}
			}
			if b.commonEnemy(to) {
				// With teams, the team's common enemy first.
				value += teamFocus
			}
			score := win*(value+card) - (1-win)*1.2 - 0.07*lost*(1-0.4*p.style) - 0.02*float64(exposure)*(1-0.5*p.style)
			f(attack{from: from, to: to, keep: keep, score: score}, clears)
		}
	}
}

// occupy splits the armies between the source and the conquest: all in if
// the source is safe, the least if the conquest is safe. Otherwise the
// armies go on with the attack, less a guard on the source that shrinks
// with aggression (none at the balanced style: measured, pressing on wins
// more than guarding), except that the border of a continent the seat
// holds keeps its full guard.
func (p params) occupy(b *board) engine.Command {
	o := b.s.Occupy
	switch {
	case !b.front[o.From]:
		return engine.Occupy{Armies: o.Max}
	case !b.front[o.To]:
		return engine.Occupy{Armies: o.Min}
	}
	keep := 1
	if c := b.m.Territories[o.From].Continent; b.contOwner[c] == b.seat {
		keep = b.guard(o.From, p.style)
	} else if f := 0.5 - 0.5*p.style; f > 0 {
		keep = max(1, int(f*float64(b.maxEnemyAdj[o.From])+0.5))
	}
	total := b.s.Terr[o.From].Armies + o.Min
	return engine.Occupy{Armies: min(o.Max, max(o.Min, total-keep))}
}

// place decides the next placement: a share of the reserve goes to the
// borders short of their guard, the rest to the territory whose attack it
// improves most. It returns the largest single placement of that plan.
func (p params) place(b *board, setup bool) engine.Command {
	s, seat := b.s, b.seat
	r := s.Seats[seat].Reserve
	if setup {
		r = min(r, max(3, r/2))
	}
	alloc := b.scratchB // armies planned for each territory
	clear(alloc)
	// Defence: fill the guard of threatened borders, neediest first.
	defShare := int(float64(r)*(0.45-0.35*p.style) + 0.5)
	if setup {
		defShare = r / 4
	}
	if defShare > 0 {
		need := b.scratchA
		clear(need)
		for t := range s.Terr {
			if b.mine(t) && b.front[t] {
				need[t] = b.guard(t, p.style) - s.Terr[t].Armies
			}
		}
		for defShare > 0 {
			t, most := -1, 0
			for x, n := range need {
				if n > most {
					t, most = x, n
				}
			}
			if t < 0 {
				break
			}
			k := min(defShare, most)
			alloc[t] += k
			need[t] -= k
			defShare -= k
			r -= k
		}
	}
	// Offence: the front territory where r more armies raise the value of
	// the best attack the most.
	if r > 0 {
		from, best := -1, -1.0
		for f := range s.Terr {
			if !b.mine(f) || !b.front[f] {
				continue
			}
			a := s.Terr[f].Armies + alloc[f]
			for _, x := range b.m.Territories[f].Adj {
				if b.mine(x) {
					continue
				}
				d := s.Terr[x].Armies
				gain := p.targetValue(b, x) * (winProb(a+r, d) - 0.7*winProb(a, d))
				if gain > best {
					from, best = f, gain
				}
			}
		}
		if from < 0 {
			for t := range s.Terr {
				if b.mine(t) {
					from = t
					break
				}
			}
		}
		alloc[from] += r
	}
	t, most := -1, 0
	for x, n := range alloc { // the first of the largest
		if n > most {
			t, most = x, n
		}
	}
	return engine.Place{Territory: t, Armies: most}
}

// fortify moves armies from where they are idle to where they are needed.
// Connected: the largest idle stack moves to the neediest border it can
// reach. Adjacent: interior armies step toward the nearest border.
func (p params) fortify(b *board) (engine.Command, bool) {
	s := b.s
	if s.Options.Fortify == state.Adjacent {
		dist := b.frontDistance()
		for t := range s.Terr {
			if !b.mine(t) || dist[t] <= 0 {
				continue
			}
			m := engine.Movable(s, t)
			if m == 0 {
				continue
			}
			for _, y := range b.m.Territories[t].Adj {
				if b.mine(y) && dist[y] == dist[t]-1 {
					return engine.Fortify{From: t, To: y, Armies: m}, true
				}
			}
		}
		return nil, false
	}
	if s.Fortified > 0 {
		return nil, false
	}
	comp := b.components()
	// Need of every border territory.
	need := b.scratchC
	clear(need)
	for t := range s.Terr {
		if b.mine(t) && b.front[t] {
			need[t] = b.guard(t, p.style) - s.Terr[t].Armies
		}
	}
	dest := func(c, except int) int {
		best, most := -1, -1<<30
		for t := range s.Terr {
			if comp[t] == c && t != except && b.front[t] {
				score := need[t]*4 + b.enemyAdj[t]
				if score > most {
					best, most = t, score
				}
			}
		}
		return best
	}
	// Interior stacks first.
	from, most := -1, 0
	for t := range s.Terr {
		if b.mine(t) && !b.front[t] {
			if m := engine.Movable(s, t); m > most {
				from, most = t, m
			}
		}
	}
	if from >= 0 {
		if to := dest(comp[from], from); to >= 0 {
			return engine.Fortify{From: from, To: to, Armies: most}, true
		}
	}
	// Then a border with armies to spare for a border short of them.
	from, most = -1, 2
	for t := range s.Terr {
		if b.mine(t) && b.front[t] {
			if spare := min(engine.Movable(s, t), -need[t]); spare > most {
				from, most = t, spare
			}
		}
	}
	if from >= 0 {
		if to := dest(comp[from], from); to >= 0 && need[to] > 0 {
			return engine.Fortify{From: from, To: to, Armies: min(most, need[to]+most/2)}, true
		}
	}
	return nil, false
}

// discardChoice picks the card to drop from a full hand: the one whose
// loss leaves the best hand (a set kept, wilds kept, kinds varied).
func discardChoice(m *state.Map, hand state.CardSet) state.Card {
	cards := hand.Cards()
	best, bestScore := cards[0], -1
	for _, c := range cards {
		rest := hand.Remove(c)
		var kinds [4]int
		for _, x := range rest.Cards() {
			kinds[m.CardKind(x)]++
		}
		score := 0
		if len(engine.Sets(m, rest)) > 0 {
			score += 100
		}
		score += 10 * kinds[state.Wild]
		for k := range 3 {
			if kinds[k] > 0 {
				score += 3
			}
			score += kinds[k]
		}
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}
