package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// Export returns match id whole: its setup, its log and the host's data,
// and where it came from if it was imported.
// It does not replay the log, so a match that fails to load can still be
// exported for a bug report.
func (db *DB) Export(ctx context.Context, id int64) (*storage.Export, error) {
	return storage.ExportWhole(ctx, shared{db.read}, id, db.ExportLog, db.MapFiles)
}

// ExportLog returns part of match id's export: its head and setup, and of
// its log the entries after the first after, at most limit of them; and the
// number of entries in the whole log. It reads only those entries, so that
// a reader following a long match pays for what it has not seen
// (GET /api/matches/{id}/commands?after=N).
func (db *DB) ExportLog(ctx context.Context, id int64, after, limit int) (*storage.Export, int, error) {
	tx, err := db.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, 0, fail(fmt.Sprintf("export match %d", id), err)
	}
	defer tx.Rollback()
	return storage.ReadExport(ctx, shared{tx}, "matches", id, after, limit, func(part *storage.Match) ([]engine.Entry, error) {
		return readLog(ctx, tx, part, after)
	})
}

// Import stores a match exported by Export, as a new match with a new id in
// e.Channel. It replays the log first and stores nothing if it fails; an
// open match fails with storage.ErrChannelBusy if the channel already has
// one.
func (db *DB) Import(ctx context.Context, e *storage.Export, now time.Time) (*storage.Match, error) {
	op := "import"
	hash, g, err := storage.ReadyImport(e, func(name string) (storage.MapFiles, error) { return db.MapFiles(ctx, name) })
	if err != nil {
		return nil, fmt.Errorf("storage: import: %w", err)
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, fail(op, err)
	}
	defer tx.Rollback()
	if hash != "" {
		// The files of a map its match plays on, kept for good like those
		// of an imported map (AddMap), but in no library.
		if err := storage.InsertMapFiles(ctx, shared{tx}, e.Record.Setup.Options.Map, hash, *e.Map, now); err != nil {
			return nil, fail(op, err)
		}
	}
	m, err := db.insert(ctx, tx, e, g, now)
	if err != nil {
		return nil, err
	}
	if err := tx.Commit(); err != nil {
		return nil, fail(op, err)
	}
	return m, nil
}

// ImportCopies stores export e as new matches, one in each of channels,
// in one transaction, checking and replaying it once: what fills a
// database with a large community's matches for a benchmark or a load
// test in seconds, where an Import each would take a durable transaction
// each. It stores nothing if any fails; an open match fails with
// storage.ErrChannelBusy in a channel that has one.
func (db *DB) ImportCopies(ctx context.Context, e *storage.Export, channels []string, now time.Time) error {
	const op = "import copies"
	g, err := storage.CheckImport(e)
	if err != nil {
		return fmt.Errorf("storage: %s: %w", op, err)
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return fail(op, err)
	}
	defer tx.Rollback()
	for _, ch := range channels {
		x := *e
		x.Channel = ch
		if _, err := db.insert(ctx, tx, &x, g, now); err != nil {
			return err
		}
	}
	if err := tx.Commit(); err != nil {
		return fail(op, err)
	}
	return nil
}

// insert writes an imported match, whose game g (nil if it never started)
// is its replayed log, at version 1.
func (db *DB) insert(ctx context.Context, tx *sql.Tx, e *storage.Export, g *engine.Game, now time.Time) (*storage.Match, error) {
	op := "import into " + e.Channel
	x, err := storage.EncodeImport(e, g, now)
	if err != nil {
		return nil, fmt.Errorf("storage: %s: %w", op, err)
	}
	m, ms := &x.Match, x.Match.Created.UnixMilli()
	res, err := tx.ExecContext(ctx, `INSERT INTO matches (channel, status, version, meta, setup, commands, created_at, updated_at, closed_at)
		VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?)`, e.Channel, e.Status, storage.NullJSON(e.Meta), x.Setup, m.Commands, ms, ms, storage.NullMillis(m.Closed))
	if isCode(err, sqlite3.ErrConstraintUnique) {
		return nil, fmt.Errorf("%w (%s)", storage.ErrChannelBusy, e.Channel)
	}
	if err != nil {
		return nil, fail(op, err)
	}
	if m.ID, err = res.LastInsertId(); err != nil {
		return nil, fail(op, err)
	}
	if err := importSeats(ctx, tx, m.ID, e.Status, g); err != nil {
		return nil, fail(op, err)
	}
	if err := storage.InsertOrigin(ctx, shared{tx}, m.ID, e.Origin); err != nil {
		return nil, fail(op, err)
	}
	if len(x.Entries) == 0 {
		return m, nil
	}
	if err := insertLog(ctx, tx, m.ID, 0, 1, x.Entries, ms); err != nil {
		return nil, fail(op, err)
	}
	if storage.SnapshotDue(0, m.Commands, db.every) {
		if err := snapshot(ctx, tx, m.ID, g); err != nil {
			return nil, fail(op, err)
		}
	}
	return m, nil
}
