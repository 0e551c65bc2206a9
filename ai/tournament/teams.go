package tournament

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/engine"
)

// TeamResult is one team of a tournament with teams (Config.Options.Teams):
// entry i of Config.Players plays in team i mod (players / team size) + 1,
// so that --players normal,easy,normal,easy puts the two normals together.
type TeamResult struct {
	Team    int      `json:"team"`
	Members []string `json:"members"`
	Wins    int      `json:"wins"`
	WinRate float64  `json:"win_rate"`
	CILow   float64  `json:"ci_low"`
	CIHigh  float64  `json:"ci_high"`
}

// entryTeam returns the team of entry i of n entries in teams of size.
func entryTeam(i, n, size int) int {
	if size <= 0 {
		return 0
	}
	return i%(n/size) + 1
}

// withTeams puts the seats, one per entry, in their teams.
func withTeams(seats []engine.SeatInfo, size int) []engine.SeatInfo {
	for i := range seats {
		seats[i].Team = entryTeam(i, len(seats), size)
	}
	return seats
}

// checkTeams refuses a team size that does not split the players.
func checkTeams(cfg Config) error {
	size, n := cfg.Options.Teams, len(cfg.Players)
	if size == 0 {
		return nil
	}
	if size != 2 && size != 3 || n%size != 0 || n/size < 2 {
		return fmt.Errorf("tournament: %d players cannot make two or more teams of %d", n, size)
	}
	return nil
}

// teamResults counts the wins of each team: a game won by any member.
func teamResults(cfg Config, games []game) []TeamResult {
	size, n := cfg.Options.Teams, len(cfg.Players)
	if size == 0 {
		return nil
	}
	out := make([]TeamResult, n/size)
	for i := range out {
		out[i].Team = i + 1
	}
	for i := range n {
		t := &out[entryTeam(i, n, size)-1]
		t.Members = append(t.Members, entryName(cfg.Players, i))
	}
	for _, g := range games {
		if g.winner >= 0 {
			out[entryTeam(g.winner, n, size)-1].Wins++
		}
	}
	for i := range out {
		t := &out[i]
		t.WinRate = float64(t.Wins) / float64(len(games))
		t.CILow, t.CIHigh = Wilson(t.Wins, len(games))
	}
	return out
}

// formatTeams writes the teams' table.
func formatTeams(b *strings.Builder, r *Result) {
	if len(r.Teams) == 0 {
		return
	}
	fmt.Fprintf(b, "\nteams (entry i of --players in team i mod %d + 1; a team wins when any member wins):\n", len(r.Teams))
	fmt.Fprintf(b, "%-5s %-30s %6s %8s %17s\n", "team", "members", "wins", "win rate", "95% CI")
	for _, t := range r.Teams {
		fmt.Fprintf(b, "%-5d %-30s %6d %7.1f%% %7.1f%% – %5.1f%%\n",
			t.Team, shorten(strings.Join(t.Members, ", "), 30), t.Wins, 100*t.WinRate, 100*t.CILow, 100*t.CIHigh)
	}
}
