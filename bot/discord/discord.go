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
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/bot/command"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/bwmarrin/discordgo"
	"github.com/gorilla/websocket"
	"github.com/riskbot/riskbot/bot"
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
}

var (
	_ chat.Poster       = (*Adapter)(nil)
	_ chat.Editor       = (*Adapter)(nil)
	_ chat.DirectPoster = (*Adapter)(nil)
	_ chat.Threader     = (*Adapter)(nil)
)

// threadArchiveMinutes is how long a match's thread stays open without a
// message before Discord hides it: a week, the most Discord allows, since
// a turn may take days. The bot archives it itself when the match ends.
const threadArchiveMinutes = 10080

// New returns an adapter for the bot token; Run connects it.
func New(cfg Config) (*Adapter, error) {
	token := strings.TrimSpace(strings.TrimPrefix(cfg.Token, "Bot "))
	if token == "" {
		return nil, errors.New("discord: no bot token")
	}
	s, err := discordgo.New("Bot " + token)
	if err != nil {
		return nil, fmt.Errorf("discord: session: %w", err)
	}
	// Slash commands need no gateway intents, and no privileged ones above
	// all: the bot reads no messages, members or presences.
	s.Identify.Intents = discordgo.IntentsNone
	s.StateEnabled = false
	if cfg.Shards > 1 {
		if cfg.Shard < 0 || cfg.Shard >= cfg.Shards {
			return nil, fmt.Errorf("discord: shard %d of %d: want 0 to %d", cfg.Shard, cfg.Shards, cfg.Shards-1)
		}
		s.ShardID, s.ShardCount = cfg.Shard, cfg.Shards
	}
	if cfg.HTTPClient != nil {
		s.Client = cfg.HTTPClient
	}
	inFlight := cfg.MaxInFlight
	if inFlight <= 0 {
		inFlight = DefaultMaxInFlight()
	}
	a := &Adapter{s: s, guild: cfg.GuildID, log: cfg.Log, deferAfter: cfg.DeferAfter, completeWait: autocompleteWait, slots: make(chan struct{}, inFlight),
		shard: cfg.Shard, app: cfg.ApplicationID, meter: cfg.Meter}
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
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(shutdownGrace):
		a.log.Warn("shutdown: cancelling answers still in flight")
		cancel()
		<-done
	}
	return err
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

// Register installs /risk by bulk overwrite, as Run does at its start: for
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

// register installs /risk by bulk overwrite, in the configured server or
// globally: the command list then is exactly /risk, and registering the
// same command again at every start costs nothing.
func (a *Adapter) register(ctx context.Context, specs []command.Spec) error {
	app := a.applicationID()
	if app == "" {
		return errors.New("discord: READY did not say the application ID")
	}
	cmd := Command(specs, a.guild == "")
	if _, err := a.s.ApplicationCommandBulkOverwrite(app, a.guild, []*discordgo.ApplicationCommand{cmd}, discordgo.WithContext(ctx)); err != nil {
		where := "globally"
		if a.guild != "" {
			where = "in server " + a.guild
		}
		return fmt.Errorf("discord: register /%s %s: %w", command.CommandName, where, err)
	}
	scope := "global (it may take a while to show up)"
	if a.guild != "" {
		scope = "server " + a.guild
	}
	a.log.Info("registered the slash command", "command", "/"+command.CommandName, "subcommands", len(specs), "scope", scope)
	return nil
}

