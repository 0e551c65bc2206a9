package server

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"

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
	p := readerOf(req)
	who, whoName, you := req.User.ID, p.T("server.stats.you"), true
	if q := strings.TrimSpace(a.Str["player"]); q != "" {
		if err := command.CheckPlayer("player", q); err != nil {
			return chat.Message{}, err
		}
		if !mentionText.MatchString(q) {
			q = strings.TrimPrefix(q, "@") // "@Ann" typed as text
		}
		who, whoName, you = q, q, false
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
		lines = append(lines, p.T("server.stats.line", "Rank", s.Rank, "Name", lang.Text(standingName(p, s)), "Rating", lang.Text(fmt.Sprintf("%.0f", s.Rating)), "Won", s.Won, "Played", s.Played))
	}
	if len(lines) == 0 {
		lines = append(lines, p.T("server.stats.none"))
	}
	e := &chat.Embed{Title: p.T("server.stats.title", "Rules", lang.Text(rules.String())), Description: strings.Join(lines, "\n"),
		Footer: p.T("server.stats.footer")}
	mine, err := sv.cfg.Store.PlayerStats(ctx, server, who)
	if err != nil {
		return chat.Message{}, err
	}
	var parts []string
	for _, s := range mine {
		parts = append(parts, p.T("server.stats.mine", "Rules", lang.Text(fmt.Sprint(s.Rules)), "Won", s.Won, "Played", s.Played, "Rating", lang.Text(fmt.Sprintf("%.0f", s.Rating)), "Rank", s.Rank))
	}
	if len(parts) == 0 {
		parts = append(parts, p.T("server.stats.mine-none"))
	}
	if len(mine) > 0 && you {
		whoName = p.T("server.stats.you-named", "Name", lang.Text(mine[0].Name))
	}
	e.Fields = append(e.Fields, chat.Field{Name: whoName, Value: strings.Join(parts, "\n")})
	// The luck of the channel's match, if it has one under way or ended.
	if m, err := sv.cfg.Matches.Latest(ctx, req.Channel); err == nil && m.Game != nil {
		if x, err := sv.cfg.Store.Export(ctx, m.ID); err == nil {
			if rep, err := luck.Of(x.Record); err == nil {
				e.Fields = append(e.Fields, chat.Field{Name: p.T("server.stats.luck"), Value: voice.LuckField(rep.String())})
			}
		}
	}
	return chat.Message{Private: true, Embed: e}, nil
}

// standingName names a leaderboard's entry: a person by name, a computer
// level as such.
func standingName(p lang.Printer, s storage.Standing) string {
	if level, ok := strings.CutPrefix(s.Player, "bot:"); ok {
		return p.T("server.stats.computer", "Level", voice.Level(level))
	}
	return s.Name
}
