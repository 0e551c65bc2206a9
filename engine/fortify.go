package engine

import (
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

func fortify(s *state.State, seat int, c Fortify) ([]Event, error) {
	switch s.Phase {
	case state.PhaseAttack, state.PhaseFortify:
	case state.PhaseReinforce:
		return nil, fail(ErrWrongPhase, "engine.fortify.place-first", "Armies", remaining(s.Seats[seat].Reserve))
	case state.PhaseOccupy:
		return nil, fail(ErrWrongPhase, "engine.occupy.first", "Place", land(s, s.Occupy.To))
	default:
		return nil, fail(ErrWrongPhase, "engine.fortify.wrong-phase", "Phase", phase(s.Phase))
	}
	if err := checkRoute(s, seat, c.From, c.To, "engine.territory.not-yours"); err != nil {
		return nil, err
	}
	// With teams, armies may go to a teammate, and are theirs then
	// (docs/rules.md, "Teams").
	if o := s.Terr[c.To].Owner; o != seat && !s.Sides().Teammates(seat, o) {
		return nil, fail(ErrNotYourTerritory, "engine.territory.not-yours", "Place", land(s, c.To), "Player", player(s, o))
	}
	if c.From == c.To {
		return nil, fail(ErrBadCommand, "engine.move.same-territory")
	}
	movable := Movable(s, c.From)
	if s.Options.Fortify == state.Connected {
		if s.Fortified > 0 {
			return nil, fail(ErrAlreadyFortified, "engine.fortify.done")
		}
		if !Connected(s, seat, c.From, c.To) {
			return nil, fail(ErrNotConnected, "engine.fortify.not-connected", "From", land(s, c.From), "To", land(s, c.To))
		}
	} else if !s.Map.Adjacent(c.From, c.To) {
		return nil, fail(ErrNotAdjacent, "engine.fortify.not-adjacent", "From", land(s, c.From), "To", land(s, c.To))
	}
	if movable == 0 {
		why := lang.M("engine.fortify.one-must-stay")
		if s.Terr[c.From].Arrived > 0 {
			why = lang.M("engine.fortify.arrived")
		}
		return nil, fail(ErrNotEnoughArmies, "engine.fortify.none-movable", "From", land(s, c.From), "Why", why)
	}
	if c.Armies < 1 || c.Armies > movable {
		return nil, fail(ErrBadArmies, "engine.fortify.range", "Max", movable, "From", land(s, c.From), "Number", c.Armies)
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
