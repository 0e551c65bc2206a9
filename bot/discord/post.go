package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/snowflake"
)

// threadArchiveMinutes is how long a match's thread stays open without a
// message before Discord hides it: a week, the most Discord allows, since
// a turn may take days. The bot archives it itself when the match ends.
const threadArchiveMinutes = 10080

// Post implements bot.Poster: a new message in the channel, with the map
// attached if there is one, notifying only the users the message names.
// Pings must be new messages: editing one notifies nobody.
func (a *Adapter) Post(ctx context.Context, channel string, m chat.Message) (string, error) {
	id, ok := strings.CutPrefix(channel, prefix)
	if !ok || !snowflake.Valid(id) {
		// Another adapter's channel (a console sharing the database).
		return "", fmt.Errorf("discord: post to %q: %w: not a Discord channel", channel, chat.ErrUndeliverable)
	}
	if m.Private {
		// A channel message is seen by everyone: never post a private one.
		return "", fmt.Errorf("discord: %w: refusing to post a private message to channel %s", chat.ErrUndeliverable, id)
	}
	out, files := a.prepare(ctx, "post", id, m)
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
	if !ok || !snowflake.Valid(id) || !okm || !snowflake.Valid(mid) {
		return fmt.Errorf("discord: edit %q in %q: %w: not a Discord message", msg, channel, chat.ErrUndeliverable)
	}
	out, files := a.prepare(ctx, "edit", id, m)
	if _, err := a.s.ChannelMessageEditComplex(out.editPost(id, mid, files), discordgo.WithContext(ctx)); err != nil {
		if re := refusal(err); re != nil {
			return fmt.Errorf("discord: edit in channel %s: %w", id, re)
		}
		return fmt.Errorf("discord: edit in channel %s: %w", id, err)
	}
	return nil
}

// prepare is m as Discord is sent it in channel id, to post or edit
// (what), with its map drawn. What had to be cut is logged, and so is a
// map that could not be drawn: the message then goes without it rather
// than not at all.
func (a *Adapter) prepare(ctx context.Context, what, id string, m chat.Message) (outgoing, []*discordgo.File) {
	out := translate(m)
	if len(out.cut) > 0 {
		a.log.Warn(what+" cut to Discord's limits", "channel", id, "cut", out.cut)
	}
	files, err := out.render(ctx)
	if err != nil {
		a.log.Error("render", "channel", id, "err", err)
	}
	return out, files
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
	if !ok || !snowflake.Valid(id) {
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

// OpenPrivateThread implements chat.TeamThreader: a private thread in the
// channel that nobody may invite others to, with members (user ids) added.
// A member who cannot be added fails it, the thread left to archive.
func (a *Adapter) OpenPrivateThread(ctx context.Context, channel, name string, members []string) (string, error) {
	id, ok := strings.CutPrefix(channel, prefix)
	if !ok || !snowflake.Valid(id) {
		return "", fmt.Errorf("discord: open a private thread in %q: not a Discord channel", channel)
	}
	if n := []rune(name); len(n) > 100 {
		name = string(n[:99]) + "…"
	}
	th, err := a.s.ThreadStartComplex(id, &discordgo.ThreadStart{Name: name, AutoArchiveDuration: threadArchiveMinutes,
		Type: discordgo.ChannelTypeGuildPrivateThread, Invitable: false}, discordgo.WithContext(ctx))
	if err != nil {
		return "", fmt.Errorf("discord: open a private thread in channel %s: %w", id, err)
	}
	for _, m := range members {
		user, ok := strings.CutPrefix(m, prefix)
		if !ok || !snowflake.Valid(user) {
			return "", fmt.Errorf("discord: add %q to thread %s: not a Discord user", m, th.ID)
		}
		if err := a.s.ThreadMemberAdd(th.ID, user, discordgo.WithContext(ctx)); err != nil {
			return "", fmt.Errorf("discord: add %s to thread %s: %w", user, th.ID, err)
		}
	}
	return prefix + th.ID, nil
}

// ArchiveThread implements bot.Threader.
func (a *Adapter) ArchiveThread(ctx context.Context, thread string) error {
	id, ok := strings.CutPrefix(thread, prefix)
	if !ok || !snowflake.Valid(id) {
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
	if !ok || !snowflake.Valid(id) {
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
