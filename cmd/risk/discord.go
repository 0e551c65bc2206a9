package main

import (
	"context"
	"crypto/ed25519"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord"
	"github.com/riskbot/riskbot/bot/httpserve"
	"github.com/riskbot/riskbot/bot/metrics"
	"github.com/riskbot/riskbot/bot/web"
)

// runDiscord is `risk discord [--db PATH] [--http ADDR | --shard I/N] ...`: the Discord bot, on the
// gateway or as Discord's HTTP interactions endpoint. Secrets come from the environment only (a flag
// would show in the process list).
func runDiscord(ctx context.Context, e env) error {
	fs := newFlags(e, "discord", "{conns}", connsUsage)
	db := dbFlag(fs, "")
	httpAddr := fs.String("http", "", "serve Discord's interactions over HTTP on `ADDR` (host:port) instead of the gateway")
	shardFlag := fs.String("shard", "", "connect to the gateway as shard `I/N` of N (only shard 0 registers /risk)")
	metricsAddr := fs.String("metrics", "", "serve /metrics (Prometheus), /healthz and /readyz on `ADDR` (host:port)")
	verbose := fs.Bool("v", false, "log every interaction")
	sf := serveFlagsOf(fs)
	instance := instanceFlag(fs)
	check := fs.Bool("check", false, "check the setup (token, application, /risk, database; with --http the public key) and exit: 0 if all is well")
	channel := fs.String("channel", "", "with --check: check the bot's permissions in the channel of this `ID`")
	activityFlags := activityFlagsOf(fs)
	if err := parseFlags(fs, e.args); err != nil {
		return err
	}
	palette, ttl, err := sf.values()
	if err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	shard, shards, err := parseShard(*shardFlag)
	if err != nil {
		return err
	}
	if *httpAddr != "" && shards > 0 {
		return usageError("--http and --shard: the HTTP endpoint takes every interaction, a shard those of its servers; choose one")
	}
	token := strings.TrimSpace(e.getenv("DISCORD_TOKEN"))
	if token == "" {
		return usageError("DISCORD_TOKEN is not set: put the bot's token (developer portal, Bot page) in the environment")
	}
	guild := strings.TrimSpace(e.getenv("DISCORD_GUILD_ID"))
	if guild != "" && strings.Trim(guild, "0123456789") != "" {
		return usageError("DISCORD_GUILD_ID %q is not a server ID (a number: enable Developer Mode, right-click the server, Copy Server ID)", guild)
	}
	var key ed25519.PublicKey
	app := strings.TrimSpace(e.getenv("DISCORD_APPLICATION_ID"))
	if *channel != "" && (!*check || strings.Trim(*channel, "0123456789") != "") {
		return usageError("--channel %q: want a channel ID (a number: Developer Mode on, right-click the channel, Copy Channel ID) with --check", *channel)
	}
	if *check {
		if err := defaultDB(db, e.getenv); err != nil {
			return err
		}
		return checkSetup(ctx, e, discord.CheckConfig{Token: token, ApplicationID: app, GuildID: guild, HTTP: *httpAddr != "",
			PublicKey: strings.TrimSpace(e.getenv("DISCORD_PUBLIC_KEY")), Channel: *channel}, *db)
	}
	if *httpAddr != "" {
		pk := strings.TrimSpace(e.getenv("DISCORD_PUBLIC_KEY"))
		if pk == "" {
			return usageError("DISCORD_PUBLIC_KEY is not set: --http checks every request against the application's public key (developer portal, General Information)")
		}
		if key, err = discord.ParsePublicKey(pk); err != nil {
			return usageError("DISCORD_PUBLIC_KEY: %v", err)
		}
		if app == "" || strings.Trim(app, "0123456789") != "" {
			return usageError("DISCORD_APPLICATION_ID %q is not an application ID (developer portal, General Information): --http registers /risk with it", app)
		}
	}
	act, err := activityFlags.check(e.getenv, app)
	if err != nil {
		return err
	}
	if err := defaultDB(db, e.getenv); err != nil {
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))

	name := instanceName(*instance, *db)
	store, err := openStore(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	m := metrics.New(store)
	a, err := discord.New(discord.Config{Token: token, GuildID: guild, Log: log, Shard: shard, Shards: shards, ApplicationID: app, Meter: m})
	if err != nil {
		return err
	}
	var poster chat.Poster = a
	var page *web.Server
	if act != nil {
		page = act.page(store, token, a, log)
		poster = mirrored{Adapter: a, page: page}
	}
	b, err := newBot(botDeps{db: store, poster: poster, log: log, palette: palette, scope: "discord:", lobbyTTL: ttl, instance: name, metrics: m,
		playOnMap: page != nil})
	if err != nil {
		return err
	}
	defer b.Close()
	if page != nil {
		page.SetBot(b)
		stop, err := act.serve(ctx, page, *sf.conns, log)
		if err != nil {
			return err
		}
		defer stop()
	}
	log.Info("starting", "database", redacted(*db), "instance", name)

	if *metricsAddr != "" {
		stopMetrics, err := serve(*metricsAddr, m.Handler(), "metrics and health", log)
		if err != nil {
			return err
		}
		defer stopMetrics()
	}
	stopTimers := startTimers(ctx, b, time.Minute)
	if *httpAddr != "" {
		err = serveHTTP(ctx, a, b, m, key, *httpAddr, *sf.conns)
	} else {
		err = a.Run(ctx, b)
	}
	stopTimers()
	if err == nil {
		log.Info("stopped")
	}
	return err
}

