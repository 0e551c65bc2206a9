// Package bot is the chat-agnostic core of the Risk bot: it hosts one match
// per channel, turns slash commands into engine commands, keeps the turn
// clock, plays the bot seats, and says what happened. It knows nothing of
// Discord: adapters (bot/discord, bot/console, bot/web) turn their input
// into a chat.Request and deliver the chat.Messages.
package bot

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/clock"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/lobby"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/play"
	"github.com/riskbot/riskbot/bot/server"

	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/people"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Store is the persistence the bot needs: matches by channel, written at an
// expected version so that racing writers never both win.
type Store interface {
	Create(ctx context.Context, channel string, meta json.RawMessage, now time.Time) (*storage.Match, error)
	Active(ctx context.Context, channel string) (*storage.Loaded, error)
	Load(ctx context.Context, id int64) (*storage.Loaded, error)
	Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error)
	OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error)
	History(ctx context.Context, channel string) ([]storage.Match, error)
	Delivered(ctx context.Context, id, version int64) error
	// Export returns a match with its whole log, for telling its history.
	Export(ctx context.Context, id int64) (*storage.Export, error)
	// RecordResult, Leaderboard and PlayerStats keep the results of won
	// matches, for the server's leaderboard.
	RecordResult(ctx context.Context, r storage.Result) error
	Leaderboard(ctx context.Context, server string, rules state.Rules, limit int) ([]storage.Standing, error)
	PlayerStats(ctx context.Context, server, player string) ([]storage.Standing, error)
	// Work that must be done once, whichever process sharing the database
	// does it, is claimed with a lease (storage.Claim): due timers, queued
	// posts, and a channel's computer turns.
	ClaimDue(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Timer, error)
	ReleaseDue(ctx context.Context, id int64, holder string) error
	ClaimPosts(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Post, error)
	ReleasePosts(ctx context.Context, id, version int64, holder string) error
	Lease(ctx context.Context, name string, c storage.Claim) (bool, error)
	Unlease(ctx context.Context, name, holder string) error
	Import(ctx context.Context, e *storage.Export, now time.Time) (*storage.Match, error)
	Applied(ctx context.Context, key string) (*storage.Applied, error)
	LastRequest(ctx context.Context, channel, user string) (*storage.Applied, error)
	Answered(ctx context.Context, key string, now time.Time) error
	ForgetRequests(ctx context.Context, before time.Time) (int64, error)
	Setting(ctx context.Context, scope, id string) (json.RawMessage, error)
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
	IdleLobbies(ctx context.Context, prefix string, before time.Time) ([]storage.Match, error)
}

// Config is what a Bot is built from. Store, Render and NewPlayer are
// required.
type Config struct {
	Store  Store
	Render look.Renderer
	// Poster posts messages that answer no command (bot turns, pings,
	// reminders). Nil drops them.
	Poster chat.Poster
	// NewPlayer makes a computer player of a level ("normal"), or the
	// careful one that stands in for absent people ("cautious").
	NewPlayer func(level string, seed uint64) (clock.Player, error)
	// Levels are the levels /risk addbot offers, weakest first, and
	// DefaultLevel the one it takes when none is given (the first level if
	// empty).
	Levels       []string
	DefaultLevel string
	// Colors names the seat colours, in turn order ("red", "cyan", ...),
	// and RGB gives them as 0xRRGGBB (for the side bars of embeds; may be
	// empty). With Render, they are the palette of matches that choose
	// none.
	Colors []string
	RGB    []int
	// Palettes are the other sets of player colours a match may choose
	// (/risk new palette:NAME), by name: "standard" and "colorblind".
	Palettes map[string]look.Palette
	// Now is the clock; nil means time.Now.
	Now func() time.Time
	// Seed draws the seed of a new match; nil draws it from crypto/rand.
	Seed func() uint64
	// Scope names the channels whose timers, queued posts and computer
	// turns this bot looks after (Tick, Redeliver, Resume): a prefix ending
	// in ':' for every channel of a platform ("discord:"), anything else
	// for one channel ("console:main"). Others sharing the database are
	// left to their own adapters. Empty looks after every channel.
	Scope string
	// Thinkers bounds the computer turns played at once, across channels:
	// they are the heaviest work there is, and must not starve the
	// answers to people. Zero means DefaultThinkers.
	Thinkers int
	// LobbyTTL is how long a lobby may go without a change before it is
	// closed (Tick): zero means DefaultLobbyTTL, negative never.
	LobbyTTL time.Duration
	// Instance names this process among those sharing the database: the
	// work it claims (due timers, queued posts, computer turns) is held
	// under this name, and a process restarted under the same name takes
	// its earlier claims back at once. Two live processes must not share a
	// name. Empty means the Scope (one process per scope, as with SQLite).
	Instance string
	// Lease is how long a claim lasts unless renewed: how long a dead
	// process's work waits before another process takes it over. It must
	// outlast delivering a turn's posts (outbox.PostTimeout). Zero means
	// DefaultLease.
	Lease time.Duration
	// Meter is told what the bot does, for metrics; nil tells nobody.
	Meter Meter
	Log   *slog.Logger
}

