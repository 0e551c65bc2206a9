package bot

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/storage"
)

// The posts a change makes due (turn summaries, maps, pings, reminders) are
// queued in the outbox in the change's own transaction, as news: what to
// say, not the messages, which are written again from the match when they
// are posted. The process that saved the change posts them and marks them
// delivered; whatever a crash (or a failed post) leaves queued is posted by
// Redeliver, so the next player is always told it is their turn.

// news is what one change has to tell the channel, as the outbox keeps it.
type news struct {
	// Note comes first: why the bot acted for a person (a missed deadline).
	Note string `json:"note,omitempty"`
	// Remind pings whoever the match waits for.
	Remind bool `json:"remind,omitempty"`
	// Turns are the turns that ended, each posted with its summary; the
	// last one with the map, then the ping of the player now to act.
	Turns []turnRecord `json:"turns,omitempty"`
	// Over posts the victory.
	Over bool `json:"over,omitempty"`
}

// batch is the messages of one change, delivered together.
type batch struct {
	match, version int64 // the change that queued them; 0 if none
	msgs           []Message
	// archive: the change ended a match played in a thread of its own,
	// archived once the news is posted.
	archive bool
}

const (
	// redeliverAfter is how long a post queued by this process may wait
	// before Redeliver takes it for lost: longer than posting it takes.
	redeliverAfter = 5 * time.Minute
	// giveUpAfter drops a post that cannot be delivered (the channel was
	// deleted, the bot was removed), so it is not tried forever.
	giveUpAfter = 24 * time.Hour
	// redeliverBatch bounds the posts one Redeliver sends.
	redeliverBatch = 50
)

// saveNews saves a change with the news it queues, if any.
func (b *Bot) saveNews(ctx context.Context, m *match, c storage.Change, n *news) error {
	if n != nil {
		body, err := json.Marshal(n)
		if err != nil {
			return fmt.Errorf("bot: encode the news of match %d: %w", m.ID, err)
		}
		c.Posts = []json.RawMessage{body}
	}
	return b.save(ctx, m, c)
}

// batch writes the messages of news just saved, from the match as it now is.
func (b *Bot) batch(m *match, n *news) batch {
	if n == nil {
		return batch{}
	}
	return batch{match: m.ID, version: m.Version, msgs: b.messages(m, n, true), archive: m.meta.Thread && !m.Status.Open()}
}

// messages writes the news of a change. Written late (fresh false), when
// the match has moved on since, they keep only what is still true: the
// summaries, without the map or a ping of a turn long gone.
func (b *Bot) messages(m *match, n *news, fresh bool) []Message {
	var msgs []Message
	if n.Note != "" {
		msgs = append(msgs, Message{Text: n.Note})
	}
	if n.Remind && fresh {
		if r, ok := b.reminder(m); ok {
			msgs = append(msgs, r)
		}
	}
	if fresh {
		return append(msgs, b.turnPosts(m, n.Turns, n.Over)...)
	}
	s := m.Game.State
	for _, t := range n.Turns {
		msgs = append(msgs, Message{Text: b.voice(m).turnSummary(s, t)})
	}
	if n.Over {
		msgs = append(msgs, Message{Text: b.victoryText(m)})
	}
	return msgs
}

// deliver posts a batch, even if ctx is cancelled (the change is saved:
// the channel must hear of it), and takes it out of the outbox once it is
// posted. A failed post stops the batch, so that the messages keep their
// order, and leaves it queued for Redeliver, unless the channel will never
// take it.
func (b *Bot) deliver(ctx context.Context, channel string, bt batch) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), postTimeout)
	defer cancel()
	for _, m := range bt.msgs {
		err := b.post(ctx, channel, m)
		if re, ok := errors.AsType[*RefusedError](err); ok && bt.match != 0 {
			b.refused(ctx, channel, bt.match, re)
			break // the rest would be refused too
		}
		if err != nil && !errors.Is(err, ErrUndeliverable) {
			return
		}
	}
	if bt.archive {
		b.archive(ctx, channel)
	}
	if bt.version == 0 {
		return
	}
	if err := b.cfg.Store.Delivered(ctx, bt.match, bt.version); err != nil {
		// Not fatal: Redeliver would post the batch once more.
		b.cfg.Log.Error("outbox", "match", bt.match, "version", bt.version, "err", err)
	}
}

