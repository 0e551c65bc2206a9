package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/storage"
)

// A turn's public record is one message: posted when a person's turn
// starts (it pings them), edited as their commands come (their replies
// are private), and completed with the map when the turn ends. A computer's
// turn is posted once, complete. So a channel gets about one message a
// turn, and the map once. A lobby is one message too: posted when the
// match opens, edited by every join, bot and setting, posted anew if
// someone deletes it, and edited a last time when the match starts.
//
// The message's ID on the platform is kept in the settings store (scope
// postScope) from its post to its completion, so that any process can
// edit it, after a restart too.

// postScope is the settings scope of the messages the bot edits later.
const postScope = "post"

// postedRef is where a living message is.
type postedRef struct {
	Channel string `json:"channel"`
	ID      string `json:"id"`
}

// posted returns the platform ID of the living message ref, if it was
// posted in channel.
func (o *Outbox) posted(ctx context.Context, channel, ref string) (string, bool) {
	raw, err := o.cfg.Store.Setting(ctx, postScope, ref)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			o.cfg.Log.Warn("read where a living message is", "ref", ref, "err", err)
		}
		return "", false
	}
	var p postedRef
	if err := json.Unmarshal(raw, &p); err != nil || p.Channel != channel || p.ID == "" {
		return "", false
	}
	return p.ID, true
}

// remember keeps where the living message ref was posted; forget drops it.
func (o *Outbox) remember(ctx context.Context, channel, ref, id string) {
	raw, _ := json.Marshal(postedRef{Channel: channel, ID: id})
	if err := o.cfg.Store.SetSetting(ctx, postScope, ref, raw, o.cfg.Now()); err != nil {
		o.cfg.Log.Warn("keep where a living message is", "ref", ref, "err", err)
	}
}

func (o *Outbox) forget(ctx context.Context, ref string) {
	if err := o.cfg.Store.SetSetting(ctx, postScope, ref, nil, o.cfg.Now()); err != nil {
		o.cfg.Log.Warn("forget where a living message is", "ref", ref, "err", err)
	}
}

// sendRef sends a message that has a ref: an edit of the message posted
// for it, or a new post, as its mode says.
func (o *Outbox) sendRef(ctx context.Context, channel string, m news.Post) error {
	ed, canEdit := o.cfg.Poster.(chat.Editor)
	if id, ok := o.posted(ctx, channel, m.Ref); ok && canEdit {
		err := o.edit(ctx, ed, channel, id, m)
		if m.Mode == news.Retire || (m.Mode == news.Complete && err == nil) {
			o.forget(ctx, m.Ref)
		}
		if !errors.Is(err, errRepost) {
			return err
		}
	}
	if m.Mode == news.EditOnly || m.Mode == news.Retire {
		return nil
	}
	id, err := o.postNew(ctx, channel, m.Message)
	if err != nil {
		return err
	}
	if (m.Mode == news.PostOrEdit || m.Mode == news.Repost) && id != "" && canEdit {
		o.remember(ctx, channel, m.Ref, id)
	}
	return nil
}

// errRepost says that a Repost's message could not be edited: it is to
// be posted anew.
var errRepost = errors.New("outbox: post the message anew")

// edit edits the living message id with m. The record of a turn is not
// worth a retry (the next edit or the completion shows it all), nor is a
// lobby's last word: their failures are logged. A completion that may
// yet go through is returned, to be tried again. A lobby the chat will
// not let the bot edit (deleted) is errRepost.
func (o *Outbox) edit(ctx context.Context, ed chat.Editor, channel, id string, m news.Post) error {
	m.Mentions = nil // an edit notifies nobody: say so to the chat
	m.Text = chat.Clip(m.Text)
	err := ed.Edit(ctx, channel, id, m.Message)
	switch {
	case err == nil:
		return nil
	case m.Mode == news.Repost && errors.Is(err, chat.ErrUndeliverable):
		o.cfg.Log.Info("a living message cannot be edited: posting it anew", "channel", channel, "ref", m.Ref, "err", err)
		return errRepost
	case m.Mode == news.Complete && !errors.Is(err, chat.ErrUndeliverable):
		return err
	}
	o.cfg.Log.Warn("edit a living message", "channel", channel, "ref", m.Ref, "err", err)
	return nil
}

// direct is a direct message to send with a post.
type direct struct {
	user string
	msg  chat.Message
}

