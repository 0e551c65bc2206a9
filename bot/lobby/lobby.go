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
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/server"
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
	channel := c.Req.Channel
	if thread {
		t, err := l.cfg.Poster.(chat.Threader).OpenThread(ctx, c.Req.Channel, "Risk: match of "+meta.Seats[0].Name)
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
		return hosted.Result{}, chat.Refuse("This channel already has a match: join it with /risk join.")
	}
	if err != nil {
		return hosted.Result{}, err
	}
	// The lobby is one message, posted now and edited by every change
	// until the match starts; its host is told how it goes privately.
	opened := fmt.Sprintf("**%s opened a Risk match!**", meta.Seats[0].Name)
	howTo := "Start it with its Start button (or /risk start) once 2 or more are seated."
	if !thread {
		return hosted.Result{
			Reply: chat.Private("Your match is open: its lobby, below, is kept up to date as players join. %s", howTo),
			Posts: news.Batch{Posts: []news.Post{voice.LobbyPost(m.ID, meta, opened)}},
		}, nil
	}
	// The match lives in its thread: the lobby is posted there, and the
	// channel keeps one line of it.
	if err := l.cfg.Outbox.Post(ctx, channel, voice.LobbyPost(m.ID, meta, opened+" Everything of this match happens in this thread.")); err != nil {
		l.cfg.Log.Warn("post the lobby in its thread", "thread", channel, "err", err)
	}
	return hosted.Result{
		Reply: chat.Private("Your match is open in its own thread, %s: its lobby there is kept up to date as players join. %s", chat.ChannelLink(channel), howTo),
		Posts: news.Batch{Posts: []news.Post{{Message: chat.Message{Text: fmt.Sprintf("%s %s. It is played in its own thread, %s: join there.", opened, chat.Capitalize(voice.SettingsText(set)), chat.ChannelLink(channel))}}}},
	}, nil
}

// lobbyEdit is the batch that edits a lobby's message after a change,
// latest saying what changed.
func lobbyEdit(m *hosted.Match, latest string) news.Batch {
	return news.Batch{Posts: []news.Post{voice.LobbyPost(m.ID, m.Meta, latest)}}
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
		return false, chat.Refuse("I cannot open threads here: play in the channel (/risk new thread:off).")
	case asked && len(lacks) > 0:
		return false, chat.Refuse("I cannot open a thread for the match here: I lack %s in this channel. An admin can give them to me, or play in the channel (/risk new thread:off).", chat.AndList(lacks))
	}
	return can && lacks != nil && len(lacks) == 0, nil
}

// channelFree refuses a new match in a channel that has an open one.
func (l *Lobby) channelFree(ctx context.Context, channel string) error {
	m, err := l.cfg.Store.Active(ctx, channel)
	if ce, ok := errors.AsType[*storage.CorruptError](err); ok {
		return chat.Refuse("This channel's match is damaged (match %d): an admin can end it with /risk host abandon, then /risk new starts another.", ce.Match)
	}
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	meta, err := hosted.DecodeMeta(m.Meta)
	if err != nil {
		return chat.Refuse("This channel's match is damaged (match %d): an admin can end it with /risk host abandon, then /risk new starts another.", m.ID)
	}
	host := "its host"
	if i := meta.Index(meta.Host); i >= 0 {
		host = meta.Seats[i].Name
	}
	return chat.Refuse("This channel already has a match (%s, hosted by %s). Join it with /risk join, or play in another channel.", m.Status, host)
}

// lobby loads the channel's match and checks it is still in its lobby.
func (l *Lobby) lobby(ctx context.Context, c *hosted.Call) (*hosted.Match, error) {
	m, err := l.cfg.Matches.For(ctx, c)
	if err != nil {
		return nil, err
	}
	if m.Status != storage.Lobby {
		return nil, chat.Refuse("The match has already started.")
	}
	return m, nil
}

