package ai

import (
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// This file and the other capitals*.go files are the computer players of
// the capitals rule set (RULES.md section 2). Classic play (the other
// files) does not depend on them: guarded.Act hands a capitals view to a
// level's decideCapitals, and Fallback to capitalsFallback.

// capitalsFallback is Fallback for the capitals rules: the first free
// capital spot, the reinforcements on the capital, then pass.
func capitalsFallback(s *state.State, seat int) engine.Command {
	switch s.Phase {
	case state.PhaseSetup:
		for _, c := range engine.Legal(s, seat) {
			if c, ok := c.(engine.Capital); ok {
				return c
			}
		}
	case state.PhaseReinforce:
		if c := s.Capital(seat); c >= 0 && s.Seats[seat].Reserve > 0 {
			return engine.Reinforce{Territory: c}
		}
	}
	return engine.EndTurn{}
}

// Luck, in thousandths, as the engine draws it: uniform over luckValues
// whole numbers from engine.LuckMin.
const (
	luckMax    = engine.LuckMin + engine.LuckSpan - 1
	luckValues = engine.LuckSpan
)

// fallChance is the probability that an attack of total a (in
// state.PowerUnits) on a defence total d takes a territory holding troops:
// the share of the luck draws whose damage reaches troops.
func fallChance(a, d, troops int) float64 {
	if a <= d {
		return 0
	}
	if troops <= 0 {
		return 1
	}
	need := troops * state.PowerUnit * 1000 // damage >= troops  <=>  (a-d)*luck >= need
	lmin := (need + (a - d) - 1) / (a - d)
	switch {
	case lmin <= engine.LuckMin:
		return 1
	case lmin > luckMax:
		return 0
	}
	return float64(luckMax-lmin+1) / luckValues
}

// maxDamage is the most troops an attack of total a can kill against a
// defence total d (the luckiest draw).
func maxDamage(a, d int) int { return engine.Damage(a, d, luckMax) }

// capBoard is what the capitals players read off a view for one seat:
// each seat's income and troops, and for each territory of the seat the
// strongest attack an enemy could bring on it in its next turn.
type capBoard struct {
	s    *state.State
	m    *state.Map
	seat int
	// owned, troops and income by seat; income is what the seat's next
	// reinforcement will be (3 per territory).
	owned, troops, income []int
	// threat[t], for a territory of the seat: the largest attack total an
	// enemy can bring on t in its next turn, its whole reinforcement on the
	// source (in PowerUnits), and who (-1: none).
	threat   []int
	threatBy []int
	// enemyDef[t], for a territory of another seat, is its defence total
	// (in PowerUnits) with what the fog may hide around it (fog); 0
	// elsewhere. The seat's own moves and reinforcements do not change it.
	enemyDef []int
	// fog is what the fog may hide around each territory (nil without
	// fog): enemyDef counts it, and the seat's plans are checked with it.
	fog unseen
	// frontDist[t], for a territory of the seat, is the number of moves
	// its troops need to reach a territory from which an enemy is in
	// reach (0 there); -1 if they never can.
	frontDist []int
}

// newCapBoard reads s, a guessed or a whole board, for seat; fog is what
// the fog may hide (fogMargins; nil on a whole board).
func newCapBoard(s *state.State, seat int, fog unseen) *capBoard {
	n := len(s.Terr)
	ns := len(s.Seats)
	ints := make([]int, 3*ns+5*n)
	take := func(k int) []int { x := ints[:k:k]; ints = ints[k:]; return x }
	b := &capBoard{s: s, m: s.Map, seat: seat, fog: fog}
	b.owned, b.troops, b.income = take(ns), take(ns), take(ns)
	b.threat, b.threatBy, b.enemyDef = take(n), take(n), take(n)
	b.frontDist = take(n)
	queue := take(n)[:0]
	for t := range s.Terr {
		if o := s.Terr[t].Owner; o >= 0 {
			b.owned[o]++
			b.troops[o] += s.Terr[t].Armies
			if o != seat {
				b.enemyDef[t] = fog.defence(s, t)
			}
		}
	}
	for p := range ns {
		b.income[p] = 3 * b.owned[p]
	}
	b.threats()
	b.distances(queue)
	return b
}

// distances fills frontDist, breadth first from the territories that
// reach an enemy, along the moves the seat's troops can make.
func (b *capBoard) distances(queue []int) {
	s := b.s
	for t := range s.Terr {
		b.frontDist[t] = -1
		if s.Terr[t].Owner != b.seat {
			continue
		}
		tm := &b.m.Territories[t]
	front:
		for _, xs := range [2][]int{tm.Adj, tm.Sea} {
			for _, x := range xs {
				if o := s.Terr[x].Owner; o >= 0 && !s.Sides().Same(o, b.seat) && b.reach(t, x) != state.NoReach {
					b.frontDist[t] = 0
					queue = append(queue, t)
					break front
				}
			}
		}
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		um := &b.m.Territories[u]
		for _, xs := range [2][]int{um.Adj, um.Sea} {
			for _, t := range xs {
				if s.Terr[t].Owner == b.seat && b.frontDist[t] < 0 && b.reach(t, u) != state.NoReach {
					b.frontDist[t] = b.frontDist[u] + 1
					queue = append(queue, t)
				}
			}
		}
	}
}

// threats fills threat and threatBy.
func (b *capBoard) threats() {
	s := b.s
	for t := range s.Terr {
		b.threat[t], b.threatBy[t] = 0, -1
		if s.Terr[t].Owner != b.seat {
			continue
		}
		tm := &b.m.Territories[t]
		for _, xs := range [2][]int{tm.Adj, tm.Sea} {
			for _, x := range xs {
				e := s.Terr[x].Owner
				if e < 0 || s.Sides().Same(e, b.seat) || !s.Seats[e].Alive() {
					continue
				}
				if a := b.enemyAttack(e, x, t, b.income[e]); a > b.threat[t] {
					b.threat[t], b.threatBy[t] = a, e
				}
			}
		}
	}
}

// enemyAttack is the attack total seat e (an enemy, or the board's own
// seat) would have from x on t with extra troops sent to x first (its
// reinforcement), in PowerUnits; 0 if x does not reach t.
func (b *capBoard) enemyAttack(e, x, t, extra int) int {
	s := b.s
	r := b.m.Reach(x, t, s.Terr[x].Port)
	if r == state.NoReach {
		return 0
	}
	a := (s.Terr[x].Armies + extra) * state.PowerUnit
	if r == state.BySea {
		a /= 2
	}
	if s.Hero(e) == x {
		a += (b.troops[e] + extra) * state.PowerUnit / 5
	}
	return a
}

// loseChance is the chance that the strongest enemy attack of next round
// takes the seat's territory t.
func (b *capBoard) loseChance(t int) float64 {
	if b.threat[t] == 0 {
		return 0
	}
	return fallChance(b.threat[t], b.s.DefenceTotal(t), b.s.Terr[t].Armies)
}

// capitalNeed returns how many troops the seat's capital lacks to be safe
// from the strongest enemy attack of next round at the luckiest draw,
// were they added on the capital itself (0 when safe). margin adds
// troops to the enemy's attack, for a cautious style.
func (b *capBoard) capitalNeed(margin int) int {
	c := b.s.Capital(b.seat)
	if c < 0 || b.threat[c] == 0 {
		return 0
	}
	a := b.threat[c] + margin*state.PowerUnit
	d := b.s.DefenceTotal(c)
	troops := b.s.Terr[c].Armies
	// Each troop added raises the defence total by one and the troops to
	// kill by one.
	lo, hi := 0, 1
	for maxDamage(a, d+hi*state.PowerUnit) >= troops+hi {
		hi *= 2
	}
	if maxDamage(a, d) < troops {
		return 0
	}
	for lo+1 < hi {
		mid := (lo + hi) / 2
		if maxDamage(a, d+mid*state.PowerUnit) >= troops+mid {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// defence is t's defence total as the seat must count it before it
// attacks t: with what the fog may hide around it.
func (b *capBoard) defence(t int) int { return b.fog.defence(b.s, t) }

// planLegal applies the strictly-greater rule to every attack of a plan,
// at its count, with what the fog may hide around each target: true means
// the engine accepts the plan's last attack whatever lies in the fog.
func (b *capBoard) planLegal(plan []state.Planned) bool {
	for _, p := range plan {
		a := b.s.AttackTotal(int(p.From), int(p.To), len(plan))
		if a.Reach == state.NoReach || a.Total <= b.defence(int(p.To)) {
			return false
		}
	}
	return true
}

// reach is how the seat's territory from reaches to now.
func (b *capBoard) reach(from, to int) state.Reach {
	return b.m.Reach(from, to, b.s.Terr[from].Port)
}
