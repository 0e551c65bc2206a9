package ai

import (
	"github.com/riskbot/riskbot/state"
)

// board is what the heuristic players read off a state for one seat: who
// borders whom, how threatened each territory is, how the continents
// stand. It reads only what the seat's view shows (owners, armies, hand
// sizes, its own hand).
type board struct {
	s    *state.State
	m    *state.Map
	seat int
	// enemyAdj[t] is the sum over t's neighbours held by other seats of
	// their armies minus one (what could attack t); neutral neighbours do
	// not attack and count 0.
	enemyAdj []int
	// maxEnemyAdj[t] is the largest such neighbour stack (armies - 1).
	maxEnemyAdj []int
	// front[t]: t is the seat's and borders a territory that is not.
	front []bool
	// owned[p] counts the territories of seat p; income[p] its income.
	owned  []int
	income []int
	armies []int
	// contMine[c] counts the seat's territories in continent c;
	// contOwner[c] is the seat holding c whole, or state.Neutral.
	contMine  []int
	contOwner []int
	goal      int // the continent the seat works toward, or -1

	// buf backs every slice above and the scratch slices below, kept
	// between resets so that a board reused through a search allocates
	// nothing once it has grown to the map.
	buf []int
	// Scratch space of the decisions (place, fortify): one int per
	// territory each.
	scratchA, scratchB, scratchC []int
	// threat backs the reference player's reading (readRef).
	threat []float64
	// entr[c] caches entrances(c) for the map entrMap: a board reused
	// through a search counts them once.
	entr    []int
	entrMap *state.Map
}

// newBoard reads a board for seat off s.
func newBoard(s *state.State, seat int) *board {
	b := new(board)
	b.reset(s, seat)
	return b
}

// reset reads the board for seat off s again, reusing b's memory: search
// playouts read a board for every decision.
func (b *board) reset(s *state.State, seat int) {
	m := s.Map
	n := len(s.Terr)
	b.s, b.m, b.seat = s, m, seat
	if b.entrMap != m {
		b.entrMap = m
		b.entr = b.entr[:0]
		for c := range m.Continents {
			b.entr = append(b.entr, countEntrances(m, c))
		}
	}
	need := 5*n + 3*len(s.Seats) + 2*len(m.Continents)
	if cap(b.buf) < need {
		b.buf = make([]int, need)
	}
	ints := b.buf[:need]
	clear(ints)
	take := func(k int) []int { x := ints[:k:k]; ints = ints[k:]; return x }
	b.enemyAdj, b.maxEnemyAdj = take(n), take(n)
	b.owned, b.income, b.armies = take(len(s.Seats)), take(len(s.Seats)), take(len(s.Seats))
	b.contMine, b.contOwner = take(len(m.Continents)), take(len(m.Continents))
	b.scratchA, b.scratchB, b.scratchC = take(n), take(n), take(n)
	if cap(b.front) < n {
		b.front = make([]bool, n)
	}
	b.front = b.front[:n]
	clear(b.front)
	for t := range s.Terr {
		o := s.Terr[t].Owner
		if o >= 0 {
			b.owned[o]++
			b.armies[o] += s.Terr[t].Armies
		}
		if o != seat {
			continue
		}
		for _, x := range m.Territories[t].Adj {
			xo := s.Terr[x].Owner
			if s.Sides().Same(xo, seat) {
				// A teammate's border is no front: it is never
				// attacked from there, nor attacks.
				continue
			}
			b.front[t] = true
			if xo >= 0 {
				a := s.Terr[x].Armies - 1
				b.enemyAdj[t] += a
				b.maxEnemyAdj[t] = max(b.maxEnemyAdj[t], a)
			}
		}
	}
	for p := range s.Seats {
		b.income[p] = max(3, b.owned[p]/3)
	}
	for c := range m.Continents {
		owner := -2
		for _, t := range m.Continents[c].Territories {
			o := s.Terr[t].Owner
			if o == seat {
				b.contMine[c]++
			}
			switch {
			case owner == -2:
				owner = o
			case owner != o:
				owner = state.Neutral
			}
		}
		if owner < 0 {
			owner = state.Neutral
		}
		b.contOwner[c] = owner
		if owner >= 0 {
			b.income[owner] += m.Continents[c].Bonus
		}
	}
	b.goal = b.pickGoal()
	if g := missionGoal(s, seat); g >= 0 {
		b.goal = g // a secret mission's continent first
	}
}

// mine reports whether t is the seat's.
func (b *board) mine(t int) bool { return b.s.Terr[t].Owner == b.seat }

// ally reports whether t is a teammate's: never a target, and no threat.
func (b *board) ally(t int) bool { return b.s.Sides().Teammates(b.seat, b.s.Terr[t].Owner) }

