// Package lru is a bounded map that forgets its least recently used
// entries first: the bot's caches of maps and answers.
package lru

import (
	"container/list"
	"sync"
)

// Cache keeps at most its size of values by key. It is safe for
// concurrent use.
type Cache[K comparable, V any] struct {
	mu    sync.Mutex
	max   int
	items map[K]*list.Element
	order *list.List // of *entry[K, V], the most recently used first
}

type entry[K comparable, V any] struct {
	key K
	val V
}

// New returns a cache keeping at most n values (at least one).
func New[K comparable, V any](n int) *Cache[K, V] {
	return &Cache[K, V]{max: max(n, 1), items: map[K]*list.Element{}, order: list.New()}
}

// Get returns the value kept for k, if any, and makes it the most
// recently used.
func (c *Cache[K, V]) Get(k K) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*entry[K, V]).val, true
	}
	var zero V
	return zero, false
}

// Add keeps v for k, replacing what was kept for it, and forgets the
// least recently used values beyond the cache's size.
func (c *Cache[K, V]) Add(k K, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.add(k, v)
}

// GetOrAdd returns the value kept for k or, if there is none, keeps and
// returns the one mk makes, under the cache's lock: two callers asking
// for the same key at once get the same value. mk must be quick (make a
// value that does its work later, as a chat.Image renders when first
// asked for).
func (c *Cache[K, V]) GetOrAdd(k K, mk func() V) V {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.items[k]; ok {
		c.order.MoveToFront(e)
		return e.Value.(*entry[K, V]).val
	}
	v := mk()
	c.add(k, v)
	return v
}

func (c *Cache[K, V]) add(k K, v V) {
	if e, ok := c.items[k]; ok {
		e.Value.(*entry[K, V]).val = v
		c.order.MoveToFront(e)
		return
	}
	c.items[k] = c.order.PushFront(&entry[K, V]{k, v})
	for c.order.Len() > c.max {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.items, last.Value.(*entry[K, V]).key)
	}
}

// Len is how many values are kept.
func (c *Cache[K, V]) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