// hostName is the name of the match's host, for a sentence's start: the
// host may have no seat (a match of bots, to watch).
func hostName(meta hosted.Meta) string {
	if i := meta.Index(meta.Host); i >= 0 {
		return meta.Seats[i].Name
	}
	return "The host"
}

// hostOnly refuses a user who is not the match's host.
func hostOnly(m *hosted.Match, u chat.User, what string) error {
	if m.Meta.Host != u.ID {
		host := "the host"
		if i := m.Meta.Index(m.Meta.Host); i >= 0 {
			host = m.Meta.Seats[i].Name + " (the host)"
		}
		return chat.Refuse("Only %s can %s.", host, what)
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
			return hosted.Result{}, chat.Refuse("A bot is playing your seat after %d missed turns; ask the host to give it back with /risk join player:%s.", hosted.MaxMissed, m.Meta.Seats[i].Name)
		}
		if m.Meta.Index(u.ID) >= 0 {
			return hosted.Result{}, chat.Refuse("You are already playing in this match.")
		}
		return hosted.Result{}, chat.Refuse("The match has already started; you can watch with /risk show status.")
	}
	if m.Meta.Index(u.ID) >= 0 {
		return hosted.Result{}, chat.Refuse("You are already in this match (%d/%d seats). The host starts it with /risk start.", len(m.Meta.Seats), state.MaxSeats)
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
	seats := fmt.Sprintf("(%d/%d seats)", len(m.Meta.Seats), state.MaxSeats)
	if team != 0 {
		seats = fmt.Sprintf("team %d %s", team, seats)
	}
	text := m.Says(fmt.Sprintf("You joined %s. The host starts the match.", seats))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, fmt.Sprintf("%s joined %s.", name, seats))}, nil
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
	if err := hostOnly(m, u, "give a seat back"); err != nil {
		return hosted.Result{}, err
	}
	if err := command.CheckPlayer("player", who); err != nil {
		return hosted.Result{}, err
	}
	i, err := m.Meta.FindSeat(who)
	if err != nil {
		return hosted.Result{}, chat.Refuse("%s.", chat.Capitalize(err.Error()))
	}
	sm := &m.Meta.Seats[i]
	if !sm.Autopilot {
		return hosted.Result{}, chat.Refuse("%s is not on autopilot.", sm.Name)
	}
	sm.Autopilot, sm.Missed = false, 0
	text := m.Says(fmt.Sprintf("%s plays their own seat again.", chat.MentionOf(sm.ID, sm.Name)))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	// /risk join answers its author alone: the player hears of it in the
	// channel.
	return hosted.Result{Reply: chat.Private("Done: %s", text),
		Posts: news.Batch{Posts: []news.Post{{Message: chat.Message{Text: text, Mentions: []string{sm.ID}}}}}}, nil
}

