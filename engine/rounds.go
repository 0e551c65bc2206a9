package engine

import (
	"cmp"

	"github.com/riskbot/riskbot/state"
)

// roundOf returns the round a turn of seat, handed over from the current
// seat, belongs to: the first turn opens round 1, and a new round opens when
// the turn order wraps around (a seat playing twice in a row, with the
// capitals item, stays in its round).
func roundOf(s *state.State, seat int) int {
	switch {
	case s.Turn == 0:
		return 1
	case seat < s.Current:
		return s.Round + 1
	}
	return s.Round
}

// roundLimit ends the match, instead of a turn or round of round, if the
// match's round limit is over by then (RULES.md section 3; docs/rules.md).
func roundLimit(s *state.State, round int) []Event {
	if s.Options.Rounds <= 0 || round <= s.Options.Rounds {
		return nil
	}
	w := RoundLimitWinner(s)
	for i := range s.Seats {
		s.Seats[i].Ready = false
	}
	s.Orders = nil
	s.Cap = state.CapitalsTurn{}
	return []Event{RoundLimit{Round: s.Options.Rounds}, won(s, w)}
}

// RoundLimitWinner returns the seat that wins a match at its round limit:
// of the seats still playing, the one with the most territories; then the
// most armies (troops, in capitals) on the map; then the one later in the
// turn order, which moved last in every round. With teams, the team with
// the most territories together, then armies together, wins, and the seat
// named is its best player by the same measures.
func RoundLimitWinner(s *state.State) int {
	best := -1
	for i := range s.Seats {
		if !s.Seats[i].Alive() {
			continue
		}
		if best < 0 || cmp.Or(compareSides(s, i, best), cmp.Compare(s.Owned(i), s.Owned(best)), cmp.Compare(s.Armies(i), s.Armies(best)), 1) > 0 {
			best = i
		}
	}
	return best
}

// EndedAtRoundLimit reports whether a finished match was decided by its
// round limit rather than by its rule set's victory.
func EndedAtRoundLimit(s *state.State) bool {
	if s.Phase != state.PhaseOver || s.Winner < 0 || s.Options.Rounds <= 0 || s.Sides().Alive() < 2 {
		return false
	}
	// Capitals are won by the last capital standing, so two seats alive
	// mean the limit; classic ones also by a share of the map, or a mission
	// (which would have ended the match before the limit).
	if s.Options.Victory == state.Missions {
		return !MissionDone(s, s.Winner)
	}
	return s.Options.Rules == state.Capitals || s.Sides().Owned(s.Winner) < s.VictoryTarget()
}
