package postgres

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// Export returns match id whole: its setup, its log and the host's data
// (and where it came from if it was imported), without replaying the log, so that a match that fails to load can still
// be exported for a bug report.
func (db *DB) Export(ctx context.Context, id int64) (*storage.Export, error) {
	return storage.ExportWhole(ctx, shared{db.pool}, id, db.ExportLog, db.MapFiles)
}

// ExportLog returns part of match id's export: its head and setup, and of
// its log the entries after the first after, at most limit of them; and the
// number of entries in the whole log. It reads only those entries.
func (db *DB) ExportLog(ctx context.Context, id int64, after, limit int) (*storage.Export, int, error) {
	return storage.ReadExport(ctx, shared{db.pool}, joined, id, after, limit, func(part *storage.Match) ([]engine.Entry, error) {
		return readLog(ctx, db.pool, part, after)
	})
}

// Import stores a match exported by Export, as a new match with a new id
// in e.Channel, at version 1. It replays the log first and stores nothing
// if it fails; an open match fails with storage.ErrChannelBusy if the
// channel already has one.
func (db *DB) Import(ctx context.Context, e *storage.Export, now time.Time) (*storage.Match, error) {
	hash, g, err := storage.ReadyImport(e, func(name string) (storage.MapFiles, error) { return db.MapFiles(ctx, name) })
	if err != nil {
		return nil, fmt.Errorf("storage: postgres: import: %w", err)
	}
	op := "import into " + e.Channel
	x, err := storage.EncodeImport(e, g, now)
	if err != nil {
		return nil, fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	m, ms := &x.Match, x.Match.Created.UnixMilli()
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return nil, fail(op, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	if hash != "" {
		// The files of a map its match plays on, kept for good like those
		// of an imported map (AddMap), but in no library.
		if err := storage.InsertMapFiles(ctx, shared{tx}, e.Record.Setup.Options.Map, hash, *e.Map, x.Match.Created); err != nil {
			return nil, fail(op, err)
		}
	}
	err = tx.QueryRow(ctx, `WITH m AS (
			INSERT INTO matches (channel, status, setup, created_at, closed_at) VALUES ($1, $2, $4, $6, $7) RETURNING id)
		INSERT INTO heads (match_id, version, commands, updated_at, meta)
			SELECT id, 1, $5, $6, $3 FROM m RETURNING match_id`,
		e.Channel, e.Status, storage.NullJSON(e.Meta), x.Setup, m.Commands, ms, storage.NullMillis(m.Closed)).Scan(&m.ID)
	if uniqueViolation(err, "matches_open_channel") {
		return nil, fmt.Errorf("%w (%s)", storage.ErrChannelBusy, e.Channel)
	}
	if err != nil {
		return nil, fail(op, err)
	}
	if err := importSeats(ctx, tx, m.ID, e.Status, g); err != nil {
		return nil, fail(op, err)
	}
	if err := storage.InsertOrigin(ctx, shared{tx}, m.ID, e.Origin); err != nil {
		return nil, fail(op, err)
	}
	if len(x.Entries) > 0 {
		entries := make([][]any, len(x.Entries))
		for i, en := range x.Entries {
			entries[i] = []any{m.ID, i + 1, int64(1), en, ms}
		}
		// COPY: a long log goes in one stream, not a statement per entry.
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"log"}, []string{"match_id", "seq", "version", "entry", "created_at"}, pgx.CopyFromRows(entries)); err != nil {
			return nil, fail(op, err)
		}
		if storage.SnapshotDue(0, m.Commands, db.every) {
			if err := db.snapshot(ctx, tx, m.ID, g); err != nil {
				return nil, fail(op, err)
			}
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return nil, fail(op, err)
	}
	return m, nil
}

// ImportCopies stores export e as new matches, one in each of channels,
// in one transaction, checking and replaying it once: what fills a
// database with a large community's matches for a benchmark or a load
// test in seconds (one statement for the matches, one COPY for their
// logs), where an Import each would take several round trips each. It
// stores nothing if any fails; an open match fails with
// storage.ErrChannelBusy in a channel that has one.
func (db *DB) ImportCopies(ctx context.Context, e *storage.Export, channels []string, now time.Time) error {
	const op = "import copies"
	g, err := storage.CheckImport(e)
	if err != nil {
		return fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	x, err := storage.EncodeImport(e, g, now)
	if err != nil {
		return fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	m, ms := &x.Match, x.Match.Created.UnixMilli()
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return fail(op, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	rows, err := tx.Query(ctx, `WITH m AS (
			INSERT INTO matches (channel, status, setup, created_at, closed_at)
			SELECT c, $2, $4, $6, $7 FROM unnest($1::text[]) AS c RETURNING id)
		INSERT INTO heads (match_id, version, commands, updated_at, meta)
			SELECT id, 1, $5, $6, $3 FROM m RETURNING match_id`,
		channels, e.Status, storage.NullJSON(e.Meta), x.Setup, m.Commands, ms, storage.NullMillis(m.Closed))
	if err != nil {
		return fail(op, err)
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if uniqueViolation(err, "matches_open_channel") {
		return fmt.Errorf("%w (one of %d channels)", storage.ErrChannelBusy, len(channels))
	}
	if err != nil {
		return fail(op, err)
	}
	if o := e.Origin; o != nil {
		if _, err := tx.Exec(ctx, `INSERT INTO imports (match_id, source, sha256, imported_at, rated)
			SELECT id, $2, $3, $4, $5 FROM unnest($1::bigint[]) AS id`, ids, o.Source, o.SHA256, o.Imported.UnixMilli(), o.Rated); err != nil {
			return fail(op, err)
		}
	}
	if len(x.Entries) > 0 {
		var entries [][]any
		for _, id := range ids {
			for i, en := range x.Entries {
				entries = append(entries, []any{id, i + 1, int64(1), en, ms})
			}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"log"}, []string{"match_id", "seq", "version", "entry", "created_at"}, pgx.CopyFromRows(entries)); err != nil {
			return fail(op, err)
		}
		if storage.SnapshotDue(0, m.Commands, db.every) {
			snap, err := json.Marshal(g)
			if err != nil {
				return fmt.Errorf("storage: postgres: %s: snapshot: %w", op, err)
			}
			var snaps [][]any
			for _, id := range ids {
				snaps = append(snaps, []any{id, g.Version, string(snap)})
			}
			if _, err := tx.CopyFrom(ctx, pgx.Identifier{"snapshots"}, []string{"match_id", "seq", "game"}, pgx.CopyFromRows(snaps)); err != nil {
				return fail(op, err)
			}
		}
	}
	if e.Status == storage.Active && g != nil {
		// The seats of matches under way, as Import writes them.
		var seats [][]any
		for _, id := range ids {
			for _, u := range storage.SetupSeats(&g.Setup) {
				seats = append(seats, []any{u, id})
			}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"seats"}, []string{"user_id", "match_id"}, pgx.CopyFromRows(seats)); err != nil {
			return fail(op, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fail(op, err)
	}
	return nil
}

// snapshot stores g as match id's snapshot.
func (db *DB) snapshot(ctx context.Context, tx pgx.Tx, id int64, g *engine.Game) error {
	b := &pgx.Batch{}
	if err := queueSnapshot(b, id, g); err != nil {
		return err
	}
	return tx.SendBatch(ctx, b).Close()
}