// Leave takes the caller's seat out of the lobby.
func (l *Lobby) Leave(ctx context.Context, c *hosted.Call, m *hosted.Match) (hosted.Result, error) {
	i := m.Meta.Index(c.Req.User.ID)
	if i < 0 {
		return hosted.Result{}, chat.Refuse("You are not in this match.")
	}
	name := m.Meta.Seats[i].Name
	m.Meta.Seats = append(m.Meta.Seats[:i], m.Meta.Seats[i+1:]...)
	change := storage.Change{}
	// What became of the host, told to the leaver and to the lobby.
	var toYou, toAll string
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
			toYou = fmt.Sprintf(" %s is the host now.", m.Meta.Seats[next].Name)
			toAll = toYou
		case len(m.Meta.Seats) > 0:
			toYou = " You still host: /risk start lets the bots play it out while everyone watches."
			toAll = " They still host: the bots can play it out while everyone watches."
		default:
			change.Status = storage.Abandoned
			toYou = " Nobody is left, so the match is closed; start a new one with /risk new."
		}
	}
	text := m.Says("You left the match." + toYou)
	if err := l.cfg.Matches.Save(ctx, m, change); err != nil {
		return hosted.Result{}, err
	}
	if change.Status == storage.Abandoned {
		// A lobby closed in its own thread: archive it.
		closed := voice.LobbyClosed(m.ID, m.Meta, fmt.Sprintf("**This lobby is closed**: %s left, and nobody is left. Start a new match with /risk new.", name))
		return hosted.Result{Reply: chat.Private("%s", text), Posts: news.Batch{Posts: []news.Post{closed}, Archive: m.Meta.Thread}}, nil
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, name+" left the match."+toAll)}, nil
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
	if err := hostOnly(m, u, "add bots"); err != nil {
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
		return hosted.Result{}, chat.Refuse("There is no bot level %q (levels: %s).", level, strings.Join(l.cfg.Levels, ", "))
	}
	m.Meta.Bots++
	if name == "" {
		name = botNames[(m.Meta.Bots-1)%len(botNames)]
	}
	m.Meta.Seats = append(m.Meta.Seats, hosted.Seat{ID: fmt.Sprintf("bot:%d", m.Meta.Bots), Name: uniqueName(m.Meta, name), Level: level})
	added := m.Meta.Seats[len(m.Meta.Seats)-1]
	text := m.Says(fmt.Sprintf("🤖 %s (%s bot) takes a seat (%d/%d).", added.Name, level, len(m.Meta.Seats), state.MaxSeats))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, text)}, nil
}

// Kick answers /risk host kick: a seat taken out of the lobby, or, in a match
// under way, the question whether a bot is to play it from now on.
func (l *Lobby) Kick(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	m, err := l.cfg.Matches.For(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	if !c.Req.Admin {
		if err := hostOnly(m, c.Req.User, "remove players"); err != nil {
			return hosted.Result{}, chat.Refuse("%s An admin (Manage Server, or Manage Channels here) can too.", err.Error())
		}
	}
	if err := command.CheckPlayer("player", c.Args.Str["player"]); err != nil {
		return hosted.Result{}, err
	}
	i, err := m.Meta.FindSeat(c.Args.Str["player"])
	if err != nil {
		return hosted.Result{}, chat.Refuse("%s.", chat.Capitalize(err.Error()))
	}
	sm := m.Meta.Seats[i]
	if sm.ID == c.Req.User.ID {
		return hosted.Result{}, chat.Refuse("You cannot remove yourself; /risk surrender leaves.")
	}
	if m.Status == storage.Lobby {
		m.Meta.Seats = append(m.Meta.Seats[:i], m.Meta.Seats[i+1:]...)
		text := fmt.Sprintf("%s was removed from the match.", sm.Name)
		if sm.ID == m.Meta.Host {
			text += m.Meta.PassHost()
		}
		text = m.Says(text)
		if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
			return hosted.Result{}, err
		}
		return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, text)}, nil
	}
	if sm.IsBot() {
		return hosted.Result{}, chat.Refuse("%s is already a bot.", sm.Name)
	}
	// Removing a person from a match under way cannot be undone: ask.
	expires := l.cfg.Now().Add(kickConfirm)
	return hosted.Result{Reply: chat.Message{Private: true,
		Text: fmt.Sprintf("Remove %s from the match? A %s bot plays their seat from now on, and they cannot take it back. This question expires %s.", sm.Name, l.cfg.DefaultLevel, chat.Timestamp(expires)),
		Buttons: [][]chat.Button{{
			{ID: m.ButtonID("kick", i, int(expires.Unix())), Label: "Remove " + chat.Trunc(sm.Name, 40), Style: chat.Danger},
			{ID: m.ButtonID("keepseat"), Label: "Keep them", Style: chat.Secondary},
		}}}}, nil
}

// kickConfirm is how long the question of /risk host kick stands.
const kickConfirm = 5 * time.Minute

