package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/news"
)

// Restore posts again in channel what it shows of its open match, through
// the bot's Poster: for an adapter whose channels lose their messages when
// it stops (the web page keeps them in memory), once, when it starts,
// before anything else is posted there. A lobby gets its living message; a
// match under way its story so far, told again from its log as everyone
// saw it, and the living message of the turn in progress with its
// buttons (voice.Recap), at most limit messages (<= 0: all). The living
// messages posted are those the bot edits from then on. Private answers
// are not posted again. A channel without an open match, or with one that
// no longer loads, gets nothing.
func (b *Bot) Restore(ctx context.Context, channel string, limit int) error {
	unlock := b.locks.Lock(channel)
	defer unlock()
	m, err := b.matches.Load(ctx, channel)
	if _, ok := errors.AsType[*chat.Refusal](err); ok {
		return nil // no match, or a damaged one (logged): the channel says so when asked
	}
	if err != nil {
		return fmt.Errorf("bot: restore %s: %w", channel, err)
	}
	v := b.look.Voice(m)
	var turns []news.TurnRecord
	if m.Game != nil {
		x, err := b.cfg.Store.Export(ctx, m.ID)
		if err != nil {
			return fmt.Errorf("bot: restore %s: %w", channel, err)
		}
		if turns, _, err = v.Retell(x.Record); err != nil {
			return fmt.Errorf("bot: restore %s: tell match %d again: %w", channel, m.ID, err)
		}
	}
	return b.outbox.Restore(ctx, channel, v.Recap(m, turns, limit))
}
