package lobby

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/tokens"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Join answers /risk join: a seat in the lobby, or (the host, with
// player:) a seat on autopilot given back to its player.
func (l *Lobby) Join(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := l.cfg.Matches.For(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	if p, ok := c.Args.Str["player"]; ok {
		return l.giveBack(ctx, m, c.Req.User, p)
	}
	if team, ok := c.Args.Num["team"]; ok {
		if err := checkTeam(m, c.Req.User, team); err != nil {
			return hosted.Result{}, err
		}
		if m.Meta.Index(c.Req.User.ID) >= 0 {
			return l.moveTeam(ctx, m, c.Req.User, team)
		}
		return l.join(ctx, m, c.Req.User, team)
	}
	return l.join(ctx, m, c.Req.User, 0)
}

// join seats u in the lobby of m, in team (0: none yet).
func (l *Lobby) join(ctx context.Context, m *hosted.Match, u chat.User, team int) (hosted.Result, error) {
	if m.Status != storage.Lobby {
		if i := m.Meta.Index(u.ID); i >= 0 && m.Meta.Seats[i].Autopilot {
			return hosted.Result{}, chat.RefuseMsg("lobby.join.autopilot", "Count", hosted.MaxMissed, "Name", lang.Text(m.Meta.Seats[i].Name))
		}
		if m.Meta.Index(u.ID) >= 0 {
			return hosted.Result{}, chat.RefuseMsg("lobby.join.playing")
		}
		return hosted.Result{}, chat.RefuseMsg("lobby.started-watch")
	}
	if m.Meta.Index(u.ID) >= 0 {
		return hosted.Result{}, chat.RefuseMsg("lobby.join.seated", "Seated", len(m.Meta.Seats), "Max", state.MaxSeats)
	}
	m.Meta.DropExpired(l.cfg.Now())
	if m.Meta.Invited(u.ID) >= 0 {
		// Joining is accepting: the seat held for them is theirs.
		m.Meta.Uninvite(u.ID)
	} else if err := full(m.Meta); err != nil {
		return hosted.Result{}, err
	}
	name := uniqueName(m.Meta, u.Name)
	m.Meta.Seats = append(m.Meta.Seats, hosted.Seat{ID: u.ID, Name: name, Team: team})
	seats := lang.M("lobby.join.seats", "Seated", len(m.Meta.Seats), "Max", state.MaxSeats)
	if team != 0 {
		seats = lang.M("lobby.join.team-seats", "Team", team, "Seats", seats)
	}
	text := m.Says(to(m).T("lobby.join.joined-you", "Seats", seats))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, lang.M("lobby.join.joined", "Name", lang.Text(name), "Seats", seats))}, nil
}

// uniqueName keeps seat names distinct, since people type them.
func uniqueName(meta hosted.Meta, name string) string {
	// Names appear in every message: they must never become markup.
	name = command.CleanName(name)
	taken := func(n string) bool {
		for _, s := range meta.Seats {
			if strings.EqualFold(s.Name, n) {
				return true
			}
		}
		return false
	}
	if !taken(name) {
		return name
	}
	for i := 2; ; i++ {
		if n := fmt.Sprintf("%s %d", name, i); !taken(n) {
			return n
		}
	}
}

// giveBack hands a seat on autopilot back to its player.
func (l *Lobby) giveBack(ctx context.Context, m *hosted.Match, u chat.User, who string) (hosted.Result, error) {
	if err := hostOnly(m, u, lang.M("lobby.what.give-back")); err != nil {
		return hosted.Result{}, err
	}
	if err := command.CheckPlayer("player", who); err != nil {
		return hosted.Result{}, err
	}
	i, err := m.Meta.FindSeat(who)
	if err != nil {
		return hosted.Result{}, chat.RefuseMsg("hosted.sentence", "Reason", err)
	}
	sm := &m.Meta.Seats[i]
	if !sm.Autopilot {
		return hosted.Result{}, chat.RefuseMsg("lobby.give-back.not-autopilot", "Name", lang.Text(sm.Name))
	}
	sm.Autopilot, sm.Missed = false, 0
	back := lang.M("lobby.give-back.back", "Player", lang.Text(chat.MentionOf(sm.ID, sm.Name)))
	text := m.Says(public(m).Msg(back))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	// /risk join answers its author alone: the player hears of it in the
	// channel.
	return hosted.Result{Reply: chat.Private("%s", to(m).T("lobby.done", "Text", back)),
		Posts: news.Batch{Posts: []news.Post{{Message: chat.Message{Text: text, Mentions: []string{sm.ID}}}}}}, nil
}

