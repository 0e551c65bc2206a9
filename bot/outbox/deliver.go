package outbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/storage"
)

const (
	// GiveUpAfter drops a post that cannot be delivered (the channel was
	// deleted, the bot was removed), so it is not tried forever.
	GiveUpAfter = 24 * time.Hour
	// redeliverBatch bounds the posts one Redeliver sends.
	redeliverBatch = 50
)

// Batch writes the messages of news just saved, from the match as it now is.
func (o *Outbox) Batch(m *hosted.Match, n *news.News) news.Batch {
	if n == nil {
		return news.Batch{}
	}
	posts := news.Keyed(o.cfg.Look.Voice(m).Turns().Messages(m, n, true), m.ID, m.Version)
	for i, p := range posts {
		if p.Notice == news.TurnPing && len(p.Mentions) > 0 {
			posts[i].Said = o.pingIn(m)
		}
	}
	return news.Batch{Match: m.ID, Version: m.Version, Posts: posts, Archive: m.Meta.Thread && !m.Status.Open(), Threads: endThreads(m)}
}

// pingIn is match m's turn ping in each language but the match's, for
// the direct messages of players who read another.
func (o *Outbox) pingIn(m *hosted.Match) map[string]string {
	said := map[string]string{}
	for _, t := range lang.Tags() {
		if t == m.Meta.Settings.Language() {
			continue
		}
		if p, ok := o.cfg.Look.Voice(m).In(t).Turns().Ping(m); ok {
			said[string(t)] = p.Text
		}
	}
	return said
}

// endThreads are the team threads of a match that ended: archived with it.
func endThreads(m *hosted.Match) []string {
	if m.Status.Open() {
		return nil
	}
	var out []string
	for _, t := range m.Meta.TeamThreads {
		if t != "" {
			out = append(out, t)
		}
	}
	return out
}

// Deliver posts a batch, even if ctx is cancelled (the change is saved:
// the channel must hear of it), and takes it out of the outbox once it is
// posted. A failed post stops the batch, so that the messages keep their
// order, and leaves it queued for Redeliver, unless the channel will never
// take it.
func (o *Outbox) Deliver(ctx context.Context, channel string, bt news.Batch) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), PostTimeout)
	defer cancel()
	for _, m := range bt.Posts {
		err := o.Post(ctx, channel, m)
		if re, ok := errors.AsType[*chat.RefusedError](err); ok && bt.Match != 0 {
			o.refused(ctx, channel, bt.Match, re)
			break // the rest would be refused too
		}
		if err != nil && !errors.Is(err, chat.ErrUndeliverable) {
			return
		}
	}
	if bt.Archive {
		o.archive(ctx, channel)
	}
	for _, t := range bt.Threads {
		o.archive(ctx, t)
	}
	if bt.Version == 0 {
		return
	}
	if err := o.cfg.Store.Delivered(ctx, bt.Match, bt.Version); err != nil {
		// Not fatal: Redeliver would post the batch once more.
		o.cfg.Log.Error("outbox", "channel", channel, "match", bt.Match, "version", bt.Version, "err", err)
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
func (o *Outbox) Redeliver(ctx context.Context) error {
	cl := o.cfg.Claim()
	queued, err := o.cfg.Store.ClaimPosts(ctx, o.cfg.Scope, cl, redeliverBatch)
	if err != nil {
		return err
	}
	var errs []error
	for _, p := range queued {
		if !o.cfg.Serves(p.Channel) {
			continue // another adapter's channel: it posts its own news
		}
		if err := o.redeliver(ctx, p, cl.Now); err != nil {
			errs = append(errs, fmt.Errorf("match %d version %d: %w", p.Match, p.Version, err))
			if err := o.cfg.Store.ReleasePosts(context.WithoutCancel(ctx), p.Match, p.Version, o.cfg.Instance); err != nil {
				errs = append(errs, err)
			}
		}
	}
	return errors.Join(errs...)
}

func (o *Outbox) redeliver(ctx context.Context, p storage.Post, now time.Time) error {
	var n news.News
	if err := json.Unmarshal(p.Body, &n); err != nil {
		o.cfg.Log.Error("outbox: dropped a post that does not decode", "channel", p.Channel, "match", p.Match, "version", p.Version, "err", err)
		return o.cfg.Store.Delivered(ctx, p.Match, p.Version)
	}
	unlock := o.cfg.Locks.Lock(p.Channel)
	m, err := o.cfg.Matches.ByID(ctx, p.Match)
	unlock()
	var ue *chat.Refusal
	var ce *storage.CorruptError
	switch {
	case errors.As(err, &ue):
		return o.cfg.Store.Delivered(ctx, p.Match, p.Version) // the match is gone
	case errors.As(err, &ce):
		// Its log no longer replays: the news cannot be written again.
		o.cfg.Log.Error("outbox: dropped the news of a damaged match", "channel", p.Channel, "match", p.Match, "version", p.Version, "err", err)
		return o.cfg.Store.Delivered(ctx, p.Match, p.Version)
	case err != nil:
		return err
	}
	msgs := news.Keyed(o.cfg.Look.Voice(m).Turns().Messages(m, &n, m.Version == p.Version), p.Match, p.Version)
	if len(msgs) > 0 {
		// The post is the channel's: in the match's language.
		msgs[0].Text = lang.For(m.Meta.Settings.Language()).T("outbox.posted-late") + "\n" + msgs[0].Text
	}
	bt := news.Batch{Match: p.Match, Version: p.Version, Posts: msgs, Archive: m.Meta.Thread && !m.Status.Open(), Threads: endThreads(m)}
	pctx, cancel := context.WithTimeout(ctx, PostTimeout)
	defer cancel()
	for _, msg := range bt.Posts {
		if err := o.Post(pctx, p.Channel, msg); err != nil {
			if re, ok := errors.AsType[*chat.RefusedError](err); ok {
				o.refused(ctx, p.Channel, p.Match, re)
			}
			if !errors.Is(err, chat.ErrUndeliverable) && now.Sub(p.Queued) < GiveUpAfter {
				return err // try again at the next tick
			}
			o.cfg.Log.Error("outbox: gave up a post", "channel", p.Channel, "match", p.Match, "version", p.Version, "queued", p.Queued, "err", err)
			break
		}
	}
	if bt.Archive {
		o.archive(ctx, p.Channel)
	}
	for _, t := range bt.Threads {
		o.archive(ctx, t)
	}
	return o.cfg.Store.Delivered(ctx, p.Match, p.Version)
}

// archive archives the thread of a match that ended, its news posted.
func (o *Outbox) archive(ctx context.Context, thread string) {
	t, ok := o.cfg.Poster.(chat.Threader)
	if !ok {
		return
	}
	if err := t.ArchiveThread(ctx, thread); err != nil {
		o.cfg.Log.Warn("archive the thread of a match that ended", "thread", thread, "err", err)
	}
}

// PostTimeout bounds the posting of a saved turn's messages.
const PostTimeout = 30 * time.Second
