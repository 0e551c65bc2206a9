package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// inScope is the SQL test that a match's channel starts with the prefix in
// parameter $N ("" matches every channel). It reads the channel of each
// row it is given, so it only filters rows that another index found (due
// timers, idle lobbies, queued posts); a list of channels asks for a range
// (inPrefix) instead.
func inScope(column string, n int) string { return fmt.Sprintf("starts_with(%s, $%d)", column, n) }

// Create opens a new match, in its lobby, in channel. It fails with
// storage.ErrChannelBusy if the channel already has an open match.
func (db *DB) Create(ctx context.Context, channel string, meta json.RawMessage, now time.Time) (*storage.Match, error) {
	m, err := storage.NewMatch(channel, meta, now)
	if err != nil {
		return nil, fmt.Errorf("storage: postgres: create: %w", err)
	}
	ms := m.Created.UnixMilli()
	err = db.pool.QueryRow(ctx, `INSERT INTO matches (channel, status, version, meta, created_at, updated_at)
		VALUES ($1, $2, 1, $3, $4, $5) RETURNING id`, channel, storage.Lobby, storage.NullJSON(meta), ms, ms).Scan(&m.ID)
	if uniqueViolation(err, "matches_open_channel") {
		return nil, fmt.Errorf("%w (%s)", storage.ErrChannelBusy, channel)
	}
	if err != nil {
		return nil, fail("create a match in "+channel, err)
	}
	return m, nil
}

// Active returns the open (lobby or active) match of channel with its game
// rebuilt; storage.ErrNotFound if the channel has none,
// *storage.CorruptError if its log does not replay.
func (db *DB) Active(ctx context.Context, channel string) (*storage.Loaded, error) {
	l, err := db.load(ctx, `m.channel = $1 AND m.status IN (1, 2)`, channel)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("%w: channel %s has no open match", storage.ErrNotFound, channel)
	}
	return l, err
}

// Load returns match id with its game rebuilt; storage.ErrNotFound if there
// is no such match, *storage.CorruptError if its log does not replay.
func (db *DB) Load(ctx context.Context, id int64) (*storage.Loaded, error) {
	l, err := db.load(ctx, `m.id = $1`, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, fmt.Errorf("%w (%d)", storage.ErrNotFound, id)
	}
	return l, err
}

// load reads one match with its latest snapshot in one statement, then the
// log after the snapshot, and rebuilds the game. No transaction is needed
// for them to agree: the log up to the match's length is never changed,
// and the snapshot comes with the row it belongs to.
func (db *DB) load(ctx context.Context, where string, arg any) (*storage.Loaded, error) {
	var snapSeq *int
	var snap []byte
	row := db.pool.QueryRow(ctx, `SELECT m.`+storage.MatchColumns+`, s.seq, s.game FROM matches m
		LEFT JOIN LATERAL (SELECT seq, game FROM snapshots
			WHERE match_id = m.id AND seq <= m.commands ORDER BY seq DESC LIMIT 1) s ON true
		WHERE `+where, arg)
	m, err := storage.ScanMatch(row, &snapSeq, &snap)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, storage.ErrNotFound
	}
	if err != nil {
		return nil, fail("load", err)
	}
	l := &storage.Loaded{Match: *m}
	if m.Setup == nil {
		return l, nil
	}
	seq := 0
	if snapSeq != nil {
		seq = *snapSeq
	}
	l.Game, err = storage.Rebuild(m, seq, snap, func(after int) ([]engine.Entry, error) { return readLog(ctx, db.pool, m, after) })
	if err != nil {
		return nil, err
	}
	return l, nil
}

// readLog reads m's log after its first `after` entries; a gap or an entry
// that does not decode is a *storage.CorruptError.
func readLog(ctx context.Context, q querier, m *storage.Match, after int) ([]engine.Entry, error) {
	return query(ctx, q, fmt.Sprintf("load match %d", m.ID), storage.NewLogReader(m, after).Read,
		`SELECT seq, entry FROM log WHERE match_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq`, m.ID, after, m.Commands)
}

// History lists every match channel has hosted, newest first, without
// their games.
func (db *DB) History(ctx context.Context, channel string) ([]storage.Match, error) {
	return db.list(ctx, "history of "+channel, `SELECT `+storage.MatchColumns+` FROM matches WHERE channel = $1 ORDER BY id DESC`, channel)
}

// Finished lists closed (finished or abandoned) matches, the most recently
// closed first, at most limit of them (all if limit <= 0).
func (db *DB) Finished(ctx context.Context, limit int) ([]storage.Match, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	return db.list(ctx, "list finished matches", `SELECT `+storage.MatchColumns+` FROM matches
		WHERE status IN (3, 4) ORDER BY closed_at DESC, id DESC LIMIT $1`, lim)
}

