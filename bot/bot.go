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
	"errors"
	"log/slog"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/clock"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/internal/lru"
	"github.com/riskbot/riskbot/bot/lobby"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/bot/play"
	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Bot hosts matches, one per channel. Its methods are safe for concurrent
// use: commands of one channel run one at a time, channels in parallel.
type Bot struct {
	cfg     Config
	specs   []command.Spec
	started time.Time // when this process began: older queued posts are not its own
	cache   *storage.Cache
	// sought are the channels' users whose lost answer was looked for
	// (repeated): none can turn up later.
	sought *lru.Cache[string, struct{}]

	// The parts, lowest first (docs/architecture.md).
	people  *people.People                 // the players' choices
	locks   hosted.Locks                   // a channel's commands one at a time
	matches *hosted.Matches                // loads and saves the matches
	look    *look.Maps                     // palettes and the map of a moment
	outbox  *outbox.Outbox                 // delivers the news of the matches
	servers *server.Servers                // the rules and records of the chat servers
	lobby   *lobby.Lobby                   // opens, fills, starts and ends matches
	play    *play.Play                     // plays the matches under way
	clicks  map[button.Action]clickHandler // a button's action to its handler
	clock   *clock.Clock                   // the timers and the computer players
	// handlers are the commands, by their full name.
	handlers map[string]hosted.Handler
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
	cache := storage.NewCache(cfg.Store, CachedMatches)
	b := &Bot{cfg: cfg, cache: cache, sought: lru.New[string, struct{}](soughtUsers), specs: command.Specs(cfg.Levels), started: cfg.Now(), people: people.New(cfg.Store, cfg.Now, cfg.Log),
		look: look.New(cfg.Palettes, look.Palette{Colors: cfg.Colors, RGB: cfg.RGB, Render: cfg.Render, In: cfg.RenderIn})}
	if cfg.PlayOnMap {
		b.look.PlayOnMap()
	}
	// The parts that load and save matches do it through the cache (the
	// matches and the lobby); the others read the store.
	b.matches = hosted.NewMatches(cache, b.people, cfg.Now, cfg.Log, b.claim)
	b.servers = server.New(server.Config{Store: cfg.Store, Matches: b.matches, HasPalette: b.look.Has, Levels: cfg.Levels, Preview: b.look.Preview,
		LobbyTTL: cfg.LobbyTTL, Scope: cfg.Scope, Now: cfg.Now, Log: cfg.Log})
	b.outbox = outbox.New(outbox.Config{Store: cfg.Store, Poster: cfg.Poster, Matches: b.matches, People: b.people, Look: b.look,
		Locks: &b.locks, Claim: b.claim, Instance: cfg.Instance, Scope: cfg.Scope, Serves: b.serves, Now: cfg.Now, Log: cfg.Log,
		// The outbox sits below play, which knows how to tell a player's own view.
		Own: func(ctx context.Context, channel, user string, t lang.Tag) (chat.Message, bool) {
			return b.play.OwnView(ctx, channel, user, t)
		}})
	b.lobby = lobby.New(lobby.Config{Store: cache, Tokens: cfg.Store, Matches: b.matches, Look: b.look, Servers: b.servers, Outbox: b.outbox,
		Poster: cfg.Poster, NewPlayer: func(level string, seed uint64) error { _, err := cfg.NewPlayer(level, seed); return err },
		Levels: cfg.Levels, DefaultLevel: cfg.DefaultLevel, Seed: cfg.Seed, Claim: b.claim, Now: cfg.Now, Log: cfg.Log})
	b.play = play.New(play.Config{Store: cfg.Store, Tokens: cfg.Store, Matches: b.matches, Look: b.look, Servers: b.servers, Outbox: b.outbox,
		Leave: b.lobby.Leave, Now: cfg.Now, Log: cfg.Log})
	b.clock = clock.New(clock.Config{Store: cfg.Store, Matches: b.matches, Locks: &b.locks, Look: b.look, People: b.people,
		Servers: b.servers, Outbox: b.outbox, Lobby: b.lobby, Play: b.play, NewPlayer: cfg.NewPlayer, Thinkers: cfg.Thinkers,
		LobbyTTL: cfg.LobbyTTL, Claim: b.claim, Instance: cfg.Instance, Scope: cfg.Scope, Serves: b.serves, Meter: cfg.Meter,
		Now: cfg.Now, Log: cfg.Log})
	b.handlers = handlersOf(b)
	var err error
	if b.clicks, err = b.clickTable(); err != nil {
		return nil, err
	}
	return b, nil
}

