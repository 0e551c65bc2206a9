package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/metrics"
	"github.com/riskbot/riskbot/bot/web"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage/postgres"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// store is what the subcommands need of a database, SQLite or PostgreSQL:
// the sum of what the parts they wire declare (the bot, its metrics, the
// page) and of what the subcommands that read it themselves declare,
// each the methods it calls; and closing.
type store interface {
	bot.Store
	metrics.Database
	web.Store     // risk web, and the Activity's page
	archive       // risk export
	results       // risk stats
	migrateSource // risk migrate, from
	migrateTarget // and to
	Close() error
}

var (
	_ store = (*sqlite.DB)(nil)
	_ store = (*postgres.DB)(nil)
)

// botDeps are the parts a bot is wired from.
type botDeps struct {
	db     store
	poster chat.Poster
	log    *slog.Logger
	seed   func() uint64
	// palette colours the players on the maps and in the chat text.
	palette render.Palette
	// scope is the channels the bot looks after (bot.Config.Scope).
	scope string
	// lobbyTTL closes lobbies idle that long (bot.Config.LobbyTTL).
	lobbyTTL time.Duration
	// instance names the process among those sharing the database
	// (bot.Config.Instance).
	instance string
	// metrics, if set, is told what the bot does and how long maps take.
	metrics *metrics.Metrics
	// playOnMap: the chat opens a match's map to play it by clicks
	// (bot.Config.PlayOnMap: Discord's Activity).
	playOnMap bool
}

// newBot wires the bot core to storage and the standard renderer and
// computer players.
func newBot(d botDeps) (*bot.Bot, error) {
	// A match may choose its palette; d.palette is the one of matches that
	// do not.
	pals := look.StandardPalettes()
	var meter bot.Meter
	if d.metrics != nil {
		meter = d.metrics
		for k, p := range pals {
			p.Render = timedRenderer{p.Render, d.metrics}
			if in := p.In; in != nil {
				p.In = func(t lang.Tag) look.Renderer { return timedRenderer{in(t), d.metrics} }
			}
			pals[k] = p
		}
	}
	def := pals[command.PaletteStandard]
	if d.palette == render.ColorBlind {
		def = pals[command.PaletteColorBlind]
	}
	// A nil seed draws each match's from crypto/rand (bot.New): the
	// commitment published at the start proves nothing if the seed can be
	// guessed.
	return bot.New(bot.Standard(bot.Config{Store: d.db, Poster: d.poster, Seed: d.seed, Log: d.log,
		Render: def.Render, RenderIn: def.In, Colors: def.Colors, RGB: def.RGB, Palettes: pals, Scope: d.scope, LobbyTTL: d.lobbyTTL, Instance: d.instance, Meter: meter,
		PlayOnMap: d.playOnMap}))
}

// startTimers runs the bot's clock (bot.RunTimers: deadlines, reminders,
// and the computer players left waiting by an earlier run), checking
// every interval, until the stop it returns is called; stop waits for the
// clock to end.
func startTimers(ctx context.Context, b *bot.Bot, every time.Duration) (stop func()) {
	timers, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		b.RunTimers(timers, every)
	}()
	return func() { cancel(); <-done }
}

// timedRenderer tells the metrics how long each map takes.
type timedRenderer struct {
	r look.Renderer
	m *metrics.Metrics
}

// Unwrap returns the renderer timed, for what it draws besides maps
// (replays).
func (t timedRenderer) Unwrap() look.Renderer { return t.r }

func (t timedRenderer) Render(ctx context.Context, s *state.State) ([]byte, error) {
	start := time.Now()
	defer func() { t.m.Render(time.Since(start)) }()
	return t.r.Render(ctx, s)
}

// botFlags are the flags of every command that runs the bot: the
// palette of the matches that choose none, and how long a lobby may wait.
type botFlags struct {
	palette   *string
	lobbyDays *float64
}

// botFlagsOf defines --palette and --lobby-days on fs.
func botFlagsOf(fs *flagSet) botFlags {
	return botFlags{palette: paletteFlag(fs), lobbyDays: lobbyFlag(fs)}
}

// values reads the flags, once parsed: --lobby-days's, then --palette's.
func (f botFlags) values() (render.Palette, time.Duration, error) {
	ttl, err := lobbyTTL(*f.lobbyDays)
	if err != nil {
		return 0, 0, err
	}
	palette, err := parsePalette(*f.palette)
	if err != nil {
		return 0, 0, err
	}
	return palette, ttl, nil
}

// lobbyFlag defines --lobby-days on fs.
func lobbyFlag(fs *flagSet) *float64 {
	return fs.Float64("lobby-days", bot.DefaultLobbyTTL.Hours()/24, "close lobbies that go this many `days` without a change and never start (0: never)")
}

