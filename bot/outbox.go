package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/bot/hosted"

	"github.com/riskbot/riskbot/bot/news"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/storage"
)

// The posts a change makes due (turn summaries, maps, pings, reminders) are
// queued in the outbox in the change's own transaction, as news: what to
// say, not the messages, which are written again from the match when they
// are posted. The process that saved the change posts them and marks them
// delivered; whatever a crash (or a failed post) leaves queued is posted by
// Redeliver, so the next player is always told it is their turn.

const (
	// giveUpAfter drops a post that cannot be delivered (the channel was
	// deleted, the bot was removed), so it is not tried forever.
	giveUpAfter = 24 * time.Hour
	// redeliverBatch bounds the posts one Redeliver sends.
	redeliverBatch = 50
)

// saveNews saves a change with the news it queues, if any.
func (b *Bot) saveNews(ctx context.Context, m *hosted.Match, c storage.Change, n *news.News) error {
	if n != nil {
		body, err := json.Marshal(n)
		if err != nil {
			return fmt.Errorf("bot: encode the news of match %d: %w", m.ID, err)
		}
		c.Posts = []json.RawMessage{body}
	}
	return b.matches.Save(ctx, m, c)
}

// batch writes the messages of news just saved, from the match as it now is.
func (b *Bot) batch(m *hosted.Match, n *news.News) news.Batch {
	if n == nil {
		return news.Batch{}
	}
	return news.Batch{Match: m.ID, Version: m.Version, Posts: news.Keyed(b.look.Voice(m).Messages(m, n, true), m.ID, m.Version), Archive: m.Meta.Thread && !m.Status.Open()}
}

// deliver posts a batch, even if ctx is cancelled (the change is saved:
// the channel must hear of it), and takes it out of the outbox once it is
// posted. A failed post stops the batch, so that the messages keep their
// order, and leaves it queued for Redeliver, unless the channel will never
// take it.
func (b *Bot) deliver(ctx context.Context, channel string, bt news.Batch) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), postTimeout)
	defer cancel()
	for _, m := range bt.Posts {
		err := b.post(ctx, channel, m)
		if re, ok := errors.AsType[*chat.RefusedError](err); ok && bt.Match != 0 {
			b.refused(ctx, channel, bt.Match, re)
			break // the rest would be refused too
		}
		if err != nil && !errors.Is(err, chat.ErrUndeliverable) {
			return
		}
	}
	if bt.Archive {
		b.archive(ctx, channel)
	}
	if bt.Version == 0 {
		return
	}
	if err := b.cfg.Store.Delivered(ctx, bt.Match, bt.Version); err != nil {
		// Not fatal: Redeliver would post the batch once more.
		b.cfg.Log.Error("outbox", "channel", channel, "match", bt.Match, "version", bt.Version, "err", err)
	}
}

// Redeliver posts the news that changes queued and nobody delivered: those
// of a process that stopped between saving a change and posting it, and
// posts that failed. Tick calls it; adapters call it once when they start.
// A message may then be posted twice (the crash came after posting it and
// before marking it), never not at all, unless it cannot be delivered for
// a day or the channel refuses it for good (ErrUndeliverable).
//
// Posts are claimed (storage.Claim): those this process queued since it
// started are its own until their lease ends (deliver is posting them);
// those of a process that died are taken when their lease ends, or at once
// by the same process restarted. A post whose delivery fails is released,
// to be tried again at the next tick, by any process.
func (b *Bot) Redeliver(ctx context.Context) error {
	cl := b.claim()
	queued, err := b.cfg.Store.ClaimPosts(ctx, b.cfg.Scope, cl, redeliverBatch)
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range queued {
		if !b.serves(p.Channel) {
			continue // another adapter's channel: it posts its own news
		}
		if err := b.redeliver(ctx, p, cl.Now); err != nil {
			errs = append(errs, fmt.Errorf("match %d version %d: %w", p.Match, p.Version, err))
			if err := b.cfg.Store.ReleasePosts(context.WithoutCancel(ctx), p.Match, p.Version, b.cfg.Instance); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

func (b *Bot) redeliver(ctx context.Context, p storage.Post, now time.Time) error {
	var n news.News
	if err := json.Unmarshal(p.Body, &n); err != nil {
		b.cfg.Log.Error("outbox: dropped a post that does not decode", "channel", p.Channel, "match", p.Match, "version", p.Version, "err", err)
		return b.cfg.Store.Delivered(ctx, p.Match, p.Version)
	}
	unlock := b.lock(p.Channel)
	m, err := b.matches.ByID(ctx, p.Match)
	unlock()
	var ue *chat.Refusal
	var ce *storage.CorruptError
	switch {
	case errors.As(err, &ue):
		return b.cfg.Store.Delivered(ctx, p.Match, p.Version) // the match is gone
	case errors.As(err, &ce):
		// Its log no longer replays: the news cannot be written again.
		b.cfg.Log.Error("outbox: dropped the news of a damaged match", "channel", p.Channel, "match", p.Match, "version", p.Version, "err", err)
		return b.cfg.Store.Delivered(ctx, p.Match, p.Version)
	case err != nil:
		return err
	}
	msgs := news.Keyed(b.look.Voice(m).Messages(m, &n, m.Version == p.Version), p.Match, p.Version)
	if len(msgs) > 0 {
		msgs[0].Text = "*(Posted late: the bot was interrupted.)*\n" + msgs[0].Text
	}
	bt := news.Batch{Match: p.Match, Version: p.Version, Posts: msgs, Archive: m.Meta.Thread && !m.Status.Open()}
	pctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	for _, msg := range bt.Posts {
		if err := b.post(pctx, p.Channel, msg); err != nil {
			if re, ok := errors.AsType[*chat.RefusedError](err); ok {
				b.refused(ctx, p.Channel, p.Match, re)
			}
			if !errors.Is(err, chat.ErrUndeliverable) && now.Sub(p.Queued) < giveUpAfter {
				return err // try again at the next tick
			}
			b.cfg.Log.Error("outbox: gave up a post", "channel", p.Channel, "match", p.Match, "version", p.Version, "queued", p.Queued, "err", err)
			break
		}
	}
	if bt.Archive {
		b.archive(ctx, p.Channel)
	}
	return b.cfg.Store.Delivered(ctx, p.Match, p.Version)
}

// archive archives the thread of a match that ended, its news posted.
func (b *Bot) archive(ctx context.Context, thread string) {
	t, ok := b.cfg.Poster.(chat.Threader)
	if !ok {
		return
	}
	if err := t.ArchiveThread(ctx, thread); err != nil {
		b.cfg.Log.Warn("archive the thread of a match that ended", "thread", thread, "err", err)
	}
}
