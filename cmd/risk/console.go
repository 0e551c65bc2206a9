package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/console"
)

// runConsole is `risk console [--db PATH] [--images DIR] [--channel NAME] ... [FILE]`.
func runConsole(ctx context.Context, e env) error {
	fs := newFlags(e, "console")
	db := dbFlag(fs, "")
	images := fs.String("images", "", "`folder` for the maps, a folder per channel (default: maps/ beside the database)")
	keep := fs.Int("keep-maps", console.DefaultKeepMaps, "keep the last `N` maps of a channel, deleting older ones (0: keep all)")
	channel := fs.String("channel", "main", "channel `name`: one match per channel; web:NAME plays the page's channel NAME (risk web), as its players")
	name := fs.String("name", "", "your player `name` for lines that do not start with NAME: (default: your login name, else Player)")
	seed := fs.Uint64("seed", 0, "seed for new matches (0: random); a fixed seed replays a transcript exactly")
	bf := botFlagsOf(fs)
	language := fs.String("lang", "", "your `language` and the new matches' (en, fr; default: $LANG's if the bot has it, else English)")
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if *name == "" {
		*name = loginName(e.getenv)
	} else if _, err := console.ParseLine("/as "+*name, ""); err != nil {
		return usageError("--name %q: %v", *name, err)
	}
	palette, ttl, err := bf.values()
	if err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return usageError("want at most one transcript file")
	}
	if err := defaultDB(db, e.getenv); err != nil {
		return err
	}
	if *images == "" {
		*images = filepath.Join(filepath.Dir(*db), "maps")
	}
	in, prompt := e.stdin, isTerminal(e.stdin)
	if fs.NArg() == 1 {
		f, err := os.Open(fs.Arg(0))
		if err != nil {
			return err
		}
		defer f.Close()
		in, prompt = f, false
	}
	store, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	ch, err := consoleChannel(*channel)
	if err != nil {
		return err
	}
	con := console.New(e.stdout, ch, *images)
	con.Name = *name
	con.Lang, err = consoleLang(*language, e.getenv)
	if err != nil {
		return err
	}
	con.KeepMaps = *keep
	if *keep <= 0 {
		con.KeepMaps = -1 // keep all (the console's zero is its default)
	}
	var seedFn func() uint64
	if *seed != 0 {
		n := *seed
		seedFn = func() uint64 { n++; return n - 1 }
	}
	b, err := newBot(botDeps{db: store, poster: con, log: slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn})), seed: seedFn, palette: palette, scope: con.Channel, lobbyTTL: ttl})
	if err != nil {
		return err
	}
	defer b.Close()
	con.SetBot(b)
	if prompt {
		fmt.Fprintf(e.stdout, "Risk console: database %s, maps in %s.\nType /risk help to begin, or /risk new to start a match. Ctrl-D quits.\n", *db, *images)
	}
	return con.Run(ctx, in, prompt)
}

// isTerminal reports whether r is an interactive terminal.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// loginName is the console's player when --name is not given: the login
// name, capitalised, if it makes a player name, else "Player". The bot
// speaks of players in the third person ("Ann chooses first"), so the
// default is a name, not "You".
func loginName(getenv func(string) string) string {
	for _, k := range []string{"USER", "LOGNAME", "USERNAME"} {
		u := getenv(k)
		if u == "" {
			continue
		}
		r, size := utf8.DecodeRuneInString(u)
		u = string(unicode.ToUpper(r)) + u[size:]
		if _, err := console.ParseLine("/as "+u, ""); err == nil {
			return u
		}
	}
	return "Player"
}

// consoleChannel is the channel --channel names: the console's own
// ("main": console:main, as typed), or the page's ("web:caps", in lower
// case as the page names them), whose match the console plays as the
// page's players. Quit risk web on that database first: the console
// delivers that channel's posts to the terminal.
func consoleChannel(name string) (string, error) {
	rest, ok := strings.CutPrefix(name, "web:")
	if !ok {
		return "console:" + name, nil
	}
	if rest == "" || len(rest) > 40 || strings.ContainsAny(rest, ": /") {
		return "", usageError("--channel web:NAME: want the page's channel name, 1 to 40 letters, digits, '-' or '_'")
	}
	return "web:" + strings.ToLower(rest), nil
}

// consoleLang is the console's language: --lang's, else $LANG's when the
// bot speaks it (fr_FR.UTF-8), else English.
func consoleLang(flag string, getenv func(string) string) (string, error) {
	if flag != "" {
		t, ok := lang.Parse(flag)
		if !ok {
			return "", usageError("--lang %q: the bot speaks en and fr", flag)
		}
		return string(t), nil
	}
	if t, ok := lang.Parse(strings.SplitN(getenv("LANG"), ".", 2)[0]); ok {
		return string(t), nil
	}
	return string(lang.English), nil
}
