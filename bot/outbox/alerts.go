package outbox

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

// A channel that refuses the bot's posts (it lost its permissions there,
// or the channel is gone) would make its match stop silently: turn
// results, maps and pings go nowhere, and nobody knows why. So the bot
// notes the refusal (a setting of scope "channel", outside the match, so
// that noting it does not make the match's buttons stale), tells the host
// directly once, and adds a word to every answer in that channel until it
// can post there again. The match itself goes on: its deadlines still
// fire.

// channelScope is the settings scope of what the bot knows of a channel.
const channelScope = "channel"

// channelAlert is what the bot noted of a channel that refused a post.
type channelAlert struct {
	Reason   string    `json:"reason"`
	Needs    []string  `json:"needs,omitempty"`
	Since    time.Time `json:"since"`
	Match    int64     `json:"match"`
	ToldHost bool      `json:"told_host,omitempty"`
}

// alertOf returns the alert noted for a channel, if any.
func (o *Outbox) alertOf(ctx context.Context, channel string) (channelAlert, bool, error) {
	raw, err := o.cfg.Store.Setting(ctx, channelScope, channel)
	if errors.Is(err, storage.ErrNotFound) {
		return channelAlert{}, false, nil
	}
	if err != nil {
		return channelAlert{}, false, err
	}
	return decodeAlert(channel, raw)
}

// decodeAlert reads a channel's alert stored as raw (none for nil).
func decodeAlert(channel string, raw json.RawMessage) (channelAlert, bool, error) {
	if raw == nil {
		return channelAlert{}, false, nil
	}
	var a channelAlert
	if err := json.Unmarshal(raw, &a); err != nil {
		return channelAlert{}, false, fmt.Errorf("bot: the alert of %s: %w", channel, err)
	}
	return a, true, nil
}

// refused notes that a channel refused a post of match id, and tells the
// host (once per refusal) if the bot can write to people directly.
func (o *Outbox) refused(ctx context.Context, channel string, id int64, re *chat.RefusedError) {
	a, ok, err := o.alertOf(ctx, channel)
	if err != nil {
		o.cfg.Log.Error("read a channel's alert", "channel", channel, "err", err)
		return
	}
	if ok && a.Match == id && a.ToldHost {
		return
	}
	a = channelAlert{Reason: re.Reason, Needs: re.Needs, Since: o.cfg.Now(), Match: id}
	o.cfg.Log.Warn("the channel refused the bot's post: telling its players", "channel", channel, "match", id, "reason", re.Reason)
	if dm, ok := o.cfg.Poster.(chat.DirectPoster); ok {
		if m, err := o.cfg.Matches.ByID(ctx, id); err == nil && !strings.HasPrefix(m.Meta.Host, "bot:") {
			lp := lang.For(m.Meta.Settings.Language())
			err := dm.DM(ctx, m.Meta.Host, chat.Message{Text: lp.T("outbox.refused.host",
				"Channel", lang.Text(chat.ChannelLink(channel)), "Reason", lang.Text(re.Reason),
				"Needs", cmp.Or(lp.Join(re.Needs), lp.T("outbox.refused.its-permissions")))})
			a.ToldHost = err == nil
			if err != nil {
				o.cfg.Log.Warn("tell the host that the channel refused the bot", "channel", channel, "host", m.Meta.Host, "err", err)
			}
		}
	}
	if err := o.setAlert(ctx, channel, &a); err != nil {
		o.cfg.Log.Error("note that a channel refused the bot", "channel", channel, "err", err)
	}
}

// setAlert stores a channel's alert; nil clears it.
func (o *Outbox) setAlert(ctx context.Context, channel string, a *channelAlert) error {
	var raw json.RawMessage
	if a != nil {
		var err error
		if raw, err = json.Marshal(a); err != nil {
			return err
		}
	}
	return o.cfg.Store.SetSetting(ctx, channelScope, channel, raw, o.cfg.Now())
}

// ChannelAlert is what the bot noted of a channel that refused a post, as
// read by Alert, for ChannelNote.
type ChannelAlert struct {
	a     channelAlert
	noted bool
	err   error
}

// AlertKey is the setting of what the bot noted of a channel, for a
// caller that reads it with others (Alert reads its value). It may be
// read before the answer it adds to is ready: nothing a command does
// notes a refusal before it is answered (its posts follow the answer).
func AlertKey(channel string) storage.Setting {
	return storage.Setting{Scope: channelScope, ID: channel}
}

// Alert is what the bot noted of a channel, stored as raw (AlertKey);
// err is the error of the read, if it failed.
func Alert(channel string, raw json.RawMessage, err error) ChannelAlert {
	if err != nil {
		return ChannelAlert{err: err}
	}
	a, noted, err := decodeAlert(channel, raw)
	return ChannelAlert{a: a, noted: noted, err: err}
}

// ChannelNote is a word to add to any answer in a channel where the bot
// cannot post, in the answer's language t: what it lacks, as the request
// said (lacks), or that the channel refused its last post (al, read by
// Alert). A request that says the bot lacks nothing clears a refusal
// noted before: the permissions were given back.
func (o *Outbox) ChannelNote(ctx context.Context, channel string, al ChannelAlert, lacks []string, t lang.Tag) string {
	lp := lang.For(t)
	a, noted := al.a, al.noted
	if al.err != nil {
		o.cfg.Log.Error("read a channel's alert", "channel", channel, "err", al.err)
		return ""
	}
	if noted && lacks != nil && len(lacks) == 0 {
		if err := o.setAlert(ctx, channel, nil); err != nil {
			o.cfg.Log.Error("clear a channel's alert", "channel", channel, "err", err)
		}
		return ""
	}
	switch {
	case noted && len(lacks) > 0:
		return "\n" + lp.T("outbox.note.lacks", "Since", lang.Text(chat.Timestamp(a.Since)), "Lacks", lang.Text(lp.Join(lacks)))
	case noted:
		return "\n" + lp.T("outbox.note.refused", "Since", lang.Text(chat.Timestamp(a.Since)), "Reason", lang.Text(a.Reason),
			"Needs", lang.Text(cmp.Or(lp.Join(a.Needs), lp.T("outbox.note.all-of-them"))))
	case len(lacks) > 0 && o.hasOpenMatch(ctx, channel):
		return "\n" + lp.T("outbox.note.lacks-open", "Lacks", lang.Text(lp.Join(lacks)))
	}
	return ""
}

// hasOpenMatch reports whether a channel has an open match (without
// loading it).
func (o *Outbox) hasOpenMatch(ctx context.Context, channel string) bool {
	ms, err := o.cfg.Store.History(ctx, channel)
	return err == nil && len(ms) > 0 && ms[0].Status.Open()
}
