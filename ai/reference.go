package ai

import (
	"context"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// reference is a rule-based player written from published Risk strategy,
// apart from normal, to measure normal against (docs/ai.md, "The reference
// player"): it is the yardstick of issue 16, not a level for people, so
// Levels does not list it and /risk addbot does not offer it; New and the
// tournament know it as "reference". Classic rules only (in a capitals
// match it plays the safe default).
//
// What it does, after the usual advice:
//   - Continent focus: it picks the continent it is cheapest to complete
//     (bonus against the armies and territories in the way and the borders
//     to hold) and pours everything into taking it.
//   - Border strength: for each border territory the border security
//     ratio (enemy armies next to it over its own armies); the borders of
//     the continents it holds are kept at a ratio of 1 or less, first.
//   - Concentration: the rest of the reinforcements go on one territory,
//     the strongest stack next to the target, never spread thin.
//   - Odds thresholds: it attacks at 70% odds of taking the target, at 50%
//     for the target continent, a continent completed or broken, or the
//     turn's card, at 40% to eliminate a seat (and take its cards).
//   - Armies follow the front: conquests get every army unless they lie
//     behind the front; the fortification brings the largest idle stack to
//     the weakest border.
type reference struct{}

func (reference) decide(_ context.Context, s *state.State, seat int) engine.Command {
	if s.Options.Rules != state.Classic {
		return Fallback(s, seat) // a yardstick of the classic rules only
	}
	r := readRef(newBoard(s, seat), -1)
	switch s.Phase {
	case state.PhaseSetup:
		return r.place(min(s.Seats[seat].Reserve, 3))
	case state.PhaseReinforce:
		hand := s.Seats[seat].Hand.Len()
		if set, ok := engine.BestSet(s, seat); ok && (hand >= 5 || s.Options.Cards == state.Escalating || hand >= 4) {
			return engine.Trade{Cards: set}
		}
		if s.Seats[seat].Reserve > 0 {
			return r.place(s.Seats[seat].Reserve)
		}
	case state.PhaseOccupy:
		return r.occupy()
	case state.PhaseAttack:
		if c, ok := r.attack(); ok {
			return c
		}
		if c, ok := r.fortify(); ok {
			return c
		}
	}
	return endTurn(s, seat)
}

// refBoard is what the reference player reads off the view.
type refBoard struct {
	*board
	target int       // the continent it works toward, or -1
	threat []float64 // enemy armies that can reach each of its territories
}

// readRef reads the reference player's view of the board b (already reset
// to the position), reusing b's memory. target, if not -1, is the
// continent to work toward instead of the one it would pick.
func readRef(b *board, target int) refBoard {
	s, seat := b.s, b.seat
	if cap(b.threat) < len(s.Terr) {
		b.threat = make([]float64, len(s.Terr))
	}
	r := refBoard{board: b, threat: b.threat[:len(s.Terr)]}
	clear(r.threat)
	for t := range s.Terr {
		if !r.mine(t) {
			continue
		}
		r.threat[t] = r.enemyThreat(t)
	}
	if target < 0 {
		target = missionGoal(s, seat) // a secret mission's continent, if any
	}
	r.target = target
	if target < 0 || target >= len(r.m.Continents) || r.contOwner[target] == seat {
		r.target = r.pickTarget()
	}
	return r
}

// enemyThreat is what the enemy can bring against t: the armies, less
// one each, of t's neighbours held by players of another side (a
// teammate's stack is no threat, so a border with it needs no guard).
func (r *refBoard) enemyThreat(t int) float64 {
	v := 0.0
	for _, x := range r.m.Territories[t].Adj {
		if r.hostile(x) {
			v += float64(r.s.Terr[x].Armies - 1)
		}
	}
	return v
}

// pickTarget is the continent, not held, cheapest to complete for its
// bonus.
func (r *refBoard) pickTarget() int {
	best, bestScore := -1, 0.0
	for c, cont := range r.m.Continents {
		if r.contOwner[c] == r.seat {
			continue
		}
		need, missing := 0, 0
		for _, t := range cont.Territories {
			if !r.mine(t) {
				need += r.s.Terr[t].Armies
				missing++
			}
		}
		// A continent it has no foothold in must be reached first.
		reach := 0.0
		if r.contMine[c] == 0 {
			reach = 4
		}
		score := float64(cont.Bonus) / (float64(need+missing) + 2*float64(r.entrances(c)) + reach)
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// bsr is the border security ratio of t: the enemy armies next to it over
// its own.
func (r *refBoard) bsr(t int) float64 {
	return r.threat[t] / float64(r.s.Terr[t].Armies)
}

// heldBorder reports whether t guards a continent the seat holds.
func (r *refBoard) heldBorder(t int) bool {
	return r.front[t] && r.contOwner[r.m.Territories[t].Continent] == r.seat
}

// place puts up to n armies: first on the weakest border of a held
// continent while its ratio is above 1, then all on the staging territory.
func (r *refBoard) place(n int) engine.Command {
	weak, worst := -1, 1.0
	for t := range r.s.Terr {
		if r.mine(t) && r.heldBorder(t) && r.bsr(t) > worst {
			weak, worst = t, r.bsr(t)
		}
	}
	if weak >= 0 {
		short := int(r.threat[weak]) - r.s.Terr[weak].Armies + 1
		return engine.Place{Territory: weak, Armies: max(1, min(n, short))}
	}
	return engine.Place{Territory: r.staging(), Armies: n}
}

// staging is where the reinforcements concentrate: the strongest stack
// next to an enemy territory of the target continent, else the strongest
// front stack (next to its weakest neighbour on a tie).
func (r *refBoard) staging() int {
	best, bestScore := -1, -1.0
	for t := range r.s.Terr {
		if !r.mine(t) || !r.front[t] {
			continue
		}
		score := float64(r.s.Terr[t].Armies)
		for _, x := range r.m.Territories[t].Adj {
			if !r.mine(x) && r.target >= 0 && r.m.Territories[x].Continent == r.target {
				score += 1000
				break
			}
		}
		if r.target >= 0 && r.m.Territories[t].Continent == r.target {
			score += 100
		}
		if score > bestScore {
			best, bestScore = t, score
		}
	}
	if best < 0 {
		for t := range r.s.Terr {
			if r.mine(t) {
				return t
			}
		}
	}
	return best
}

// attack picks the attack of highest priority that clears its odds
// threshold.
func (r *refBoard) attack() (engine.Command, bool) {
	s := r.s
	bestPri, bestWin := 0, 0.0
	var best engine.Blitz
	for from := range s.Terr {
		a := s.Terr[from].Armies
		if !r.mine(from) || a < 2 {
			continue
		}
		// A held continent's border keeps what its threat asks.
		keep := 1
		if r.heldBorder(from) {
			keep = max(1, min(a-1, int(r.threat[from]*0.8)))
		}
		if a-keep < 1 {
			continue
		}
		for _, to := range r.m.Territories[from].Adj {
			if r.mine(to) || r.ally(to) {
				continue
			}
			win := winProb(a-keep+1, s.Terr[to].Armies)
			c := r.m.Territories[to].Continent
			pri, need := 1, 0.7
			if !s.Conquered {
				pri, need = 2, 0.5 // the turn's card
			}
			if c == r.target {
				pri, need = 3, 0.5
			}
			if r.breaks(to) > 0 {
				pri, need = 4, 0.5
			}
			if r.completes(to) {
				pri, need = 5, 0.5
			}
			if o := s.Terr[to].Owner; o >= 0 && r.owned[o] == 1 {
				pri, need = 6, 0.4
			}
			if win < need {
				continue
			}
			if pri > bestPri || (pri == bestPri && win > bestWin) {
				bestPri, bestWin = pri, win
				best = engine.Blitz{From: from, To: to, Keep: keep}
			}
		}
	}
	return best, bestPri > 0
}

// occupy moves every army into the conquest, unless the conquest lies
// behind the front (then the fewest), keeping a held continent's border
// manned.
func (r *refBoard) occupy() engine.Command {
	o := r.s.Occupy
	enemyNext := false
	for _, x := range r.m.Territories[o.To].Adj {
		if !r.mine(x) && !r.ally(x) {
			enemyNext = true
			break
		}
	}
	if !enemyNext {
		return engine.Occupy{Armies: o.Min}
	}
	if r.heldBorder(o.From) {
		keep := max(1, int(r.threat[o.From]*0.8))
		total := r.s.Terr[o.From].Armies + o.Min
		return engine.Occupy{Armies: min(o.Max, max(o.Min, total-keep))}
	}
	return engine.Occupy{Armies: o.Max}
}

// fortify brings the largest idle (interior) stack to the border with the
// highest security ratio it can reach; connected fortification only.
func (r *refBoard) fortify() (engine.Command, bool) {
	s := r.s
	if s.Options.Fortify != state.Connected || s.Fortified > 0 {
		return nil, false
	}
	comp := r.components()
	from, most := -1, 0
	for t := range s.Terr {
		if r.mine(t) && !r.front[t] {
			if m := engine.Movable(s, t); m > most {
				from, most = t, m
			}
		}
	}
	if from < 0 {
		return nil, false
	}
	to, worst := -1, -1.0
	for t := range s.Terr {
		if r.mine(t) && r.front[t] && comp[t] == comp[from] {
			v := r.bsr(t)
			if r.heldBorder(t) {
				v *= 2
			}
			if v > worst {
				to, worst = t, v
			}
		}
	}
	// With teams the armies may go on into a teammate's territory (the
	// last step of the path): they become the teammate's, so only to one
	// the enemy outnumbers, and more threatened than any of the seat's
	// own borders it could reach.
	if s.Options.Teams > 0 {
		for t := range s.Terr {
			if !r.ally(t) || !r.reaches(comp, comp[from], t) {
				continue
			}
			if v := r.enemyThreat(t) / float64(s.Terr[t].Armies); v > 1 && v > worst {
				to, worst = t, v
			}
		}
	}
	if to < 0 {
		return nil, false
	}
	return engine.Fortify{From: from, To: to, Armies: most}, true
}

// reaches reports whether t borders a territory of the seat's in
// component c (comp, as components returns it).
func (r *refBoard) reaches(comp []int, c, t int) bool {
	for _, x := range r.m.Territories[t].Adj {
		if r.mine(x) && comp[x] == c {
			return true
		}
	}
	return false
}