// Leave takes the caller's seat out of the lobby.
func (l *Lobby) Leave(ctx context.Context, c *hosted.Call, m *hosted.Match) (hosted.Result, error) {
	i := m.Meta.Index(c.Req.User.ID)
	if i < 0 {
		return hosted.Result{}, chat.RefuseMsg("lobby.leave.not-in")
	}
	name := m.Meta.Seats[i].Name
	m.Meta.Seats = append(m.Meta.Seats[:i], m.Meta.Seats[i+1:]...)
	change := storage.Change{}
	// What became of the host, told to the leaver and to the lobby.
	var toYou, toAll lang.Msg
	if m.Meta.Host == c.Req.User.ID {
		// Another person takes over; with only bots left the host stays on
		// to start a match of bots to watch; with nobody left it closes.
		next := -1
		for j, s := range m.Meta.Seats {
			if !s.IsBot() {
				next = j
				break
			}
		}
		switch {
		case next >= 0:
			m.Meta.Host = m.Meta.Seats[next].ID
			toYou = lang.M("hosted.host-now", "Name", lang.Text(m.Meta.Seats[next].Name))
			toAll = toYou
		case len(m.Meta.Seats) > 0:
			toYou = lang.M("lobby.leave.you-host")
			toAll = lang.M("lobby.leave.they-host")
		default:
			change.Status = storage.Abandoned
			toYou = lang.M("lobby.leave.closed")
		}
	}
	text := m.Says(to(m).T("lobby.leave.you-left", "Then", toYou))
	if err := l.cfg.Matches.Save(ctx, m, change); err != nil {
		return hosted.Result{}, err
	}
	if change.Status == storage.Abandoned {
		// A lobby closed in its own thread: archive it.
		closed := voice.Speaking(public(m).Tag()).Lobby().Closed(m.ID, m.Meta, public(m).T("lobby.leave.lobby-closed", "Name", lang.Text(name)))
		return hosted.Result{Reply: chat.Private("%s", text), Posts: news.Batch{Posts: []news.Post{closed}, Archive: m.Meta.Thread}}, nil
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, lang.M("lobby.leave.left", "Name", lang.Text(name), "Then", toAll))}, nil
}

// AddBot answers /risk host addbot: the host seats a computer player.
func (l *Lobby) AddBot(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := l.lobby(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	v, chosen := c.Args.Str["level"]
	return l.addBot(ctx, m, c.Req.User, v, chosen, c.Args.Str["name"])
}

// addBot seats a computer player in the lobby of m for its host u: of the
// level chosen (else the default), named name (else one of botNames).
func (l *Lobby) addBot(ctx context.Context, m *hosted.Match, u chat.User, level string, chosen bool, name string) (hosted.Result, error) {
	if err := hostOnly(m, u, lang.M("lobby.what.add-bots")); err != nil {
		return hosted.Result{}, err
	}
	m.Meta.DropExpired(l.cfg.Now())
	if err := full(m.Meta); err != nil {
		return hosted.Result{}, err
	}
	if !chosen {
		level = l.cfg.DefaultLevel
	}
	rules, err := l.cfg.Servers.Rules(ctx, m.Meta.Server)
	if err != nil {
		return hosted.Result{}, err
	}
	if level, err = l.cfg.Servers.LevelAllowed(rules, level, chosen); err != nil {
		return hosted.Result{}, err
	}
	if err := l.cfg.NewPlayer(level, 1); err != nil {
		return hosted.Result{}, chat.RefuseMsg("lobby.addbot.no-level", "Level", lang.Text(strconv.Quote(level)), "Levels", lang.Text(strings.Join(l.cfg.Levels, ", ")))
	}
	m.Meta.Bots++
	if name == "" {
		name = botNames[(m.Meta.Bots-1)%len(botNames)]
	}
	m.Meta.Seats = append(m.Meta.Seats, hosted.Seat{ID: fmt.Sprintf("bot:%d", m.Meta.Bots), Name: uniqueName(m.Meta, name), Level: level})
	added := m.Meta.Seats[len(m.Meta.Seats)-1]
	seated := lang.M("lobby.addbot.seated", "Name", lang.Text(added.Name), "Level", voice.Level(level), "Seated", len(m.Meta.Seats), "Max", state.MaxSeats)
	text := m.Says(to(m).Msg(seated))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, seated)}, nil
}

