package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/voice"

	"github.com/riskbot/riskbot/bot/hosted"

	"github.com/riskbot/riskbot/bot/news"

	"github.com/riskbot/riskbot/bot/command"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// botNames are given to computer players in turn.
var botNames = []string{"Napoleon", "Catherine", "Hannibal", "Boudica", "Saladin", "Joan", "Genghis", "Cleopatra"}

func cmdNew(ctx context.Context, c *call) (hosted.Result, error) {
	b := c.bot
	thread, err := b.wantThread(c)
	if err != nil {
		return hosted.Result{}, err
	}
	if !thread {
		if err := b.channelFree(ctx, c.Req.Channel); err != nil {
			return hosted.Result{}, err
		}
	}
	if err := canHost(c.Req.BotLacks); err != nil {
		return hosted.Result{}, err
	}
	rules, err := b.servers.Rules(ctx, c.Req.Server)
	if err != nil {
		return hosted.Result{}, err
	}
	if err := b.servers.MayOpen(ctx, c.Req, rules); err != nil {
		return hosted.Result{}, err
	}
	set, err := b.servers.Defaults(rules)
	if err != nil {
		// A default the bot no longer offers: the bot's own then.
		b.cfg.Log.Warn("a server default no longer applies", "server", c.Req.Server, "err", err)
		set = hosted.DefaultSettings()
	}
	set, err = set.Apply(c.Args, b.look.Has)
	if err != nil {
		return hosted.Result{}, err
	}
	meta := hosted.Meta{Host: c.Req.User.ID, Settings: set, Server: c.Req.Server}
	meta.Seats = []hosted.Seat{{ID: c.Req.User.ID, Name: uniqueName(meta, c.Req.User.Name)}}
	channel := c.Req.Channel
	if thread {
		t, err := b.cfg.Poster.(chat.Threader).OpenThread(ctx, c.Req.Channel, "Risk: match of "+meta.Seats[0].Name)
		if err != nil {
			if _, asked := c.Args.Str["thread"]; asked {
				return hosted.Result{}, fmt.Errorf("bot: open a thread for a match in %s: %w", c.Req.Channel, err)
			}
			// Threads were only the default: play in the channel.
			b.cfg.Log.Warn("open a thread for a match: playing in the channel", "channel", c.Req.Channel, "err", err)
			if err := b.channelFree(ctx, c.Req.Channel); err != nil {
				return hosted.Result{}, err
			}
			thread = false
		} else {
			channel, meta.Thread, meta.Parent = t, true, c.Req.Channel
		}
	}
	m, err := b.cfg.Store.Create(ctx, channel, meta.Encode(), b.cfg.Now())
	if errors.Is(err, storage.ErrChannelBusy) {
		return hosted.Result{}, chat.Refuse("This channel already has a match: join it with /risk join.")
	}
	if err != nil {
		return hosted.Result{}, err
	}
	join := [][]chat.Button{{{ID: hosted.LobbyButton(m.ID, "join"), Label: "Join", Style: chat.Primary}}}
	opened := fmt.Sprintf("**%s opened a Risk match!**", meta.Seats[0].Name)
	lobby := voice.LobbyEmbed(meta)
	if !thread {
		return hosted.Result{Reply: chat.Message{Text: opened, Embed: lobby, Buttons: join}}, nil
	}
	// The match lives in its thread: the lobby is posted there, and the
	// channel keeps this one line of it.
	if err := b.outbox.Post(ctx, channel, news.Post{Message: chat.Message{Text: opened + " Everything of this match happens in this thread.", Embed: lobby, Buttons: join}}); err != nil {
		b.cfg.Log.Warn("post the lobby in its thread", "thread", channel, "err", err)
	}
	return hosted.Result{Reply: chat.Message{Text: fmt.Sprintf("%s %s. It is played in its own thread, %s: join there.", opened, chat.Capitalize(voice.SettingsText(set)), chat.ChannelLink(channel))}}, nil
}

