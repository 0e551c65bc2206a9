package bot

import (
	"context"
	"log/slog"
	"runtime"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/clock"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/lobby"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/bot/play"
	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/storage"
)

// Store is the database the bot is wired to: it is each part's store (the
// SQLite and PostgreSQL stores are). No part uses it whole: each declares
// the few methods it calls, and a test's fake implements only those of
// the part it tests.
type Store interface {
	hosted.Store
	people.Store
	outbox.Store
	server.Store
	lobby.Store
	play.Store
	clock.Store
	requests
	// Loader is what the cache of matches reads through (storage.Cache).
	storage.Loader
}

// requests is what the bot itself needs of the database: the requests
// applied (to apply a repeat once, and tell a lost answer), imports, and
// the settings an answer may add to it.
type requests interface {
	Applied(ctx context.Context, key string) (*storage.Applied, error)
	LastRequest(ctx context.Context, channel, user string) (*storage.Applied, error)
	Answered(ctx context.Context, key string, now time.Time) error
	// SettingsOf reads several settings at once: what an answer may add
	// (asides).
	SettingsOf(ctx context.Context, keys ...storage.Setting) ([]storage.Setting, error)
	Import(ctx context.Context, e *storage.Export, now time.Time) (*storage.Match, error)
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
	// Levels are the levels /risk host addbot offers, weakest first, and
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
	// RenderIn makes the renderer of the matches, of the palette Render
	// draws, played in another language than English (look.Palette.In);
	// nil draws them all with Render.
	RenderIn func(lang.Tag) look.Renderer
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
	// PlayOnMap: the chat opens a match's map beside its channel, to be
	// played by clicks (Discord's Activity, docs/discord.md): each turn's
	// living post carries a button that opens it.
	PlayOnMap bool
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

func (noMeter) Command(string, string) {}

func (noMeter) TimerLag(string, time.Duration) {}

func (noMeter) Think(string, time.Duration) {}

// DefaultLobbyTTL is how long a lobby may wait for its start, without any
// change, before it is closed, unless Config.LobbyTTL says otherwise.
const DefaultLobbyTTL = 7 * 24 * time.Hour

// DefaultLease is how long claims last unless Config.Lease says otherwise.
const DefaultLease = 2 * outbox.PostTimeout

// DefaultThinkers is how many computer turns are played at once unless
// Config.Thinkers says otherwise: half the processors, at least one.
func DefaultThinkers() int { return max(1, runtime.GOMAXPROCS(0)/2) }
