package storage

import (
	"bytes"
	"container/list"
	"context"
	"encoding/json"
	"sync"
	"time"
)

// Loader is what a Cache reads and writes through: matches with their
// games, their heads (id, channel, status, version) alone, and changes;
// and, passed through, the matches a channel held and a new one.
type Loader interface {
	Load(ctx context.Context, id int64) (*Loaded, error)
	Active(ctx context.Context, channel string) (*Loaded, error)
	Head(ctx context.Context, id int64) (Head, error)
	OpenHead(ctx context.Context, channel string) (Head, error)
	Save(ctx context.Context, id, version int64, c Change, now time.Time) (int64, error)
	History(ctx context.Context, channel string) ([]Match, error)
	Create(ctx context.Context, channel string, meta json.RawMessage, now time.Time) (*Match, error)
}

// Cache keeps the last matches loaded, with their games, so that a match
// read again at the same version is not rebuilt from its snapshot and log:
// each read asks the database for the match's head only (one indexed row)
// and, if its version is the one kept, answers with a copy of what is
// kept. A version is never reused (every Save adds one), so a match at a
// version kept is that match, whoever changed it, in this process or
// another. It is safe for concurrent use.
type Cache struct {
	inner Loader
	max   int

	mu    sync.Mutex
	byID  map[int64]*list.Element
	order *list.List // of *Loaded, the most recently used first
}

// NewCache returns a cache over inner keeping at most n matches.
func NewCache(inner Loader, n int) *Cache {
	return &Cache{inner: inner, max: max(n, 1), byID: map[int64]*list.Element{}, order: list.New()}
}

// Load returns match id with its game, as Loader.Load does: the caller
// owns it and may play on it.
func (c *Cache) Load(ctx context.Context, id int64) (*Loaded, error) {
	h, err := c.inner.Head(ctx, id)
	if err != nil {
		return nil, err
	}
	return c.read(h, func() (*Loaded, error) { return c.inner.Load(ctx, id) })
}

// Active returns the open match of channel with its game, as
// Loader.Active does: the caller owns it and may play on it.
func (c *Cache) Active(ctx context.Context, channel string) (*Loaded, error) {
	h, err := c.inner.OpenHead(ctx, channel)
	if err != nil {
		return nil, err
	}
	return c.read(h, func() (*Loaded, error) { return c.inner.Active(ctx, channel) })
}

// Kept returns a copy of match id as kept, without asking the database:
// nil if it is not kept. It may be stale (another process may have
// changed the match since): a change made from it is checked at Save by
// its version, as any is, and fails with ErrConflict if it was; anything
// else a caller concludes from it must be checked against the database
// (Load) before it is told.
func (c *Cache) Kept(id int64) *Loaded {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	return copyLoaded(e.Value.(*Loaded))
}

// KeptHead returns the head of match id as kept, without asking the
// database, and whether it is kept: as stale as Kept may be, but a
// match's id and channel never change.
func (c *Cache) KeptHead(id int64) (Head, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return Head{}, false
	}
	l := e.Value.(*Loaded)
	return Head{ID: l.ID, Channel: l.Channel, Status: l.Status, Version: l.Version, Commands: l.Commands}, true
}

// History returns the matches of channel, from the database (Loader's).
func (c *Cache) History(ctx context.Context, channel string) ([]Match, error) {
	return c.inner.History(ctx, channel)
}

// Create opens a match in channel, in the database (Loader's): it is kept
// once it is loaded.
func (c *Cache) Create(ctx context.Context, channel string, meta json.RawMessage, now time.Time) (*Match, error) {
	return c.inner.Create(ctx, channel, meta, now)
}

// Head returns the head of match id, from the database.
func (c *Cache) Head(ctx context.Context, id int64) (Head, error) { return c.inner.Head(ctx, id) }

// OpenHead returns the head of channel's open match, from the database.
func (c *Cache) OpenHead(ctx context.Context, channel string) (Head, error) {
	return c.inner.OpenHead(ctx, channel)
}

// Save saves change ch to match id as Loader.Save does and, if the match
// is kept at the version the change follows, keeps it as the change leaves
// it: the next read of a match its own process changed is not a rebuild.
// (A change that starts a match is not followed: the store draws its deal.)
func (c *Cache) Save(ctx context.Context, id, version int64, ch Change, now time.Time) (int64, error) {
	v, err := c.inner.Save(ctx, id, version, ch, now)
	if err != nil {
		return v, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok {
		return v, nil
	}
	l := e.Value.(*Loaded)
	if l.Version != version || ch.Start != nil || (len(ch.Entries) > 0) != (ch.Game != nil) {
		return v, nil
	}
	next, err := l.after(ch, v, now)
	if err != nil {
		return v, nil // the store took it: the next read loads it
	}
	e.Value = next
	c.order.MoveToFront(e)
	return v, nil
}

// after is the match as change ch, saved as version v at now, leaves it:
// what a store writes in its row (PlanSave, Write.SetSQL) and the game the
// change carries.
func (l *Loaded) after(ch Change, v int64, now time.Time) (*Loaded, error) {
	status, err := Transition(l.Status, ch)
	if err != nil {
		return nil, err
	}
	next := *l
	next.Version, next.Status = v, status
	next.Commands += len(ch.Entries)
	next.Updated = fromMillis(now.UnixMilli())
	if ch.Game != nil {
		next.Game = ch.Game.Clone() // the caller plays on with its own
	}
	if ch.Meta != nil {
		next.Meta = nil
		if len(ch.Meta) > 0 {
			next.Meta = bytes.Clone(ch.Meta)
		}
	}
	switch {
	case !status.Open() && l.Status.Open():
		next.Timers, next.Closed = Timers{}, next.Updated
	case ch.Timers != nil:
		next.Timers = Timers{Remind: toMillis(ch.Timers.Remind), Deadline: toMillis(ch.Timers.Deadline)}
	}
	return &next, nil
}

// toMillis is a time as a store reads it back: to the millisecond, in
// UTC; the zero time stays zero.
func toMillis(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return fromMillis(t.UnixMilli())
}

// read answers from the match kept at h's version, or loads it with load
// and keeps it.
func (c *Cache) read(h Head, load func() (*Loaded, error)) (*Loaded, error) {
	if l := c.get(h); l != nil {
		return l, nil
	}
	l, err := load()
	if err != nil {
		return nil, err
	}
	// The head and the load are two reads: a change between them is
	// kept at the version the load saw, which is what it is.
	c.put(l)
	return l, nil
}

// get returns a copy of match h.ID if it is kept at h.Version.
func (c *Cache) get(h Head) *Loaded {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[h.ID]
	if !ok {
		return nil
	}
	l := e.Value.(*Loaded)
	if l.Version != h.Version {
		return nil
	}
	c.order.MoveToFront(e)
	return copyLoaded(l)
}

// put keeps a copy of l, unless a later version of its match is kept
// already.
func (c *Cache) put(l *Loaded) {
	kept := copyLoaded(l)
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byID[l.ID]; ok {
		if e.Value.(*Loaded).Version > l.Version {
			return
		}
		e.Value = kept
		c.order.MoveToFront(e)
		return
	}
	c.byID[l.ID] = c.order.PushFront(kept)
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byID, last.Value.(*Loaded).ID)
	}
}

// copyLoaded copies a loaded match so that playing on the copy changes
// nothing of the original. The match's fields are values, or bytes and a
// setup that nobody changes in place once read.
func copyLoaded(l *Loaded) *Loaded {
	cp := *l
	if l.Game != nil {
		cp.Game = l.Game.Clone()
	}
	return &cp
}
