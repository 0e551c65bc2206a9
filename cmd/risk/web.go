package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/web"
)

// runWeb is `risk web [--addr HOST:PORT] [--db PATH]`: the page, the
// spectators' pages and the match API.
func runWeb(ctx context.Context, e env) error {
	fs := newFlags(e, "web", "{conns}", connsUsage)
	addr := fs.String("addr", "127.0.0.1:8080", "the `address` to listen on (anyone who reaches the page may name players and open matches: keep it on the loopback address, or behind a proxy that checks who comes in)")
	operator := fs.Bool("operator", true, "print the operator's link (false: the page has no admin)")
	limitList := fs.String("limits", "", "what visitors may create, `KEY=N,...`: names (a browser's names, default 6), page-names (2000), matches (open matches a browser's names host, 3), page-matches (200), name-days (a name unused that long with no match under way is free, 30)")
	hostList := fs.String("host", "", "the `names` the server is reached by, comma-separated, besides localhost and addresses (the machine's name, or a TLS proxy's; with the port if not the scheme's, e.g. box.lan:8443; http://NAME for one served over plain HTTP): requests for any other name get 421")
	db := dbFlag(fs, "shared with the console")
	seed := fs.Uint64("seed", 0, "seed for new matches (0: random)")
	sf := serveFlagsOf(fs)
	if err := parseNoArgs(fs, e.args); err != nil {
		return err
	}
	palette, ttl, err := sf.values()
	if err != nil {
		return err
	}
	limits, err := parseLimits(*limitList)
	if err != nil {
		return err
	}
	key := ""
	if *operator {
		if key, err = operatorKey(e.getenv); err != nil {
			return err
		}
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
	srv := web.New(web.Config{Store: store, Log: log, Hosts: hostNames(*addr, *hostList), Limits: limits, OperatorKey: key})
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
	// The page keeps its channels' messages in memory: each open match's
	// are told again, before anything new is posted.
	if err := srv.Restore(ctx); err != nil {
		log.Error("restore the channels", "err", err)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "Risk on the web: open http://%s/ in your browser (database %s). Ctrl-C stops.\n", ln.Addr(), *db)
	switch {
	case key == "":
	case e.getenv(operatorEnv) != "":
		fmt.Fprintf(e.stdout, "Operator (the page's admin): open http://%s/#operator=$%s in your browser.\n", ln.Addr(), operatorEnv)
	default:
		fmt.Fprintf(e.stdout, "Operator (the page's admin): open http://%s/#operator=%s in your browser (this key lasts until risk web stops).\n", ln.Addr(), key)
	}
	// The clock: deadlines, reminders, and computer players left waiting
	// by an earlier run.
	defer startTimers(ctx, b, 15*time.Second)()
	return srv.Serve(ctx, ln, *sf.conns)
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

// operatorEnv names the environment variable of a lasting operator's key.
const operatorEnv = "RISK_WEB_OPERATOR_KEY"

// operatorKey is the page operator's key: the environment's, or a new one.
func operatorKey(getenv func(string) string) (string, error) {
	if k := getenv(operatorEnv); k != "" {
		if len(k) < 16 || strings.ContainsAny(k, " \t\n#&") {
			return "", usageError("%s: want 16 characters or more, without spaces, '#' or '&'", operatorEnv)
		}
		return k, nil
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// parseLimits reads --limits: KEY=N pairs, comma-separated.
func parseLimits(list string) (web.Limits, error) {
	var l web.Limits
	fields := map[string]*int{"names": &l.NamesPerBrowser, "page-names": &l.Names, "matches": &l.MatchesPerBrowser, "page-matches": &l.Matches, "name-days": &l.NameDays}
	for kv := range strings.SplitSeq(list, ",") {
		if kv = strings.TrimSpace(kv); kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		f, ok := fields[strings.TrimSpace(k)]
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if !ok || err != nil || n < 1 || n > 1_000_000 {
			return l, usageError("--limits: %q: want KEY=N with N from 1 to 1000000, KEY one of names, page-names, matches, page-matches, name-days", kv)
		}
		*f = n
	}
	return l, nil
}
