package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// Create opens a new match, in its lobby, in channel. It fails with
// storage.ErrChannelBusy if the channel already has an open match.
func (db *DB) Create(ctx context.Context, channel string, meta json.RawMessage, now time.Time) (*storage.Match, error) {
	m, err := storage.NewMatch(channel, meta, now)
	if err != nil {
		return nil, fmt.Errorf("storage: create: %w", err)
	}
	ms := m.Created.UnixMilli()
	res, err := db.write.ExecContext(ctx, `INSERT INTO matches (channel, status, version, meta, created_at, updated_at)
		VALUES (?, ?, 1, ?, ?, ?)`, channel, storage.Lobby, storage.NullJSON(meta), ms, ms)
	if isCode(err, sqlite3.ErrConstraintUnique) {
		return nil, fmt.Errorf("%w (%s)", storage.ErrChannelBusy, channel)
	}
	if err != nil {
		return nil, fail("create a match in "+channel, err)
	}
	if m.ID, err = res.LastInsertId(); err != nil {
		return nil, fail("create a match in "+channel, err)
	}
	return m, nil
}

// Active returns the open (lobby or active) match of channel with its game
// rebuilt; storage.ErrNotFound if the channel has none,
// *storage.CorruptError if its log does not replay.
func (db *DB) Active(ctx context.Context, channel string) (*storage.Loaded, error) {
	l, err := db.load(ctx, `channel = ? AND status IN (1, 2)`, channel)
	return l, storage.NoOpenMatch(err, channel)
}

// Load returns match id with its game rebuilt; storage.ErrNotFound if there
// is no such match, *storage.CorruptError if its log does not replay.
func (db *DB) Load(ctx context.Context, id int64) (*storage.Loaded, error) {
	l, err := db.load(ctx, `id = ?`, id)
	return l, storage.NoMatch(err, id)
}

// load reads one match and rebuilds its game, all in one read transaction
// so that the row, the snapshot and the log agree.
func (db *DB) load(ctx context.Context, where string, arg any) (*storage.Loaded, error) {
	tx, err := db.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, fail("load", err)
	}
	defer tx.Rollback()
	l, err := storage.LoadRow(ctx, shared{tx}, `SELECT `+storage.MatchColumns+` FROM matches WHERE `+where, arg)
	if err != nil || l.Setup == nil {
		return l, err
	}
	l.Game, err = db.rebuild(ctx, tx, &l.Match)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// rebuild returns m's game: the latest snapshot plus the rest of the log
// (storage.Rebuild).
func (db *DB) rebuild(ctx context.Context, q querier, m *storage.Match) (*engine.Game, error) {
	var seq int
	var snap []byte
	err := q.QueryRowContext(ctx, `SELECT seq, game FROM snapshots WHERE match_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1`,
		m.ID, m.Commands).Scan(&seq, &snap)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail(fmt.Sprintf("load match %d", m.ID), err)
	}
	if err := storage.NeedMap(m.Setup, func(name string) (storage.MapFiles, error) { return storage.ReadMapFiles(ctx, shared{q}, name) }); err != nil {
		return nil, err
	}
	return storage.Rebuild(m, seq, snap, func(after int) ([]engine.Entry, error) { return readLog(ctx, q, m, after) })
}

// readLog reads m's log after its first `after` entries; a gap or an entry
// that does not decode is a *storage.CorruptError.
func readLog(ctx context.Context, q querier, m *storage.Match, after int) ([]engine.Entry, error) {
	return storage.QueryAll(ctx, shared{q}, fmt.Sprintf("load match %d", m.ID), storage.NewLogReader(m, after).Read,
		`SELECT seq, entry FROM log WHERE match_id = ? AND seq > ? AND seq <= ? ORDER BY seq`, m.ID, after, m.Commands)
}