// KickSeat gives seat i (in join order) of a match under way to a bot.
func (l *Lobby) KickSeat(ctx context.Context, m *hosted.Match, i int) (hosted.Result, error) {
	sm := m.Meta.Seats[i]
	if sm.IsBot() {
		return hosted.Result{}, chat.Refuse("%s is already a bot.", sm.Name)
	}
	// In a started match the seat stays (removing it would unbalance the
	// board): a bot plays it from now on.
	m.Meta.Seats[i].Level = l.cfg.DefaultLevel
	m.Meta.Seats[i].Autopilot = false
	hostNote := ""
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
	text := m.Says(fmt.Sprintf("%s was removed; a %s bot plays their seat from now on.%s", sm.Name, l.cfg.DefaultLevel, hostNote))
	// Their API tokens end with the seat, first: a kick that fails to save
	// leaves them without tokens, never a removed player with some.
	if err := hosted.RevokeTokens(ctx, l.cfg.Tokens, m.ID, sm.ID, l.cfg.Now()); err != nil {
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
	if err := hostOnly(m, c.Req.User, "change the settings"); err != nil {
		return hosted.Result{}, err
	}
	if len(c.Req.Options) == 0 {
		return hosted.Result{Reply: chat.Private("Settings: %s.", voice.SettingsText(m.Meta.Settings))}, nil
	}
	if m.Status != storage.Lobby {
		// The colours only change what is drawn: they may change any time.
		for name := range c.Req.Options {
			if name != "palette" {
				return hosted.Result{}, chat.Refuse("The match has already started: only the palette can change now.")
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
	reset := ""
	if set.Options.Teams != m.Meta.Settings.Options.Teams {
		// Picks made for another team size mean nothing now.
		for i := range m.Meta.Seats {
			if m.Meta.Seats[i].Team != 0 {
				m.Meta.Seats[i].Team = 0
				reset = " Everyone's team was cleared: pick again with /risk join team:N."
			}
		}
	}
	m.Meta.Settings = set
	text := m.Says(fmt.Sprintf("Settings: %s.%s", voice.SettingsText(set), reset))
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	if m.Status != storage.Lobby {
		// The colours of a match under way: everyone sees them change.
		return hosted.Result{Reply: chat.Private("Done. %s", text), Posts: news.Batch{Posts: []news.Post{{Message: chat.Message{Text: text}}}}}, nil
	}
	return hosted.Result{Reply: chat.Private("%s", text), Posts: lobbyEdit(m, hostName(m.Meta)+" changed the settings.")}, nil
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
	if err := hostOnly(m, u, "start the match"); err != nil {
		return hosted.Result{}, err
	}
	if len(m.Meta.Seats) < 2 {
		return hosted.Result{}, chat.Refuse("A match needs at least 2 players: invite someone to join, or add a bot (Add a bot, or /risk host addbot).")
	}
	if o := m.Meta.Settings.Options; o.Victory == state.Missions && len(m.Meta.Seats) < engine.MinMissionSeats {
		return hosted.Result{}, chat.Refuse("Secret missions need at least %d players (with two, a mission is done before the first attack): invite someone, add a bot, or /risk host settings victory:two-thirds.", engine.MinMissionSeats)
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
		return hosted.Result{}, chat.Refuse("%s has %s: too few for %d players.", bm.Title, chat.Plural(bm.Len(), "territory", "territories"), len(setup.Seats))
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
			order = append(order, fmt.Sprintf("%d. %s — %s", i+1, who, l.cfg.Look.Voice(m).ColorName(i)))
			continue
		}
		order = append(order, fmt.Sprintf("%d. %s — %s, %d territories, %d armies to place", i+1, who, l.cfg.Look.Voice(m).ColorName(i), s.Owned(i), s.Seats[i].Reserve))
	}
	var text string
	if hosted.IsCapitals(s) {
		deadline := ""
		if !m.IsBotSeat(s.Current) {
			deadline = " Deadline " + chat.Timestamp(t.Deadline) + "."
		}
		text = m.Says(fmt.Sprintf("**The match has started** on %s (%d territories, all neutral)! Turn order and colours:\n%s\nCapitals are chosen in this order, each a neutral territory that borders no other capital; %s chooses first: /risk place territory:NAME (a capital starts with %s).%s",
			s.Map.Title, s.Map.Len(), strings.Join(order, "\n"), l.cfg.Look.Voice(m).Who(s, s.Current), chat.Plural(s.Options.CapitalTroops, "troop", "troops"), deadline))
	} else {
		text = m.Says(fmt.Sprintf("**The match has started!** Turn order and colours:\n%s\nEveryone places their armies now, all at once: /risk place territory:… armies:…, or /risk place alone to place them all automatically. Deadline %s.",
			strings.Join(order, "\n"), chat.Timestamp(t.Deadline)))
		if voice.IsMissions(s) {
			text += "\n🎯 Each player was dealt a secret mission: press **My secret mission**, or /risk show status, to read yours (only you see it). The first to fulfil theirs wins at once."
		}
	}
	if s.NumTeams() > 0 {
		text += "\n🤝 " + l.cfg.Look.Voice(m).TeamsLine(s) + " Teammates never attack each other, may move armies into each other's territories, and win together."
		if m.Meta.TeamThreads = l.openTeamThreads(ctx, m); m.Meta.TeamThreads != nil {
			text += " Each team has a private thread to plan in, which only its players see."
		}
	}
	if err := l.cfg.Matches.Save(ctx, m, storage.Change{Start: &g.Setup, Timers: &t}); err != nil {
		return hosted.Result{}, err
	}
	// The commitment to the seed (the dice, the cards, the deal) is public
	// before any die is rolled; the seed is revealed when the match ends.
	text += "\n🔒 Dice commitment: `" + g.Commitment() + "` (the SHA-256 of this match's secret seed, revealed at the end: every roll can then be checked)."
	msg := chat.Message{Text: text, Image: l.cfg.Look.Image(m), Mentions: mentions}
	if !hosted.IsCapitals(s) {
		msg.Buttons = [][]chat.Button{{{ID: m.ButtonID("autoplace", 0), Label: "Place automatically", Style: chat.Secondary}}}
		if voice.IsMissions(s) {
			msg.Buttons[0] = append(msg.Buttons[0], chat.Button{ID: m.ButtonID("mission"), Label: "My secret mission", Style: chat.Secondary})
		}
	}
	// Only now that the start is saved: the teams are told in their
	// threads.
	l.welcomeTeams(ctx, m)
	// The lobby's message says it is over, so that nobody presses Join
	// on a match that started.
	return hosted.Result{Reply: msg, Posts: news.Batch{Posts: []news.Post{voice.LobbyStarted(m.ID, m.Meta)}}, Bots: m.BotsToPlay()}, nil
}

// canHost refuses to open or start a match in a channel where the bot may
// not post: its turns would go unseen.
func canHost(lacks []string) error {
	if len(lacks) == 0 {
		return nil
	}
	return chat.Refuse("I cannot host a match in this channel: I lack %s here, and every turn is posted to the channel. An admin can give them to me in the channel's settings (Edit Channel → Permissions), or play in another channel.", chat.AndList(lacks))
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
	Tokens hosted.TokenStore
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
			return c.Args, chat.Refuse("There is no map %s here: /risk-admin map list lists this server's maps.", chat.Quote(v))
		}
		if near, err := l.cfg.Servers.Library().Nearest(ctx, c.Req.Server, v); err == nil && near != "" {
			return c.Args, chat.Refuse("There is no map %s here. Did you mean map:%s? (/risk-admin map list lists this server's maps.)", chat.Quote(v), near)
		}
		return c.Args, nil
	}
	a := command.Args{Str: maps.Clone(c.Args.Str), Num: c.Args.Num}
	a.Str["map"] = name
	return a, nil
}
