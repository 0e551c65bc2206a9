package discord

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// TestDrain: the answers in flight at shutdown may finish within
// shutdownGrace; those still going then are cancelled, and drain returns
// once they have stopped.
func TestDrain(t *testing.T) {
	for _, tc := range []struct {
		name      string
		takes     time.Duration
		cancelled bool
	}{
		{"finished in time", 3 * time.Second, false},
		{"outlasting the grace", time.Hour, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				a := &Adapter{log: slog.New(slog.DiscardHandler)}
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				var wg sync.WaitGroup
				wg.Go(func() {
					select {
					case <-time.After(tc.takes):
					case <-ctx.Done():
					}
				})
				start := time.Now()
				a.drain(wg.Wait, cancel)
				if took, want := time.Since(start), min(tc.takes, shutdownGrace); took != want {
					t.Errorf("drain took %v, want %v", took, want)
				}
				if got := ctx.Err() != nil; got != tc.cancelled {
					t.Errorf("cancelled: got %v, want %v", got, tc.cancelled)
				}
			})
		})
	}
}
