// Package discord is the Discord adapter of the bot: it connects to
// Discord's gateway with discordgo, registers the /risk slash command,
// turns interactions (slash commands, autocomplete, button clicks) into
// the core's requests, and delivers the core's messages within Discord's
// rules and limits.
//
// The adapter asks for no gateway intents at all (slash commands need
// none), answers every interaction within Discord's 3 s deadline
// (deferring before any slow work such as rendering the map), and lets a
// message notify only the users the core names. The translation between
// Discord's payloads and the core's types is plain functions, tested with
// real interaction JSON; the rest is tested against an in-process fake
// Discord (internal/fakediscord) through the real discordgo library.
package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
)

// Core is the part of the bot core the adapter drives; *bot.Bot implements
// it.
type Core interface {
	Handle(ctx context.Context, req chat.Request, r chat.Replier) error
	HandleClick(ctx context.Context, c chat.Click, r chat.Replier) error
	Autocomplete(ctx context.Context, req chat.Request, focused string) []chat.Choice
	Specs() []command.Spec
}

var _ Core = (*bot.Bot)(nil)

// Timing of answers. Discord's 3 s run from when it sends the interaction:
// the adapter counts from when the event arrives, not from when its
// handler gets to run, which under load can be much later.
const (
	// DefaultDeferAfter is how long after an interaction arrives the
	// adapter waits for the core's answer to a quick command (Spec.Quick)
	// before acknowledging it itself, well inside Discord's 3 s. Other
	// commands, and clicks, are acknowledged as soon as they arrive.
	DefaultDeferAfter = 1500 * time.Millisecond
	// autocompleteWait bounds the core's autocomplete: an answer without
	// suggestions beats no answer.
	autocompleteWait = 2 * time.Second
	// tokenTTL is how long an interaction's token lets the bot answer.
	tokenTTL = 15 * time.Minute
	// shutdownGrace lets interactions in flight finish their answers.
	shutdownGrace = 10 * time.Second
)

// Config configures an Adapter.
type Config struct {
	// Token is the bot's token (from the developer portal's Bot page).
	Token string
	// GuildID, if set, registers /risk in that server only, where it shows
	// up at once (handy while developing); else /risk is global.
	GuildID string
	Log     *slog.Logger
	// HTTPClient carries the REST calls, the gateway lookup included; nil
	// keeps discordgo's. Tests point it at a fake Discord.
	HTTPClient *http.Client
	// DeferAfter is how long after a quick command arrives to wait for the
	// core before deferring; zero means DefaultDeferAfter.
	DeferAfter time.Duration
	// MaxInFlight bounds the interactions the core works on at once; the
	// others wait their turn, acknowledged. Zero means DefaultMaxInFlight.
	MaxInFlight int
	// Shard and Shards split the bot's servers between gateway
	// connections (Discord's sharding): this one is shard Shard of Shards
	// (0 <= Shard < Shards). Shards 0 or 1 means no sharding. Only shard 0
	// registers the command.
	Shard, Shards int
	// ApplicationID is the bot's application, for registering the command
	// where no READY tells it (the HTTP interactions endpoint).
	ApplicationID string
	// Meter is told how long answers take; nil tells nobody.
	Meter Meter
}

// Meter is told how long answers take, for metrics (package metrics).
type Meter interface {
	// Answer is the time from an interaction's arrival to its answer
	// being out, by kind: command, click, autocomplete.
	Answer(kind string, d time.Duration)
}

type noMeter struct{}

func (noMeter) Answer(string, time.Duration) {}

// DefaultMaxInFlight is how many interactions the core works on at once
// unless Config.MaxInFlight says otherwise: enough to keep the processor
// and the database busy, few enough that 50 busy channels do not make
// every answer late.
func DefaultMaxInFlight() int { return max(4, 2*runtime.GOMAXPROCS(0)) }

// Adapter connects the bot core to Discord. It is also the core's Poster.
type Adapter struct {
	s          *discordgo.Session
	guild      string
	log        *slog.Logger
	deferAfter time.Duration
	// completeWait bounds the core's autocomplete (autocompleteWait).
	completeWait time.Duration
	// slots holds a token per interaction the core works on.
	slots chan struct{}
	// shard is this connection's shard: only shard 0 registers.
	shard int
	// app is the configured application ID (READY's wins).
	app   string
	meter Meter
	// files downloads the files attached to commands (attachments.go).
	files *http.Client
}

