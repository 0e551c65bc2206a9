package bot

import (
	"context"
	"fmt"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// ImportOptions are the operator's choices for an import.
type ImportOptions struct {
	// Unverified hosts a match whose random outcomes do not follow from
	// its seed (risk import --unverified), marked so: it never claims fair
	// dice.
	Unverified bool
}

// Imported is a match Import stored, and what the check of its dice
// found.
type Imported struct {
	Match *storage.Match
	// Dice is the check of its random outcomes against its seed (nil if
	// it never started), and Unverified why it was hosted unverified (""
	// if it was not).
	Dice       *engine.Verdict
	Unverified string
}

// Import stores an exported match (risk import) as a new match in its
// channel, after checking everything the bot will rely on when it hosts
// it: an import that the bot could not load would answer every command
// of its channel with an error, and keep /risk new out, for good; one
// whose dice do not follow from its seed would claim fair dice its
// importer may have chosen, and is refused unless o admits it unverified.
// An open match gets a fresh turn clock. The error is an
// *hosted.ImportError when the match is refused for what it holds.
func (b *Bot) Import(ctx context.Context, x *storage.Export, o ImportOptions) (*Imported, error) {
	a, err := b.CheckImport(x, o)
	if err != nil {
		return nil, err
	}
	im, err := b.cfg.Store.Import(ctx, a.Export, b.cfg.Now())
	if err != nil {
		return nil, err
	}
	meta, err := hosted.DecodeMeta(im.Meta)
	if err != nil {
		return nil, fmt.Errorf("bot: import: the match stored: %w", err)
	}
	out := &Imported{Match: im, Dice: a.Dice, Unverified: meta.Unverified}
	if im.Status != storage.Active {
		return out, nil
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
	out.Match = &m.Match
	return out, nil
}

// CheckImport checks an exported match without storing it, and returns it
// as Import would store it: the *hosted.ImportError lists every problem
// found.
func (b *Bot) CheckImport(x *storage.Export, o ImportOptions) (*hosted.Admitted, error) {
	return hosted.CheckImport(x, hosted.Importing{Levels: b.cfg.Levels, HasPalette: b.look.Has, Unverified: o.Unverified, Now: b.cfg.Now()})
}
