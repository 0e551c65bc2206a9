package main

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/web"
)

// runWeb is `risk web [--addr HOST:PORT] [--db PATH]`: the page, the
// spectators' pages and the match API.
func runWeb(ctx context.Context, e env) error {
	fs := newFlags(e, "web", "[--addr HOST:PORT] [--host NAME,...] [--db PATH] [--seed N] [--palette standard|colorblind]\n    [--lobby-days N] "+limitsUsage+"\n\n"+
		"Serves a page that plays like a Discord channel with the bot in it (one match per channel),\n"+
		"a page per match for spectators, and the match API (docs/api.md, with its threat model).")
	addr := fs.String("addr", "127.0.0.1:8080", "the `address` to listen on (the page trusts whoever reaches it: keep it on the loopback address, or behind a proxy that checks who comes in)")
	hostList := fs.String("host", "", "the `names` the server is reached by, comma-separated, besides localhost and addresses (the machine's name, or a TLS proxy's; with the port if not the scheme's, e.g. box.lan:8443; http://NAME for one served over plain HTTP): requests for any other name get 421")
	db := dbFlag(fs, "shared with the console")
	seed := fs.Uint64("seed", 0, "seed for new matches (0: random)")
	paletteName := paletteFlag(fs)
	lobbyDays := lobbyFlag(fs)
	limits := limitFlags(fs)
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if err := checkLimits(limits); err != nil {
		return err
	}
	ttl, err := lobbyTTL(*lobbyDays)
	if err != nil {
		return err
	}
	palette, err := parsePalette(*paletteName)
	if err != nil {
		return err
	}
	if err := defaultDB(db, e.getenv); err != nil {
		return err
	}
	store, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	srv := web.New(web.Config{Store: store, Log: log, Hosts: hostNames(*addr, *hostList)})
	var seedFn func() uint64
	if *seed != 0 {
		n := *seed
		seedFn = func() uint64 { n++; return n - 1 }
	}
	b, err := newBot(botDeps{db: store, poster: srv, log: log, seed: seedFn, palette: palette, scope: web.Prefix, lobbyTTL: ttl})
	if err != nil {
		return err
	}
	defer b.Close()
	srv.SetBot(b)
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Risk on the web: open http://%s/ in your browser (database %s). Ctrl-C stops.\n", ln.Addr(), *db)
	// The clock: deadlines, reminders, and computer players left waiting
	// by an earlier run.
	timers, stopTimers := context.WithCancel(ctx)
	timersDone := make(chan struct{})
	go func() {
		defer close(timersDone)
		b.RunTimers(timers, 15*time.Second)
	}()
	defer func() { stopTimers(); <-timersDone }()
	return srv.Serve(ctx, ln, *limits)
}

// hostNames lists the names the page answers to: those given, and the
// address it listens on, which it serves over plain HTTP.
func hostNames(addr, list string) []string {
	var names []string
	if h, _, err := net.SplitHostPort(addr); err == nil && h != "" {
		names = append(names, "http://"+addr)
	}
	for n := range strings.SplitSeq(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	return names
}
