package lobby

import (
	"context"
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Teams in the lobby: a player picks a team with /risk join team:N (seated
// or not yet); whoever picked none, bots included, is put at the start in
// a team with room, in the order they joined. So no command of its own is
// needed, and the host fills a team by adding bots.

// checkTeam refuses u's pick of team in the lobby of m, saying why.
func checkTeam(m *hosted.Match, u chat.User, team int) error {
	if m.Status != storage.Lobby {
		return chat.Refuse("The match has started: teams are fixed for the whole match.")
	}
	size := m.Meta.Settings.Options.Teams
	if size == 0 {
		return chat.Refuse("This match is not played in teams. The host can turn them on: /risk host settings teams:2 (or 3).")
	}
	if most := state.MaxSeats / size; team < 1 || team > most {
		return chat.Refuse("There is no team %d: teams of %d make at most %d teams, team:1 to team:%d.", team, size, most, most)
	}
	var in []string
	for _, s := range m.Meta.Seats {
		if s.Team == team && s.ID != u.ID {
			in = append(in, s.Name)
		}
	}
	if len(in) >= size {
		return chat.Refuse("Team %d is full (%s): pick another team, or leave team out to be placed in one with room at the start.", team, strings.Join(in, ", "))
	}
	return nil
}

// moveTeam answers /risk join team:N from u, already seated in the lobby.
func (l *Lobby) moveTeam(ctx context.Context, m *hosted.Match, u chat.User, team int) (hosted.Result, error) {
	if err := checkTeam(m, u, team); err != nil {
		return hosted.Result{}, err
	}
	i := m.Meta.Index(u.ID)
	if m.Meta.Seats[i].Team == team {
		return hosted.Result{}, chat.Refuse("You are in team %d already.", team)
	}
	m.Meta.Seats[i].Team = team
	name := m.Meta.Seats[i].Name
	text := m.Says(fmt.Sprintf("You are in team %d now.", team))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, fmt.Sprintf("%s is in team %d now.", name, team))}, nil
}

// placeTeams checks the teams of a lobby about to start, and puts the
// seats without a team in the teams with room, in the order they joined.
// It returns each seat's team (nil without teams); the lobby is unchanged.
func placeTeams(meta hosted.Meta) ([]int, error) {
	size := meta.Settings.Options.Teams
	if size == 0 {
		return nil, nil
	}
	n := len(meta.Seats)
	if n%size != 0 || n/size < 2 {
		want := "6 players (two teams of 3)"
		if size == 2 {
			want = "4 or 6 players (two or three teams of 2)"
		}
		return nil, chat.Refuse("Teams of %d need %s, and there are %d: invite someone or add a bot (/risk host addbot), or /risk host settings teams:off.", size, want, n)
	}
	teams := make([]int, n)
	count := make([]int, n/size+1)
	for i, s := range meta.Seats {
		if s.Team > n/size {
			return nil, chat.Refuse("%s is in team %d, but %d players make %d teams: /risk join team:N to move (team:1 to team:%d).", s.Name, s.Team, n, n/size, n/size)
		}
		teams[i] = s.Team
		count[s.Team]++
	}
	for i := range teams {
		for t := 1; teams[i] == 0 && t < len(count); t++ {
			if count[t] < size {
				teams[i] = t
				count[t]++
			}
		}
	}
	for t := 1; t < len(count); t++ {
		if count[t] != size {
			// Only a change of team size after the picks gets here.
			return nil, chat.Refuse("Team %d has %d players, not %d: /risk join team:N to move.", t, count[t], size)
		}
	}
	return teams, nil
}

// openTeamThreads opens a private thread for each team of m, just started,
// with its people in it, where the chat can (chat.TeamThreader): in the
// match's channel, or the channel its thread is in (a thread holds no
// threads). A team of computer players only gets none, nor does any team
// if a thread cannot be opened: the match goes on without (logged).
func (l *Lobby) openTeamThreads(ctx context.Context, m *hosted.Match) []string {
	tt, ok := l.cfg.Poster.(chat.TeamThreader)
	s := m.Game.State
	if !ok || s.NumTeams() == 0 {
		return nil
	}
	parent := m.Channel
	if m.Meta.Thread {
		parent = m.Meta.Parent
	}
	if parent == "" {
		return nil
	}
	threads := make([]string, s.NumTeams())
	for t := range threads {
		var names, people []string
		for _, i := range s.TeamSeats(t + 1) {
			names = append(names, s.Seats[i].Name)
			if !m.Seat(i).IsBot() {
				people = append(people, s.Seats[i].ID)
			}
		}
		if len(people) == 0 {
			continue
		}
		th, err := tt.OpenPrivateThread(ctx, parent, fmt.Sprintf("Risk: team %d (%s)", t+1, strings.Join(names, ", ")), people)
		if err != nil {
			l.cfg.Log.Warn("open a team's private thread: the team plans elsewhere", "channel", parent, "team", t+1, "err", err)
			return nil
		}
		threads[t] = th
	}
	return threads
}

// welcomeTeams posts the first message of each team thread of m: who is
// in it and what it is for, pinging its people.
func (l *Lobby) welcomeTeams(ctx context.Context, m *hosted.Match) {
	s := m.Game.State
	v := l.cfg.Look.Voice(m)
	for t, th := range m.Meta.TeamThreads {
		if th == "" {
			continue
		}
		var people, pings []string
		for _, i := range s.TeamSeats(t + 1) {
			if !m.Seat(i).IsBot() {
				people = append(people, s.Seats[i].ID)
				pings = append(pings, chat.Mention(s.Seats[i].ID))
			}
		}
		text := fmt.Sprintf("🤝 %s — %s: this chat is your team's alone (its players and the bot see it). Plan here; the match is played in %s.",
			strings.Join(pings, " "), v.TeamName(s, t+1), chat.ChannelLink(m.Channel))
		if err := l.cfg.Outbox.Post(ctx, th, news.Post{Message: chat.Message{Text: text, Mentions: people}}); err != nil {
			l.cfg.Log.Warn("welcome a team to its thread", "thread", th, "err", err)
		}
	}
}