// History lists every match channel has hosted, newest first, without
// their games.
func (db *DB) History(ctx context.Context, channel string) ([]storage.Match, error) {
	return db.list(ctx, "history of "+channel, `SELECT `+storage.MatchColumns+` FROM matches WHERE channel = ? ORDER BY id DESC`, channel)
}

// Finished lists closed (finished or abandoned) matches, the most recently
// closed first, at most limit of them (all if limit <= 0).
func (db *DB) Finished(ctx context.Context, limit int) ([]storage.Match, error) {
	if limit <= 0 {
		limit = -1
	}
	return db.list(ctx, "list finished matches", `SELECT `+storage.MatchColumns+` FROM matches
		WHERE status IN (3, 4) ORDER BY closed_at DESC, id DESC LIMIT ?`, limit)
}

// list reads matches, storage.MatchColumns each.
func (db *DB) list(ctx context.Context, op, sql string, args ...any) ([]storage.Match, error) {
	return storage.QueryAll(ctx, shared{db.read}, op, storage.ScanMatches, sql, args...)
}

// inScope is the SQL test that a match's channel starts with a prefix
// (the ? parameter, given twice; "" matches every channel). Each adapter
// (Discord, the console) handles only its own channels' timers and posts.
// It reads the channel of each row it is given, so it only filters rows
// that another index found (due timers, idle lobbies, queued posts); a
// list of channels asks for a range (inPrefix) instead.
const inScope = `substr(channel, 1, length(?)) = ?`

// inPrefix is the SQL test that a match's channel starts with prefix, as
// a range of the channel index (storage.PrefixSQL), and its arguments.
func inPrefix(prefix string) (string, []any) {
	return storage.PrefixSQL("channel", prefix, func(int) string { return "?" })
}

// openFrom is the table the open matches are listed from
// (storage.MatchQueries.OpenFrom), held to the index of open matches'
// channels by INDEXED BY (TestQueryPlans): for the prefix "" SQLite would
// rather read the whole table in the order of the ids than sort the open
// matches, a tenth of them or less.
const openFrom = `matches INDEXED BY matches_open_channel`

// openMatchesSQL is OpenMatches' query for a prefix, and its arguments: a
// range of the index of open matches' channels (openFrom).
func openMatchesSQL(prefix string) (string, []any) {
	in, args := inPrefix(prefix)
	return `SELECT ` + storage.MatchColumns + ` FROM ` + openFrom + `
		WHERE status IN (1, 2) AND ` + in + ` ORDER BY id`, args
}

// OpenMatches lists the open (lobby or active) matches of the channels
// that start with prefix ("" for all), oldest first, without their games.
func (db *DB) OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error) {
	q, args := openMatchesSQL(prefix)
	return db.list(ctx, "list open matches", q, args...)
}

// closedChannelsSQL is ClosedChannels' query for a prefix, and its
// arguments but the limit: the latest match of each channel, read from
// the index of every match of a channel (covering: no row is read for a
// match that is not the latest), then the rows of those that are closed,
// sorted (TestQueryPlans).
func closedChannelsSQL(prefix string) (string, []any) {
	in, args := inPrefix(prefix)
	return `SELECT channel, id, status FROM matches
		WHERE id IN (SELECT max(id) FROM matches INDEXED BY matches_channel WHERE ` + in + ` GROUP BY channel)
		AND status IN (3, 4) ORDER BY closed_at DESC, id DESC LIMIT ?`, args
}

// ClosedChannels lists the channels that start with prefix ("" for all)
// whose latest match is closed (finished or abandoned), the most
// recently closed first, at most limit of them (all if limit <= 0), with
// that match's id and status only. A channel's older matches cost an
// entry of an index each, and are not read.
func (db *DB) ClosedChannels(ctx context.Context, prefix string, limit int) ([]storage.Occupant, error) {
	if limit <= 0 {
		limit = -1
	}
	q, args := closedChannelsSQL(prefix)
	return storage.QueryAll(ctx, shared{db.read}, "list closed channels", storage.ScanOccupants, q, append(args, limit)...)
}

