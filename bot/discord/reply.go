package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
)

// privateNote replaces a public "thinking…" message when the answer turns
// out to be private; it is deleted once the private answer is sent.
const privateNote = "🔒 Answered privately."

// replyState is where an interaction's answer stands.
type replyState int

const (
	// pending: Discord has not been answered yet.
	pending replyState = iota
	// deferredPublic: the core was slow, so the adapter acknowledged the
	// interaction with a public "thinking…" message.
	deferredPublic
	// deferredQuiet: acknowledged privately, or as an update of the
	// clicked message, as the answer will be.
	deferredQuiet
	// answered: the answer went out (or failed to).
	answered
)

// responder is the bot.Replier of one command or click. The policy:
//
//   - a reply without a map is the immediate answer (callback type 4),
//     ephemeral if private;
//   - a reply with a map is deferred first (type 5, ephemeral if private),
//     then rendered and edited in with the PNG attached; but if it mentions
//     people, the text is the immediate answer (an edit notifies nobody) and
//     the map follows as a follow-up message;
//   - a command that may be slow (see Adapter.handle) is deferred publicly
//     as soon as it arrives, and a quick one if the core has not replied
//     in time; the reply is then edited in when it comes, and a private
//     reply goes as an ephemeral follow-up (see Reply).
//
// So Discord's 3 s deadline is never missed, whatever the core or the
// renderer cost.
type responder struct {
	s   *discordgo.Session
	i   *discordgo.Interaction
	log *slog.Logger
	how answerMode

	mu      sync.Mutex
	state   replyState
	replied bool
	timer   *time.Timer
}

// newResponder starts the clock of an interaction: if the core has not
// replied at deferAt, the responder defers publicly; if that time has
// come already, it defers at once, before returning.
func newResponder(ctx context.Context, s *discordgo.Session, i *discordgo.Interaction, log *slog.Logger, deferAt time.Time, how answerMode) *responder {
	r := &responder{s: s, i: i, log: log, how: how}
	wait := time.Until(deferAt)
	if wait <= 0 {
		r.timer = time.NewTimer(0)
		r.timer.Stop()
		r.deferPublicly(ctx, slog.LevelDebug, "deferred at once")
		return r
	}
	r.mu.Lock()
	r.timer = time.AfterFunc(wait, func() { r.deferPublicly(ctx, slog.LevelInfo, "core slow: deferred publicly") })
	r.mu.Unlock()
	return r
}

// deferPublicly acknowledges the interaction before the core has
// answered. Whether the answer will be private is not known yet: it
// defers publicly, the common case, and Reply copes with a private answer.
func (r *responder) deferPublicly(ctx context.Context, level slog.Level, why string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.replied || r.state != pending {
		return
	}
	var d *discordgo.InteractionResponse
	var state replyState
	switch r.how {
	case asItSays:
		d, state = deferral(false), deferredPublic
	case privately:
		d, state = deferral(true), deferredQuiet
	case updateClicked, clickedPublic:
		d, state = &discordgo.InteractionResponse{Type: discordgo.InteractionResponseDeferredMessageUpdate}, deferredQuiet
	}
	if err := r.s.InteractionRespond(r.i, d, discordgo.WithContext(ctx)); err != nil {
		r.log.Error("defer an answer", "err", err)
		return
	}
	r.log.Log(ctx, level, why)
	r.state = state
}

// launchActivity is the answer to an interaction that launches the
// application's Activity (LAUNCH_ACTIVITY), which discordgo has no name
// for.
const launchActivity = discordgo.InteractionResponseType(12)

// answerMode is how an interaction is answered.
type answerMode int

const (
	// asItSays: publicly or privately as the core's answer says.
	asItSays answerMode = iota
	// privately: the command's answer is for its author (Spec.Private).
	privately
	// updateClicked: the answer replaces the clicked (private) message.
	updateClicked
	// clickedPublic: a button of a public message; the answer is a new
	// message (the clicked one, a lobby or a turn's, is the core's to
	// edit).
	clickedPublic
)

// stop stops the deferral clock.
func (r *responder) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.timer.Stop()
}

// hasReplied reports whether Reply was called.
func (r *responder) hasReplied() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.replied
}