// Redeliver posts the news that changes queued and nobody delivered: those
// of a process that stopped between saving a change and posting it, and
// posts that failed. Tick calls it; adapters call it once when they start.
// A message may then be posted twice (the crash came after posting it and
// before marking it), never not at all, unless it cannot be delivered for
// a day or the channel refuses it for good (ErrUndeliverable).
func (b *Bot) Redeliver(ctx context.Context) error {
	now := b.cfg.Now()
	// Everything queued up to now (Outbox lists what is strictly before).
	queued, err := b.cfg.Store.Outbox(ctx, b.cfg.Scope, now.Add(time.Millisecond), redeliverBatch)
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range queued {
		if !b.serves(p.Channel) {
			continue // another adapter's channel: it posts its own news
		}
		// This process queued it a moment ago: it is being posted.
		if p.Queued.After(b.started) && now.Sub(p.Queued) < redeliverAfter {
			continue
		}
		if err := b.redeliver(ctx, p, now); err != nil {
			errs = append(errs, fmt.Errorf("match %d version %d: %w", p.Match, p.Version, err))
		}
	}
	return errors.Join(errs...)
}

func (b *Bot) redeliver(ctx context.Context, p storage.Post, now time.Time) error {
	var n news
	if err := json.Unmarshal(p.Body, &n); err != nil {
		b.cfg.Log.Error("outbox: dropped a post that does not decode", "match", p.Match, "version", p.Version, "err", err)
		return b.cfg.Store.Delivered(ctx, p.Match, p.Version)
	}
	unlock := b.lock(p.Channel)
	m, err := b.loadID(ctx, p.Match)
	unlock()
	var ue *userError
	var ce *storage.CorruptError
	switch {
	case errors.As(err, &ue):
		return b.cfg.Store.Delivered(ctx, p.Match, p.Version) // the match is gone
	case errors.As(err, &ce):
		// Its log no longer replays: the news cannot be written again.
		b.cfg.Log.Error("outbox: dropped the news of a damaged match", "match", p.Match, "version", p.Version, "err", err)
		return b.cfg.Store.Delivered(ctx, p.Match, p.Version)
	case err != nil:
		return err
	}
	msgs := b.messages(m, &n, m.Version == p.Version)
	if len(msgs) > 0 {
		msgs[0].Text = "*(Posted late: the bot was interrupted.)*\n" + msgs[0].Text
	}
	bt := batch{match: p.Match, version: p.Version, msgs: msgs, archive: m.meta.Thread && !m.Status.Open()}
	pctx, cancel := context.WithTimeout(ctx, postTimeout)
	defer cancel()
	for _, msg := range bt.msgs {
		if err := b.post(pctx, p.Channel, msg); err != nil {
			if re, ok := errors.AsType[*RefusedError](err); ok {
				b.refused(ctx, p.Channel, p.Match, re)
			}
			if !errors.Is(err, ErrUndeliverable) && now.Sub(p.Queued) < giveUpAfter {
				return err // try again at the next tick
			}
			b.cfg.Log.Error("outbox: gave up a post", "match", p.Match, "version", p.Version, "queued", p.Queued, "err", err)
			break
		}
	}
	if bt.archive {
		b.archive(ctx, p.Channel)
	}
	return b.cfg.Store.Delivered(ctx, p.Match, p.Version)
}

// archive archives the thread of a match that ended, its news posted.
func (b *Bot) archive(ctx context.Context, thread string) {
	t, ok := b.cfg.Poster.(Threader)
	if !ok {
		return
	}
	if err := t.ArchiveThread(ctx, thread); err != nil {
		b.cfg.Log.Warn("archive the thread of a match that ended", "thread", thread, "err", err)
	}
}