// Meter is told what the bot does, for metrics (package metrics).
type Meter interface {
	// Command counts a command or click handled and its result: ok,
	// refused (a mistake or a rule, answered privately), moved_on (lost
	// the race for its match), error.
	Command(name, result string)
	// TimerLag is how long after it fell due a timer was handled.
	TimerLag(kind string, d time.Duration)
	// Think is how long a computer player took to decide its turn.
	Think(level string, d time.Duration)
}

// noMeter tells nobody.
type noMeter struct{}

func (noMeter) Command(string, string)         {}
func (noMeter) TimerLag(string, time.Duration) {}
func (noMeter) Think(string, time.Duration)    {}

// resultOf names the outcome of a command or click for Meter.Command.
func resultOf(err error) string {
	var ue *chat.Refusal
	switch {
	case err == nil:
		return "ok"
	case errors.Is(err, storage.ErrConflict) || errors.Is(err, hosted.ErrMovedOn):
		return "moved_on"
	case errors.As(err, &ue):
		return "refused"
	}
	return "error"
}

// DefaultLobbyTTL is how long a lobby may wait for its start, without any
// change, before it is closed, unless Config.LobbyTTL says otherwise.
const DefaultLobbyTTL = 7 * 24 * time.Hour

// DefaultLease is how long claims last unless Config.Lease says otherwise.
const DefaultLease = 2 * outbox.PostTimeout

// DefaultThinkers is how many computer turns are played at once unless
// Config.Thinkers says otherwise: half the processors, at least one.
func DefaultThinkers() int { return max(1, runtime.GOMAXPROCS(0)/2) }

// Bot hosts matches, one per channel. Its methods are safe for concurrent
// use: commands of one channel run one at a time, channels in parallel.
type Bot struct {
	cfg     Config
	specs   []command.Spec
	started time.Time // when this process began: older queued posts are not its own

	// maps are the maps drawn lately.
	look *look.Maps
	// people are the players' choices.
	people *people.People
	// servers keeps the rules and records of the chat servers.
	servers *server.Servers
	// outbox delivers the news of the matches.
	outbox *outbox.Outbox
	// lobby opens, fills, starts and ends matches.
	lobby *lobby.Lobby
	// play plays the matches under way.
	play *play.Play
	// clock runs the timers and the computer players.
	clock *clock.Clock
	// locks serialise the commands of each channel.
	locks hosted.Locks
	// matches loads and saves the matches.
	matches *hosted.Matches
}