var (
	_ chat.Poster       = (*Adapter)(nil)
	_ chat.Editor       = (*Adapter)(nil)
	_ chat.DirectPoster = (*Adapter)(nil)
	_ chat.Threader     = (*Adapter)(nil)
	_ chat.TeamThreader = (*Adapter)(nil)
)

// session is a REST session for the bot token ("Bot " before it or not)
// that keeps no state, its calls carried by client (nil: discordgo's).
// Discord's 429s are waited out within each call's context, a few times at
// most (ratelimit.go), never for ever as discordgo would.
func session(token string, client *http.Client) (*discordgo.Session, error) {
	token = strings.TrimSpace(token)
	// Pasted as Discord's header writes it: "Bot TOKEN".
	if rest, ok := strings.CutPrefix(token, "Bot"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
		token = strings.TrimSpace(rest)
	}
	if token == "" {
		return nil, errors.New("no bot token")
	}
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, fmt.Errorf("session: %w", err)
	}
	s.StateEnabled = false
	if client != nil {
		s.Client = client
	}
	s.Client = limitRate(s.Client)
	return s, nil
}

// New returns an adapter for the bot token; Run connects it.
func New(cfg Config) (*Adapter, error) {
	s, err := session(cfg.Token, cfg.HTTPClient)
	if err != nil {
		return nil, fmt.Errorf("discord: %w", err)
	}
	// Slash commands need no gateway intents, and no privileged ones above
	// all: the bot reads no messages, members or presences.
	s.Identify.Intents = discordgo.IntentsNone
	if cfg.Shards > 1 {
		if cfg.Shard < 0 || cfg.Shard >= cfg.Shards {
			return nil, fmt.Errorf("discord: shard %d of %d: want 0 to %d", cfg.Shard, cfg.Shards, cfg.Shards-1)
		}
		s.ShardID, s.ShardCount = cfg.Shard, cfg.Shards
	}
	inFlight := cfg.MaxInFlight
	if inFlight <= 0 {
		inFlight = DefaultMaxInFlight()
	}
	a := &Adapter{s: s, guild: cfg.GuildID, log: cfg.Log, deferAfter: cfg.DeferAfter, completeWait: autocompleteWait, slots: make(chan struct{}, inFlight),
		shard: cfg.Shard, app: cfg.ApplicationID, meter: cfg.Meter, files: fileClient(cfg.HTTPClient)}
	if a.meter == nil {
		a.meter = noMeter{}
	}
	if a.log == nil {
		a.log = slog.New(slog.DiscardHandler)
	}
	if a.deferAfter <= 0 {
		a.deferAfter = DefaultDeferAfter
	}
	return a, nil
}

// Run connects to Discord, registers /risk and answers interactions with
// the core until ctx ends; then it disconnects and lets the answers in
// flight finish (for a few seconds at most). discordgo reconnects by itself
// after network trouble.
func (a *Adapter) Run(ctx context.Context, core Core) error {
	// Answers in flight outlive ctx a little, so that a shutdown does not
	// leave people without an answer.
	hctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		closed bool
	)
	remove := []func(){
		a.s.AddHandler(func(_ *discordgo.Session, ic *discordgo.InteractionCreate) {
			arrived := time.Now()
			mu.Lock()
			if closed {
				mu.Unlock()
				return
			}
			wg.Add(1)
			mu.Unlock()
			defer wg.Done()
			ictx, icancel := context.WithTimeout(hctx, tokenTTL)
			defer icancel()
			if err := a.handle(ictx, core, ic.Interaction, arrived); err != nil {
				a.log.Error("interaction", "id", ic.ID, "channel", ic.ChannelID, "err", err)
			}
		}),
		a.s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Disconnect) {
			if ctx.Err() == nil {
				a.log.Warn("disconnected from Discord; reconnecting")
			}
		}),
		a.s.AddHandler(func(_ *discordgo.Session, _ *discordgo.Resumed) { a.log.Info("session resumed") }),
	}
	defer func() {
		for _, f := range remove {
			f()
		}
	}()
	if err := a.open(ctx); err != nil {
		if ctx.Err() != nil {
			return nil // stopped before it could connect
		}
		return err
	}
	var err error
	if a.shard == 0 {
		err = a.register(ctx, core.Specs())
	} else {
		a.log.Info("shard: shard 0 registers the command", "shard", a.shard)
	}
	if err == nil {
		<-ctx.Done()
	}
	if cerr := a.s.Close(); cerr != nil {
		a.log.Warn("disconnect", "err", cerr)
	}
	mu.Lock()
	closed = true
	mu.Unlock()
	a.drain(wg.Wait, cancel)
	return err
}

