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
	"time"

	"github.com/riskbot/riskbot/assets/lang"

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
