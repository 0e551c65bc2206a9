package bot

import (
	"context"
	"fmt"

	"github.com/riskbot/riskbot/bot/news"

	"github.com/riskbot/riskbot/bot/chat"
)

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
func (b *Bot) reach(ctx context.Context, channel string, m news.Post) (news.Post, []direct, bool) {
	if m.Notice == news.Plain || len(m.Mentions) == 0 {
		return m, nil, true
	}
	now := b.cfg.Now()
	var keep []string
	var dms []direct
	for _, id := range m.Mentions {
		p, err := b.people.Of(ctx, id)
		if err != nil {
			b.cfg.Log.Error("read notification choices", "user", id, "err", err)
		}
		if m.Notice == news.ReminderPing && p.NoReminders {
			continue
		}
		if p.QuietAt(now) {
			continue
		}
		keep = append(keep, id)
		if p.DM {
			dms = append(dms, direct{user: id, msg: chat.Message{Text: fmt.Sprintf("🔔 In %s: %s", chat.ChannelLink(channel), m.Text)}})
		}
	}
	if m.Notice == news.ReminderPing && len(keep) == 0 {
		return m, nil, false // a reminder is only its pings
	}
	m.Mentions = keep
	return m, dms, true
}

// sendDirect sends direct messages, if the bot can.
func (b *Bot) sendDirect(ctx context.Context, dms []direct) {
	dp, ok := b.cfg.Poster.(chat.DirectPoster)
	if !ok {
		return
	}
	for _, d := range dms {
		if err := dp.DM(ctx, d.user, d.msg); err != nil {
			b.cfg.Log.Warn("direct message", "user", d.user, "err", err)
		}
	}
}
