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
type Lobby struct {
	cfg Config
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

// click is one of the lobby's actions: its handler, and whether it holds
// only while the match is in its lobby (the lobby message's buttons and an
// invitation's answers) rather than while it is open.
type click struct {
	lobbyOnly bool
	run       hosted.ClickFunc
}

// canHost refuses to open or start a match in a channel where the bot may
// not post: its turns would go unseen.
func canHost(lacks []string) error {
	if len(lacks) == 0 {
		return nil
	}
	return chat.RefuseMsg("lobby.cannot-host", "Lacks", and(lacks))
}
