package state

import "fmt"

// Teams (RULES.md section 3, docs/rules.md "Teams"): with Options.Teams set,
// every seat belongs to a team of that size, numbered from 1 in
// Seat.Team. Teammates never attack each other, share their sight in a
// fog match and win together.

// Sides answers who plays with whom: the teams, and each seat's side (its
// team, or the seat alone without teams). Every rule set asks it, the
// engine's move generation and the computer players' search in their
// inner loops, so it is a pointer to the state, got from State.Sides for
// nothing and seeing the state as it is now.
type Sides struct{ s *State }

// Sides returns the sides of s's seats.
func (s *State) Sides() Sides { return Sides{s} }

// Team returns seat's team, or 0 if it has none (no teams, or a neutral).
func (sd Sides) Team(seat int) int {
	if seat < 0 || seat >= len(sd.s.Seats) {
		return 0
	}
	return sd.s.Seats[seat].Team
}

// Teammates reports whether seats a and b are two players of one team.
func (sd Sides) Teammates(a, b int) bool {
	return a != b && sd.Same(a, b)
}

// Same reports whether owners a and b are one player or teammates:
// neither may attack the other. Two neutrals are on the same side.
func (sd Sides) Same(a, b int) bool {
	if a == b {
		return true
	}
	t := sd.Team(a)
	return t != 0 && t == sd.Team(b)
}

// Teams returns the number of teams of the match, 0 without teams.
func (sd Sides) Teams() int {
	if sd.s.Options.Teams <= 0 {
		return 0
	}
	return len(sd.s.Seats) / sd.s.Options.Teams
}

// Members returns the seats of team, in turn order.
func (sd Sides) Members(team int) []int {
	var out []int
	for i := range sd.s.Seats {
		if team != 0 && sd.s.Seats[i].Team == team {
			out = append(out, i)
		}
	}
	return out
}

// Of returns the seats that play with seat: its team, or seat alone.
func (sd Sides) Of(seat int) []int {
	if t := sd.Team(seat); t != 0 {
		return sd.Members(t)
	}
	return []int{seat}
}

// Alive returns the number of sides still playing: teams with a player
// still in the match, or players, without teams.
func (sd Sides) Alive() int {
	seats := sd.s.Seats
	n := 0
	for i := range seats {
		if !seats[i].Alive() {
			continue
		}
		// Count each side once, at its first living seat.
		first := true
		for j := range i {
			if seats[j].Alive() && sd.Teammates(i, j) {
				first = false
				break
			}
		}
		if first {
			n++
		}
	}
	return n
}

// Owned returns the territories seat and its teammates hold together.
func (sd Sides) Owned(seat int) int {
	n := 0
	for _, i := range sd.Of(seat) {
		n += sd.s.Owned(i)
	}
	return n
}

// Armies returns the armies (troops) seat and its teammates have on the
// map together.
func (sd Sides) Armies(seat int) int {
	n := 0
	for _, i := range sd.Of(seat) {
		n += sd.s.Armies(i)
	}
	return n
}

// Won reports whether seat is among the winners of a finished match: the
// winner or one of its teammates.
func (s *State) Won(seat int) bool {
	return s.Phase == PhaseOver && s.Winner >= 0 && s.Sides().Same(seat, s.Winner)
}

// checkTeams checks the teams: none without the option; with it, every
// seat in a team of 1 to len(Seats)/Teams, each of exactly Teams seats.
func (s *State) checkTeams(bad func(string, ...any)) {
	size := s.Options.Teams
	if size == 0 {
		for i := range s.Seats {
			if s.Seats[i].Team != 0 {
				bad("seat %d is in team %d in a match without teams", i, s.Seats[i].Team)
			}
		}
		return
	}
	if err := CheckTeams(size, teamsOf(s.Seats)); err != nil {
		bad("%v", err)
	}
}

func teamsOf(seats []Seat) []int {
	out := make([]int, len(seats))
	for i := range seats {
		out[i] = seats[i].Team
	}
	return out
}

// CheckTeams checks that teams, each seat's team, split the seats into
// teams of size: at least two teams, numbered 1 to len(teams)/size, each
// with exactly size seats.
func CheckTeams(size int, teams []int) error {
	ok := false
	for _, t := range TeamSizes {
		ok = ok || t == size
	}
	if !ok {
		return fmt.Errorf("state: teams of %d: want %s", size, orList([]string{"2", "3"}))
	}
	n := len(teams)
	if n%size != 0 || n/size < 2 {
		return fmt.Errorf("state: %d players cannot make two or more teams of %d", n, size)
	}
	count := make([]int, n/size+1)
	for i, t := range teams {
		if t < 1 || t > n/size {
			return fmt.Errorf("state: seat %d is in team %d: want 1 to %d", i, t, n/size)
		}
		count[t]++
	}
	for t := 1; t < len(count); t++ {
		if count[t] != size {
			return fmt.Errorf("state: team %d: want %d players, not %d", t, size, count[t])
		}
	}
	return nil
}