// reach adjusts a ping to the choices of the people it notifies, as it
// is sent: nobody is pinged in their quiet hours, nor reminded if they
// do not want reminders; those who asked get a direct message too. It
// returns the message to post (ok false if none is left to post) and the
// direct messages to send after it.
func (o *Outbox) reach(ctx context.Context, channel string, m news.Post) (news.Post, []direct, bool) {
	if m.Notice == news.Plain || len(m.Mentions) == 0 {
		return m, nil, true
	}
	now := o.cfg.Now()
	var keep []string
	var dms []direct
	for _, id := range m.Mentions {
		p, err := o.cfg.People.Of(ctx, id)
		if err != nil {
			o.cfg.Log.Error("read notification choices", "user", id, "err", err)
		}
		if m.Notice == news.ReminderPing && p.NoReminders {
			continue
		}
		if p.QuietAt(now) {
			continue
		}
		keep = append(keep, id)
		if p.DM {
			// Their language, as they chose or read last (English if
			// they never said: a player pinged has typed a command).
			dms = append(dms, direct{user: id, msg: o.direct(ctx, channel, id, m, p.Language(lang.English))})
		}
	}
	if m.Notice == news.ReminderPing && len(keep) == 0 {
		return m, nil, false // a reminder is only its pings
	}
	m.Mentions = keep
	return m, dms, true
}

// direct is the direct message of ping m to user, in language t: its
// words (the channel's, in the match's language), and with fog of war the
// player's own view, which the channel may not be shown.
func (o *Outbox) direct(ctx context.Context, channel, user string, m news.Post, t lang.Tag) chat.Message {
	text := m.Text
	if said, ok := m.Said[string(t)]; ok {
		text = said // the ping in the reader's language
	}
	ping := lang.For(t).T("outbox.dm.ping", "Channel", lang.Text(chat.ChannelLink(channel)), "Text", lang.Text(text))
	if o.cfg.Own == nil || m.Notice == news.ReminderPing {
		return chat.Message{Text: ping}
	}
	own, ok := o.cfg.Own(ctx, channel, user, t)
	if !ok {
		return chat.Message{Text: ping}
	}
	own.Text = ping + "\n" + own.Text
	return own
}

// sendDirect sends direct messages, if the bot can.
func (o *Outbox) sendDirect(ctx context.Context, dms []direct) {
	dp, ok := o.cfg.Poster.(chat.DirectPoster)
	if !ok {
		return
	}
	for _, d := range dms {
		if err := dp.DM(ctx, d.user, d.msg); err != nil {
			o.cfg.Log.Warn("direct message", "user", d.user, "err", err)
		}
	}
}

// Post sends a message that answers no command; a ping goes as its
// players chose (reach), and with the direct messages they asked for.
func (o *Outbox) Post(ctx context.Context, channel string, m news.Post) error {
	if o.cfg.Poster == nil {
		return nil
	}
	m, dms, ok := o.reach(ctx, channel, m)
	if !ok {
		return nil
	}
	if m.Ref != "" {
		if err := o.sendRef(ctx, channel, m); err != nil {
			return err
		}
		o.sendDirect(ctx, dms)
		return nil
	}
	if _, err := o.postNew(ctx, channel, m.Message); err != nil {
		return err
	}
	o.sendDirect(ctx, dms)
	return nil
}

// postNew posts m as a new message and returns its ID.
func (o *Outbox) postNew(ctx context.Context, channel string, m chat.Message) (string, error) {
	m.Text = chat.Clip(m.Text)
	id, err := o.cfg.Poster.Post(ctx, channel, m)
	if err != nil {
		o.cfg.Log.Error("post failed", "channel", channel, "err", err)
		return "", err
	}
	return id, nil
}

// Restore posts messages anew in a channel that lost them (a chat that
// keeps its messages in memory, restarted: voice.Recap writes them): each
// as a new message, pinging nobody (it is news to no one), and the living
// messages among them (the turn in progress, a lobby) are remembered as
// those to edit from now on, in place of those that were lost.
func (o *Outbox) Restore(ctx context.Context, channel string, posts []news.Post) error {
	if o.cfg.Poster == nil {
		return nil
	}
	_, canEdit := o.cfg.Poster.(chat.Editor)
	for _, m := range posts {
		m.Mentions = nil
		id, err := o.postNew(ctx, channel, m.Message)
		if err != nil {
			return fmt.Errorf("outbox: restore %s: %w", channel, err)
		}
		if m.Ref != "" && (m.Mode == news.PostOrEdit || m.Mode == news.Repost) && id != "" && canEdit {
			o.remember(ctx, channel, m.Ref, id)
		}
	}
	return nil
}