// Kick answers /risk host kick: a seat taken out of the lobby, or, in a match
// under way, the question whether a bot is to play it from now on.
func (l *Lobby) Kick(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := l.cfg.Matches.For(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	if !c.Req.Admin {
		if err := hostOnly(m, c.Req.User, lang.M("lobby.what.remove")); err != nil {
			return hosted.Result{}, chat.RefuseMsg("lobby.kick.or-admin", "Refusal", err)
		}
	}
	if err := command.CheckPlayer("player", c.Args.Str["player"]); err != nil {
		return hosted.Result{}, err
	}
	i, err := m.Meta.FindSeat(c.Args.Str["player"])
	if err != nil {
		return hosted.Result{}, chat.RefuseMsg("hosted.sentence", "Reason", err)
	}
	sm := m.Meta.Seats[i]
	if sm.ID == c.Req.User.ID {
		return hosted.Result{}, chat.RefuseMsg("lobby.kick.yourself")
	}
	if m.Status == storage.Lobby {
		m.Meta.Seats = append(m.Meta.Seats[:i], m.Meta.Seats[i+1:]...)
		var then lang.Msg
		if sm.ID == m.Meta.Host {
			then = m.Meta.PassHost()
		}
		removed := lang.M("lobby.kick.removed", "Name", lang.Text(sm.Name), "Then", then)
		text := m.Says(to(m).Msg(removed))
		if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
			return hosted.Result{}, err
		}
		return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, removed)}, nil
	}
	if sm.IsBot() {
		return hosted.Result{}, chat.RefuseMsg("lobby.kick.bot", "Name", lang.Text(sm.Name))
	}
	// Removing a person from a match under way cannot be undone: ask.
	expires := l.cfg.Now().Add(kickConfirm)
	p := to(m)
	return hosted.Result{Reply: chat.Message{Private: true,
		Text: p.T("lobby.kick.confirm", "Name", lang.Text(sm.Name), "Level", voice.Level(l.cfg.DefaultLevel), "Expires", lang.Text(chat.Timestamp(expires))),
		Buttons: [][]chat.Button{{
			{ID: m.ButtonID(button.Kick, i, int(expires.Unix())), Label: p.T("lobby.kick.button-remove", "Name", lang.Text(chat.Trunc(sm.Name, 40))), Style: chat.Danger},
			{ID: m.ButtonID(button.KeepSeat), Label: p.T("lobby.kick.button-keep"), Style: chat.Secondary},
		}}}}, nil
}

// kickConfirm is how long the question of /risk host kick stands.
const kickConfirm = 5 * time.Minute

// KickSeat gives seat i (in join order) of a match under way to a bot.
func (l *Lobby) KickSeat(ctx context.Context, m *hosted.Match, i int) (hosted.Result, error) {
	sm := m.Meta.Seats[i]
	if sm.IsBot() {
		return hosted.Result{}, chat.RefuseMsg("lobby.kick.bot", "Name", lang.Text(sm.Name))
	}
	// In a started match the seat stays (removing it would unbalance the
	// board): a bot plays it from now on.
	m.Meta.Seats[i].Level = l.cfg.DefaultLevel
	m.Meta.Seats[i].Autopilot = false
	var hostNote lang.Msg
	if sm.ID == m.Meta.Host {
		hostNote = m.Meta.PassHost()
	}
	change := storage.Change{}
	s := m.Game.State
	seat := s.SeatByID(sm.ID)
	playsNow := s.Phase != state.PhaseOver && (s.Current == seat || (s.Phase == state.PhaseSetup && s.Seats[seat].Reserve > 0))
	if playsNow && (s.Phase != state.PhaseSetup || hosted.IsCapitals(s)) {
		t := l.cfg.Matches.TurnTimers(ctx, m)
		change.Timers = &t
	}
	// The answer to the confirmation is posted in the channel.
	text := m.Says(public(m).T("lobby.kick.bot-plays", "Name", lang.Text(sm.Name), "Level", voice.Level(l.cfg.DefaultLevel), "Then", hostNote))
	// Their API tokens end with the seat, first: a kick that fails to save
	// leaves them without tokens, never a removed player with some.
	if err := tokens.Revoke(ctx, l.cfg.Tokens, m.ID, sm.ID, l.cfg.Now()); err != nil {
		return hosted.Result{}, err
	}
	if err := l.cfg.Matches.Save(ctx, m, change); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Message{Text: text}, Bots: m.BotsToPlay()}, nil
}

// full refuses one more seat in a lobby with none free, saying whether
// invitations hold some of them.
func full(meta hosted.Meta) error {
	if meta.Free() > 0 {
		return nil
	}
	if len(meta.Invites) > 0 {
		return chat.RefuseMsg("lobby.full.invites", "Seated", len(meta.Seats), "Held", lang.M("lobby.n.seats-held", "Count", len(meta.Invites)))
	}
	return chat.RefuseMsg("lobby.full", "Max", state.MaxSeats)
}