// IdleLobbies lists the lobbies of the channels starting with prefix
// whose last change was before a time, oldest first, without their games.
func (db *DB) IdleLobbies(ctx context.Context, prefix string, before time.Time) ([]storage.Match, error) {
	return db.list(ctx, "list idle lobbies", idleLobbiesSQL, before.UnixMilli(), prefix, prefix)
}

// idleLobbiesSQL is IdleLobbies' query: the index of lobbies by their last
// change finds them (TestQueryPlans); the prefix only filters those.
const idleLobbiesSQL = `SELECT ` + storage.MatchColumns + ` FROM matches
	WHERE status = 1 AND updated_at < ? AND ` + inScope + ` ORDER BY updated_at, id`

// Due lists the reminders and deadlines of active matches, in channels
// that start with prefix ("" for all), that are due at or before now,
// earliest first. A timer stays due until a Save changes it.
func (db *DB) Due(ctx context.Context, prefix string, now time.Time) ([]storage.Timer, error) {
	ms := now.UnixMilli()
	return storage.QueryAll(ctx, shared{db.read}, "list due timers", storage.ScanTimers, dueSQL, ms, prefix, prefix, ms, prefix, prefix)
}

// dueSQL is Due's query: the indexes of reminders and deadlines find the
// timers due (TestQueryPlans); the prefix only filters those.
const dueSQL = `
	SELECT id, channel, 1, remind_at, version FROM matches
		WHERE status = 2 AND remind_at IS NOT NULL AND remind_at <= ? AND ` + inScope + `
	UNION ALL
	SELECT id, channel, 2, deadline_at, version FROM matches
		WHERE status = 2 AND deadline_at IS NOT NULL AND deadline_at <= ? AND ` + inScope + `
	ORDER BY 4, 1, 3`

// Outbox lists the posts queued before the given time and not yet
// delivered, for channels that start with prefix ("" for all), oldest
// first, at most limit of them.
func (db *DB) Outbox(ctx context.Context, prefix string, before time.Time, limit int) ([]storage.Post, error) {
	return storage.QueryAll(ctx, shared{db.read}, "list queued posts", storage.ScanPosts, outboxSQL, before.UnixMilli(), prefix, prefix, limit)
}

// outboxSQL is Outbox's query: the posts not yet delivered, in the order
// of their ids, each with its match by id (TestQueryPlans); the prefix
// only filters them.
const outboxSQL = `
	SELECT o.id, o.match_id, m.channel, o.version, o.body, o.created_at
	FROM outbox o JOIN matches m ON m.id = o.match_id
	WHERE o.created_at < ? AND substr(m.channel, 1, length(?)) = ?
	ORDER BY o.id LIMIT ?`

