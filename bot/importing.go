package bot

import (
	"context"
	"fmt"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/storage"
)

// Import stores an exported match (risk import) as a new match in its
// channel, after checking everything the bot will rely on when it hosts
// it: an import that the bot could not load would answer every command
// of its channel with an error, and keep /risk new out, for good. An
// open match gets a fresh turn clock. The error is an *ImportError when
// the match is refused for what it holds.
func (b *Bot) Import(ctx context.Context, x *storage.Export) (*storage.Match, error) {
	if err := b.CheckImport(x); err != nil {
		return nil, err
	}
	im, err := b.cfg.Store.Import(ctx, x, b.cfg.Now())
	if err != nil {
		return nil, err
	}
	if im.Status != storage.Active {
		return im, nil
	}
	// The export's clock is not the match's: its player gets a whole turn
	// from now (a computer plays at once).
	unlock := b.locks.Lock(im.Channel)
	defer unlock()
	m, err := b.matches.ByID(ctx, im.ID)
	if err != nil {
		return nil, fmt.Errorf("bot: import: load the match stored: %w", err)
	}
	t := b.matches.TurnTimers(ctx, m)
	if err := b.matches.Save(ctx, m, storage.Change{Timers: &t}); err != nil {
		return nil, fmt.Errorf("bot: import: start the clock: %w", err)
	}
	return &m.Match, nil
}

// CheckImport checks an exported match without storing it: the
// *hosted.ImportError lists every problem found.
func (b *Bot) CheckImport(x *storage.Export) error {
	return hosted.CheckImport(x, b.cfg.Levels, b.look.Has)
}
