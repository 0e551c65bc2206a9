package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine/luck"
	"github.com/riskbot/riskbot/storage"
)

// Restore posts again in channel what it shows of its latest match,
// through the bot's Poster: for an adapter whose channels lose their
// messages when it stops (the web page keeps them in memory), once,
// before anything else is posted there. A lobby gets its living message;
// a match under way its story so far, told again from its log as
// everyone saw it, and the living message of the turn in progress with
// its buttons; a match that is over (and followed by no other) its story
// and its end: the victory post with its Rematch button, or how it was
// ended without a winner (voice.Recap). At most limit messages (<= 0:
// all). The living messages posted are those the bot edits from then on.
// Private answers are not posted again. A channel that never had a
// match, or whose match no longer loads, gets nothing.
//
// blank, if not nil, is asked under the channel's lock, before anything
// is read, whether the channel still shows nothing: one written to
// meanwhile (a command that came first) is left as it is.
func (b *Bot) Restore(ctx context.Context, channel string, limit int, blank func() bool) error {
	unlock := b.locks.Lock(channel)
	defer unlock()
	if blank != nil && !blank() {
		return nil
	}
	m, err := b.matches.Load(ctx, channel)
	if _, ok := errors.AsType[*chat.Refusal](err); ok {
		m, err = b.ended(ctx, channel)
	}
	if _, ok := errors.AsType[*chat.Refusal](err); ok || m == nil && err == nil {
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
		if turns, _, err = v.Teller().Retell(x.Record); err != nil {
			return fmt.Errorf("bot: restore %s: tell match %d again: %w", channel, m.ID, err)
		}
		if m.Status == storage.Finished {
			// The victory post tells the luck of the dice, as the win did.
			if rep, err := luck.Of(x.Record); err != nil {
				b.cfg.Log.Error("the luck of a won match", "match", m.ID, "err", err)
			} else {
				m.Luck = rep.String()
			}
		}
	}
	return b.outbox.Restore(ctx, channel, v.Recap().Posts(m, turns, limit))
}

// ended returns the latest match of channel, which has no open one, if
// it hosted any: nil if none (or if its latest is open after all, and
// damaged).
func (b *Bot) ended(ctx context.Context, channel string) (*hosted.Match, error) {
	past, err := b.cfg.Store.History(ctx, channel)
	if err != nil || len(past) == 0 || past[0].Status.Open() {
		return nil, err
	}
	return b.matches.ByID(ctx, past[0].ID)
}