// handle answers one interaction that arrived at the given time. The
// returned error is for the log: the user has been answered (or Discord
// could not be reached).
func (a *Adapter) handle(ctx context.Context, core Core, i *discordgo.Interaction, arrived time.Time) (err error) {
	log := a.log.With("interaction", i.ID, "channel", i.ChannelID)
	var req chat.Request
	var click chat.Click
	var bad error
	switch i.Type {
	case discordgo.InteractionApplicationCommandAutocomplete:
		defer func() { a.meter.Answer("autocomplete", time.Since(arrived)) }()
		return a.autocomplete(ctx, core, i, log, arrived)
	case discordgo.InteractionApplicationCommand:
		defer func() { a.meter.Answer("command", time.Since(arrived)) }()
		req, bad = requestOf(i)
	case discordgo.InteractionMessageComponent:
		defer func() { a.meter.Answer("click", time.Since(arrived)) }()
		click, bad = clickOf(i)
	default:
		log.Debug("ignored an interaction", "type", i.Type)
		return nil
	}
	// Anything that may be slow (a write, a map, computer turns after it)
	// is acknowledged at once; a quick command gets until deferAfter after
	// its arrival to answer by itself. Either way the clock started when
	// the interaction arrived.
	deferAt := arrived
	if bad != nil || (i.Type == discordgo.InteractionApplicationCommand && quick(core.Specs(), req.Command)) {
		deferAt = arrived.Add(a.deferAfter)
	}
	var how answerMode
	switch {
	case i.Type == discordgo.InteractionMessageComponent && i.Message != nil && i.Message.Flags&discordgo.MessageFlagsEphemeral != 0:
		// A button of a private answer: the answer replaces it, so that
		// superseded buttons go.
		how = updateClicked
	case i.Type == discordgo.InteractionMessageComponent && i.Message != nil && i.Message.ID != "":
		// A button of a public message: the answer replaces it if the core
		// says so (the lobby), else it is a message of its own.
		how = clickedPublic
	case bad == nil && i.Type == discordgo.InteractionApplicationCommand && answersPrivately(core.Specs(), req.Command):
		how = privately
	}
	r := newResponder(ctx, a.s, i, log, deferAt, how)
	defer r.stop()
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("discord: panic: %v\n%s", p, debug.Stack())
		}
		if !r.hasReplied() {
			// The core failed before replying: say so, privately.
			sorry := chat.Message{Private: true, Text: "Something went wrong on our side and nothing was changed. Please try again in a moment."}
			if rerr := r.Reply(ctx, sorry); rerr != nil {
				err = errors.Join(err, rerr)
			}
		}
	}()
	if bad != nil {
		if i.Type == discordgo.InteractionMessageComponent {
			log.Info("not a click of ours", "err", bad)
			return r.Reply(ctx, chat.Message{Private: true, Text: "That control is not one of mine."})
		}
		log.Info("not a /risk command", "err", bad)
		return r.Reply(ctx, chat.Message{Private: true, Text: "I only know /risk. Try /risk help."})
	}
	// The work itself waits for a slot: the interaction is acknowledged
	// (or will be, on time) meanwhile.
	release, err := a.acquire(ctx)
	if err != nil {
		return fmt.Errorf("discord: no slot for the interaction: %w", err)
	}
	defer release()
	if i.Type == discordgo.InteractionMessageComponent {
		log.Debug("click", "user", click.User.ID, "button", click.ID)
		return core.HandleClick(ctx, click, r)
	}
	log.Debug("command", "user", req.User.ID, "command", req.Command)
	return core.Handle(ctx, req, r)
}

// answersPrivately reports whether a subcommand's answer is for its
// author only (Spec.Private).
func answersPrivately(specs []command.Spec, name string) bool {
	for _, s := range specs {
		if s.Name == name {
			return s.Private
		}
	}
	return false
}

// quick reports whether a subcommand answers quickly (Spec.Quick).
func quick(specs []command.Spec, name string) bool {
	for _, s := range specs {
		if s.Name == name {
			return s.Quick
		}
	}
	return false
}

// acquire waits for a slot to work on an interaction, and returns the
// function that gives it back.
func (a *Adapter) acquire(ctx context.Context) (func(), error) {
	select {
	case a.slots <- struct{}{}:
		return func() { <-a.slots }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// autocomplete answers suggestions for the option being typed. Discord
// gives no way to defer them, so a slow core (or one too busy to start in
// time) yields no suggestions rather than a late answer; the time allowed
// runs from the interaction's arrival.
func (a *Adapter) autocomplete(ctx context.Context, core Core, i *discordgo.Interaction, log *slog.Logger, arrived time.Time) error {
	req, focused, err := autocompleteOf(i)
	if err != nil {
		log.Info("autocomplete not for /risk", "err", err)
		return a.suggest(ctx, i, nil, log)
	}
	actx, cancel := context.WithDeadline(ctx, arrived.Add(a.completeWait))
	defer cancel()
	release, err := a.acquire(actx)
	if err != nil {
		log.Warn("autocomplete: no slot in time: no suggestions", "command", req.Command, "option", focused)
		return a.suggest(ctx, i, nil, log)
	}
	defer release()
	got := make(chan []chat.Choice, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				log.Error("autocomplete panicked", "panic", p, "stack", string(debug.Stack()))
				got <- nil
			}
		}()
		got <- core.Autocomplete(actx, req, focused)
	}()
	var cs []chat.Choice
	select {
	case cs = <-got:
	case <-actx.Done():
		log.Warn("autocomplete too slow: no suggestions", "command", req.Command, "option", focused)
	}
	return a.suggest(ctx, i, cs, log)
}

