package clock

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/internal/faketest"
	"github.com/riskbot/riskbot/bot/lobby"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/bot/play"
	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// t0 is when every test starts.
var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// levels are the computer levels of the tests' bot.
var levels = []string{"easy", "normal"}

// lease is how long a claim of a test's process lasts.
const lease = 2 * time.Minute

// The store's methods the clock uses are the fake's.
var _ Store = (*faketest.Store)(nil)

// safe is a computer player that always plays the safe default
// (ai.Fallback): quick, and a legal turn every time.
type safe struct{}

func (safe) Act(context.Context, *state.State, int) (engine.Command, error) { return nil, nil }

// stuck is a computer player that never decides: its turn is not saved
// until the clock is closed, as if the process had been killed.
type stuck struct{}

func (stuck) Act(ctx context.Context, _ *state.State, _ int) (engine.Command, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// meter is a Meter that writes down what it is told.
type meter struct {
	mu     sync.Mutex
	events []string
}

func (r *meter) TimerLag(kind string, d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, fmt.Sprintf("lag %s %v", kind, d.Round(time.Minute)))
}

func (r *meter) Think(level string, _ time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, "think "+level)
}

func (r *meter) has(e string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Contains(r.events, e)
}

// env is a Clock over a store and a chat in memory, with every part it
// takes, a clock the test moves, and computer players the test chooses.
// Its do answers a command as the bot does (the lobby's and play's), so
// that a test plays the people's turns.
type env struct {
	t     *testing.T
	store *faketest.Store
	chat  *faketest.Chat
	specs []command.Spec
	meter *meter

	*faketest.Clock
	mu    sync.Mutex
	since time.Time // when the process started
	// player makes the computer players of the clocks opened from now on
	// (nil: safe ones); asked records the levels asked for.
	player func(level string, seed uint64) Player
	asked  []string
	// noWait: do does not wait for the computers it sets playing (they
	// may never finish).
	noWait bool
	// instance, scope and configure are those of the clocks opened from
	// now on.
	instance, scope string
	configure       func(*Config)

	ms       *hosted.Matches
	pp       *people.People
	lobby    *lobby.Lobby
	clock    *Clock
	outbox   *outbox.Outbox
	handlers map[string]hosted.Handler
}

func newEnv(t *testing.T) *env {
	e := &env{t: t, store: faketest.NewStore(), chat: &faketest.Chat{}, specs: command.Specs(levels), meter: &meter{},
		Clock: faketest.NewClock(t0), since: t0, instance: "test", scope: "test:"}
	e.open()
	return e
}

// open (re)starts the process: new parts over the env's store and chat,
// the previous clock closed.
func (e *env) open() {
	if e.clock != nil {
		e.clock.Close()
	}
	e.mu.Lock()
	e.since = e.Now()
	instance, scope := e.instance, e.scope
	e.mu.Unlock()
	log := slog.New(slog.DiscardHandler)
	claim := func() storage.Claim {
		now := e.Now()
		e.mu.Lock()
		defer e.mu.Unlock()
		return storage.Claim{Holder: instance, Started: e.since, Now: now, Until: now.Add(lease)}
	}
	serves := func(ch string) bool { return strings.HasPrefix(ch, scope) }
	if !strings.HasSuffix(scope, ":") {
		serves = func(ch string) bool { return ch == scope }
	}
	e.pp = people.New(e.store, e.Now, log)
	e.ms = hosted.NewMatches(e.store, e.pp, e.Now, log, claim)
	locks := &hosted.Locks{}
	colors, rgb := look.PaletteColors(render.Default)
	maps := look.New(nil, look.Palette{Colors: colors, RGB: rgb, Render: &faketest.Renderer{}})
	servers := server.New(server.Config{Store: e.store, Matches: e.ms, HasPalette: maps.Has, Levels: levels, LobbyTTL: 72 * time.Hour,
		Scope: scope, Now: e.Now, Log: log})
	e.outbox = outbox.New(outbox.Config{Store: e.store, Poster: e.chat, Matches: e.ms, People: e.pp, Look: maps, Locks: locks,
		Claim: claim, Instance: instance, Scope: scope, Serves: serves, Now: e.Now, Log: log})
	e.lobby = lobby.New(lobby.Config{Store: e.store, Matches: e.ms, Look: maps, Servers: servers, Outbox: e.outbox, Tokens: e.store,
		Poster: e.chat, NewPlayer: func(string, uint64) error { return nil }, Levels: levels, DefaultLevel: "normal",
		Seed: e.NextSeed, Claim: claim, Now: e.Now, Log: log})
	pl := play.New(play.Config{Store: e.store, Tokens: e.store, Matches: e.ms, Look: maps, Servers: servers, Outbox: e.outbox,
		Leave: e.lobby.Leave, Now: e.Now, Log: log})
	cfg := Config{Store: e.store, Matches: e.ms, Locks: locks, Look: maps, People: e.pp, Servers: servers, Outbox: e.outbox,
		Lobby: e.lobby, Play: pl, NewPlayer: e.newPlayer, Thinkers: 4, LobbyTTL: 72 * time.Hour, Claim: claim,
		Instance: instance, Scope: scope, Serves: serves, Meter: e.meter, Now: e.Now, Log: log}
	if e.configure != nil {
		e.configure(&cfg)
	}
	e.clock = New(cfg)
	e.handlers = pl.Handlers()
	for name, h := range map[string]hosted.Handler{
		"new": e.lobby.New, "join": e.lobby.Join, "start": e.lobby.Start, "host addbot": e.lobby.AddBot,
	} {
		e.handlers[name] = h
	}
	e.t.Cleanup(e.clock.Close)
}

