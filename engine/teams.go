package engine

import (
	"cmp"
	"fmt"

	"github.com/riskbot/riskbot/state"
)

// Teams (RULES.md section 3, docs/rules.md "Teams"): teams are fixed at the
// start (SeatInfo.Team); teammates never attack each other, may move armies
// into each other's territories, and win together.

// checkSetupTeams validates the teams of a setup: none without the option;
// with it, the seats split into two or more teams of the option's size.
// Secret missions are played alone, as in the classic rule book.
func checkSetupTeams(setup Setup) error {
	o := setup.Options
	if o.Teams == 0 {
		for _, p := range setup.Seats {
			if p.Team != 0 {
				return fmt.Errorf("engine: %s is in team %d in a match without teams", p.Name, p.Team)
			}
		}
		return nil
	}
	if o.Victory == state.Missions {
		return fmt.Errorf("engine: secret missions are played alone, not in teams")
	}
	teams := make([]int, len(setup.Seats))
	for i, p := range setup.Seats {
		teams[i] = p.Team
	}
	if err := state.CheckTeams(o.Teams, teams); err != nil {
		return fmt.Errorf("engine: %w", err)
	}
	return nil
}

// checkNotTeammate refuses an attack by seat on territory t of a teammate.
func checkNotTeammate(s *state.State, seat, t int) *Error {
	if o := s.Terr[t].Owner; s.Sides().Teammates(seat, o) {
		return fail(ErrTeammate, "engine.teams.teammate", "Place", land(s, t), "Player", player(s, o))
	}
	return nil
}

// checkFriendly validates a territory armies may move into: the seat's own
// or a teammate's.
func checkFriendly(s *state.State, seat, t int) *Error {
	if err := checkTerritory(s, t); err != nil {
		return err
	}
	if s.Sides().Teammates(seat, s.Terr[t].Owner) {
		return nil
	}
	return checkOwn(s, seat, t)
}

// sideWinner returns the seat that wins for the one side still playing,
// or -1 if several are: seat if it plays on that side (the acting seat),
// else the side's first living seat.
func sideWinner(s *state.State, seat int) int {
	if s.Sides().Alive() != 1 {
		return -1
	}
	if seat >= 0 && s.Seats[seat].Alive() {
		return seat
	}
	for i := range s.Seats {
		if s.Seats[i].Alive() {
			return i
		}
	}
	return -1
}

// won ends the match with winner (and its team) the winners.
func won(s *state.State, winner int) Won {
	s.Phase = state.PhaseOver
	s.Winner = winner
	s.Current = winner
	return Won{Seat: winner, Team: s.Sides().Team(winner)}
}

// compareSides orders seats a and b at a round limit by their sides'
// territories, then armies together (each seat's own, without teams).
func compareSides(s *state.State, a, b int) int {
	sd := s.Sides()
	return cmp.Or(cmp.Compare(sd.Owned(a), sd.Owned(b)), cmp.Compare(sd.Armies(a), sd.Armies(b)))
}
