package main

import (
	"context"
	"log/slog"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/discord"
)

// runDiscord is `risk discord [--db PATH] [--palette NAME] [--lobby-days N] [-v]`: the Discord bot. The token
// comes from the environment only (a flag would show in the process list).
func runDiscord(ctx context.Context, e env) error {
	fs := newFlags(e, "discord", "[--db PATH] [--palette NAME] [--lobby-days N] [-v]\n\n"+
		"Runs the Discord bot until interrupted (SIGINT or SIGTERM). Environment:\n"+
		"  DISCORD_TOKEN     the bot's token (required)\n"+
		"  DISCORD_GUILD_ID  a server ID: register /risk there only, at once (else globally)\n"+
		"See docs/discord.md for creating the application and inviting the bot.")
	db := fs.String("db", "", "database `file` (default: risk.db in your data directory)")
	verbose := fs.Bool("v", false, "log every interaction")
	paletteName := paletteFlag(fs)
	lobbyDays := lobbyFlag(fs)
	if err := parseFlags(fs, e.args); err != nil {
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
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	token := strings.TrimSpace(e.getenv("DISCORD_TOKEN"))
	if token == "" {
		return usageError("DISCORD_TOKEN is not set: put the bot's token (developer portal, Bot page) in the environment")
	}
	guild := strings.TrimSpace(e.getenv("DISCORD_GUILD_ID"))
	if guild != "" && strings.Trim(guild, "0123456789") != "" {
		return usageError("DISCORD_GUILD_ID %q is not a server ID (a number: enable Developer Mode, right-click the server, Copy Server ID)", guild)
	}
	if err := defaultDB(db, e.getenv); err != nil {
		return err
	}
	level := slog.LevelInfo
	if *verbose {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(e.stderr, &slog.HandlerOptions{Level: level}))

	store, err := openDB(ctx, *db)
	if err != nil {
		return err
	}
	defer store.Close()
	a, err := discord.New(discord.Config{Token: token, GuildID: guild, Log: log})
	if err != nil {
		return err
	}
	b, err := newBot(botDeps{db: store, poster: a, log: log, palette: palette, scope: "discord:", lobbyTTL: ttl})
	if err != nil {
		return err
	}
	defer b.Close()
	log.Info("starting", "database", *db)

	timers, stopTimers := context.WithCancel(ctx)
	timersDone := make(chan struct{})
	go func() {
		defer close(timersDone)
		b.RunTimers(timers, time.Minute)
	}()
	err = a.Run(ctx, b)
	stopTimers()
	<-timersDone
	if err == nil {
		log.Info("stopped")
	}
	return err
}
