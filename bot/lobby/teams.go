package lobby

import (
	"context"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"

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
		return chat.RefuseMsg("lobby.team.started")
	}
	size := m.Meta.Settings.Options.Teams
	if size == 0 {
		return chat.RefuseMsg("lobby.team.off")
	}
	if most := state.MaxSeats / size; team < 1 || team > most {
		return chat.RefuseMsg("lobby.team.none", "Team", team, "Size", size, "Most", most)
	}
	var in []string
	for _, s := range m.Meta.Seats {
		if s.Team == team && s.ID != u.ID {
			in = append(in, s.Name)
		}
	}
	if len(in) >= size {
		return chat.RefuseMsg("lobby.team.full", "Team", team, "Players", lang.Text(strings.Join(in, ", ")))
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
		return hosted.Result{}, chat.RefuseMsg("lobby.team.already", "Team", team)
	}
	m.Meta.Seats[i].Team = team
	name := m.Meta.Seats[i].Name
	text := m.Says(to(m).T("lobby.team.you-moved", "Team", team))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, lang.M("lobby.team.moved", "Name", lang.Text(name), "Team", team))}, nil
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
		want := lang.M("lobby.team.want-3")
		if size == 2 {
			want = lang.M("lobby.team.want-2")
		}
		return nil, chat.RefuseMsg("lobby.team.uneven", "Size", size, "Want", want, "Players", n)
	}
	teams := make([]int, n)
	count := make([]int, n/size+1)
	for i, s := range meta.Seats {
		if s.Team > n/size {
			return nil, chat.RefuseMsg("lobby.team.too-high", "Name", lang.Text(s.Name), "Team", s.Team, "Players", n, "Teams", n/size)
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
			return nil, chat.RefuseMsg("lobby.team.count", "Team", t, "Players", count[t], "Size", size)
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
	if !ok || s.Sides().Teams() == 0 {
		return nil
	}
	parent := m.Channel
	if m.Meta.Thread {
		parent = m.Meta.Parent
	}
	if parent == "" {
		return nil
	}
	pub := public(m)
	threads := make([]string, s.Sides().Teams())
	for t := range threads {
		var names, people []string
		for _, i := range s.Sides().Members(t + 1) {
			names = append(names, s.Seats[i].Name)
			if !m.Seat(i).IsBot() {
				people = append(people, s.Seats[i].ID)
			}
		}
		if len(people) == 0 {
			continue
		}
		th, err := tt.OpenPrivateThread(ctx, parent, pub.T("lobby.team.thread-name", "Team", t+1, "Names", lang.Text(strings.Join(names, ", "))), people)
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
		for _, i := range s.Sides().Members(t + 1) {
			if !m.Seat(i).IsBot() {
				people = append(people, s.Seats[i].ID)
				pings = append(pings, chat.Mention(s.Seats[i].ID))
			}
		}
		text := public(m).T("lobby.team.welcome", "Pings", lang.Text(strings.Join(pings, " ")), "Team", lang.Text(v.Lobby().TeamName(s, t+1)), "Channel", lang.Text(chat.ChannelLink(m.Channel)))
		if err := l.cfg.Outbox.Post(ctx, th, news.Post{Message: chat.Message{Text: text, Mentions: people}}); err != nil {
			l.cfg.Log.Warn("welcome a team to its thread", "thread", th, "err", err)
		}
	}
}
