package lobby

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/internal/faketest"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/bot/tokens"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// t0 is when every test starts.
var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// levels are the computer levels of the tests' bot, the second of them
// its default.
var levels = []string{"easy", "normal", "hard"}

// The store's methods the lobby uses are the fake's.
var (
	_ Store        = (*faketest.Store)(nil)
	_ tokens.Store = (*faketest.Store)(nil)
)

// env is a Lobby over a store and a chat in memory, with the parts it
// takes (matches, servers, the outbox) and a clock the test moves. Its
// do and click answer as the bot does: a refusal privately, in its
// author's language, and the posts delivered to the channel.
type env struct {
	t     *testing.T
	store *faketest.Store
	chat  *faketest.Chat
	specs []command.Spec

	*faketest.Clock

	ms       *hosted.Matches
	servers  *server.Servers
	outbox   *outbox.Outbox
	lobby    *Lobby
	handlers map[string]hosted.Handler
}

func newEnv(t *testing.T) *env {
	e := &env{t: t, store: faketest.NewStore(), chat: &faketest.Chat{}, specs: command.Specs(levels), Clock: faketest.NewClock(t0)}
	e.open()
	return e
}

// open (re)makes the parts over the env's store and chat, as a restart
// of the process would.
func (e *env) open() {
	log := slog.New(slog.DiscardHandler)
	claim := func() storage.Claim {
		now := e.Now()
		return storage.Claim{Holder: "test", Now: now, Until: now.Add(time.Minute)}
	}
	pp := people.New(e.store, e.Now, log)
	e.ms = hosted.NewMatches(e.store, pp, e.Now, log, claim)
	colors, rgb := look.PaletteColors(render.Default)
	blind, blindRGB := look.PaletteColors(render.ColorBlind)
	maps := look.New(map[string]look.Palette{
		command.PaletteStandard:   {Colors: colors, RGB: rgb, Render: &faketest.Renderer{Name: "standard"}},
		command.PaletteColorBlind: {Colors: blind, RGB: blindRGB, Render: &faketest.Renderer{Name: "colorblind"}},
	}, look.Palette{Colors: colors, RGB: rgb, Render: &faketest.Renderer{Name: "standard"}})
	e.servers = server.New(server.Config{Store: e.store, Matches: e.ms, HasPalette: maps.Has, Levels: levels, Preview: maps.Preview,
		LobbyTTL: 7 * 24 * time.Hour, Scope: "test:", Now: e.Now, Log: log})
	e.outbox = outbox.New(outbox.Config{Store: e.store, Poster: e.chat, Matches: e.ms, People: pp, Look: maps, Locks: &hosted.Locks{},
		Claim: claim, Instance: "test", Scope: "test:", Serves: func(ch string) bool { return strings.HasPrefix(ch, "test:") }, Now: e.Now, Log: log})
	e.lobby = New(Config{Store: e.store, Matches: e.ms, Look: maps, Servers: e.servers, Outbox: e.outbox, Tokens: e.store, Poster: e.chat,
		NewPlayer: func(level string, _ uint64) error {
			if !slices.Contains(levels, level) {
				return fmt.Errorf("no level %q", level)
			}
			return nil
		},
		Levels: levels, DefaultLevel: "normal", Seed: e.NextSeed, Claim: claim, Now: e.Now, Log: log})
	answers := func(h func(context.Context, chat.Request, command.Args) (chat.Message, error)) hosted.Handler {
		return func(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
			m, err := h(ctx, c.Req, c.Args)
			return hosted.Result{Reply: m}, err
		}
	}
	e.handlers = map[string]hosted.Handler{
		"new": e.lobby.New, "join": e.lobby.Join, "start": e.lobby.Start,
		"host addbot": e.lobby.AddBot, "host kick": e.lobby.Kick, "host invite": e.lobby.Invite,
		"host settings": e.lobby.Settings, "host abandon": e.lobby.Abandon,
		// A player leaves a lobby with /risk surrender (play's command).
		"surrender": func(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
			m, err := e.ms.For(ctx, c)
			if err != nil {
				return hosted.Result{}, err
			}
			return e.lobby.Leave(ctx, c, m)
		},
		"admin defaults": answers(e.servers.AdminDefaults),
		"admin limits":   answers(e.servers.AdminLimits),
		"admin reset":    answers(e.servers.AdminReset),
	}
}

