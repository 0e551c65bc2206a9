package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// Applied returns the request recorded under key (Change.Request), or
// storage.ErrNotFound.
func (db *DB) Applied(ctx context.Context, key string) (*storage.Applied, error) {
	a, err := storage.ScanApplied(db.pool.QueryRow(ctx, `SELECT `+storage.RequestColumns+` FROM requests WHERE key = $1`, key))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w (request %s)", storage.ErrNotFound, key)
	}
	if err != nil {
		return nil, fail("read request "+key, err)
	}
	return a, nil
}

// LastRequest returns the latest request recorded in channel, of user
// (of anyone if user is ""), or storage.ErrNotFound.
func (db *DB) LastRequest(ctx context.Context, channel, user string) (*storage.Applied, error) {
	a, err := storage.ScanApplied(db.pool.QueryRow(ctx, `SELECT `+storage.RequestColumns+` FROM requests
		WHERE channel = $1 AND ($2 = '' OR user_id = $2) ORDER BY created_at DESC, version DESC LIMIT 1`, channel, user))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w (no request in %s)", storage.ErrNotFound, channel)
	}
	if err != nil {
		return nil, fail("read the last request in "+channel, err)
	}
	return a, nil
}

// Answered records that the request under key was answered. Answering
// twice (or a key never recorded) is harmless.
func (db *DB) Answered(ctx context.Context, key string, now time.Time) error {
	if _, err := db.pool.Exec(ctx, `UPDATE requests SET answered_at = $1 WHERE key = $2 AND answered_at IS NULL`, now.UnixMilli(), key); err != nil {
		return fail("mark request "+key+" answered", err)
	}
	return nil
}

// ForgetRequests deletes the requests recorded before a time and returns
// how many.
func (db *DB) ForgetRequests(ctx context.Context, before time.Time) (int64, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM requests WHERE created_at < $1`, before.UnixMilli())
	if err != nil {
		return 0, fail("forget old requests", err)
	}
	return tag.RowsAffected(), nil
}

// Setting returns the value stored under scope and id (SetSetting), or
// storage.ErrNotFound.
func (db *DB) Setting(ctx context.Context, scope, id string) (json.RawMessage, error) {
	var v []byte
	err := db.pool.QueryRow(ctx, `SELECT value FROM settings WHERE scope = $1 AND id = $2`, scope, id).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w (setting %s %s)", storage.ErrNotFound, scope, id)
	}
	if err != nil {
		return nil, fail(fmt.Sprintf("read setting %s %s", scope, id), err)
	}
	return json.RawMessage(v), nil
}

// SetSetting stores value, the host's JSON, under scope and id, replacing
// what was there; a nil value deletes it.
func (db *DB) SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error {
	op := fmt.Sprintf("store setting %s %s", scope, id)
	if err := storage.CheckSetting(scope, id, value); err != nil {
		return fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	if value == nil {
		if _, err := db.pool.Exec(ctx, `DELETE FROM settings WHERE scope = $1 AND id = $2`, scope, id); err != nil {
			return fail(op, err)
		}
		return nil
	}
	_, err := db.pool.Exec(ctx, `INSERT INTO settings (scope, id, value, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (scope, id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		scope, id, string(bytes.TrimSpace(value)), now.UnixMilli())
	if err != nil {
		return fail(op, err)
	}
	return nil
}

// Settings lists every value stored with SetSetting, by scope and id.
func (db *DB) Settings(ctx context.Context) ([]storage.Setting, error) {
	return query(ctx, db.pool, "list settings", storage.ScanSettings, `SELECT scope, id, value, updated_at FROM settings ORDER BY scope, id`)
}

// Export returns match id whole: its setup, its log and the host's data,
// without replaying the log, so that a match that fails to load can still
// be exported for a bug report.
func (db *DB) Export(ctx context.Context, id int64) (*storage.Export, error) {
	e, _, err := db.ExportLog(ctx, id, 0, 0)
	return e, err
}

// ExportLog returns part of match id's export: its head and setup, and of
// its log the entries after the first after, at most limit of them; and the
// number of entries in the whole log. It reads only those entries.
func (db *DB) ExportLog(ctx context.Context, id int64, after, limit int) (*storage.Export, int, error) {
	op := fmt.Sprintf("export match %d", id)
	m, err := storage.ScanMatch(db.pool.QueryRow(ctx, `SELECT `+storage.MatchColumns+` FROM matches WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, 0, fmt.Errorf("%w (%d)", storage.ErrNotFound, id)
	}
	if err != nil {
		return nil, 0, fail(op, err)
	}
	return storage.ExportPart(m, after, limit, func(part *storage.Match) ([]engine.Entry, error) {
		return readLog(ctx, db.pool, part, after)
	})
}

// Import stores a match exported by Export, as a new match with a new id
// in e.Channel, at version 1. It replays the log first and stores nothing
// if it fails; an open match fails with storage.ErrChannelBusy if the
// channel already has one.
func (db *DB) Import(ctx context.Context, e *storage.Export, now time.Time) (*storage.Match, error) {
	g, err := storage.CheckImport(e)
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
	err = tx.QueryRow(ctx, `INSERT INTO matches (channel, status, version, meta, setup, commands, created_at, updated_at, closed_at)
		VALUES ($1, $2, 1, $3, $4, $5, $6, $7, $8) RETURNING id`,
		e.Channel, e.Status, storage.NullJSON(e.Meta), x.Setup, m.Commands, ms, ms, storage.NullMillis(m.Closed)).Scan(&m.ID)
	if uniqueViolation(err, "matches_open_channel") {
		return nil, fmt.Errorf("%w (%s)", storage.ErrChannelBusy, e.Channel)
	}
	if err != nil {
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

// snapshot stores g as match id's snapshot.
func (db *DB) snapshot(ctx context.Context, tx pgx.Tx, id int64, g *engine.Game) error {
	b := &pgx.Batch{}
	if err := queueSnapshot(b, id, g); err != nil {
		return err
	}
	return tx.SendBatch(ctx, b).Close()
}
