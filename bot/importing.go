package bot

import (
	"context"
	"fmt"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/imports"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// ImportOptions are the operator's choices for an import, and where the
// match comes from.
type ImportOptions struct {
	// Unverified hosts a match whose random outcomes do not follow from
	// its seed (risk import --unverified), marked so: it never claims fair
	// dice.
	Unverified bool
	// Commitment is the commitment published when the match started, if
	// the operator has it (risk import --commitment): the dice are
	// checked against it rather than against the file's, as risk verify
	// --commitment does.
	Commitment string
	// Rated counts the match's result in its server's leaderboards and
	// players' stats (risk import --rated). Whoever wrote the file chose
	// its seats' players: without it, an imported match credits nobody.
	Rated bool
	// Source names the file imported ("-" for standard input) and SHA256
	// is the hash of its bytes in hexadecimal: the match's origin
	// (storage.Origin), stored with it.
	Source, SHA256 string
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
	// Origin is where it came from, as stored with it; Seats are its
	// seats, whom its result credits if it is rated.
	Origin storage.Origin
	Seats  []hosted.Seat
}

// Import stores an exported match (risk import) as a new match in its
// channel, after checking everything the bot will rely on when it hosts
// it: an import that the bot could not load would answer every command
// of its channel with an error, and keep /risk new out, for good; one
// whose dice do not follow from its seed would claim fair dice its
// importer may have chosen, and is refused unless o admits it unverified.
// The match is stored with its origin (o's source, its hash, the time,
// and whether it is rated: only then does its result count in its
// server's stats). An open match gets a fresh turn clock. The error is an
// *imports.Error when the match is refused for what it holds.
func (b *Bot) Import(ctx context.Context, x *storage.Export, o ImportOptions) (*Imported, error) {
	a, err := b.CheckImport(x, o)
	if err != nil {
		return nil, err
	}
	// Every import records where it came from, and whether it counts.
	source := o.Source
	if source == "" {
		source = "(unnamed)"
	}
	a.Export.Origin = &storage.Origin{Source: source, SHA256: o.SHA256, Imported: b.cfg.Now(), Rated: o.Rated}
	im, err := b.cfg.Store.Import(ctx, a.Export, b.cfg.Now())
	if err != nil {
		return nil, err
	}
	meta, err := hosted.DecodeMeta(im.Meta)
	if err != nil {
		return nil, fmt.Errorf("bot: import: the match stored: %w", err)
	}
	out := &Imported{Match: im, Dice: a.Dice, Unverified: meta.Unverified, Origin: *a.Export.Origin, Seats: meta.Seats}
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
// as Import would store it: the *imports.Error lists every problem
// found.
func (b *Bot) CheckImport(x *storage.Export, o ImportOptions) (*imports.Admitted, error) {
	return imports.Check(x, imports.Options{Levels: b.cfg.Levels, HasPalette: b.look.Has, Unverified: o.Unverified, Commitment: o.Commitment, Now: b.cfg.Now()})
}