// New returns a Bot. Call Close to stop its background work.
func New(cfg Config) (*Bot, error) {
	if cfg.Store == nil || cfg.Render == nil || cfg.NewPlayer == nil {
		return nil, errors.New("bot: Store, Render and NewPlayer are required")
	}
	if len(cfg.Levels) == 0 {
		cfg.Levels = []string{"normal"}
	}
	if cfg.DefaultLevel == "" {
		cfg.DefaultLevel = cfg.Levels[0]
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Seed == nil {
		// A match's seed is its dice: it must not be guessable from when
		// the match started (its commitment is published at the start).
		cfg.Seed = func() uint64 {
			var b [8]byte
			crand.Read(b[:]) // never fails (crypto/rand)
			return binary.LittleEndian.Uint64(b[:])
		}
	}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.DiscardHandler)
	}
	if cfg.Thinkers <= 0 {
		cfg.Thinkers = DefaultThinkers()
	}
	if cfg.LobbyTTL == 0 {
		cfg.LobbyTTL = DefaultLobbyTTL
	}
	if cfg.Instance == "" {
		cfg.Instance = "scope " + cfg.Scope
	}
	if cfg.Lease <= 0 {
		cfg.Lease = DefaultLease
	}
	if cfg.Meter == nil {
		cfg.Meter = noMeter{}
	}
	b := &Bot{cfg: cfg, specs: command.Specs(cfg.Levels), started: cfg.Now(), look: look.New(cfg.Palettes, look.Palette{Colors: cfg.Colors, RGB: cfg.RGB, Render: cfg.Render}),
		people: people.New(cfg.Store, cfg.Now, cfg.Log)}
	b.matches = hosted.NewMatches(cfg.Store, b.people, cfg.Now, cfg.Log, b.claim)
	b.servers = server.New(server.Config{Store: cfg.Store, Matches: b.matches, HasPalette: b.look.Has, Levels: cfg.Levels,
		LobbyTTL: cfg.LobbyTTL, Scope: cfg.Scope, Now: cfg.Now, Log: cfg.Log})
	b.outbox = outbox.New(outbox.Config{Store: cfg.Store, Poster: cfg.Poster, Matches: b.matches, People: b.people, Look: b.look,
		Locks: &b.locks, Claim: b.claim, Instance: cfg.Instance, Scope: cfg.Scope, Serves: b.serves, Now: cfg.Now, Log: cfg.Log})
	b.lobby = lobby.New(lobby.Config{Store: cfg.Store, Matches: b.matches, Look: b.look, Servers: b.servers, Outbox: b.outbox,
		Poster: cfg.Poster, NewPlayer: func(level string, seed uint64) error { _, err := cfg.NewPlayer(level, seed); return err },
		Levels: cfg.Levels, DefaultLevel: cfg.DefaultLevel, Seed: cfg.Seed, Claim: b.claim, Now: cfg.Now, Log: cfg.Log})
	b.play = play.New(play.Config{Store: cfg.Store, Matches: b.matches, Look: b.look, Servers: b.servers, Outbox: b.outbox,
		Leave: b.lobby.Leave, Now: cfg.Now, Log: cfg.Log})
	b.clock = clock.New(clock.Config{Store: cfg.Store, Matches: b.matches, Locks: &b.locks, Look: b.look, People: b.people,
		Servers: b.servers, Outbox: b.outbox, Lobby: b.lobby, Play: b.play, NewPlayer: cfg.NewPlayer, Thinkers: cfg.Thinkers,
		LobbyTTL: cfg.LobbyTTL, Claim: b.claim, Instance: cfg.Instance, Scope: cfg.Scope, Serves: b.serves, Meter: cfg.Meter,
		Now: cfg.Now, Log: cfg.Log})
	return b, nil
}

// Specs returns the subcommands this bot answers, for registration.
func (b *Bot) Specs() []command.Spec { return b.specs }

// Wait blocks until the background work started so far (bot turns) is done.
func (b *Bot) Wait() { b.clock.Wait() }

// Close stops the background work and waits for it.
func (b *Bot) Close() {
	b.clock.Close()
}

// claim is this process's claim on work, now.
func (b *Bot) claim() storage.Claim {
	now := b.cfg.Now()
	return storage.Claim{Holder: b.cfg.Instance, Started: b.started, Now: now, Until: now.Add(b.cfg.Lease)}
}

// serves reports whether a channel is in the bot's Scope.
func (b *Bot) serves(channel string) bool {
	scope := b.cfg.Scope
	if scope == "" || strings.HasSuffix(scope, ":") {
		return strings.HasPrefix(channel, scope)
	}
	return channel == scope
}

// Handle answers one /risk command. Rule violations and mistakes are
// answered privately; the returned error is only for failures to reply.
func (b *Bot) Handle(ctx context.Context, req chat.Request, r chat.Replier) error {
	res, err := b.handle(ctx, req)
	name := "unknown"
	if spec, ok := command.Find(b.specs, req.Command); ok {
		name = spec.FullName()
	}
	b.cfg.Meter.Command(name, resultOf(err))
	return b.finish(ctx, req.Channel, req.User, req.Command, req.BotLacks, res, err, r)
}

// summary words a command as its author typed it, for telling them later.
func summary(req chat.Request) string {
	parts := []string{"/" + command.CommandName + " " + req.Command}
	for _, k := range slices.Sorted(maps.Keys(req.Options)) {
		v := req.Options[k]
		if strings.ContainsAny(v, " \t") {
			v = strconv.Quote(v)
		}
		parts = append(parts, k+":"+v)
	}
	return chat.Clip(strings.Join(parts, " "))
}