// inPrefix is the SQL test that a match's channel starts with prefix, as
// a range of the channel's indexes (storage.PrefixSQL; the column compares
// bytes, migration 0007), and its arguments, numbered from $n.
func inPrefix(prefix string, n int) (string, []any) {
	return storage.PrefixSQL("channel", prefix, func(i int) string { return fmt.Sprintf("$%d", n+i-1) })
}

// openMatchesSQL and openChannelsSQL are OpenMatches' and OpenChannels'
// queries for a prefix, and their arguments: a range of the index of open
// matches' channels (TestQueryPlans).
func openMatchesSQL(prefix string) (string, []any) {
	in, args := inPrefix(prefix, 1)
	return `SELECT ` + storage.MatchColumns + ` FROM matches WHERE status IN (1, 2) AND ` + in + ` ORDER BY id`, args
}

func openChannelsSQL(prefix string) (string, []any) {
	in, args := inPrefix(prefix, 1)
	return `SELECT channel, id, status FROM matches WHERE status IN (1, 2) AND ` + in + ` ORDER BY channel`, args
}

// OpenMatches lists the open (lobby or active) matches of the channels
// that start with prefix ("" for all), oldest first, without their games.
func (db *DB) OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error) {
	q, args := openMatchesSQL(prefix)
	return db.list(ctx, "list open matches", q, args...)
}

// OpenChannels lists the channels that start with prefix ("" for all)
// and hold an open match, in the order of their names (byte by byte),
// with the match's id and status only: what a list of channels shows,
// read from the index of open channels, so that it costs what it shows
// however many matches the database holds.
func (db *DB) OpenChannels(ctx context.Context, prefix string) ([]storage.Occupant, error) {
	q, args := openChannelsSQL(prefix)
	return query(ctx, db.pool, "list open channels", storage.ScanOccupants, q, args...)
}

// IdleLobbies lists the lobbies of the channels starting with prefix
// whose last change was before a time, oldest first, without their games.
func (db *DB) IdleLobbies(ctx context.Context, prefix string, before time.Time) ([]storage.Match, error) {
	return db.list(ctx, "list idle lobbies", `SELECT `+storage.MatchColumns+` FROM matches
		WHERE status = 1 AND updated_at < $1 AND `+inScope("channel", 2)+` ORDER BY updated_at, id`, before.UnixMilli(), prefix)
}

// list reads matches, storage.MatchColumns each.
func (db *DB) list(ctx context.Context, op, sql string, args ...any) ([]storage.Match, error) {
	return query(ctx, db.pool, op, storage.ScanMatches, sql, args...)
}

// Due lists the reminders and deadlines of active matches, in channels
// that start with prefix ("" for all), that are due at or before now,
// earliest first. A timer stays due until a Save changes it.
func (db *DB) Due(ctx context.Context, prefix string, now time.Time) ([]storage.Timer, error) {
	return query(ctx, db.pool, "list due timers", storage.ScanTimers, `
		SELECT id, channel, 1, remind_at, version FROM matches
			WHERE status = 2 AND remind_at IS NOT NULL AND remind_at <= $1 AND `+inScope("channel", 2)+`
		UNION ALL
		SELECT id, channel, 2, deadline_at, version FROM matches
			WHERE status = 2 AND deadline_at IS NOT NULL AND deadline_at <= $1 AND `+inScope("channel", 2)+`
		ORDER BY 4, 1, 3`, now.UnixMilli(), prefix)
}

// Outbox lists the posts queued before the given time and not yet
// delivered, for channels that start with prefix ("" for all), oldest
// first, at most limit of them.
func (db *DB) Outbox(ctx context.Context, prefix string, before time.Time, limit int) ([]storage.Post, error) {
	return query(ctx, db.pool, "list queued posts", storage.ScanPosts, `
		SELECT o.id, o.match_id, m.channel, o.version, o.body, o.created_at
		FROM outbox o JOIN matches m ON m.id = o.match_id
		WHERE o.created_at < $1 AND `+inScope("m.channel", 2)+`
		ORDER BY o.id LIMIT $3`, before.UnixMilli(), prefix, limit)
}

// Delivered removes from the outbox the posts that the change making
// version of match id queued. Delivering twice is harmless.
func (db *DB) Delivered(ctx context.Context, id, version int64) error {
	if _, err := db.pool.Exec(ctx, `DELETE FROM outbox WHERE match_id = $1 AND version = $2`, id, version); err != nil {
		return fail(fmt.Sprintf("mark the posts of match %d version %d delivered", id, version), err)
	}
	return nil
}

