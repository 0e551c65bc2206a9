// Package lobby is a match before and beside its play: opening it (/risk
// new, in the channel or a thread of its own), its settings, its seats
// (join, computer players, kick, leave, a seat given back after its
// autopilot), starting it, and ending it without a winner (abandon), by
// its host, an admin, or the lobby's expiry.
package lobby

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/bot/tokens"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// botNames are given to computer players in turn.
var botNames = []string{"Napoleon", "Catherine", "Hannibal", "Boudica", "Saladin", "Joan", "Genghis", "Cleopatra"}

// New answers /risk new: it opens a match in the channel, or in a thread
// of its own, hosted by its author.
func (l *Lobby) New(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	thread, err := l.wantThread(c)
	if err != nil {
		return hosted.Result{}, err
	}
	if !thread {
		if err := l.channelFree(ctx, c.Req.Channel); err != nil {
			return hosted.Result{}, err
		}
	}
	if err := canHost(c.Req.BotLacks); err != nil {
		return hosted.Result{}, err
	}
	rules, err := l.cfg.Servers.Rules(ctx, c.Req.Server)
	if err != nil {
		return hosted.Result{}, err
	}
	if err := l.cfg.Servers.MayOpen(ctx, c.Req, rules); err != nil {
		return hosted.Result{}, err
	}
	set, err := l.cfg.Servers.Defaults(rules)
	if err != nil {
		// A default the bot no longer offers: the bot's own then.
		l.cfg.Log.Warn("a server default no longer applies", "server", c.Req.Server, "err", err)
		set = hosted.DefaultSettings()
	}
	if set.Lang == "" {
		// No server default: the server's own language, as Discord has it.
		set.Lang = string(lang.FromLocale(c.Req.GuildLocale))
	}
	args, err := l.resolveMap(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	set, err = set.Apply(args, l.cfg.Look.Has)
	if err != nil {
		return hosted.Result{}, err
	}
	meta := hosted.Meta{Host: c.Req.User.ID, Settings: set, Server: c.Req.Server}
	meta.Seats = []hosted.Seat{{ID: c.Req.User.ID, Name: uniqueName(meta, c.Req.User.Name)}}
	// The answer speaks its author's language, the lobby the match's.
	p, pub := reader(c, set), lang.For(set.Language())
	host := lang.Text(meta.Seats[0].Name)
	channel := c.Req.Channel
	if thread {
		t, err := l.cfg.Poster.(chat.Threader).OpenThread(ctx, c.Req.Channel, pub.T("lobby.new.thread-name", "Name", host))
		if err != nil {
			if _, asked := c.Args.Str["thread"]; asked {
				return hosted.Result{}, fmt.Errorf("bot: open a thread for a match in %s: %w", c.Req.Channel, err)
			}
			// Threads were only the default: play in the channel.
			l.cfg.Log.Warn("open a thread for a match: playing in the channel", "channel", c.Req.Channel, "err", err)
			if err := l.channelFree(ctx, c.Req.Channel); err != nil {
				return hosted.Result{}, err
			}
			thread = false
		} else {
			channel, meta.Thread, meta.Parent = t, true, c.Req.Channel
		}
	}
	m, err := l.cfg.Store.Create(ctx, channel, meta.Encode(), l.cfg.Now())
	if errors.Is(err, storage.ErrChannelBusy) {
		return hosted.Result{}, chat.RefuseMsg("lobby.new.busy")
	}
	if err != nil {
		return hosted.Result{}, err
	}
	// The lobby is one message, posted now and edited by every change
	// until the match starts; its host is told how it goes privately.
	opened := lang.M("lobby.new.opened", "Name", host)
	howTo := lang.M("lobby.new.how-to")
	if !thread {
		return hosted.Result{
			Reply: chat.Private("%s", p.T("lobby.new.open", "HowTo", howTo)),
			Posts: news.Batch{Posts: []news.Post{voice.Speaking(pub.Tag()).Lobby().Post(m.ID, meta, pub.Msg(opened))}},
		}, nil
	}
	// The match lives in its thread: the lobby is posted there, and the
	// channel keeps one line of it.
	if err := l.cfg.Outbox.Post(ctx, channel, voice.Speaking(pub.Tag()).Lobby().Post(m.ID, meta, pub.T("lobby.new.opened-here", "Opened", opened))); err != nil {
		l.cfg.Log.Warn("post the lobby in its thread", "thread", channel, "err", err)
	}
	return hosted.Result{
		Reply: chat.Private("%s", p.T("lobby.new.open-thread", "Thread", lang.Text(chat.ChannelLink(channel)), "HowTo", howTo)),
		Posts: news.Batch{Posts: []news.Post{{Message: chat.Message{Text: pub.T("lobby.new.opened-there", "Opened", opened,
			"Settings", lang.Text(chat.Capitalize(voice.Speaking(pub.Tag()).Status().Settings(set))), "Thread", lang.Text(chat.ChannelLink(channel)))}}}},
	}, nil
}

// lobbyEdit is the batch that edits a lobby's message after a change,
// latest saying what changed.
func lobbyEdit(m *hosted.Match, latest lang.Msg) news.Batch {
	return news.Batch{Posts: []news.Post{voice.Speaking(public(m).Tag()).Lobby().Post(m.ID, m.Meta, public(m).Msg(latest))}}
}

// reader is the printer of the answer to c, opening a match of settings
// set: its author's language, or the match's where the request does not
// say.
func reader(c *hosted.Call, set hosted.Settings) lang.Printer {
	if t := hosted.ReaderOf(c.Req.Locale); t != "" {
		return lang.For(t)
	}
	return lang.For(set.Language())
}

// to is the printer of the answer to the command or click at hand on m.
func to(m *hosted.Match) lang.Printer { return lang.For(m.ReaderLang()) }

// public is the printer of m's posts in its channel.
func public(m *hosted.Match) lang.Printer { return lang.For(m.Meta.Settings.Language()) }

// and joins words as the reader's language lists them.
func and(words []string) lang.List {
	l := make(lang.List, len(words))
	for i, w := range words {
		l[i] = lang.Text(w)
	}
	return l
}

// wantThread decides whether a new match gets a thread of its own: if the
// host asked for one (refused where the bot cannot open it), or by
// default where the bot can.
func (l *Lobby) wantThread(c *hosted.Call) (bool, error) {
	_, can := l.cfg.Poster.(chat.Threader)
	lacks := c.Req.ThreadLacks
	switch v, asked := c.Args.Str["thread"]; {
	case asked && v == "off":
		return false, nil
	case asked && (!can || lacks == nil):
		return false, chat.RefuseMsg("lobby.thread.cannot")
	case asked && len(lacks) > 0:
		return false, chat.RefuseMsg("lobby.thread.lacks", "Lacks", and(lacks))
	}
	return can && lacks != nil && len(lacks) == 0, nil
}

// channelFree refuses a new match in a channel that has an open one.
func (l *Lobby) channelFree(ctx context.Context, channel string) error {
	m, err := l.cfg.Store.Active(ctx, channel)
	if ce, ok := errors.AsType[*storage.CorruptError](err); ok {
		return chat.RefuseMsg("lobby.damaged", "Match", ce.Match)
	}
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	meta, err := hosted.DecodeMeta(m.Meta)
	if err != nil {
		return chat.RefuseMsg("lobby.damaged", "Match", m.ID)
	}
	host := lang.M("lobby.its-host")
	if i := meta.Index(meta.Host); i >= 0 {
		host = lang.M("chat.as-is", "Text", lang.Text(meta.Seats[i].Name))
	}
	return chat.RefuseMsg("lobby.channel-busy", "Status", hosted.StatusMsg(m.Status), "Host", host)
}

// lobby loads the channel's match and checks it is still in its lobby.
func (l *Lobby) lobby(ctx context.Context, c *hosted.Call) (*hosted.Match, error) {
	m, err := l.cfg.Matches.For(ctx, c)
	if err != nil {
		return nil, err
	}
	if m.Status != storage.Lobby {
		return nil, chat.RefuseMsg("lobby.started")
	}
	return m, nil
}

// hostName is the name of the match's host, for a sentence's start: the
// host may have no seat (a match of bots, to watch).
func hostName(meta hosted.Meta) lang.Msg {
	if i := meta.Index(meta.Host); i >= 0 {
		return lang.M("chat.as-is", "Text", lang.Text(meta.Seats[i].Name))
	}
	return lang.M("lobby.the-host-starts")
}

// theHost names the match's host in a refusal: "Ann (the host)".
func theHost(meta hosted.Meta) lang.Msg {
	if i := meta.Index(meta.Host); i >= 0 {
		return lang.M("lobby.name-the-host", "Name", lang.Text(meta.Seats[i].Name))
	}
	return lang.M("lobby.the-host")
}

// hostOnly refuses a user who is not the match's host; what is what only
// the host may do ("add bots").
func hostOnly(m *hosted.Match, u chat.User, what lang.Msg) error {
	if m.Meta.Host != u.ID {
		return chat.RefuseMsg("lobby.host-only", "Host", theHost(m.Meta), "What", what)
	}
	return nil
}

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

// Settings answers /risk host settings: the host's options, shown or changed
// (only the palette once the match has started).
func (l *Lobby) Settings(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := l.cfg.Matches.For(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	if err := hostOnly(m, c.Req.User, lang.M("lobby.what.settings")); err != nil {
		return hosted.Result{}, err
	}
	if len(c.Req.Options) == 0 {
		return hosted.Result{Reply: chat.Private("%s", to(m).T("lobby.settings", "Settings", lang.Text(voice.Speaking(m.ReaderLang()).Status().Settings(m.Meta.Settings)), "Then", lang.Msg{}))}, nil
	}
	if m.Status != storage.Lobby {
		// The colours and the language only change what is drawn and
		// said: they may change any time.
		for name := range c.Req.Options {
			if name != "palette" && name != "language" {
				return hosted.Result{}, chat.RefuseMsg("lobby.settings.started")
			}
		}
	}
	args, err := l.resolveMap(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	set, err := m.Meta.Settings.Apply(args, l.cfg.Look.Has)
	if err != nil {
		return hosted.Result{}, err
	}
	var reset lang.Msg
	if set.Options.Teams != m.Meta.Settings.Options.Teams {
		// Picks made for another team size mean nothing now.
		for i := range m.Meta.Seats {
			if m.Meta.Seats[i].Team != 0 {
				m.Meta.Seats[i].Team = 0
				reset = lang.M("lobby.settings.teams-cleared")
			}
		}
	}
	m.Meta.Settings = set
	said := lang.M("lobby.settings", "Settings", lang.Text(voice.Speaking(m.ReaderLang()).Status().Settings(set)), "Then", reset)
	text := m.Says(to(m).Msg(said))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	if m.Status != storage.Lobby {
		// The colours or the language of a match under way: everyone
		// sees them change, in the match's (new) language.
		pub := public(m)
		note := pub.T("lobby.settings", "Settings", lang.Text(voice.Speaking(pub.Tag()).Status().Settings(set)), "Then", reset)
		return hosted.Result{Reply: chat.Private("%s", to(m).T("lobby.settings.done", "Text", said)), Posts: news.Batch{Posts: []news.Post{{Message: chat.Message{Text: note}}}}}, nil
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, lang.M("lobby.settings.changed", "Host", hostName(m.Meta)))}, nil
}

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
	if s.NumTeams() > 0 {
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

// canHost refuses to open or start a match in a channel where the bot may
// not post: its turns would go unseen.
func canHost(lacks []string) error {
	if len(lacks) == 0 {
		return nil
	}
	return chat.RefuseMsg("lobby.cannot-host", "Lacks", and(lacks))
}

// Store is what the lobby needs of the database beyond loading and saving
// matches: opening one, seeing whether a channel has one, and ending one
// that may not load.
type Store interface {
	Create(ctx context.Context, channel string, meta json.RawMessage, now time.Time) (*storage.Match, error)
	Active(ctx context.Context, channel string) (*storage.Loaded, error)
	Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error)
}

// Config is what a Lobby is made of.
type Config struct {
	Store   Store
	Matches *hosted.Matches
	Look    *look.Maps
	Servers *server.Servers
	Outbox  *outbox.Outbox
	// Tokens keeps the seats' API tokens, revoked when a seat is kicked.
	Tokens tokens.Store
	// Poster opens a match's thread where it can (chat.Threader).
	Poster chat.Poster
	// NewPlayer makes a computer player of a level: a level it refuses is
	// no level of this bot.
	NewPlayer func(level string, seed uint64) error
	// Levels are the computer levels, DefaultLevel the one /risk host addbot
	// takes, and the one that plays a removed person's seat.
	Levels       []string
	DefaultLevel string
	// Seed draws the seed of a new match.
	Seed func() uint64
	// Claim is this process's claim on work, now.
	Claim func() storage.Claim
	Now   func() time.Time
	Log   *slog.Logger
}

// Lobby opens, fills, starts and ends matches.
type Lobby struct{ cfg Config }

// New returns a Lobby.
func New(c Config) *Lobby {
	return &Lobby{cfg: c}
}

// resolveMap reads map:NAME as a match's options hold it: a built-in
// board by its name, a map of the server's library by its engine name
// (server.Library.Resolve). A name that is neither is left to Apply,
// which refuses it listing the boards.
func (l *Lobby) resolveMap(ctx context.Context, c *hosted.Call) (command.Args, error) {
	v, ok := c.Args.Str["map"]
	if !ok {
		return c.Args, nil
	}
	name, found, err := l.cfg.Servers.Library().Resolve(ctx, c.Req.Server, v)
	if err != nil {
		return c.Args, err
	}
	if !found {
		if engine.IsLibraryName(v) {
			// Engine names are the server's own maps', chosen by name.
			return c.Args, chat.RefuseMsg("lobby.map.none", "Map", lang.Text(chat.Quote(v)))
		}
		if near, err := l.cfg.Servers.Library().Nearest(ctx, c.Req.Server, v); err == nil && near != "" {
			return c.Args, chat.RefuseMsg("lobby.map.near", "Map", lang.Text(chat.Quote(v)), "Near", lang.Text(near))
		}
		return c.Args, nil
	}
	a := command.Args{Str: maps.Clone(c.Args.Str), Num: c.Args.Num}
	a.Str["map"] = name
	return a, nil
}