// hostile reports whether t is an enemy player's (not the seat's, a
// teammate's or neutral).
func (b *board) hostile(t int) bool { return b.s.Terr[t].Owner >= 0 && !b.mine(t) && !b.ally(t) }

// commonEnemy reports whether t, a target, is held by the enemy the team
// should fight together, with teams: the one with the fewest territories,
// whose elimination takes a player from the other side soonest. Every
// teammate, reading the same board, picks the same one.
func (b *board) commonEnemy(t int) bool {
	o := b.s.Terr[t].Owner
	if o < 0 || b.s.Options.Teams == 0 {
		return false
	}
	best := -1
	for p := range b.s.Seats {
		if b.s.Seats[p].Alive() && !b.s.Sides().Same(p, b.seat) && (best < 0 || b.owned[p] < b.owned[best]) {
			best = p
		}
	}
	return o == best
}

// pickGoal chooses the continent not yet held that is cheapest to complete
// for its bonus: the seat's share of it, the armies in the way, and the
// number of entrances it would have to guard.
func (b *board) pickGoal() int {
	best, bestScore := -1, 0.0
	for c, cont := range b.m.Continents {
		if b.contOwner[c] == b.seat || b.contMine[c] == 0 {
			continue
		}
		size := len(cont.Territories)
		enemy, allied := 0, false
		for _, t := range cont.Territories {
			if !b.mine(t) {
				enemy += b.s.Terr[t].Armies
			}
			allied = allied || b.ally(t)
		}
		if allied {
			continue // a teammate's territory is never taken: no bonus there
		}
		share := float64(b.contMine[c]) / float64(size)
		score := float64(cont.Bonus+1) * (share + 0.15) / float64(1+enemy+size+b.entrances(c))
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	return best
}

// entrances is the number of territories of continent c that border
// another continent: what its holder must guard.
func (b *board) entrances(c int) int { return b.entr[c] }

// countEntrances counts the territories of continent c that border
// another continent.
func countEntrances(m *state.Map, c int) int {
	n := 0
	for _, t := range m.Continents[c].Territories {
		for _, x := range m.Territories[t].Adj {
			if m.Territories[x].Continent != c {
				n++
				break
			}
		}
	}
	return n
}

// completes reports whether taking t would give the seat t's whole
// continent.
func (b *board) completes(t int) bool {
	c := b.m.Territories[t].Continent
	return b.contMine[c] == len(b.m.Continents[c].Territories)-1
}

// breaks returns the bonus of the continent an enemy holds whole that
// taking t would break, or 0.
func (b *board) breaks(t int) int {
	c := b.m.Territories[t].Continent
	if o := b.contOwner[c]; o >= 0 && o != b.seat {
		return b.m.Continents[c].Bonus
	}
	return 0
}

// guard is how many armies the seat wants on t against its neighbours,
// given the style: aggressive seats leave thin borders. Borders of a
// continent the seat holds get more.
func (b *board) guard(t int, style float64) int {
	if !b.front[t] {
		return 1
	}
	f := 0.55 - 0.35*style
	need := f * float64(b.maxEnemyAdj[t]+(b.enemyAdj[t]-b.maxEnemyAdj[t])/3)
	if c := b.m.Territories[t].Continent; b.contOwner[c] == b.seat {
		need *= 1.3
		need += float64(b.m.Continents[c].Bonus) / 2
	}
	return max(1, int(need+0.5))
}

// components labels the seat's territories by the groups connected
// through its own territories (-1 for others), for connected fortification.
// It uses the board's scratchA (the labels, returned) and scratchB.
func (b *board) components() []int {
	n := len(b.s.Terr)
	comp := b.scratchA
	for i := range comp {
		comp[i] = -1
	}
	stack := b.scratchB[:0]
	label := 0
	for t := range n {
		if comp[t] >= 0 || !b.mine(t) {
			continue
		}
		comp[t] = label
		stack = append(stack[:0], t)
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range b.m.Territories[x].Adj {
				if comp[y] < 0 && b.mine(y) {
					comp[y] = label
					stack = append(stack, y)
				}
			}
		}
		label++
	}
	return comp
}

// frontDistance returns, for every territory of the seat, the number of
// steps through its own territories to the nearest front territory (0 on
// the front; -1 when cut off or not the seat's).
// It uses the board's scratchA (the distances, returned) and scratchB.
func (b *board) frontDistance() []int {
	n := len(b.s.Terr)
	dist := b.scratchA
	queue := b.scratchB[:0]
	for t := range n {
		dist[t] = -1
		if b.mine(t) && b.front[t] {
			dist[t] = 0
			queue = append(queue, t)
		}
	}
	for i := 0; i < len(queue); i++ {
		x := queue[i]
		for _, y := range b.m.Territories[x].Adj {
			if dist[y] < 0 && b.mine(y) {
				dist[y] = dist[x] + 1
				queue = append(queue, y)
			}
		}
	}
	return dist
}
