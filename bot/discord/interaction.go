package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
)

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
	if bad != nil || (i.Type == discordgo.InteractionApplicationCommand && quick(core.Specs(), req.Command)) || launches(i, click) {
		deferAt = arrived.Add(a.deferAfter)
	}
	var how answerMode
	switch {
	case i.Type == discordgo.InteractionMessageComponent && i.Message != nil && i.Message.Flags&discordgo.MessageFlagsEphemeral != 0:
		// A button of a private answer: the answer replaces it, so that
		// superseded buttons go.
		how = updateClicked
	case i.Type == discordgo.InteractionMessageComponent && i.Message != nil && i.Message.ID != "":
		// A button of a public message: the answer is a message of its own.
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
		if errors.Is(bad, errNoUser) {
			// Every rule of the core is about who asks: nothing can be
			// done for nobody. Signed by Discord (or come through the
			// gateway), it is no attack but a shape of payload the bot
			// does not know; a word beats "did not respond".
			log.Warn("an interaction without a user", "err", bad)
			return r.Reply(ctx, chat.Message{Private: true, Text: "Discord did not tell me who sent this, so I did nothing. Please try again."})
		}
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
	if i.GuildID == "" && !slices.Contains(inDM, command.Alias(req.Command)) {
		return r.Reply(ctx, chat.Message{Private: true, Text: "Here, in a direct message, /risk me games lists your matches in every server, and /risk help explains the game. Matches are played in a server's channels: type the command there."})
	}
	if req.Admin {
		// Only admins' commands take files (/risk-admin map add): others'
		// are refused by the core without them, and not fetched.
		files, err := a.download(ctx, i)
		if err != nil {
			log.Info("an attachment could not be fetched", "err", err)
			return r.Reply(ctx, chat.Message{Private: true, Text: chat.Capitalize(strings.TrimPrefix(err.Error(), "discord: ")) + ". Nothing was changed."})
		}
		req.Files = files
	}
	log.Debug("command", "user", req.User.ID, "command", req.Command)
	return core.Handle(ctx, req, r)
}

// launches reports whether a click opens the map (Play on the map): it is
// answered at once by launching the Activity, which an acknowledgement
// first would forbid, and it writes nothing.
func launches(i *discordgo.Interaction, c chat.Click) bool {
	if i.Type != discordgo.InteractionMessageComponent {
		return false
	}
	bt, err := button.Parse(c.ID)
	return err == nil && bt.Action == button.Map
}

// answersPrivately reports whether a subcommand's answer is for its
// author only (Spec.Private), by its full name.
func answersPrivately(specs []command.Spec, name string) bool {
	for _, s := range specs {
		if s.FullName() == name {
			return s.Private
		}
	}
	return false
}

// quick reports whether a subcommand answers quickly (Spec.Quick), by its
// full name.
func quick(specs []command.Spec, name string) bool {
	for _, s := range specs {
		if s.FullName() == name {
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