// Reply implements bot.Replier.
func (r *responder) Reply(ctx context.Context, m chat.Message) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.replied {
		return errors.New("discord: a second reply to one interaction")
	}
	r.replied = true
	r.timer.Stop()
	if m.Again && r.state != pending {
		// This delivery is acknowledged already (over HTTP, in the
		// response to whoever sent it). Anything more would go through
		// the token, which is the first delivery's too, and change what
		// that one was answered: a replay must not.
		r.state = answered
		r.log.Warn("a request delivered again: its answer is not sent, as it would edit the first delivery's")
		return nil
	}
	if m.Activity && r.state == pending {
		// The Activity opens as the answer; if Discord will not (no
		// Activity enabled in the Developer Portal, or not where the click
		// came from), the message with its link answers instead.
		err := r.s.InteractionRespond(r.i, &discordgo.InteractionResponse{Type: launchActivity}, discordgo.WithContext(ctx))
		if err == nil {
			r.state = answered
			return nil
		}
		r.log.Warn("launch the Activity: answered with its link instead", "err", err)
	}
	out := translate(m)
	if len(out.cut) > 0 {
		r.log.Warn("reply cut to Discord's limits", "cut", out.cut)
	}
	state := r.state
	r.state = answered
	opt := discordgo.WithContext(ctx)
	pings := !out.ephemeral && len(out.mentions.Users) > 0
	if r.how == clickedPublic && state == deferredQuiet {
		// Acknowledged as an update, answered with a message of its own.
		files := r.render(ctx, &out)
		if _, err := r.s.FollowupMessageCreate(r.i, true, out.followup(files), opt); err != nil {
			return fmt.Errorf("discord: answer a click: %w", err)
		}
		return nil
	}
	if r.how == updateClicked {
		// The clicked message is private: it becomes the answer.
		switch state {
		case pending:
			files := r.render(ctx, &out)
			if err := r.s.InteractionRespond(r.i, out.update(files), opt); err != nil {
				return fmt.Errorf("discord: update the clicked message: %w", err)
			}
		default:
			files := r.render(ctx, &out)
			if _, err := r.s.InteractionResponseEdit(r.i, out.edit(files), opt); err != nil {
				return fmt.Errorf("discord: edit the clicked message: %w", err)
			}
		}
		return nil
	}
	if state == deferredQuiet && r.how == privately {
		// Deferred privately, as the answer is.
		files := r.render(ctx, &out)
		if _, err := r.s.InteractionResponseEdit(r.i, out.edit(files), opt); err != nil {
			return fmt.Errorf("discord: edit the deferred answer: %w", err)
		}
		return nil
	}
	switch {
	case state == pending && out.image == nil:
		if err := r.s.InteractionRespond(r.i, out.response(), opt); err != nil {
			return fmt.Errorf("discord: answer: %w", err)
		}
		return nil
	case state == pending && pings:
		// Mentions notify only in a new message, and the edit that
		// completes a deferral is not one: answer with the text at once,
		// so that it pings, then send the map as a follow-up.
		if err := r.s.InteractionRespond(r.i, out.response(), opt); err != nil {
			return fmt.Errorf("discord: answer: %w", err)
		}
		if files := r.render(ctx, &out); files != nil {
			mapOnly := &discordgo.WebhookParams{Files: files, AllowedMentions: allowedMentions(nil)}
			if _, err := r.s.FollowupMessageCreate(r.i, true, mapOnly, opt); err != nil {
				return fmt.Errorf("discord: follow-up with the map: %w", err)
			}
		}
		return nil
	case state == pending:
		// Rendering may take a while: acknowledge first, with the answer's
		// visibility, then edit the answer in with the map attached.
		if err := r.s.InteractionRespond(r.i, deferral(out.ephemeral), opt); err != nil {
			return fmt.Errorf("discord: defer: %w", err)
		}
		files := r.render(ctx, &out)
		if _, err := r.s.InteractionResponseEdit(r.i, out.edit(files), opt); err != nil {
			return fmt.Errorf("discord: edit the deferred answer: %w", err)
		}
		return nil
	case !out.ephemeral:
		files := r.render(ctx, &out)
		if _, err := r.s.InteractionResponseEdit(r.i, out.edit(files), opt); err != nil {
			return fmt.Errorf("discord: edit the deferred answer: %w", err)
		}
		if pings {
			// The edit notified nobody: ping in a new message.
			ping := outgoing{content: "🔔 " + mentionList(out.mentions.Users), mentions: out.mentions}
			if _, err := r.s.FollowupMessageCreate(r.i, true, ping.followup(nil), opt); err != nil {
				return fmt.Errorf("discord: ping follow-up: %w", err)
			}
		}
		return nil
	}
	// A private answer after a public deferral. The deferral's "thinking…"
	// message cannot become ephemeral, and a follow-up sent while it is
	// still loading would replace it, publicly. So: complete it with a
	// note, send the answer as an ephemeral follow-up, then delete the note.
	files := r.render(ctx, &out)
	note := outgoing{content: privateNote, mentions: allowedMentions(nil)}
	if _, err := r.s.InteractionResponseEdit(r.i, note.edit(nil), opt); err != nil {
		return fmt.Errorf("discord: complete the deferral: %w", err)
	}
	if _, err := r.s.FollowupMessageCreate(r.i, true, out.followup(files), opt); err != nil {
		return fmt.Errorf("discord: private follow-up: %w", err)
	}
	if err := r.s.InteractionResponseDelete(r.i, opt); err != nil {
		r.log.Warn("delete the deferral's note", "err", err)
	}
	return nil
}

// mentionList renders Discord user IDs as mentions.
func mentionList(ids []string) string {
	var parts []string
	for _, id := range ids {
		parts = append(parts, "<@"+id+">")
	}
	return strings.Join(parts, " ")
}

// render draws the message's image, logging a failure: the message then
// goes without the map rather than not at all.
func (r *responder) render(ctx context.Context, out *outgoing) []*discordgo.File {
	files, err := out.render(ctx)
	if err != nil {
		r.log.Error("render", "err", err)
	}
	return files
}
