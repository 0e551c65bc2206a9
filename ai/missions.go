package ai

import (
	"math/rand/v2"
	"slices"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Secret missions (victory:missions): what the computer players do for
// theirs. A seat sees its own mission only (the view hides the others'),
// so this reads the seat's mission and nothing else. The players call in
// through small hooks: a term in normal's value of a target
// (missionValue), the goal continent (missionGoal), the attacks easy
// picks from (missionAttacks), and the armies kept behind for the
// 18-territory mission (missionKeep, missionOccupy, missionPlace).

// mission returns seat's mission in s, or state.NoMission when the match
// has none (or the view hides it).
func mission(s *state.State, seat int) state.Mission {
	if s.Options.Victory != state.Missions || seat < 0 || seat >= len(s.Seats) {
		return state.NoMission
	}
	if m := s.Seats[seat].Mission; m.Valid() {
		return m
	}
	return state.NoMission
}

// missionContinents returns the continents seat's mission asks for, the
// third one of its choice included: the continent not named that the seat
// has most of (or holds already).
func missionContinents(s *state.State, seat int, m state.Mission) []int {
	ids, third := engine.MissionContinents(s.Map, m)
	if !third {
		return ids
	}
	best, most := -1, -1.0
	for c, cont := range s.Map.Continents {
		if slices.Contains(ids, c) {
			continue
		}
		mine := 0
		for _, t := range cont.Territories {
			if s.Terr[t].Owner == seat {
				mine++
			}
		}
		if share := float64(mine) / float64(len(cont.Territories)); share > most {
			best, most = c, share
		}
	}
	if best >= 0 {
		ids = append(ids, best)
	}
	return ids
}

// missionGoal is the continent the seat should work toward for its
// mission: of the continents the mission asks for and the seat does not
// hold, the one it holds most of; -1 for missions of no continent.
func missionGoal(s *state.State, seat int) int {
	m := mission(s, seat)
	if m == state.NoMission {
		return -1
	}
	best, most := -1, -1.0
	for _, c := range missionContinents(s, seat, m) {
		if s.ContinentOwner(c) == seat {
			continue
		}
		ts := s.Map.Continents[c].Territories
		mine := 0
		for _, t := range ts {
			if s.Terr[t].Owner == seat {
				mine++
			}
		}
		if share := float64(mine) / float64(len(ts)); share > most {
			best, most = c, share
		}
	}
	return best
}

// missionValue is what taking territory t is worth to the board's seat for
// its mission, in territories (the unit of normal's targetValue): much
// when it fulfils the mission, and a little for each step toward it.
func missionValue(b *board, t int) float64 {
	s, seat := b.s, b.seat
	m := mission(s, seat)
	if m == state.NoMission || b.mine(t) {
		return 0
	}
	const win = 50
	switch {
	case m.Hunting():
		c, _ := m.Target()
		if s.Terr[t].Owner != c {
			return 0
		}
		if b.owned[c] == 1 {
			return win
		}
		return 1.5 + 4/float64(b.owned[c])
	case m == state.MissionTerritories18:
		// A conquest counts only once two armies stand on it; the keep
		// (missionKeep) and the occupation see to it.
		if engine.HeldWithArmies(s, seat, state.MissionHeldArmies)+1 >= state.MissionHeld {
			return win / 2
		}
		return 0.8
	case m.Territories() > 0:
		if b.owned[seat]+1 >= m.Territories() {
			return win
		}
		// Every conquest is a step, worth as much as one into a
		// mission's continent.
		return 1.5
	}
	c := b.m.Territories[t].Continent
	wanted := missionContinents(s, seat, m)
	if !slices.Contains(wanted, c) {
		return 0
	}
	v := 1.5
	if b.completes(t) {
		v += 4
		// The last continent the mission lacks: the match is won.
		missing := 0
		for _, w := range wanted {
			if s.ContinentOwner(w) != seat {
				missing++
			}
		}
		if missing == 1 {
			v = win
		}
	}
	return v
}

// serves reports whether taking t serves seat's mission, as easy sees it:
// a territory the mission names (its continents, its target's); for the
// missions of territories, whose every conquest counts, one that the
// attacker from outnumbers, a conquest likely to be made.
func serves(b *board, from, t int) bool {
	m := mission(b.s, b.seat)
	if m.Territories() > 0 {
		return b.s.Terr[from].Armies-1 > b.s.Terr[t].Armies
	}
	return missionValue(b, t) > 1
}

// missionFronts narrows the fronts easy places on to those next to a
// territory whose conquest serves its mission, if any is; otherwise it
// returns them all. (For the missions of territories, a front next to the
// weakest neighbour.)
func missionFronts(s *state.State, seat int, fronts []int) []int {
	m := mission(s, seat)
	if m == state.NoMission {
		return fronts
	}
	b := newBoard(s, seat)
	weakest := -1
	if m.Territories() > 0 {
		for _, f := range fronts {
			for _, x := range s.Map.Territories[f].Adj {
				if !s.Sides().Same(s.Terr[x].Owner, seat) && (weakest < 0 || s.Terr[x].Armies < weakest) {
					weakest = s.Terr[x].Armies
				}
			}
		}
	}
	var out []int
	for _, f := range fronts {
		for _, x := range s.Map.Territories[f].Adj {
			if s.Sides().Same(s.Terr[x].Owner, seat) {
				continue
			}
			if (weakest >= 0 && s.Terr[x].Armies == weakest) || (weakest < 0 && missionValue(b, x) > 1) {
				out = append(out, f)
				break
			}
		}
	}
	if len(out) == 0 {
		return fronts
	}
	return out
}

// missionAttacks narrows easy's attacks to those that serve its mission,
// if any does; otherwise it returns them all.
func missionAttacks(s *state.State, seat int, attacks []engine.Blitz) []engine.Blitz {
	if mission(s, seat) == state.NoMission {
		return attacks
	}
	b := newBoard(s, seat)
	var out []engine.Blitz
	for _, a := range attacks {
		if serves(b, a.From, a.To) {
			out = append(out, missionKeep(s, seat, a))
		}
	}
	if len(out) == 0 {
		for _, a := range attacks {
			out = append(out, missionKeep(s, seat, a))
		}
	}
	return out
}

// holdsTwo reports whether seat's mission is the 18 territories with two
// armies each.
func holdsTwo(s *state.State, seat int) bool {
	return mission(s, seat) == state.MissionTerritories18
}

// missionKeep keeps two armies behind a blitz for the 18-territory
// mission, where the source has them to spare.
func missionKeep(s *state.State, seat int, a engine.Blitz) engine.Blitz {
	if holdsTwo(s, seat) && s.Terr[a.From].Armies > state.MissionHeldArmies+1 {
		a.Keep = max(a.Keep, state.MissionHeldArmies)
	}
	return a
}

// missionOccupy splits a conquest's armies for the 18-territory mission:
// two stay behind when the rules allow, and two move in; other missions
// (and any command but an occupation) keep the player's own choice c.
func missionOccupy(s *state.State, seat int, c engine.Command) engine.Command {
	oc, ok := c.(engine.Occupy)
	if !ok || !holdsTwo(s, seat) {
		return c
	}
	o := s.Occupy
	total := s.Terr[o.From].Armies + o.Min
	n := min(oc.Armies, total-state.MissionHeldArmies)
	n = max(n, state.MissionHeldArmies, o.Min)
	return engine.Occupy{Armies: min(n, o.Max)}
}

// missionPlace tops up to two armies the seat's territories holding one,
// for the 18-territory mission, once it holds enough territories for it:
// it returns false otherwise (the player places as it would).
func missionPlace(s *state.State, seat int) (engine.Place, bool) {
	if !holdsTwo(s, seat) || s.Seats[seat].Reserve == 0 || s.Owned(seat) < state.MissionHeld {
		return engine.Place{}, false
	}
	for t := range s.Terr {
		if s.Terr[t].Owner == seat && s.Terr[t].Armies < state.MissionHeldArmies {
			return engine.Place{Territory: t, Armies: 1}, true
		}
	}
	return engine.Place{}, false
}

// missionShare returns how far seat is on the way to its mission in s, 0
// to 1, and false without one: the share of the territories of the
// continents it asks for that the seat holds, of the 24 territories (or 18
// with two armies each), or of the target's territories taken (against
// half the map's: a seat rarely holds more).
func missionShare(s *state.State, seat int) (float64, bool) {
	m := mission(s, seat)
	if m == state.NoMission {
		return 0, false
	}
	switch {
	case m.Hunting():
		c, _ := m.Target()
		return 1 - min(1, 2*float64(s.Owned(c))/float64(len(s.Terr))), true
	case m == state.MissionTerritories18:
		return min(1, float64(engine.HeldWithArmies(s, seat, state.MissionHeldArmies))/state.MissionHeld), true
	case m.Territories() > 0:
		return min(1, float64(s.Owned(seat))/float64(m.Territories())), true
	}
	mine, all := 0, 0
	for _, c := range missionContinents(s, seat, m) {
		for _, t := range s.Map.Continents[c].Territories {
			all++
			if s.Terr[t].Owner == seat {
				mine++
			}
		}
	}
	if all == 0 {
		return 0, false
	}
	return float64(mine) / float64(all), true
}

// guessMissions deals the missions seat cannot see in s (a determinized
// view), at random from the cards it does not hold, as the engine deals
// them: a destroy card of the holder's own colour, of a colour nobody
// plays, or of one that is out, is 24 territories. Hard's samples then
// play the other seats toward missions of their own, and see a match won
// by one, rather than players who can never fulfil theirs.
func guessMissions(s *state.State, seat int, rng *rand.Rand) {
	if s.Options.Victory != state.Missions {
		return
	}
	var deck [state.MissionCards]int
	n, own := 0, s.Seats[seat].Mission.Card()
	for c := range state.MissionCards {
		if c != own {
			deck[n] = c
			n++
		}
	}
	for i := range s.Seats {
		if i == seat || s.Seats[i].Mission != state.MissionHidden || n == 0 {
			continue
		}
		j := rng.IntN(n)
		m := state.MissionCard(deck[j])
		deck[j] = deck[n-1]
		n--
		if t, ok := m.Target(); ok && (t == i || t >= len(s.Seats) || !s.Seats[t].Alive()) {
			m = m.Fallback()
		}
		s.Seats[i].Mission = m
	}
}