// suggest sends autocomplete suggestions.
func (a *Adapter) suggest(ctx context.Context, i *discordgo.Interaction, cs []chat.Choice, log *slog.Logger) error {
	out, cut := choices(cs)
	if len(cut) > 0 {
		log.Warn("suggestions cut to Discord's limits", "cut", cut)
	}
	// discordgo's InteractionResponseData drops an empty choices list
	// (omitempty); Discord expects the field, so the answer is sent as is.
	resp := autocompleteResult{Type: discordgo.InteractionApplicationCommandAutocompleteResult}
	resp.Data.Choices = out
	endpoint := discordgo.EndpointInteractionResponse(i.ID, i.Token)
	if _, err := a.s.RequestWithBucketID(http.MethodPost, endpoint, resp, endpoint, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("discord: autocomplete answer: %w", err)
	}
	return nil
}

// autocompleteResult is the answer to an autocomplete (callback type 8).
type autocompleteResult struct {
	Type discordgo.InteractionResponseType `json:"type"`
	Data struct {
		Choices []*discordgo.ApplicationCommandOptionChoice `json:"choices"`
	} `json:"data"`
}

// Post implements bot.Poster: a new message in the channel, with the map
// attached if there is one, notifying only the users the message names.
// Pings must be new messages: editing one notifies nobody.
func (a *Adapter) Post(ctx context.Context, channel string, m chat.Message) (string, error) {
	id, ok := strings.CutPrefix(channel, prefix)
	if !ok || !isSnowflake(id) {
		// Another adapter's channel (a console sharing the database).
		return "", fmt.Errorf("discord: post to %q: %w: not a Discord channel", channel, chat.ErrUndeliverable)
	}
	if m.Private {
		// A channel message is seen by everyone: never post a private one.
		return "", fmt.Errorf("discord: %w: refusing to post a private message to channel %s", chat.ErrUndeliverable, id)
	}
	out := translate(m)
	if len(out.cut) > 0 {
		a.log.Warn("post cut to Discord's limits", "channel", id, "cut", out.cut)
	}
	files, err := out.render(ctx)
	if err != nil {
		a.log.Error("render", "channel", id, "err", err)
	}
	msgID, err := a.send(ctx, id, out.send(files), m.Key)
	if err != nil {
		if re := refusal(err); re != nil {
			// The channel is gone or closed to the bot: trying again is
			// useless, and the players must be told.
			return "", fmt.Errorf("discord: post to channel %s: %w", id, re)
		}
		return "", fmt.Errorf("discord: post to channel %s: %w", id, err)
	}
	return prefix + msgID, nil
}

// Edit implements bot.Editor: the message replaced in place, with the
// map attached if the message has one.
func (a *Adapter) Edit(ctx context.Context, channel, msg string, m chat.Message) error {
	id, ok := strings.CutPrefix(channel, prefix)
	mid, okm := strings.CutPrefix(msg, prefix)
	if !ok || !isSnowflake(id) || !okm || !isSnowflake(mid) {
		return fmt.Errorf("discord: edit %q in %q: %w: not a Discord message", msg, channel, chat.ErrUndeliverable)
	}
	out := translate(m)
	if len(out.cut) > 0 {
		a.log.Warn("edit cut to Discord's limits", "channel", id, "cut", out.cut)
	}
	files, err := out.render(ctx)
	if err != nil {
		a.log.Error("render", "channel", id, "err", err)
	}
	if _, err := a.s.ChannelMessageEditComplex(out.editPost(id, mid, files), discordgo.WithContext(ctx)); err != nil {
		if re := refusal(err); re != nil {
			return fmt.Errorf("discord: edit in channel %s: %w", id, re)
		}
		return fmt.Errorf("discord: edit in channel %s: %w", id, err)
	}
	return nil
}

// keyedSend is a message with Discord's nonce, which discordgo's
// MessageSend lacks.
type keyedSend struct {
	*discordgo.MessageSend
	Nonce        string `json:"nonce,omitempty"`
	EnforceNonce bool   `json:"enforce_nonce,omitempty"`
}