// checkSetup is `risk discord --check`: it prints what discord.Check
// finds, with the database the bot would open, and fails unless every
// check passed.
func checkSetup(ctx context.Context, e env, cfg discord.CheckConfig, db string) error {
	cfg.DatabaseName = redacted(db)
	cfg.Database = func(ctx context.Context) error {
		st, err := openStore(ctx, db)
		if err != nil {
			return err
		}
		defer st.Close()
		return st.Ready(ctx)
	}
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	r, err := discord.Check(ctx, cfg)
	if err != nil {
		return err
	}
	fmt.Fprint(e.stdout, r)
	if n := r.Failed(); n > 0 {
		return fmt.Errorf("the check failed: %d ✗ above, each with its fix", n)
	}
	return nil
}

// parseShard reads --shard I/N (0 <= I < N); "" is no sharding.
func parseShard(s string) (shard, shards int, err error) {
	if s == "" {
		return 0, 0, nil
	}
	i, n, ok := strings.Cut(s, "/")
	shard, err1 := strconv.Atoi(i)
	shards, err2 := strconv.Atoi(n)
	if !ok || err1 != nil || err2 != nil || shards < 1 || shard < 0 || shard >= shards {
		return 0, 0, usageError("--shard %q: want I/N with 0 <= I < N, such as 0/2", s)
	}
	return shard, shards, nil
}

// serveHTTP listens on addr and serves Discord's interactions there
// (discord.Adapter.Serve) until ctx ends, with the health checks on the
// same port.
func serveHTTP(ctx context.Context, a *discord.Adapter, b *bot.Bot, m *metrics.Metrics, key ed25519.PublicKey, addr string, limits httpserve.Limits) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", addr, err)
	}
	return a.Serve(ctx, b, ln, discord.ServeConfig{Key: key, Limits: limits, Health: m.Health})
}

// serve serves h on addr in the background, and returns the function that
// stops it.
func serve(addr string, h http.Handler, what string, log *slog.Logger) (func(), error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("listen on %s for %s: %w", addr, what, err)
	}
	srv := httpserve.New(httpserve.Config{Handler: h, Limits: httpserve.Defaults(), Log: log})
	log.Info("serving "+what, "addr", ln.Addr().String())
	go srv.Serve(ln)
	return func() { srv.Close() }, nil
}