// wantThread decides whether a new match gets a thread of its own: if the
// host asked for one (refused where the bot cannot open it), or by
// default where the bot can.
func (b *Bot) wantThread(c *call) (bool, error) {
	_, can := b.cfg.Poster.(chat.Threader)
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
func (b *Bot) channelFree(ctx context.Context, channel string) error {
	m, err := b.cfg.Store.Active(ctx, channel)
	if ce, ok := errors.AsType[*storage.CorruptError](err); ok {
		return chat.Refuse("This channel's match is damaged (match %d): an admin can end it with /risk abandon, then /risk new starts another.", ce.Match)
	}
	if errors.Is(err, storage.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	meta, err := hosted.DecodeMeta(m.Meta)
	if err != nil {
		return chat.Refuse("This channel's match is damaged (match %d): an admin can end it with /risk abandon, then /risk new starts another.", m.ID)
	}
	host := "its host"
	if i := meta.Index(meta.Host); i >= 0 {
		host = meta.Seats[i].Name
	}
	return chat.Refuse("This channel already has a match (%s, hosted by %s). Join it with /risk join, or play in another channel.", m.Status, host)
}

// lobby loads the channel's match and checks it is still in its lobby.
func (b *Bot) lobby(ctx context.Context, c *call) (*hosted.Match, error) {
	m, err := c.load(ctx)
	if err != nil {
		return nil, err
	}
	if m.Status != storage.Lobby {
		return nil, chat.Refuse("The match has already started.")
	}
	return m, nil
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

func cmdJoin(ctx context.Context, c *call) (hosted.Result, error) {
	b := c.bot
	m, err := c.load(ctx)
	if err != nil {
		return hosted.Result{}, err
	}
	if p, ok := c.Args.Str["player"]; ok {
		return b.giveBack(ctx, m, c.Req.User, p)
	}
	return b.join(ctx, m, c.Req.User)
}

func (b *Bot) join(ctx context.Context, m *hosted.Match, u chat.User) (hosted.Result, error) {
	if m.Status != storage.Lobby {
		if i := m.Meta.Index(u.ID); i >= 0 && m.Meta.Seats[i].Autopilot {
			return hosted.Result{}, chat.Refuse("A bot is playing your seat after %d missed turns; ask the host to give it back with /risk join player:%s.", hosted.MaxMissed, m.Meta.Seats[i].Name)
		}
		if m.Meta.Index(u.ID) >= 0 {
			return hosted.Result{}, chat.Refuse("You are already playing in this match.")
		}
		return hosted.Result{}, chat.Refuse("The match has already started; you can watch with /risk status.")
	}
	if m.Meta.Index(u.ID) >= 0 {
		return hosted.Result{}, chat.Refuse("You are already in this match (%d/%d seats). The host starts it with /risk start.", len(m.Meta.Seats), state.MaxSeats)
	}
	if len(m.Meta.Seats) >= state.MaxSeats {
		return hosted.Result{}, chat.Refuse("The match is full (%d players).", state.MaxSeats)
	}
	name := uniqueName(m.Meta, u.Name)
	m.Meta.Seats = append(m.Meta.Seats, hosted.Seat{ID: u.ID, Name: name})
	text := m.Says(fmt.Sprintf("%s joined (%d/%d seats).%s", name, len(m.Meta.Seats), state.MaxSeats, voice.TwoPlayerHint(m)))
	if err := b.matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Message{Text: text, Embed: voice.LobbyEmbed(m.Meta), Buttons: voice.LobbyButtons(m)}}, nil
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
func (b *Bot) giveBack(ctx context.Context, m *hosted.Match, u chat.User, who string) (hosted.Result, error) {
	if err := hostOnly(m, u, "give a seat back"); err != nil {
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
	text := m.Says(fmt.Sprintf("%s plays their own seat again.", chat.Mention(sm.ID)))
	if err := b.matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Message{Text: text, Mentions: []string{sm.ID}}}, nil
}

// leaveLobby takes the caller's seat out of the lobby.
func (b *Bot) leaveLobby(ctx context.Context, c *call, m *hosted.Match) (hosted.Result, error) {
	i := m.Meta.Index(c.Req.User.ID)
	if i < 0 {
		return hosted.Result{}, chat.Refuse("You are not in this match.")
	}
	text := fmt.Sprintf("%s left the match.", m.Meta.Seats[i].Name)
	m.Meta.Seats = append(m.Meta.Seats[:i], m.Meta.Seats[i+1:]...)
	change := storage.Change{}
	if m.Meta.Host == c.Req.User.ID {
		// Another person takes over; with only bots left the host stays on
		// to start a match of bots to watch; with nobody left it closes.
		next := ""
		for _, s := range m.Meta.Seats {
			if !s.IsBot() {
				next = s.ID
				text += fmt.Sprintf(" %s is the host now.", s.Name)
				break
			}
		}
		switch {
		case next != "":
			m.Meta.Host = next
		case len(m.Meta.Seats) > 0:
			text += " They still host: /risk start lets the bots play it out while everyone watches."
		default:
			change.Status = storage.Abandoned
			text += " Nobody is left, so the match is closed; start a new one with /risk new."
		}
	}
	m.Says(text)
	if err := b.matches.Save(ctx, m, change); err != nil {
		return hosted.Result{}, err
	}
	// A lobby closed in its own thread: archive it.
	return hosted.Result{Reply: chat.Message{Text: text}, Posts: news.Batch{Archive: m.Meta.Thread && change.Status == storage.Abandoned}}, nil
}

func cmdAddBot(ctx context.Context, c *call) (hosted.Result, error) {
	b := c.bot
	m, err := b.lobby(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	if err := hostOnly(m, c.Req.User, "add bots"); err != nil {
		return hosted.Result{}, err
	}
	if len(m.Meta.Seats) >= state.MaxSeats {
		return hosted.Result{}, chat.Refuse("The match is full (%d players).", state.MaxSeats)
	}
	level := b.cfg.DefaultLevel
	v, chosen := c.Args.Str["level"]
	if chosen {
		level = v
	}
	rules, err := b.servers.Rules(ctx, m.Meta.Server)
	if err != nil {
		return hosted.Result{}, err
	}
	if level, err = b.servers.LevelAllowed(rules, level, chosen); err != nil {
		return hosted.Result{}, err
	}
	if _, err := b.cfg.NewPlayer(level, 1); err != nil {
		return hosted.Result{}, chat.Refuse("There is no bot level %q (levels: %s).", level, strings.Join(b.cfg.Levels, ", "))
	}
	m.Meta.Bots++
	name := c.Args.Str["name"]
	if name == "" {
		name = botNames[(m.Meta.Bots-1)%len(botNames)]
	}
	m.Meta.Seats = append(m.Meta.Seats, hosted.Seat{ID: fmt.Sprintf("bot:%d", m.Meta.Bots), Name: uniqueName(m.Meta, name), Level: level})
	added := m.Meta.Seats[len(m.Meta.Seats)-1]
	text := m.Says(fmt.Sprintf("🤖 %s (%s bot) takes a seat (%d/%d).%s", added.Name, level, len(m.Meta.Seats), state.MaxSeats, voice.TwoPlayerHint(m)))
	if err := b.matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Message{Text: text, Embed: voice.LobbyEmbed(m.Meta), Buttons: voice.LobbyButtons(m)}}, nil
}

func cmdKick(ctx context.Context, c *call) (hosted.Result, error) {
	b := c.bot
	m, err := c.load(ctx)
	if err != nil {
		return hosted.Result{}, err
	}
	if !c.Req.Admin {
		if err := hostOnly(m, c.Req.User, "remove players"); err != nil {
			return hosted.Result{}, chat.Refuse("%s An admin (Manage Server, or Manage Channels here) can too.", err.Error())
		}
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
		text = m.Says(text + "\n" + voice.SeatList(m.Meta))
		if err := b.matches.Save(ctx, m, storage.Change{}); err != nil {
			return hosted.Result{}, err
		}
		return hosted.Result{Reply: chat.Message{Text: text}}, nil
	}
	if sm.IsBot() {
		return hosted.Result{}, chat.Refuse("%s is already a bot.", sm.Name)
	}
	// Removing a person from a match under way cannot be undone: ask.
	expires := b.cfg.Now().Add(kickConfirm)
	return hosted.Result{Reply: chat.Message{Private: true,
		Text: fmt.Sprintf("Remove %s from the match? A %s bot plays their seat from now on, and they cannot take it back. This question expires %s.", sm.Name, b.cfg.DefaultLevel, chat.Timestamp(expires)),
		Buttons: [][]chat.Button{{
			{ID: m.ButtonID("kick", i, int(expires.Unix())), Label: "Remove " + chat.Trunc(sm.Name, 40), Style: chat.Danger},
			{ID: m.ButtonID("keepseat"), Label: "Keep them", Style: chat.Secondary},
		}}}}, nil
}

// kickConfirm is how long the question of /risk kick stands.
const kickConfirm = 5 * time.Minute

// kickSeat gives seat i (in join order) of a match under way to a bot.
func (b *Bot) kickSeat(ctx context.Context, m *hosted.Match, i int) (hosted.Result, error) {
	sm := m.Meta.Seats[i]
	if sm.IsBot() {
		return hosted.Result{}, chat.Refuse("%s is already a bot.", sm.Name)
	}
	// In a started match the seat stays (removing it would unbalance the
	// board): a bot plays it from now on.
	m.Meta.Seats[i].Level = b.cfg.DefaultLevel
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
		t := b.matches.TurnTimers(ctx, m)
		change.Timers = &t
	}
	text := m.Says(fmt.Sprintf("%s was removed; a %s bot plays their seat from now on.%s", sm.Name, b.cfg.DefaultLevel, hostNote))
	if err := b.matches.Save(ctx, m, change); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Message{Text: text}, Bots: m.BotsToPlay()}, nil
}

func cmdSettings(ctx context.Context, c *call) (hosted.Result, error) {
	b := c.bot
	m, err := c.load(ctx)
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
	set, err := m.Meta.Settings.Apply(c.Args, b.look.Has)
	if err != nil {
		return hosted.Result{}, err
	}
	m.Meta.Settings = set
	text := m.Says(fmt.Sprintf("Settings: %s.", voice.SettingsText(set)))
	if err := b.matches.Save(ctx, m, storage.Change{}); err != nil {
		return hosted.Result{}, err
	}
	return hosted.Result{Reply: chat.Message{Text: text}}, nil
}

func cmdStart(ctx context.Context, c *call) (hosted.Result, error) {
	b := c.bot
	m, err := b.lobby(ctx, c)
	if err != nil {
		return hosted.Result{}, err
	}
	if err := hostOnly(m, c.Req.User, "start the match"); err != nil {
		return hosted.Result{}, err
	}
	if len(m.Meta.Seats) < 2 {
		return hosted.Result{}, chat.Refuse("A match needs at least 2 players: invite someone to /risk join, or add a bot with /risk addbot.")
	}
	if err := canHost(c.Req.BotLacks); err != nil {
		return hosted.Result{}, err
	}
	setup := engine.Setup{Options: m.Meta.Settings.Options, Seed: b.cfg.Seed()}
	for _, s := range m.Meta.Seats {
		setup.Seats = append(setup.Seats, engine.SeatInfo{ID: s.ID, Name: s.Name})
	}
	g, err := engine.NewGame(setup)
	if err != nil {
		return hosted.Result{}, err
	}
	m.Game = g
	m.Status = storage.Active
	m.Meta.Started = b.cfg.Now()
	t := b.matches.TurnTimers(ctx, m)
	m.Timers = t
	s := g.State
	var order []string
	var mentions []string
	for i := range s.Seats {
		sm := m.Seat(i)
		who := b.look.Voice(m).Who(s, i)
		if !sm.IsBot() {
			who = b.look.Voice(m).Swatch(i) + " " + chat.Mention(sm.ID)
			mentions = append(mentions, sm.ID)
		}
		if hosted.IsCapitals(s) {
			order = append(order, fmt.Sprintf("%d. %s — %s", i+1, who, b.look.Voice(m).ColorName(i)))
			continue
		}
		order = append(order, fmt.Sprintf("%d. %s — %s, %d territories, %d armies to place", i+1, who, b.look.Voice(m).ColorName(i), s.Owned(i), s.Seats[i].Reserve))
	}
	var text string
	if hosted.IsCapitals(s) {
		deadline := ""
		if !m.IsBotSeat(s.Current) {
			deadline = " Deadline " + chat.Timestamp(t.Deadline) + "."
		}
		text = m.Says(fmt.Sprintf("**The match has started** on %s (%d territories, all neutral)! Turn order and colours:\n%s\nCapitals are chosen in this order, each a neutral territory that borders no other capital; %s chooses first: /risk place territory:NAME (a capital starts with %s).%s",
			s.Map.Title, s.Map.Len(), strings.Join(order, "\n"), b.look.Voice(m).Who(s, s.Current), chat.Plural(s.Options.CapitalTroops, "troop", "troops"), deadline))
	} else {
		text = m.Says(fmt.Sprintf("**The match has started!** Turn order and colours:\n%s\nEveryone places their armies now, all at once: /risk place territory:… armies:…, or /risk place alone to place them all automatically. Deadline %s.",
			strings.Join(order, "\n"), chat.Timestamp(t.Deadline)))
	}
	if err := b.matches.Save(ctx, m, storage.Change{Start: &g.Setup, Timers: &t}); err != nil {
		return hosted.Result{}, err
	}
	// The commitment to the seed (the dice, the cards, the deal) is public
	// before any die is rolled; the seed is revealed when the match ends.
	text += "\n🔒 Dice commitment: `" + g.Commitment() + "` (the SHA-256 of this match's secret seed, revealed at the end: every roll can then be checked)."
	msg := chat.Message{Text: text, Image: b.look.Image(m), Mentions: mentions}
	if !hosted.IsCapitals(s) {
		msg.Buttons = [][]chat.Button{{{ID: m.ButtonID("autoplace", 0), Label: "Place automatically", Style: chat.Secondary}}}
	}
	return hosted.Result{Reply: msg, Bots: m.BotsToPlay()}, nil
}
