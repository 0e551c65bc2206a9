package voice

import (
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/state"
)

// Teams (RULES.md section 3): a team is named by its number and its
// players, "Team 1 (🟥 Ann, 🟨 Cid)", wherever the match names a winner or
// the standings; a turn names its player's team.

// TeamName names team of s with its players.
func (lb Lobby) TeamName(s *state.State, team int) string {
	var who []string
	for _, i := range s.TeamSeats(team) {
		who = append(who, lb.v.Who(s, i))
	}
	return lb.v.p.T("voice.team.name", "N", team, "Players", lang.Text(strings.Join(who, ", ")))
}

// Winners names who won a finished match: the winner, or its team.
func (lb Lobby) Winners(s *state.State) string {
	if t := s.TeamOf(s.Winner); t != 0 {
		return lb.TeamName(s, t)
	}
	return lb.v.Who(s, s.Winner)
}

// WhoPlays is Who with the seat's team, in a match with teams: the player
// of a turn.
func (lb Lobby) WhoPlays(s *state.State, i int) string {
	if t := s.TeamOf(i); t != 0 {
		return lb.v.p.T("voice.team.who-plays", "Player", lang.Text(lb.v.Who(s, i)), "N", t)
	}
	return lb.v.Who(s, i)
}

// TeamsLine lists the teams with the territories each holds together (as
// far as s, a view, tells), or "" without teams.
func (lb Lobby) TeamsLine(s *state.State) string {
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
		status := lb.v.p.T("n.territories", "Count", terr)
		if out {
			status = lb.v.p.T("voice.team.out")
		}
		parts = append(parts, lb.v.p.T("voice.team.status", "Team", lang.Text(lb.TeamName(s, t)), "Status", lang.Text(status)))
	}
	return lb.v.p.T("voice.team.line", "List", lang.Text(strings.Join(parts, lb.v.p.T("voice.list.sep"))))
}

// teams lists a lobby's teams as chosen so far, or "" without teams.
func (lb Lobby) teams(meta hosted.Meta) string {
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
			list = lb.v.p.T("voice.team.nobody-yet")
		}
		lines = append(lines, lb.v.p.T("voice.team.lobby-line", "N", t, "Count", len(who), "Size", size, "Players", lang.Text(list)))
	}
	var free []string
	for _, s := range meta.Seats {
		if s.Team == 0 {
			free = append(free, s.Name)
		}
	}
	if len(free) > 0 {
		lines = append(lines, lb.v.p.T("voice.team.no-team-yet", "Players", lang.Text(strings.Join(free, ", "))))
	}
	return strings.Join(lines, "\n")
}

// teamsHelp is the help's paragraph on teams, of each rule set in its own
// words.
func (lb Lobby) teamsHelp(rules state.Rules) string {
	won, moved := lang.M("voice.team.help-won-classic"), lang.M("voice.team.help-moved-classic")
	if rules == state.Capitals {
		won, moved = lang.M("voice.team.help-won-capitals"), lang.M("voice.team.help-moved-capitals")
	}
	return lb.v.p.T("voice.team.help", "Moved", moved, "Won", won)
}

// Lobby writes a lobby's living card (its seats, settings, teams and
// buttons), the invitations, and the names of the teams.
type Lobby struct{ v Voice }

// Lobby is v writing the lobby and the teams.
func (v Voice) Lobby() Lobby { return Lobby{v} }
