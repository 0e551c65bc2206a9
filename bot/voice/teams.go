package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/state"
)

// Teams (RULES.md section 3): a team is named by its number and its
// players, "Team 1 (🟥 Ann, 🟨 Cid)", wherever the match names a winner or
// the standings; a turn names its player's team.

// TeamName names team of s with its players.
func (v Voice) TeamName(s *state.State, team int) string {
	var who []string
	for _, i := range s.TeamSeats(team) {
		who = append(who, v.Who(s, i))
	}
	return fmt.Sprintf("Team %d (%s)", team, strings.Join(who, ", "))
}

// Winners names who won a finished match: the winner, or its team.
func (v Voice) Winners(s *state.State) string {
	if t := s.TeamOf(s.Winner); t != 0 {
		return v.TeamName(s, t)
	}
	return v.Who(s, s.Winner)
}

// WhoPlays is Who with the seat's team, in a match with teams: the player
// of a turn.
func (v Voice) WhoPlays(s *state.State, i int) string {
	if t := s.TeamOf(i); t != 0 {
		return fmt.Sprintf("%s (team %d)", v.Who(s, i), t)
	}
	return v.Who(s, i)
}

// TeamsLine lists the teams with the territories each holds together (as
// far as s, a view, tells), or "" without teams.
func (v Voice) TeamsLine(s *state.State) string {
	if s.NumTeams() == 0 {
		return ""
	}
	var parts []string
	for t := 1; t <= s.NumTeams(); t++ {
		seats := s.TeamSeats(t)
		terr := 0
		out := true
		for _, i := range seats {
			terr += s.Owned(i)
			out = out && !s.Seats[i].Alive()
		}
		status := chat.Plural(terr, "territory", "territories")
		if out {
			status = "out"
		}
		parts = append(parts, fmt.Sprintf("%s: %s", v.TeamName(s, t), status))
	}
	return "Teams: " + strings.Join(parts, "; ") + "."
}

// lobbyTeams lists a lobby's teams as chosen so far, or "" without teams.
func lobbyTeams(meta hosted.Meta) string {
	size := meta.Settings.Options.Teams
	if size == 0 {
		return ""
	}
	n := max(2, (len(meta.Seats)+size-1)/size)
	for _, s := range meta.Seats {
		n = max(n, s.Team) // a pick the start will refuse, shown
	}
	var lines []string
	for t := 1; t <= n; t++ {
		var who []string
		for _, s := range meta.Seats {
			if s.Team == t {
				who = append(who, s.Name)
			}
		}
		list := strings.Join(who, ", ")
		if len(who) == 0 {
			list = "nobody yet"
		}
		lines = append(lines, fmt.Sprintf("Team %d (%d/%d): %s", t, len(who), size, list))
	}
	var free []string
	for _, s := range meta.Seats {
		if s.Team == 0 {
			free = append(free, s.Name)
		}
	}
	if len(free) > 0 {
		lines = append(lines, "No team yet (placed in a team with room at the start, in the order they joined): "+strings.Join(free, ", "))
	}
	return strings.Join(lines, "\n")
}

// teamsHelp is the help's paragraph on teams, of each rule set in its own
// words.
func teamsHelp(rules state.Rules) string {
	won, moved := "the last team standing, or two thirds of the map held together", "armies"
	if rules == state.Capitals {
		won, moved = "the last team with a capital", "troops (not a hero)"
	}
	return "**Teams** (`teams:2` or `teams:3`, 4 or 6 players): pick a team in the lobby with `/risk join team:N` (or get one with room at the start). " +
		"Teammates see what each other sees under fog, never attack each other, may move " + moved + " into each other's territories, and win together: " + won + "."
}