func (b *Bot) handle(ctx context.Context, req chat.Request) (hosted.Result, error) {
	req.Command = command.Alias(req.Command)
	spec, ok := command.Find(b.specs, req.Command)
	if !ok {
		return hosted.Result{}, chat.Refuse("There is no /risk %s. Try /risk help.", chat.Quote(req.Command))
	}
	a, err := command.Parse(spec, req.Options)
	if err != nil {
		return hosted.Result{}, chat.Refuse("%s.", chat.Capitalize(err.Error()))
	}
	h, ok := b.handlers()[spec.FullName()]
	if !ok {
		return hosted.Result{}, chat.Refuse("/risk %s is not available yet.", spec.FullName())
	}
	// Commands that only read need no lock: storage gives them a consistent
	// view, and they must not wait behind a long computer turn.
	if command.ReadOnly(spec.FullName(), a) {
		return h(ctx, &hosted.Call{Req: req, Args: a})
	}
	unlock := b.locks.Lock(req.Channel)
	defer unlock()
	c := &hosted.Call{Req: req, Args: a}
	if req.Key != "" {
		if res, ok, err := b.repeated(ctx, req.Channel, req.User, req.Key); ok || err != nil {
			return res, err
		}
		c.Rec = &hosted.Record{Req: storage.Request{Key: req.Key, User: req.User.ID, Summary: summary(req)}}
	} else {
		// Recorded nowhere, but followed: a command retried after a
		// conflict must not have saved anything.
		c.Rec = &hosted.Record{}
	}
	res, err := h(ctx, c)
	// Another process changed the match between this one's load and its
	// save (within a process the channel's lock prevents it). Nothing was
	// saved: the command runs again on the match as it now is, as it would
	// have had it waited for the lock.
	for try := 1; try < conflictTries && errors.Is(err, storage.ErrConflict) && c.Rec != nil && !c.Rec.Saved && ctx.Err() == nil; try++ {
		b.cfg.Log.Debug("the match moved on in another process: running the command again", "channel", req.Channel, "command", req.Command, "try", try+1)
		if req.Key != "" {
			// The change that beat it may be this very request, delivered
			// twice, to two processes.
			if res, ok, err := b.repeated(ctx, req.Channel, req.User, req.Key); ok || err != nil {
				return res, err
			}
		}
		res, err = h(ctx, c)
	}
	if c.Rec != nil && c.Rec.Saved {
		res.Answers = req.Key
	}
	return res, err
}

// conflictTries bounds the runs of a command that keeps losing the race
// for its match to other processes; then it gets the polite answer.
const conflictTries = 3

// lostAnswer is how long after a request a lost answer is told: longer
// than a restart takes, short enough that the author still waits for it.
const lostAnswer = time.Hour

// repeated answers a request that must not be applied: one whose key was
// applied already (delivered twice), or the first command of a user whose
// previous request here was applied by an earlier process that stopped
// before answering it. That one is told what was done instead: a person
// who got no answer types the command again, and it must not apply twice.
// It is under the channel's lock.
func (b *Bot) repeated(ctx context.Context, channel string, u chat.User, key string) (hosted.Result, bool, error) {
	if a, err := b.cfg.Store.Applied(ctx, key); err == nil {
		if err := b.cfg.Store.Answered(ctx, key, b.cfg.Now()); err != nil {
			return hosted.Result{}, false, err
		}
		return hosted.Result{Reply: chat.Private("This was done already: %s%s", a.Summary, resultLines(a.Result))}, true, nil
	} else if !errors.Is(err, storage.ErrNotFound) {
		return hosted.Result{}, false, err
	}
	a, err := b.cfg.Store.LastRequest(ctx, channel, u.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return hosted.Result{}, false, nil
	}
	if err != nil {
		return hosted.Result{}, false, err
	}
	if !a.Answered.IsZero() || a.Created.After(b.started) || b.cfg.Now().Sub(a.Created) > lostAnswer {
		return hosted.Result{}, false, nil
	}
	if err := b.cfg.Store.Answered(ctx, a.Key, b.cfg.Now()); err != nil {
		return hosted.Result{}, false, err
	}
	return hosted.Result{Reply: chat.Private("⚠️ Your last command here, %s, was carried out, but the bot was interrupted before it could tell you%s\nNothing else was done now: send your command again if you meant to repeat it.",
		a.Summary, resultLines(a.Result))}, true, nil
}

// resultLines introduces what a request did, if it said.
func resultLines(s string) string {
	if s == "" {
		return "."
	}
	return ":\n" + s
}

// LastApplied says what the last request applied in a channel was, and
// what it did if its author was never told (the console was closed or
// killed before it could answer); the answer counts as given now. ok is
// false if nothing was recorded.
func (b *Bot) LastApplied(ctx context.Context, channel string) (text string, ok bool, err error) {
	a, err := b.cfg.Store.LastRequest(ctx, channel, "")
	if errors.Is(err, storage.ErrNotFound) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	who := a.User
	if m, err := b.matches.ByID(ctx, a.Match); err == nil {
		if i := m.Meta.Index(a.User); i >= 0 {
			who = m.Meta.Seats[i].Name
		}
	}
	text = fmt.Sprintf("The last command applied here: %s: %s (%s).", who, a.Summary, chat.Timestamp(a.Created))
	if a.Answered.IsZero() {
		text += " Its answer was never shown (the bot was interrupted)" + resultLines(a.Result)
		if err := b.cfg.Store.Answered(ctx, a.Key, b.cfg.Now()); err != nil {
			return "", false, err
		}
	}
	return text, true, nil
}