// setPlayer sets the computer players newPlayer makes (nil: safe ones),
// under the lock newPlayer reads them under: a clock's computers may be
// asking for one.
func (e *env) setPlayer(f func(level string, seed uint64) Player) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.player = f
}

// newPlayer makes a computer player of a level.
func (e *env) newPlayer(level string, seed uint64) (Player, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.asked = append(e.asked, level)
	if e.player != nil {
		return e.player(level, seed), nil
	}
	return safe{}, nil
}

// aiPlayer is package ai's computer player of a level, or its careful
// one: players that win.
func aiPlayer(level string, seed uint64) Player {
	if level == "cautious" {
		return ai.Cautious(seed)
	}
	p, err := ai.New(level, ai.Options{Seed: seed})
	if err != nil {
		panic(err) // the tests ask for the levels ai has
	}
	return p
}

// levelsAsked returns the levels of the computer players made so far.
func (e *env) levelsAsked() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.asked)
}

// tick runs one Tick, then waits for the computers it set playing.
func (e *env) tick() {
	e.t.Helper()
	if err := e.clock.Tick(context.Background()); err != nil {
		e.t.Fatal(err)
	}
	e.clock.Wait()
}

// user is a test player: ID "test:NAME".
func user(name string) chat.User { return chat.User{ID: "test:" + strings.ToLower(name), Name: name} }

// do runs "/risk COMMAND opt:value ..." for a user in a channel as the
// bot would, and returns the answer: a refusal privately, the posts
// delivered, the computers set playing.
func (e *env) do(channel, who, cmd string, opts ...string) chat.Message {
	e.t.Helper()
	o := map[string]string{}
	for _, kv := range opts {
		k, v, _ := strings.Cut(kv, ":")
		o[k] = v
	}
	req := chat.Request{Channel: channel, User: user(who), Command: command.Alias(cmd), Options: o}
	spec, ok := command.Find(e.specs, req.Command)
	if !ok {
		e.t.Fatalf("no command %q", cmd)
	}
	h, ok := e.handlers[spec.FullName()]
	if !ok {
		e.t.Fatalf("the clock's tests do not answer %s", spec.FullName())
	}
	a, err := command.Parse(spec, o)
	if err != nil {
		e.t.Fatalf("/risk %s: %v", cmd, err)
	}
	res, err := h(context.Background(), &hosted.Call{Req: req, Args: a})
	if err != nil {
		r, ok := errors.AsType[*chat.Refusal](err)
		if !ok {
			e.t.Fatalf("/risk %s: %v", cmd, err)
		}
		m := chat.Private("%s", r.In(lang.For(lang.English)))
		m.Refused = true
		return m
	}
	e.outbox.Deliver(context.Background(), channel, res.Posts)
	if res.Bots {
		e.clock.Later(channel)
	}
	if !e.noWait {
		e.clock.Wait()
	}
	return res.Reply
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
	if m := e.do(channel, humans[0], "start"); !strings.Contains(m.Text, "The match has started") {
		e.t.Fatalf("start: %q", m.Text)
	}
	return e.load(channel)
}

// placed is a match of Ann and Bob past the initial placement; its posts
// so far are taken.
func (e *env) placed(channel string) *hosted.Match {
	e.t.Helper()
	e.started(channel, []string{"Ann", "Bob"})
	e.do(channel, "Ann", "autoplace")
	e.do(channel, "Bob", "autoplace")
	e.chat.Take()
	return e.load(channel)
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

// seat is the match's seat of a person.
func seat(m *hosted.Match, name string) hosted.Seat {
	return m.Meta.Seats[m.Meta.Index(user(name).ID)]
}

// all is the whole text of a message: its text, then its embed's.
func all(m chat.Message) string {
	if m.Embed == nil {
		return m.Text
	}
	return strings.TrimPrefix(m.Text+"\n"+m.Embed.Text(), "\n")
}

// said reports whether any of the messages sent contains text.
func said(sent []faketest.Sent, text string) bool {
	return slices.ContainsFunc(sent, func(s faketest.Sent) bool { return strings.Contains(all(s.Msg), text) })
}

// call is /risk new by who in channel of a server.
func call(e *env, channel, who, server string) *hosted.Call {
	return &hosted.Call{Req: chat.Request{Channel: channel, User: user(who), Command: "new", Server: server},
		Args: command.Args{Str: map[string]string{}, Num: map[string]int{}}}
}
