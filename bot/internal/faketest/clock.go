package faketest

import (
	"sync"
	"time"
)

// Clock is a test's clock and seed counter: the time stands still until
// Advance moves it, and NextSeed gives 1, 2, 3, … Safe for the goroutines
// the parts under test run.
type Clock struct {
	mu   sync.Mutex
	now  time.Time
	seed uint64
}

// NewClock is a clock showing t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// NextSeed is the next seed of a match.
func (c *Clock) NextSeed() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seed++
	return c.seed
}