// Save applies change c to match id in one transaction, if the match is
// still at version: the match starts, entries are appended to its log,
// its meta, status and timers change, and a snapshot is taken when one is
// due (storage.PlanSave). It returns the new version. A stale version
// fails with storage.ErrConflict and changes nothing; so does any other
// error.
//
// A change that says what its match must be (storage.Presumed: a start,
// or commands) is written in one statement, one round trip, which changes
// the match only if it is still at version: the statement's row lock
// serialises writers, and one that read the same version finds it stale.
// Any other change (one that starts or closes the match among them), or
// one whose match turned out otherwise, takes the long way (saveLocked),
// which also says why a change is refused.
func (db *DB) Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error) {
	op := fmt.Sprintf("save match %d", id)
	enc, err := storage.EncodeChange(c)
	if err != nil {
		return 0, fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	// A change of the seats table (a start, a close: storage.SeatChange)
	// takes the long way, once a match.
	seats, closes := storage.SeatChange(c)
	if row, ok := storage.Presumed(c, version); ok && len(seats) == 0 && !closes {
		if w, err := storage.PlanSave(id, version, row, c, enc, db.every, now); err == nil {
			saved, err := db.saveAs(ctx, id, version, row, w, c)
			if err != nil {
				return 0, saveError(op, err, id, c)
			}
			if saved {
				return w.Next, nil
			}
		}
	}
	return db.saveLocked(ctx, id, version, c, enc, now)
}

// saveAs writes w, change c planned against row, in one statement if the
// match's row is still row, and reports whether it was: the update of the
// match's row guards the rest, which all select from it. The statement is
// prepared once a connection (pgx caches it), whatever the change holds.
func (db *DB) saveAs(ctx context.Context, id, version int64, row storage.Row, w *storage.Write, c storage.Change) (bool, error) {
	q, args, err := saveSQL(id, version, row, w, c)
	if err != nil {
		return false, err
	}
	var n int
	if err := db.pool.QueryRow(ctx, q, args...).Scan(&n); err != nil {
		return false, err
	}
	return n == 1, nil
}

// saveSQL is saveAs' statement and its arguments.
func saveSQL(id, version int64, row storage.Row, w *storage.Write, c storage.Change) (string, []any, error) {
	set, args := w.SetSQL(func(n int) string { return fmt.Sprintf("$%d", n) })
	arg := func(v any) string {
		args = append(args, v)
		return fmt.Sprintf("$%d", len(args))
	}
	var key, user, summary, result *string
	if r := c.Request; r != nil {
		key, user, summary, result = &r.Key, &r.User, &r.Summary, &r.Result
	}
	var snapSeq *int
	var snap *string
	if w.Snapshot {
		b, err := json.Marshal(c.Game)
		if err != nil {
			return "", nil, fmt.Errorf("snapshot: %w", err)
		}
		s := string(b)
		snapSeq, snap = &c.Game.Version, &s
	}
	posts := make([]string, len(c.Posts))
	for i, p := range c.Posts {
		posts[i] = string(p)
	}
	entries := w.Entries
	if entries == nil {
		entries = []string{}
	}
	holder, claimed, until := w.Claimed()
	// The placeholders, numbered after the assignments', each its own
	// statement: Go does not order len(args) among the calls of one
	// expression.
	var (
		pID      = arg(id)
		pNext    = arg(w.Next)
		pMillis  = arg(w.Millis)
		pVersion = arg(version)
		pStatus  = arg(row.Status)
		pFrom    = arg(row.Commands)
		pEntries = arg(entries)
		pPosts   = arg(posts)
		pHolder  = arg(holder)
		pClaimed = arg(claimed)
		pUntil   = arg(until)
		pKey     = arg(key)
		pUser    = arg(user)
		pSummary = arg(summary)
		pResult  = arg(result)
		pSnapSeq = arg(snapSeq)
		pSnap    = arg(snap)
	)
	q := `WITH m AS (
			UPDATE matches SET ` + set + `
			WHERE id = ` + pID + ` AND version = ` + pVersion + ` AND status = ` + pStatus + ` AND commands = ` + pFrom + `
			RETURNING id, channel),
		l AS (INSERT INTO log (match_id, seq, version, entry, created_at)
			SELECT m.id, ` + pFrom + `::integer + e.n, ` + pNext + `::bigint, e.entry::json, ` + pMillis + `::bigint
			FROM m, unnest(` + pEntries + `::text[]) WITH ORDINALITY AS e (entry, n)),
		o AS (INSERT INTO outbox (match_id, version, body, created_at, claim_holder, claim_at, claim_until)
			SELECT m.id, ` + pNext + `::bigint, p.body::json, ` + pMillis + `::bigint, ` + pHolder + `::text, ` + pClaimed + `::bigint, ` + pUntil + `::bigint
			FROM m, unnest(` + pPosts + `::text[]) WITH ORDINALITY AS p (body, n) ORDER BY p.n),
		r AS (INSERT INTO requests (key, match_id, channel, version, user_id, summary, result, created_at)
			SELECT ` + pKey + `::text, m.id, m.channel, ` + pNext + `::bigint, ` + pUser + `::text, ` + pSummary + `::text, ` + pResult + `::text, ` + pMillis + `::bigint
			FROM m WHERE ` + pKey + `::text IS NOT NULL),
		d AS (DELETE FROM snapshots
			WHERE match_id = ` + pID + `::bigint AND seq <> ` + pSnapSeq + `::integer AND EXISTS (SELECT FROM m)),
		s AS (INSERT INTO snapshots (match_id, seq, game)
			SELECT m.id, ` + pSnapSeq + `::integer, ` + pSnap + `::text FROM m WHERE ` + pSnap + `::text IS NOT NULL
			ON CONFLICT (match_id, seq) DO UPDATE SET game = excluded.game)
		SELECT count(*) FROM m`
	return q, args, nil
}

// saveError is the error of a Save whose writes failed with err.
func saveError(op string, err error, id int64, c storage.Change) error {
	switch {
	case uniqueViolation(err, "requests_pkey"):
		return fmt.Errorf("%w (key %s)", storage.ErrDuplicate, c.Request.Key)
	case uniqueViolation(err, "log_pkey"):
		// Unreachable while the match's row is locked by the writer;
		// kept so that the check does not depend on the lock.
		return fmt.Errorf("%w (the log of match %d grew)", storage.ErrConflict, id)
	}
	return fail(op, err)
}

// saveLocked is Save the long way, for any change: it locks the match's
// row (FOR UPDATE) and reads it, plans the change against it, then writes
// it in one batch and commits: four round trips. The lock is held from
// the version check to the commit, so a writer that read the same version
// waits, then finds it stale.
func (db *DB) saveLocked(ctx context.Context, id, version int64, c storage.Change, enc *storage.Encoded, now time.Time) (int64, error) {
	op := fmt.Sprintf("save match %d", id)
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return 0, fail(op, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	var row storage.Row
	err = tx.QueryRow(ctx, `SELECT status, version, commands FROM matches WHERE id = $1 FOR UPDATE`, id).
		Scan(&row.Status, &row.Version, &row.Commands)
	if errors.Is(err, pgx.ErrNoRows) {
		return 0, fmt.Errorf("%w (%d)", storage.ErrNotFound, id)
	}
	if err != nil {
		return 0, fail(op, err)
	}
	w, err := storage.PlanSave(id, version, row, c, enc, db.every, now)
	if err != nil {
		return 0, fail(op, err)
	}
	next, ms := w.Next, w.Millis
	// The rest goes in one round trip.
	b := &pgx.Batch{}
	for i, e := range w.Entries {
		b.Queue(`INSERT INTO log (match_id, seq, version, entry, created_at) VALUES ($1, $2, $3, $4, $5)`,
			id, w.From+i+1, next, e, ms)
	}
	if w.Snapshot {
		if err := queueSnapshot(b, id, c.Game); err != nil {
			return 0, fmt.Errorf("storage: postgres: %s: %w", op, err)
		}
	}
	set, args := w.SetSQL(func(n int) string { return fmt.Sprintf("$%d", n) })
	args = append(args, id)
	b.Queue(fmt.Sprintf(`UPDATE matches SET %s WHERE id = $%d`, set, len(args)), args...)
	queueSeats(b, id, c)
	holder, claimed, until := w.Claimed()
	for _, p := range c.Posts {
		b.Queue(`INSERT INTO outbox (match_id, version, body, created_at, claim_holder, claim_at, claim_until) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
			id, next, string(p), ms, holder, claimed, until)
	}
	if r := c.Request; r != nil {
		b.Queue(`INSERT INTO requests (key, match_id, channel, version, user_id, summary, result, created_at)
			SELECT $1, id, channel, $2, $3, $4, $5, $6 FROM matches WHERE id = $7`, r.Key, next, r.User, r.Summary, r.Result, ms, id)
	}
	if err := tx.SendBatch(ctx, b).Close(); err != nil {
		return 0, saveError(op, err, id, c)
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fail(op, err)
	}
	return next, nil
}

// queueSnapshot stores g as match id's snapshot and drops older ones: only
// the latest is ever read.
func queueSnapshot(b *pgx.Batch, id int64, g *engine.Game) error {
	data, err := json.Marshal(g)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	b.Queue(`DELETE FROM snapshots WHERE match_id = $1`, id)
	b.Queue(`INSERT INTO snapshots (match_id, seq, game) VALUES ($1, $2, $3)`, id, g.Version, string(data))
	return nil
}
