package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/storage"
)

// botDeps are the parts a bot is wired from.
type botDeps struct {
	db     *storage.DB
	poster bot.Poster
	log    *slog.Logger
	seed   func() uint64
	// palette colours the players on the maps and in the chat text.
	palette render.Palette
	// scope is the channels the bot looks after (bot.Config.Scope).
	scope string
	// lobbyTTL closes lobbies idle that long (bot.Config.LobbyTTL).
	lobbyTTL time.Duration
}

// newBot wires the bot core to storage and the standard renderer and
// computer players.
func newBot(d botDeps) (*bot.Bot, error) {
	// A match may choose its palette; d.palette is the one of matches that
	// do not.
	pals := bot.StandardPalettes()
	def := pals[bot.PaletteStandard]
	if d.palette == render.ColorBlind {
		def = pals[bot.PaletteColorBlind]
	}
	return bot.New(bot.Standard(bot.Config{Store: d.db, Poster: d.poster, Seed: d.seed, Log: d.log,
		Render: def.Render, Colors: def.Colors, Palettes: pals, Scope: d.scope, LobbyTTL: d.lobbyTTL}))
}

// lobbyFlag defines --lobby-days on fs.
func lobbyFlag(fs *flag.FlagSet) *float64 {
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

// paletteFlag defines --palette on fs.
func paletteFlag(fs *flag.FlagSet) *string {
	return fs.String("palette", "standard", "player colours of matches that choose none: `standard` (the rule book's) or colorblind (Okabe–Ito)")
}

// parsePalette reads the value of --palette.
func parsePalette(s string) (render.Palette, error) {
	p, err := render.ParsePalette(s)
	if err != nil {
		return 0, usageError("--palette %q: want standard or colorblind", s)
	}
	return p, nil
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

// openDB opens (creating) the database at path, making its folder.
func openDB(ctx context.Context, path string) (*storage.DB, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("create the database folder: %w", err)
	}
	return storage.Open(ctx, path)
}
