package engine

import (
	"fmt"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// Apply validates command c, played by seat, and applies it to s, drawing any
// randomness from the generator in s. On error s is unchanged and the error
// is an *Error with a message for the player. Undo needs a Game and is
// refused here.
func Apply(s *state.State, seat int, c Command) ([]Event, error) {
	d := dice{rng: &s.RNG}
	return apply(s, seat, c, &d)
}

func apply(s *state.State, seat int, c Command, d *dice) ([]Event, error) {
	if s.Hidden {
		return nil, fail(ErrBadCommand, "engine.view.hidden")
	}
	if seat < 0 || seat >= len(s.Seats) {
		return nil, fail(ErrNotPlaying, "engine.seat.not-playing")
	}
	if c == nil {
		return nil, fail(ErrBadCommand, "engine.command.none")
	}
	if _, ok := c.(Rollback); ok {
		return nil, fail(ErrUnsupported, "engine.rollback.no-history")
	}
	switch s.Options.Rules {
	case state.Classic:
		return applyClassic(s, seat, c, d)
	case state.Capitals:
		return applyCapitals(s, seat, c, d)
	}
	return nil, fail(ErrUnsupported, "engine.rules.unavailable", "Rules", lang.Text(fmt.Sprint(s.Options.Rules)))
}

// checkTerritory validates a territory id from a command.
func checkTerritory(s *state.State, t int) *Error {
	if t < 0 || t >= len(s.Terr) {
		return fail(ErrNoSuchTerritory, "engine.territory.no-such", "Number", t)
	}
	return nil
}

// checkRoute validates the two territories of a command that sends
// armies from one to the other, from being the seat's; notYours is the
// refusal's key when it is not.
func checkRoute(s *state.State, seat, from, to int, notYours string) *Error {
	if err := checkTerritory(s, from); err != nil {
		return err
	}
	if err := checkTerritory(s, to); err != nil {
		return err
	}
	if o := s.Terr[from].Owner; o != seat {
		return fail(ErrNotYourTerritory, notYours, "Place", land(s, from), "Player", player(s, o))
	}
	return nil
}

// seatName returns the display name of a seat, or "neutral".
func seatName(s *state.State, seat int) string {
	if seat < 0 || seat >= len(s.Seats) {
		return "neutral"
	}
	return s.Seats[seat].Name
}

// nextAlive returns the seat after seat in turn order that still plays.
func nextAlive(s *state.State, seat int) int {
	for i := 1; i <= len(s.Seats); i++ {
		n := (seat + i) % len(s.Seats)
		if s.Seats[n].Alive() {
			return n
		}
	}
	return seat
}
