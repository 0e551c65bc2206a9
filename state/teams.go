package state

import "fmt"

// Teams (RULES.md section 3, docs/rules.md "Teams"): with Options.Teams set,
// every seat belongs to a team of that size, numbered from 1 in
// Seat.Team. Teammates never attack each other, share their sight in a
// fog match and win together.

// TeamOf returns seat's team, or 0 if it has none (no teams, or a neutral).
func (s *State) TeamOf(seat int) int {
	if seat < 0 || seat >= len(s.Seats) {
		return 0
	}
	return s.Seats[seat].Team
}

// Teammates reports whether seats a and b are two players of one team.
func (s *State) Teammates(a, b int) bool {
	return a != b && s.TeamOf(a) != 0 && s.TeamOf(a) == s.TeamOf(b)
}

// SameSide reports whether owners a and b are one player or teammates:
// neither may attack the other. Two neutrals are on the same side.
func (s *State) SameSide(a, b int) bool { return a == b || s.Teammates(a, b) }

// NumTeams returns the number of teams of the match, 0 without teams.
func (s *State) NumTeams() int {
	if s.Options.Teams <= 0 {
		return 0
	}
	return len(s.Seats) / s.Options.Teams
}

// TeamSeats returns the seats of team, in turn order.
func (s *State) TeamSeats(team int) []int {
	var out []int
	for i := range s.Seats {
		if team != 0 && s.Seats[i].Team == team {
			out = append(out, i)
		}
	}
	return out
}

// Side returns the seats that play with seat: its team, or seat alone.
func (s *State) Side(seat int) []int {
	if t := s.TeamOf(seat); t != 0 {
		return s.TeamSeats(t)
	}
	return []int{seat}
}

// AliveSides returns the number of sides still playing: teams with a
// player still in the match, or players, without teams.
func (s *State) AliveSides() int {
	n := 0
	for i := range s.Seats {
		if !s.Seats[i].Alive() {
			continue
		}
		// Count each side once, at its first living seat.
		first := true
		for j := range i {
			if s.Seats[j].Alive() && s.Teammates(i, j) {
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

// SideOwned returns the territories seat and its teammates hold together.
func (s *State) SideOwned(seat int) int {
	n := 0
	for _, i := range s.Side(seat) {
		n += s.Owned(i)
	}
	return n
}

// SideArmies returns the armies (troops) seat and its teammates have on the
// map together.
func (s *State) SideArmies(seat int) int {
	n := 0
	for _, i := range s.Side(seat) {
		n += s.Armies(i)
	}
	return n
}

// Won reports whether seat is among the winners of a finished match: the
// winner or one of its teammates.
func (s *State) Won(seat int) bool {
	return s.Phase == PhaseOver && s.Winner >= 0 && s.SameSide(seat, s.Winner)
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