// Save applies change c to match id in one transaction, if the match is
// still at version: the match starts, entries are appended to its log,
// its meta, status and timers change, and a snapshot is taken when one is
// due (storage.PlanSave). It returns the new version. A stale version
// fails with storage.ErrConflict and changes nothing; so does any other
// error. The write lock, taken as the transaction begins (IMMEDIATE), is
// held from the version check to the commit.
//
// Save does not replay the entries: they must be what applying the
// commands to the game loaded at version gave, which the version check
// makes sure is still the match's game.
func (db *DB) Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error) {
	op := fmt.Sprintf("save match %d", id)
	enc, err := storage.EncodeChange(c)
	if err != nil {
		return 0, fmt.Errorf("storage: %s: %w", op, err)
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, fail(op, err)
	}
	defer tx.Rollback()
	q, args := `SELECT status, version, commands, true FROM matches WHERE id = ?`, []any{id}
	if r := c.Requires; r != nil {
		// The setting is read with the row, under the write lock: one
		// statement.
		q = `SELECT status, version, commands, (SELECT json(value) FROM settings WHERE scope = ? AND id = ?) IS json(?) FROM matches WHERE id = ?`
		args = []any{r.Scope, r.ID, storage.NullJSON(r.Value), id}
	}
	_, w, err := storage.PlanLocked(ctx, shared{tx}, q, args,
		storage.Plan{ID: id, Version: version, Change: c, Enc: enc, Every: db.every, Now: now})
	if err != nil {
		return 0, err
	}
	next, ms := w.Next, w.Millis
	if len(w.Entries) > 0 {
		if err := insertLog(ctx, tx, id, w.From, next, w.Entries, ms); err != nil {
			return 0, fail(op, err)
		}
	}
	if w.Snapshot {
		if err := snapshot(ctx, tx, id, c.Game); err != nil {
			return 0, fail(op, err)
		}
	}
	set, args := w.SetSQL(func(int) string { return "?" })
	res, err := tx.ExecContext(ctx, `UPDATE matches SET `+set+` WHERE id = ? AND version = ?`, append(args, id, version)...)
	if err != nil {
		return 0, fail(op, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		// Unreachable while the write lock is held since the read above;
		// kept so that the check does not depend on the lock.
		return 0, fmt.Errorf("%w (match %d)", storage.ErrConflict, id)
	}
	if err := saveSeats(ctx, tx, id, c); err != nil {
		return 0, fail(op, err)
	}
	holder, claimed, until := w.Claimed()
	for _, p := range c.Posts {
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (match_id, version, body, created_at, claim_holder, claim_at, claim_until) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			id, next, string(p), ms, holder, claimed, until); err != nil {
			return 0, fail(op, err)
		}
	}
	if r := c.Request; r != nil {
		_, err := tx.ExecContext(ctx, `INSERT INTO requests (key, match_id, channel, version, user_id, summary, result, created_at)
			SELECT ?, id, channel, ?, ?, ?, ?, ? FROM matches WHERE id = ?`, r.Key, next, r.User, r.Summary, r.Result, ms, id)
		if isCode(err, sqlite3.ErrConstraintPrimaryKey) {
			return 0, fmt.Errorf("%w (key %s)", storage.ErrDuplicate, r.Key)
		}
		if err != nil {
			return 0, fail(op, err)
		}
	}
	var found []storage.Setting
	if r := c.Reads; r != nil && len(r.Keys) > 0 {
		if found, err = storage.QueryAll(ctx, shared{tx}, op, storage.ScanSettings, settingsOfSQL(len(r.Keys)), settingsArgs(r.Keys)...); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fail(op, err)
	}
	if r := c.Reads; r != nil {
		r.Found, r.Read = found, true
	}
	return next, nil
}

// insertLog appends entries after the first n of match id's log. Each is
// an ExecContext of the same text rather than one statement prepared for
// the transaction: the connection keeps that statement prepared across
// transactions (_stmt_cache_size), and a transaction's own preparation
// cost more than a command's insert.
func insertLog(ctx context.Context, tx *sql.Tx, id int64, n int, version int64, entries []string, ms int64) error {
	for i, e := range entries {
		if _, err := tx.ExecContext(ctx, `INSERT INTO log (match_id, seq, version, entry, created_at) VALUES (?, ?, ?, ?, ?)`, id, n+i+1, version, e, ms); err != nil {
			if isCode(err, sqlite3.ErrConstraintPrimaryKey) {
				return fmt.Errorf("%w (log entry %d of match %d exists)", storage.ErrConflict, n+i+1, id)
			}
			return err
		}
	}
	return nil
}

// snapshot stores g as match id's snapshot and drops older ones: only the
// latest is ever read.
func snapshot(ctx context.Context, tx *sql.Tx, id int64, g *engine.Game) error {
	b, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM snapshots WHERE match_id = ?`, id); err != nil {
		return err
	}
	_, err = tx.ExecContext(ctx, `INSERT INTO snapshots (match_id, seq, game) VALUES (?, ?, ?)`, id, g.Version, string(b))
	return err
}
