package bot

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/riskbot/riskbot/bot/news"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/storage"
)

// A turn's public record is one message: posted when a person's turn
// starts (it pings them), edited as their commands come (their replies
// are private), and completed with the map when the turn ends. A computer's
// turn is posted once, complete. So a channel gets about one message a
// turn, and the map once.
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
func (b *Bot) posted(ctx context.Context, channel, ref string) (string, bool) {
	raw, err := b.cfg.Store.Setting(ctx, postScope, ref)
	if err != nil {
		if !errors.Is(err, storage.ErrNotFound) {
			b.cfg.Log.Warn("read where a turn's message is", "ref", ref, "err", err)
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
func (b *Bot) remember(ctx context.Context, channel, ref, id string) {
	raw, _ := json.Marshal(postedRef{Channel: channel, ID: id})
	if err := b.cfg.Store.SetSetting(ctx, postScope, ref, raw, b.cfg.Now()); err != nil {
		b.cfg.Log.Warn("keep where a turn's message is", "ref", ref, "err", err)
	}
}

func (b *Bot) forget(ctx context.Context, ref string) {
	if err := b.cfg.Store.SetSetting(ctx, postScope, ref, nil, b.cfg.Now()); err != nil {
		b.cfg.Log.Warn("forget where a turn's message is", "ref", ref, "err", err)
	}
}

// sendRef sends a message that has a ref: an edit of the message posted
// for it, or a new post.
func (b *Bot) sendRef(ctx context.Context, channel string, m news.Post) error {
	ed, canEdit := b.cfg.Poster.(chat.Editor)
	if id, ok := b.posted(ctx, channel, m.Ref); ok && canEdit {
		m.Mentions = nil // an edit notifies nobody: say so to the chat
		m.Text = chat.Clip(m.Text)
		if err := ed.Edit(ctx, channel, id, m.Message); err != nil {
			if m.Mode != news.Complete || errors.Is(err, chat.ErrUndeliverable) {
				// The record of a turn is not worth a retry: the next edit
				// or the completion shows it all.
				b.cfg.Log.Warn("edit a turn's message", "channel", channel, "ref", m.Ref, "err", err)
				return nil
			}
			return err
		}
		if m.Mode == news.Complete {
			b.forget(ctx, m.Ref)
		}
		return nil
	}
	if m.Mode == news.EditOnly {
		return nil
	}
	id, err := b.postNew(ctx, channel, m.Message)
	if err != nil {
		return err
	}
	if m.Mode == news.PostOrEdit && id != "" && canEdit {
		b.remember(ctx, channel, m.Ref, id)
	}
	return nil
}
