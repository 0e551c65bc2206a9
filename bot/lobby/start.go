package lobby

import (
	"context"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Start answers /risk start: the host starts the match, with its seed's
// commitment made public.
func (l *Lobby) Start(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := l.lobby(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	return l.start(ctx, m, c.Req.User, c.Req.BotLacks)
}

// start starts the match m, in its lobby, for its host u; lacks are the
// permissions the bot lacks in the channel, as the request said.
func (l *Lobby) start(ctx context.Context, m *hosted.Match, u chat.User, lacks []string) (hosted.Result, error) {
	if err := hostOnly(m, u, lang.M("lobby.what.start")); err != nil {
		return hosted.Result{}, err
	}
	if len(m.Meta.Seats) < 2 {
		return hosted.Result{}, chat.RefuseMsg("lobby.start.too-few")
	}
	if o := m.Meta.Settings.Options; o.Victory == state.Missions && len(m.Meta.Seats) < engine.MinMissionSeats {
		return hosted.Result{}, chat.RefuseMsg("lobby.start.missions-few", "Count", engine.MinMissionSeats)
	}
	teams, err := placeTeams(m.Meta)
	if err != nil {
		return hosted.Result{}, err
	}
	if err := canHost(lacks); err != nil {
		return hosted.Result{}, err
	}
	setup := engine.Setup{Options: m.Meta.Settings.Options, Seed: l.cfg.Seed()}
	for i, s := range m.Meta.Seats {
		setup.Seats = append(setup.Seats, engine.SeatInfo{ID: s.ID, Name: s.Name})
		if teams != nil {
			m.Meta.Seats[i].Team = teams[i]
			setup.Seats[i].Team = teams[i]
		}
	}
	// A server's map is read from the store by a process that has not
	// seen it yet (another of a fleet, or one restarted since the lobby
	// chose it).
	if err := l.cfg.Servers.Library().Need(ctx, setup.Options.Map); err != nil {
		return hosted.Result{}, err
	}
	if bm, err := engine.LoadMap(setup.Options.Map); err == nil && engine.IsLibraryName(bm.Name) && bm.Len() < len(setup.Seats) {
		return hosted.Result{}, chat.RefuseMsg("lobby.start.map-small", "Map", lang.Text(bm.Title), "Territories", lang.M("lobby.n.territories", "Count", bm.Len()), "Players", len(setup.Seats))
	}
	g, err := engine.NewGame(setup)
	if err != nil {
		return hosted.Result{}, err
	}
	m.Game = g
	m.Status = storage.Active
	m.Meta.Started = l.cfg.Now()
	// Seats still held for invited people go with the lobby: whoever did
	// not answer in time is not in this match.
	m.Meta.Invites = nil
	t := l.cfg.Matches.TurnTimers(ctx, m)
	m.Timers = t
	s := g.State
	// The start is posted in the channel: in the match's language.
	pub := public(m)
	var order []string
	var mentions []string
	for i := range s.Seats {
		sm := m.Seat(i)
		who := l.cfg.Look.Voice(m).Who(s, i)
		if !sm.IsBot() {
			who = l.cfg.Look.Voice(m).Swatch(i) + " " + chat.MentionOf(sm.ID, sm.Name)
			mentions = append(mentions, sm.ID)
		}
		if hosted.IsCapitals(s) {
			order = append(order, pub.T("lobby.start.order-capitals", "N", i+1, "Who", lang.Text(who), "Color", lang.Text(l.cfg.Look.Voice(m).ColorName(i))))
			continue
		}
		order = append(order, pub.T("lobby.start.order", "N", i+1, "Who", lang.Text(who), "Color", lang.Text(l.cfg.Look.Voice(m).ColorName(i)),
			"Territories", s.Owned(i), "Armies", s.Seats[i].Reserve))
	}
	var text string
	if hosted.IsCapitals(s) {
		var deadline lang.Msg
		if !m.IsBotSeat(s.Current) {
			deadline = lang.M("lobby.start.deadline", "Deadline", lang.Text(chat.Timestamp(t.Deadline)))
		}
		text = m.Says(pub.T("lobby.start.capitals", "Map", lang.Text(s.Map.Title), "Territories", s.Map.Len(), "Order", lang.Text(strings.Join(order, "\n")),
			"First", lang.Text(l.cfg.Look.Voice(m).Who(s, s.Current)), "Troops", lang.M("lobby.n.troops", "Count", s.Options.CapitalTroops), "Then", deadline))
	} else {
		text = m.Says(pub.T("lobby.start.classic", "Order", lang.Text(strings.Join(order, "\n")), "Deadline", lang.Text(chat.Timestamp(t.Deadline))))
		if voice.IsMissions(s) {
			text += "\n" + pub.T("lobby.start.missions")
		}
	}
	if s.Sides().Teams() > 0 {
		var threads lang.Msg
		if m.Meta.TeamThreads = l.openTeamThreads(ctx, m); m.Meta.TeamThreads != nil {
			threads = lang.M("lobby.start.team-threads")
		}
		text += "\n" + pub.T("lobby.start.teams", "Teams", lang.Text(l.cfg.Look.Voice(m).Lobby().TeamsLine(s)), "Then", threads)
	}
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{Start: &g.Setup, Timers: &t}); err != nil {
		return hosted.Result{}, err
	}
	// The commitment to the seed (the dice, the cards, the deal) is public
	// before any die is rolled; the seed is revealed when the match ends.
	text += "\n" + pub.T("lobby.start.commitment", "Commitment", lang.Text(g.Commitment()))
	msg := chat.Message{Text: text, Image: l.cfg.Look.Image(m), Mentions: mentions}
	if !hosted.IsCapitals(s) {
		msg.Buttons = [][]chat.Button{{{ID: m.ButtonID(button.Autoplace, 0), Label: pub.T("lobby.start.button-autoplace"), Style: chat.Secondary}}}
		if voice.IsMissions(s) {
			msg.Buttons[0] = append(msg.Buttons[0], chat.Button{ID: m.ButtonID(button.Mission), Label: pub.T("lobby.start.button-mission"), Style: chat.Secondary})
		}
	}
	// Only now that the start is saved: the teams are told in their
	// threads.
	l.welcomeTeams(ctx, m)
	// The lobby's message says it is over, so that nobody presses Join
	// on a match that started.
	return hosted.Result{Reply: msg, Posts: news.Batch{Posts: []news.Post{voice.Speaking(public(m).Tag()).Lobby().Started(m.ID, m.Meta)}}, Bots: m.BotsToPlay()}, nil
}
