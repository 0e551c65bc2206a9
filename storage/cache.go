package storage

import (
	"container/list"
	"context"
	"sync"
)

// Loader is what a Cache reads through: matches with their games, and
// their heads (id, channel, status, version) alone.
type Loader interface {
	Load(ctx context.Context, id int64) (*Loaded, error)
	Active(ctx context.Context, channel string) (*Loaded, error)
	Head(ctx context.Context, id int64) (Head, error)
	OpenHead(ctx context.Context, channel string) (Head, error)
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
	return c.read(ctx, h, func() (*Loaded, error) { return c.inner.Load(ctx, id) })
}

// Active returns the open match of channel with its game, as
// Loader.Active does: the caller owns it and may play on it.
func (c *Cache) Active(ctx context.Context, channel string) (*Loaded, error) {
	h, err := c.inner.OpenHead(ctx, channel)
	if err != nil {
		return nil, err
	}
	return c.read(ctx, h, func() (*Loaded, error) { return c.inner.Active(ctx, channel) })
}

// Head returns the head of match id, from the database.
func (c *Cache) Head(ctx context.Context, id int64) (Head, error) { return c.inner.Head(ctx, id) }

// OpenHead returns the head of channel's open match, from the database.
func (c *Cache) OpenHead(ctx context.Context, channel string) (Head, error) {
	return c.inner.OpenHead(ctx, channel)
}

// read answers from the match kept at h's version, or loads it with load
// and keeps it.
func (c *Cache) read(_ context.Context, h Head, load func() (*Loaded, error)) (*Loaded, error) {
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