// user is a test player: ID "test:NAME".
func user(name string) chat.User { return chat.User{ID: "test:" + strings.ToLower(name), Name: name} }

// do runs "/risk COMMAND opt:value ..." for a user in a channel and
// returns the answer.
func (e *env) do(channel, who, command string, opts ...string) chat.Message {
	e.t.Helper()
	return e.doReq(chat.Request{Channel: channel, User: user(who), Command: command, Options: options(e.t, opts)})
}

// doAdmin is do by an admin of the channel.
func (e *env) doAdmin(channel, who, command string, opts ...string) chat.Message {
	e.t.Helper()
	return e.doReq(chat.Request{Channel: channel, User: user(who), Command: command, Options: options(e.t, opts), Admin: true})
}

// options reads "name:value" options.
func options(t *testing.T, opts []string) map[string]string {
	t.Helper()
	o := map[string]string{}
	for _, kv := range opts {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			t.Fatalf("bad option %q", kv)
		}
		o[k] = v
	}
	return o
}

// doReq answers a request as the bot would, with the handler of its
// command.
func (e *env) doReq(req chat.Request) chat.Message {
	e.t.Helper()
	req.Command = command.Alias(req.Command)
	spec, ok := command.Find(e.specs, req.Command)
	if !ok {
		e.t.Fatalf("no command %q", req.Command)
	}
	h, ok := e.handlers[spec.FullName()]
	if !ok {
		e.t.Fatalf("the lobby's tests do not answer %s", spec.FullName())
	}
	a, err := command.Parse(spec, req.Options)
	if err != nil {
		return e.finish(req.Channel, req.Locale, hosted.Result{}, chat.RefuseMsg("hosted.sentence", "Reason", err))
	}
	res, err := h(context.Background(), &hosted.Call{Req: req, Args: a})
	return e.finish(req.Channel, req.Locale, res, err)
}

// click presses button id in channel.
func (e *env) click(channel, who, id string) chat.Message {
	e.t.Helper()
	return e.clickAs(chat.Click{Channel: channel, User: user(who), ID: id})
}