// finish delivers a handler's outcome. lacks are the permissions the bot
// lacks in the channel, as the request said (nil if it did not).
func (b *Bot) finish(ctx context.Context, channel string, user chat.User, what string, lacks []string, res hosted.Result, err error, r chat.Replier) error {
	if err != nil {
		var ue *chat.Refusal
		switch {
		case errors.As(err, &ue):
			res = hosted.Result{Reply: chat.Private("%s", ue.Msg)}
		case errors.Is(err, storage.ErrConflict):
			res = hosted.Result{Reply: chat.Private("%s", hosted.ErrMovedOn.Error())}
		default:
			b.cfg.Log.Error("command failed", "channel", channel, "user", user.ID, "command", what, "err", err)
			res = hosted.Result{Reply: chat.Private("Something went wrong on our side and nothing was changed. Please try again in a moment.")}
		}
		res.Reply.Refused = true
	}
	if what != "notify" && !strings.HasPrefix(what, "click") {
		// A command says its author is back (not /risk notify, which
		// may be what makes them away).
		res.Reply.Text += b.people.WelcomeBack(ctx, user.ID)
	}
	res.Reply.Text = chat.Clip(res.Reply.Text + b.outbox.ChannelNote(ctx, channel, lacks))
	if rerr := r.Reply(ctx, res.Reply); rerr != nil {
		return fmt.Errorf("bot: reply to %s: %w", what, rerr)
	}
	if res.Answers != "" {
		if err := b.cfg.Store.Answered(ctx, res.Answers, b.cfg.Now()); err != nil {
			// Not fatal: the author may be told once more that it was done.
			b.cfg.Log.Error("mark a request answered", "channel", channel, "key", res.Answers, "err", err)
		}
	}
	b.outbox.Deliver(ctx, channel, res.Posts)
	if res.Bots {
		b.clock.Later(channel)
	}
	return nil
}

// handlers are the commands, by their full name.
func (b *Bot) handlers() map[string]hosted.Handler {
	hs := b.play.Handlers()
	for name, h := range map[string]hosted.Handler{
		"new":      b.lobby.New,
		"join":     b.lobby.Join,
		"addbot":   b.lobby.AddBot,
		"kick":     b.lobby.Kick,
		"start":    b.lobby.Start,
		"settings": b.lobby.Settings,
		"abandon":  b.lobby.Abandon,
		"notify":   answers(b.people.Notify),
		// /risk admin ...
		"admin show":     answers(b.servers.AdminShow),
		"admin defaults": answers(b.servers.AdminDefaults),
		"admin limits":   answers(b.servers.AdminLimits),
		"admin reset":    answers(b.servers.AdminReset),
		"stats":          answers(b.servers.Stats),
		"help":           b.help,
	} {
		hs[name] = h
	}
	return hs
}

// answers makes a handler of a command that only answers, changing no
// match.
func answers(h func(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error)) hosted.Handler {
	return func(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
		m, err := h(ctx, c.Req, c.Args)
		return hosted.Result{Reply: m}, err
	}
}

// Redeliver posts the news that changes queued and nobody delivered (see
// outbox.Outbox.Redeliver). Tick calls it; adapters call it once when they
// start.
func (b *Bot) Redeliver(ctx context.Context) error { return b.outbox.Redeliver(ctx) }

// Autocomplete suggests values for the focused option of a request, as the
// user types (see play.Play.Autocomplete).
func (b *Bot) Autocomplete(ctx context.Context, req chat.Request, focused string) []chat.Choice {
	return b.play.Autocomplete(ctx, req, focused)
}

// RunTimers resumes the computer players due to play, then checks the
// turn clocks every interval until ctx ends (see clock.Clock.RunTimers).
func (b *Bot) RunTimers(ctx context.Context, every time.Duration) { b.clock.RunTimers(ctx, every) }

// Tick posts the news nobody delivered, closes idle lobbies, and handles
// the reminders, deadlines and computer turns that are due (see
// clock.Clock.Tick).
func (b *Bot) Tick(ctx context.Context) error { return b.clock.Tick(ctx) }

// Resume sets the computer players that are due to play playing, in the
// background (see clock.Clock.Resume).
func (b *Bot) Resume(ctx context.Context) error { return b.clock.Resume(ctx) }