// soughtUsers is how many channels' users the bot remembers it looked
// for a lost answer of (repeated): some 50 bytes each.
const soughtUsers = 4096

// CachedMatches is how many matches a bot keeps in memory with their
// games: those played, watched or asked about lately. A 6-player classic
// match kept takes about 10 KB (its state and its undo base), a capitals
// match on a large map a few times that.
const CachedMatches = 256

// Matches is the bot's cache of matches, for others in the process (the
// web server) to read them through it: one copy of each in memory.
func (b *Bot) Matches() *storage.Cache { return b.cache }

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

// Redeliver posts the news that changes queued and nobody delivered (see
// outbox.Outbox.Redeliver). Tick calls it; adapters call it once when they
// start.
func (b *Bot) Redeliver(ctx context.Context) error { return b.outbox.Redeliver(ctx) }

// Autocomplete suggests values for the focused option of a request, as the
// user types (see play.Play.Autocomplete).
func (b *Bot) Autocomplete(ctx context.Context, req chat.Request, focused string) []chat.Choice {
	req.Command = command.Alias(req.Command)
	return b.play.Autocomplete(ctx, req, focused)
}

// Offered reports whether an adapter that lists the options a player may
// add (the page's autocomplete) should offer option of a command in
// channel: not one the channel's match refuses (see play.Play.Offered).
func (b *Bot) Offered(ctx context.Context, channel, cmd, option string) bool {
	return b.play.Offered(ctx, channel, command.Alias(cmd), option)
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

// Library is the servers' libraries of maps (the page's upload, risk map).
func (b *Bot) Library() *server.Library { return b.servers.Library() }

// handlersOf are the commands of b, by their full name: each is handled
// by the part that owns it.
func handlersOf(b *Bot) map[string]hosted.Handler {
	hs := b.play.Handlers()
	for name, h := range map[string]hosted.Handler{
		"new":           b.lobby.New,
		"join":          b.lobby.Join,
		"start":         b.lobby.Start,
		"host addbot":   b.lobby.AddBot,
		"host kick":     b.lobby.Kick,
		"host invite":   b.lobby.Invite,
		"host settings": b.lobby.Settings,
		"host abandon":  b.lobby.Abandon,
		"me notify":     answers(b.people.Notify),
		"me stats":      answers(b.servers.Stats),
		"me games":      answers(b.servers.Games),
		"me token":      b.token,
		// /risk-admin ...
		"admin show":       answers(b.servers.AdminShow),
		"admin defaults":   answers(b.servers.AdminDefaults),
		"admin limits":     answers(b.servers.AdminLimits),
		"admin reset":      answers(b.servers.AdminReset),
		"admin map add":    answers(b.servers.AdminMapAdd),
		"admin map list":   answers(b.servers.AdminMapList),
		"admin map show":   answers(b.servers.AdminMapShow),
		"admin map rename": answers(b.servers.AdminMapRename),
		"admin map remove": answers(b.servers.AdminMapRemove),
		"help":             b.help,
	} {
		hs[name] = h
	}
	return hs
}

// help answers /risk help topic:… rules:…, for the rules of the channel's
// match (or those asked for; classic without either).
func (b *Bot) help(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
	rules := state.Classic
	if r, ok := c.Args.Str["rules"]; ok {
		if r == "capitals" {
			rules = state.Capitals
		}
	} else if m, err := b.matches.Load(ctx, c.Req.Channel); err == nil {
		rules = m.Meta.Settings.Options.Rules
	}
	return hosted.Result{Reply: voice.Speaking(lang.FromLocale(c.Req.Locale)).Status().Help(b.specs, rules, c.Args.Str["topic"])}, nil
}

// answers makes a handler of a command that only answers, changing no
// match.
func answers(h func(ctx context.Context, req chat.Request, a command.Args) (chat.Message, error)) hosted.Handler {
	return func(ctx context.Context, c *hosted.Call) (hosted.Result, error) {
		m, err := h(ctx, c.Req, c.Args)
		return hosted.Result{Reply: m}, err
	}
}