// lobbyTTL turns --lobby-days into bot.Config.LobbyTTL.
func lobbyTTL(days float64) (time.Duration, error) {
	switch {
	case days < 0:
		return 0, usageError("--lobby-days %v: want 0 (never) or more", days)
	case days == 0:
		return -1, nil
	}
	return time.Duration(days * 24 * float64(time.Hour)), nil
}

// paletteFlag defines --palette on fs, for the bot: the colours of the
// matches that choose none.
func paletteFlag(fs *flagSet) *string {
	return fs.String("palette", command.PaletteStandard, "player colours of matches that choose none: `standard` (the rule book's) or colorblind (Okabe–Ito)")
}

// colourFlag defines --palette on fs, for the commands that draw an
// exported match: the same names as the bot's.
func colourFlag(fs *flagSet) *string {
	return fs.String("palette", command.PaletteStandard, "player colours: `standard` (the rule book's) or colorblind (Okabe–Ito)")
}

// parsePalette reads the value of --palette: the names the bot's palette
// option takes, and no other (render.ParsePalette takes more spellings,
// which no usage line names).
func parsePalette(s string) (render.Palette, error) {
	switch s {
	case command.PaletteStandard, command.PaletteColorBlind:
		return render.ParsePalette(s)
	case "default":
		return 0, usageError("--palette %q: the default is called standard; want standard or colorblind", s)
	}
	return 0, usageError("--palette %q: want standard or colorblind", s)
}

// dataDir is where the console keeps its database when none is given: the
// user's data directory ($XDG_DATA_HOME or ~/.local/share on Linux).
func dataDir(getenv func(string) string) (string, error) {
	if d := getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "riskbot"), nil
	}
	if runtime.GOOS == "linux" || runtime.GOOS == "freebsd" || runtime.GOOS == "openbsd" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		return filepath.Join(home, ".local", "share", "riskbot"), nil
	}
	d, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(d, "riskbot"), nil
}

// defaultDB puts the database in the user's data directory when --db was
// not given.
func defaultDB(db *string, getenv func(string) string) error {
	if *db != "" {
		return nil
	}
	dir, err := dataDir(getenv)
	if err != nil {
		return fmt.Errorf("find your data directory (use --db): %w", err)
	}
	*db = filepath.Join(dir, "risk.db")
	return nil
}

// dbFlag defines --db on fs, for every subcommand that opens the bot's
// database: all of them default to the same one (defaultDB). more says
// what is particular to the command, if anything.
func dbFlag(fs *flagSet, more string) *string {
	usage := "the database: a SQLite `file`, or a PostgreSQL address postgres://USER@HOST:PORT/DB (default: risk.db in your data directory"
	if more != "" {
		usage += "; " + more
	}
	return fs.String("db", "", usage+")")
}

// openStore opens the database at addr, a PostgreSQL address
// (postgres://...) or the path of a SQLite file, created with its folder
// if missing.
func openStore(ctx context.Context, addr string) (store, error) {
	if postgres.IsAddress(addr) {
		return postgres.Open(ctx, addr)
	}
	if err := os.MkdirAll(filepath.Dir(addr), 0o755); err != nil {
		return nil, fmt.Errorf("create the database folder: %w", err)
	}
	return sqlite.Open(ctx, addr)
}

// openDefault opens the database of --db, the default one if it is unset
// (defaultDB), which must exist: what backup, export and stats read.
func openDefault(ctx context.Context, path *string, getenv func(string) string) (store, error) {
	if err := defaultDB(path, getenv); err != nil {
		return nil, err
	}
	return openExisting(ctx, *path)
}

// openExisting opens a database that must exist already: opening creates a
// missing SQLite file, and a mistyped path would read nothing from a new,
// empty database.
func openExisting(ctx context.Context, addr string) (store, error) {
	if !postgres.IsAddress(addr) {
		if _, err := os.Stat(addr); errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("no database at %s", addr)
		}
	}
	return openStore(ctx, addr)
}

// instanceFlag defines --instance on fs.
func instanceFlag(fs *flagSet) *string {
	return fs.String("instance", "", "this process's `name` among those sharing a PostgreSQL database, unique to it and kept across its restarts\n"+
		"(its claims on timers, posts and computer turns are taken back at once when it restarts under the same name);\n"+
		"default: HOSTNAME-PID with PostgreSQL, one per scope with SQLite")
}

// instanceName is the value of --instance, or its default for the
// database: a name no other live process has, with PostgreSQL (a process
// restarted under a new name waits for its old claims' leases to end);
// with SQLite, one process per scope, the bot's default.
func instanceName(flag, db string) string {
	if flag != "" || !postgres.IsAddress(db) {
		return flag
	}
	host, err := os.Hostname()
	if err != nil {
		host = "risk"
	}
	return fmt.Sprintf("%s-%d", host, os.Getpid())
}
