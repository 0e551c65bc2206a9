package server

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine/luck"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// leaderboardSize is how many players /risk me stats lists.
const leaderboardSize = 10

var mentionText = regexp.MustCompile(`^<@!?(\d+)>$`)

// Stats answers /risk me stats: the server's leaderboard under a rule
// set, and one player's matches, wins and rating (the asker's by default).
// A match outside any server counts for its channel, as ResultOf says.
func (sv *Servers) Stats(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error) {
	server := req.Server
	if server == "" {
		server = req.Channel
	}
	rules := state.Classic
	if a.Str["rules"] == "capitals" {
		rules = state.Capitals
	}
	board, err := sv.cfg.Store.Leaderboard(ctx, server, rules, 0)
	if err != nil {
		return chat.Message{}, err
	}
	who, whoName := req.User.ID, "You"
	if q := strings.TrimSpace(a.Str["player"]); q != "" {
		if err := command.CheckPlayer("player", q); err != nil {
			return chat.Message{}, err
		}
		if !mentionText.MatchString(q) {
			q = strings.TrimPrefix(q, "@") // "@Ann" typed as text
		}
		who, whoName = q, q
		if sub := mentionText.FindStringSubmatch(q); sub != nil {
			platform, _, _ := strings.Cut(req.User.ID, ":")
			who = platform + ":" + sub[1]
		}
		for _, s := range board {
			if strings.EqualFold(s.Name, q) || strings.EqualFold(s.Player, q) || s.Player == who {
				who, whoName = s.Player, s.Name
			}
		}
	}
	var lines []string
	for _, s := range board[:min(leaderboardSize, len(board))] {
		lines = append(lines, fmt.Sprintf("%d. %s — %.0f (%d won of %d)", s.Rank, standingName(s), s.Rating, s.Won, s.Played))
	}
	if len(lines) == 0 {
		lines = append(lines, "No match of these rules has been won here yet.")
	}
	e := &chat.Embed{Title: fmt.Sprintf("Leaderboard — %s rules", rules), Description: strings.Join(lines, "\n"),
		Footer: "A multiplayer Elo over each match's places, from 1500; computer players are rated by level."}
	mine, err := sv.cfg.Store.PlayerStats(ctx, server, who)
	if err != nil {
		return chat.Message{}, err
	}
	var parts []string
	for _, s := range mine {
		parts = append(parts, fmt.Sprintf("%s: %d won of %d, rating %.0f (#%d)", s.Rules, s.Won, s.Played, s.Rating, s.Rank))
	}
	if len(parts) == 0 {
		parts = append(parts, "no match won or lost here yet")
	}
	if len(mine) > 0 && whoName == "You" {
		whoName = "You (" + mine[0].Name + ")"
	}
	e.Fields = append(e.Fields, chat.Field{Name: whoName, Value: strings.Join(parts, "\n")})
	// The luck of the channel's match, if it has one under way or ended.
	if m, err := sv.cfg.Matches.Latest(ctx, req.Channel); err == nil && m.Game != nil {
		if x, err := sv.cfg.Store.Export(ctx, m.ID); err == nil {
			if rep, err := luck.Of(x.Record); err == nil {
				e.Fields = append(e.Fields, chat.Field{Name: "Luck in this channel's match", Value: voice.LuckField(rep.String())})
			}
		}
	}
	return chat.Message{Private: true, Embed: e}, nil
}

// standingName names a leaderboard's entry: a person by name, a computer
// level as such.
func standingName(s storage.Standing) string {
	if level, ok := strings.CutPrefix(s.Player, "bot:"); ok {
		return "🤖 " + level + " (computer)"
	}
	return s.Name
}