// drain lets the answers in flight finish (wait returns when they have)
// for shutdownGrace, then cancels them and waits for them to stop.
func (a *Adapter) drain(wait, cancel func()) {
	done := make(chan struct{})
	go func() { wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(shutdownGrace):
		a.log.Warn("shutdown: cancelling answers still in flight")
		cancel()
		<-done
	}
}

// open connects to the gateway, retrying with a growing pause while the
// network fails, but not when Discord refuses the token: a crash loop
// would burn the 1000 logins a day a token gets.
func (a *Adapter) open(ctx context.Context) error {
	pause := time.Second
	for {
		err := a.s.Open()
		if err == nil {
			a.log.Info("connected to Discord", "bot", a.botName(), "application", a.applicationID())
			return nil
		}
		if fatal(err) {
			return fmt.Errorf("discord: Discord refused the connection (check DISCORD_TOKEN and the bot's settings): %w", err)
		}
		a.log.Warn("connect to Discord", "err", err, "retry in", pause)
		select {
		case <-ctx.Done():
			return fmt.Errorf("discord: connect: %w", err)
		case <-time.After(pause):
		}
		pause = min(2*pause, time.Minute)
	}
}

// fatal reports whether a failure to connect will not go away by trying
// again: a refused token, or gateway settings Discord rejects.
func fatal(err error) bool {
	var rest *discordgo.RESTError
	if errors.As(err, &rest) && rest.Response != nil {
		return rest.Response.StatusCode == http.StatusUnauthorized || rest.Response.StatusCode == http.StatusForbidden
	}
	var ce *websocket.CloseError
	if errors.As(err, &ce) {
		switch ce.Code {
		case 4004, // authentication failed
			4010, 4011, 4012, // invalid shard, sharding required, invalid API version
			4013, 4014: // invalid or disallowed intents
			return true
		}
	}
	return false
}

// applicationID is the bot's application, as READY told it.
func (a *Adapter) applicationID() string {
	a.s.State.RLock()
	defer a.s.State.RUnlock()
	if app := a.s.State.Application; app != nil && app.ID != "" {
		return app.ID
	}
	return a.app
}

// Register installs /risk and /risk-admin by bulk overwrite, as Run does at its start: for
// the HTTP interactions endpoint, which has no gateway (Config.ApplicationID
// says the application).
func (a *Adapter) Register(ctx context.Context, specs []command.Spec) error {
	return a.register(ctx, specs)
}

// botName is the bot user's name, as READY told it.
func (a *Adapter) botName() string {
	a.s.State.RLock()
	defer a.s.State.RUnlock()
	if u := a.s.State.User; u != nil {
		return u.Username
	}
	return ""
}

// register installs /risk and /risk-admin by one bulk overwrite, in the
// configured server or globally: the command list then is exactly those
// two, and registering the same commands again at every start costs
// nothing.
func (a *Adapter) register(ctx context.Context, specs []command.Spec) error {
	app := a.applicationID()
	if app == "" {
		return errors.New("discord: READY did not say the application ID")
	}
	cmds := Commands(specs, a.guild == "")
	if _, err := a.s.ApplicationCommandBulkOverwrite(app, a.guild, cmds, discordgo.WithContext(ctx)); err != nil {
		where := "globally"
		if a.guild != "" {
			where = "in server " + a.guild
		}
		return fmt.Errorf("discord: register /%s and /%s %s: %w", command.CommandName, command.AdminCommandName, where, err)
	}
	scope := "global (it may take a while to show up)"
	if a.guild != "" {
		scope = "server " + a.guild
	}
	a.log.Info("registered the slash commands", "commands", "/"+command.CommandName+" /"+command.AdminCommandName, "subcommands", len(specs), "scope", scope)
	return nil
}