// clickAs answers a click as the bot would: the abandon question's
// buttons without loading the match, the rematch, the lobby's buttons.
func (e *env) clickAs(c chat.Click) chat.Message {
	e.t.Helper()
	ctx := context.Background()
	bt, err := button.Parse(c.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	if bt.Action == button.Abandon || bt.Action == button.Keep {
		res, err := e.lobby.ClickAbandon(ctx, c, bt)
		return e.finish(c.Channel, c.Locale, res, err)
	}
	m, err := e.ms.ByID(ctx, bt.Match)
	if err != nil {
		e.t.Fatal(err)
	}
	m.Reader = hosted.ReaderOf(c.Locale)
	var res hosted.Result
	run, ok := e.lobby.Clicks()[bt.Action]
	switch {
	case bt.Action == button.Rematch:
		res, err = e.lobby.Rematch(ctx, c, m)
	case !ok:
		e.t.Fatalf("%s is no button of the lobby", bt.Action)
	default:
		res, err = run(ctx, c, bt, m)
	}
	return e.finish(c.Channel, c.Locale, res, err)
}

// finish is the answer to a command or click: a refusal privately, in
// its author's language, nothing posted; else the reply, its posts
// delivered to the channel.
func (e *env) finish(channel, locale string, res hosted.Result, err error) chat.Message {
	e.t.Helper()
	if err != nil {
		r, ok := errors.AsType[*chat.Refusal](err)
		if !ok {
			e.t.Fatalf("failed: %v", err)
		}
		m := chat.Private("%s", r.In(lang.For(lang.FromLocale(locale))))
		m.Refused, m.Buttons = true, r.Buttons
		return m
	}
	e.outbox.Deliver(context.Background(), channel, res.Posts)
	return res.Reply
}

// load returns the channel's match: the open one, else the last.
func (e *env) load(channel string) *hosted.Match {
	e.t.Helper()
	m, err := e.ms.Latest(context.Background(), channel)
	if err != nil {
		e.t.Fatalf("load %s: %v", channel, err)
	}
	return m
}

// started makes a started match in channel: the first of humans hosts,
// with the computer players of the levels given.
func (e *env) started(channel string, humans []string, bots ...string) *hosted.Match {
	e.t.Helper()
	e.do(channel, humans[0], "new")
	for _, p := range humans[1:] {
		e.do(channel, p, "join")
	}
	for _, level := range bots {
		e.do(channel, humans[0], "host addbot", "level:"+level)
	}
	wantPublic(e.t, e.do(channel, humans[0], "start"), "The match has started")
	return e.load(channel)
}

// finished ends the match of channel with a winner: the initial
// placement done, every seat but winner's surrenders, as the engine has
// it, saved as one change.
func (e *env) finished(channel, winner string) *hosted.Match {
	e.t.Helper()
	m := e.load(channel)
	var entries []engine.Entry
	apply := func(seat int, c engine.Command) {
		entry, _, err := m.Game.Apply(seat, c)
		if err != nil {
			e.t.Fatal(err)
		}
		entries = append(entries, entry)
	}
	s := m.Game.State
	for i := range s.Seats {
		if s.Phase == state.PhaseSetup && s.Seats[i].Reserve > 0 {
			apply(i, engine.AutoPlace{})
		}
	}
	for i := range s.Seats {
		if s.Seats[i].Name != winner {
			apply(i, engine.Surrender{})
		}
	}
	if m.Game.State.Phase != state.PhaseOver {
		e.t.Fatal("the match goes on after the surrenders")
	}
	m.Meta.Finished = e.Now()
	if err := e.ms.Save(context.Background(), m, storage.Change{Entries: entries, Game: m.Game, Status: storage.Finished}); err != nil {
		e.t.Fatal(err)
	}
	return e.load(channel)
}

// messages are the channel's messages as they now are (edits in place).
func (e *env) messages(channel string) []chat.Message {
	var out []chat.Message
	for _, s := range e.chat.In(channel) {
		out = append(out, s.Msg)
	}
	return out
}

// lobbyOf returns the channel's lobby message as it now is: the newest
// that carries a lobby's card.
func (e *env) lobbyOf(channel string) (chat.Message, bool) {
	msgs := e.messages(channel)
	for i := len(msgs) - 1; i >= 0; i-- {
		if em := msgs[i].Embed; em != nil && strings.HasPrefix(em.Title, "Lobby — ") {
			return msgs[i], true
		}
	}
	return chat.Message{}, false
}

// wantLobby fails unless the channel has a lobby message that contains
// every part, and returns it.
func (e *env) wantLobby(channel string, parts ...string) chat.Message {
	e.t.Helper()
	m, ok := e.lobbyOf(channel)
	if !ok {
		e.t.Fatalf("no lobby message in %s", channel)
	}
	wantPublic(e.t, m, parts...)
	return m
}

// button finds the button labelled label (its start) on the channel's
// newest message that has one.
func (e *env) button(channel, label string) (chat.Button, bool) {
	msgs := e.messages(channel)
	for i := len(msgs) - 1; i >= 0; i-- {
		if b, ok := buttonLabelled(msgs[i], label); ok {
			return b, true
		}
	}
	return chat.Button{}, false
}

// buttonLabelled finds the button of m whose label starts with label.
func buttonLabelled(m chat.Message, label string) (chat.Button, bool) {
	for _, row := range m.Buttons {
		for _, b := range row {
			if strings.HasPrefix(b.Label, label) {
				return b, true
			}
		}
	}
	return chat.Button{}, false
}

// all is the whole text of a message: its text, then its embed's.
func all(m chat.Message) string {
	if m.Embed == nil {
		return m.Text
	}
	return strings.TrimPrefix(m.Text+"\n"+m.Embed.Text(), "\n")
}

// wantPublic fails unless m is public and contains every part.
func wantPublic(t *testing.T, m chat.Message, parts ...string) {
	t.Helper()
	if m.Private {
		t.Errorf("private, want public: %q", m.Text)
	}
	wantText(t, m, parts...)
}

// wantPrivate fails unless m is private and contains every part.
func wantPrivate(t *testing.T, m chat.Message, parts ...string) {
	t.Helper()
	if !m.Private {
		t.Errorf("public, want private: %q", m.Text)
	}
	wantText(t, m, parts...)
}

func wantText(t *testing.T, m chat.Message, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(all(m), p) {
			t.Errorf("%q lacks %q", all(m), p)
		}
	}
}
