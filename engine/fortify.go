package engine

import (
	"github.com/riskbot/riskbot/state"
)

func fortify(s *state.State, seat int, c Fortify) ([]Event, error) {
	switch s.Phase {
	case state.PhaseAttack, state.PhaseFortify:
	case state.PhaseReinforce:
		return nil, fail(ErrWrongPhase, "place your %s before fortifying", plural(s.Seats[seat].Reserve, "remaining army", "remaining armies"))
	case state.PhaseOccupy:
		return nil, fail(ErrWrongPhase, "first move armies into %s (occupy)", name(s, s.Occupy.To))
	default:
		return nil, fail(ErrWrongPhase, "you cannot fortify in the %s phase", s.Phase)
	}
	if err := checkTerritory(s, c.From); err != nil {
		return nil, err
	}
	if err := checkTerritory(s, c.To); err != nil {
		return nil, err
	}
	if o := s.Terr[c.From].Owner; o != seat {
		return nil, fail(ErrNotYourTerritory, "%s belongs to %s, not you", name(s, c.From), seatName(s, o))
	}
	// With teams, armies may go to a teammate, and are theirs then
	// (docs/rules.md, "Teams").
	if o := s.Terr[c.To].Owner; o != seat && !s.Teammates(seat, o) {
		return nil, fail(ErrNotYourTerritory, "%s belongs to %s, not you", name(s, c.To), seatName(s, o))
	}
	if c.From == c.To {
		return nil, fail(ErrBadCommand, "pick two different territories")
	}
	movable := Movable(s, c.From)
	if s.Options.Fortify == state.Connected {
		if s.Fortified > 0 {
			return nil, fail(ErrAlreadyFortified, "you have already fortified this turn (one move per turn): end your turn")
		}
		if !Connected(s, seat, c.From, c.To) {
			return nil, fail(ErrNotConnected, "%s and %s are not connected through your territories", name(s, c.From), name(s, c.To))
		}
	} else if !s.Map.Adjacent(c.From, c.To) {
		return nil, fail(ErrNotAdjacent, "%s does not border %s (armies move one step per turn)", name(s, c.From), name(s, c.To))
	}
	if movable == 0 {
		why := "one army must stay"
		if s.Terr[c.From].Arrived > 0 {
			why = "the others arrived this turn and one must stay"
		}
		return nil, fail(ErrNotEnoughArmies, "no army on %s can move: %s", name(s, c.From), why)
	}
	if c.Armies < 1 || c.Armies > movable {
		return nil, fail(ErrBadArmies, "move 1 to %d armies from %s, not %d", movable, name(s, c.From), c.Armies)
	}
	s.Terr[c.From].Armies -= c.Armies
	s.Terr[c.To].Armies += c.Armies
	if s.Options.Fortify == state.Adjacent {
		s.Terr[c.To].Arrived += c.Armies
	}
	s.Fortified++
	s.Phase = state.PhaseFortify
	s.This.Add(state.Arrow{From: int16(c.From), To: int16(c.To), Kind: state.ArrowFortify, Seat: int8(seat), Count: int32(c.Armies)})
	return []Event{Fortified{Seat: seat, From: c.From, To: c.To, Armies: c.Armies}}, nil
}

// Movable returns how many armies may leave territory t by fortification:
// all but one, and with adjacent fortification none that arrived this turn.
func Movable(s *state.State, t int) int {
	tr := s.Terr[t]
	return max(0, min(tr.Armies-1, tr.Armies-tr.Arrived))
}

// Connected reports whether a path leads from one territory to another
// through territories seat owns, the last step entering to whoever holds
// it (fortify lets it be a teammate's).
func Connected(s *state.State, seat, from, to int) bool {
	var seen [2]uint64
	stack := make([]int, 0, 16)
	stack = append(stack, from)
	seen[from>>6] |= 1 << (from & 63)
	for len(stack) > 0 {
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if t == to {
			return true
		}
		for _, n := range s.Map.Territories[t].Adj {
			if (s.Terr[n].Owner == seat || n == to) && seen[n>>6]&(1<<(n&63)) == 0 {
				seen[n>>6] |= 1 << (n & 63)
				stack = append(stack, n)
			}
		}
	}
	return false
}