// send posts a message to a channel. A message with a key (bot.Message.Key)
// goes with it as its nonce, enforced: Discord then creates it once
// however often it is sent within a few minutes, which makes the
// redelivery of queued news after a crash, or by another process, safe.
func (a *Adapter) send(ctx context.Context, channel string, ms *discordgo.MessageSend, key string) (string, error) {
	opt := discordgo.WithContext(ctx)
	if key == "" {
		msg, err := a.s.ChannelMessageSendComplex(channel, ms, opt)
		if err != nil {
			return "", err
		}
		return msg.ID, nil
	}
	data := keyedSend{MessageSend: ms, Nonce: key, EnforceNonce: true}
	endpoint := discordgo.EndpointChannelMessages(channel)
	var body []byte
	var err error
	if len(ms.Files) == 0 {
		body, err = a.s.RequestWithBucketID(http.MethodPost, endpoint, data, endpoint, opt)
	} else {
		var contentType string
		var form []byte
		contentType, form, err = discordgo.MultipartBodyWithJSON(data, ms.Files)
		if err != nil {
			return "", err
		}
		body, err = a.s.RequestRaw(http.MethodPost, endpoint, contentType, form, endpoint, 0, opt)
	}
	if err != nil {
		return "", err
	}
	var msg struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		return "", fmt.Errorf("discord: read the posted message: %w", err)
	}
	return msg.ID, nil
}

// refusal turns Discord's refusal of a post for good (403: the bot may
// not post there; 404: the channel is gone) into the core's RefusedError;
// nil for any other error.
func refusal(err error) *chat.RefusedError {
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Response == nil {
		return nil
	}
	switch re.Response.StatusCode {
	case http.StatusForbidden, http.StatusNotFound:
	default:
		return nil
	}
	reason := http.StatusText(re.Response.StatusCode)
	if re.Message != nil && re.Message.Message != "" {
		reason = re.Message.Message
	}
	return &chat.RefusedError{Reason: reason, Needs: permissionNames(hostPermissions()), Err: err}
}

// OpenThread implements bot.Threader: a public thread in the channel.
func (a *Adapter) OpenThread(ctx context.Context, channel, name string) (string, error) {
	id, ok := strings.CutPrefix(channel, prefix)
	if !ok || !isSnowflake(id) {
		return "", fmt.Errorf("discord: open a thread in %q: not a Discord channel", channel)
	}
	if n := []rune(name); len(n) > 100 {
		name = string(n[:99]) + "…"
	}
	th, err := a.s.ThreadStart(id, name, discordgo.ChannelTypeGuildPublicThread, threadArchiveMinutes, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("discord: open a thread in channel %s: %w", id, err)
	}
	return prefix + th.ID, nil
}

// ArchiveThread implements bot.Threader.
func (a *Adapter) ArchiveThread(ctx context.Context, thread string) error {
	id, ok := strings.CutPrefix(thread, prefix)
	if !ok || !isSnowflake(id) {
		return fmt.Errorf("discord: archive %q: not a Discord thread", thread)
	}
	archived := true
	if _, err := a.s.ChannelEdit(id, &discordgo.ChannelEdit{Archived: &archived}, discordgo.WithContext(ctx)); err != nil {
		return fmt.Errorf("discord: archive thread %s: %w", id, err)
	}
	return nil
}

// DM implements bot.DirectPoster: a direct message to a person, which
// notifies them. Discord refuses it if they take no direct messages from
// the server's members.
func (a *Adapter) DM(ctx context.Context, user string, m chat.Message) error {
	id, ok := strings.CutPrefix(user, prefix)
	if !ok || !isSnowflake(id) {
		return fmt.Errorf("discord: direct message to %q: %w: not a Discord user", user, chat.ErrUndeliverable)
	}
	ch, err := a.s.UserChannelCreate(id, discordgo.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("discord: open a direct message to %s: %w", id, err)
	}
	m.Private = false // a direct message is private by nature
	// A nonce is unique per author, across channels: the channel post of
	// the same news has this key already.
	m.Key = ""
	out := translate(m)
	files, err := out.render(ctx)
	if err != nil {
		a.log.Error("render", "user", id, "err", err)
	}
	if _, err := a.s.ChannelMessageSendComplex(ch.ID, out.send(files), discordgo.WithContext(ctx)); err != nil {
		if re := refusal(err); re != nil {
			return fmt.Errorf("discord: direct message to %s: %w", id, re)
		}
		return fmt.Errorf("discord: direct message to %s: %w", id, err)
	}
	return nil
}
