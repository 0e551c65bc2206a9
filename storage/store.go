package storage

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/riskbot/riskbot/engine"
)

// matchColumns are the columns scanMatch reads, in order.
const matchColumns = `id, channel, status, version, meta, setup, commands, remind_at, deadline_at, created_at, updated_at, closed_at`

// Create opens a new match, in its lobby, in channel. It fails with
// ErrChannelBusy if the channel already has an open match.
func (db *DB) Create(ctx context.Context, channel string, meta json.RawMessage, now time.Time) (*Match, error) {
	if channel == "" {
		return nil, errors.New("storage: create: no channel")
	}
	if err := checkMeta(meta); err != nil {
		return nil, fmt.Errorf("storage: create: %w", err)
	}
	ms := now.UnixMilli()
	res, err := db.write.ExecContext(ctx, `INSERT INTO matches (channel, status, version, meta, created_at, updated_at)
		VALUES (?, ?, 1, ?, ?, ?)`, channel, Lobby, nullJSON(meta), ms, ms)
	if isCode(err, sqlite3.ErrConstraintUnique) {
		return nil, fmt.Errorf("%w (%s)", ErrChannelBusy, channel)
	}
	if err != nil {
		return nil, fail("create a match in "+channel, err)
	}
	id, err := res.LastInsertId()
	if err != nil {
		return nil, fail("create a match in "+channel, err)
	}
	return &Match{
		ID: id, Channel: channel, Status: Lobby, Version: 1, Meta: bytes.Clone(meta),
		Created: fromMillis(ms), Updated: fromMillis(ms),
	}, nil
}

// Active returns the open (lobby or active) match of channel with its game
// rebuilt; ErrNotFound if the channel has none, *CorruptError if its log
// does not replay.
func (db *DB) Active(ctx context.Context, channel string) (*Loaded, error) {
	l, err := db.load(ctx, `channel = ? AND status IN (1, 2)`, channel)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w: channel %s has no open match", ErrNotFound, channel)
	}
	return l, err
}

// Load returns match id with its game rebuilt; ErrNotFound if there is no
// such match, *CorruptError if its log does not replay.
func (db *DB) Load(ctx context.Context, id int64) (*Loaded, error) {
	l, err := db.load(ctx, `id = ?`, id)
	if errors.Is(err, ErrNotFound) {
		return nil, fmt.Errorf("%w (%d)", ErrNotFound, id)
	}
	return l, err
}

// load reads one match and rebuilds its game, all in one read transaction
// so that the row, the snapshot and the log agree.
func (db *DB) load(ctx context.Context, where string, arg any) (*Loaded, error) {
	tx, err := db.read.BeginTx(ctx, nil)
	if err != nil {
		return nil, fail("load", err)
	}
	defer tx.Rollback()
	m, err := scanMatch(tx.QueryRowContext(ctx, `SELECT `+matchColumns+` FROM matches WHERE `+where, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fail("load", err)
	}
	l := &Loaded{Match: *m}
	if m.Setup == nil {
		return l, nil
	}
	l.Game, err = db.rebuild(ctx, tx, m)
	if err != nil {
		return nil, err
	}
	return l, nil
}

// rebuild returns m's game: the latest snapshot plus the rest of the log,
// or the whole log replayed if there is no usable snapshot. A snapshot only
// saves time: one that cannot be used is passed over.
func (db *DB) rebuild(ctx context.Context, q querier, m *Match) (*engine.Game, error) {
	var seq int
	var snap []byte
	err := q.QueryRowContext(ctx, `SELECT seq, game FROM snapshots WHERE match_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1`,
		m.ID, m.Commands).Scan(&seq, &snap)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fail(fmt.Sprintf("load match %d", m.ID), err)
	}
	if seq > 0 {
		if g, err := decodeSnapshot(snap, seq, m.Setup); err == nil {
			tail, err := readLog(ctx, q, m, seq)
			if err != nil {
				return nil, err
			}
			if err := replay(g, tail); err == nil {
				return g, nil
			}
		}
	}
	log, err := readLog(ctx, q, m, 0)
	if err != nil {
		return nil, err
	}
	g, err := engine.NewGame(*m.Setup)
	if err == nil {
		err = replay(g, log)
	}
	if err != nil {
		return nil, &CorruptError{Match: m.ID, Err: err}
	}
	return g, nil
}

// decodeSnapshot reads a snapshot taken after seq commands and checks that
// it belongs to a match with this setup.
func decodeSnapshot(b []byte, seq int, setup *engine.Setup) (*engine.Game, error) {
	g, err := engine.DecodeGame(b)
	if err != nil {
		return nil, err
	}
	if g.Version != seq {
		return nil, fmt.Errorf("storage: snapshot at %d is of version %d", seq, g.Version)
	}
	a, err1 := json.Marshal(g.Setup)
	b, err2 := json.Marshal(setup)
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		return nil, fmt.Errorf("storage: snapshot at %d is of another setup", seq)
	}
	return g, nil
}

// replay applies log entries to g and checks the result.
func replay(g *engine.Game, log []engine.Entry) error {
	for _, e := range log {
		if _, err := g.Replay(e); err != nil {
			return err
		}
	}
	if err := g.State.Check(); err != nil {
		return fmt.Errorf("the replayed state is inconsistent: %w", err)
	}
	return nil
}

// querier is what reads need of a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
}

// readLog reads m's log after its first `after` entries; a gap or an entry
// that does not decode is a *CorruptError.
func readLog(ctx context.Context, q querier, m *Match, after int) ([]engine.Entry, error) {
	rows, err := q.QueryContext(ctx, `SELECT seq, entry FROM log WHERE match_id = ? AND seq > ? AND seq <= ? ORDER BY seq`,
		m.ID, after, m.Commands)
	if err != nil {
		return nil, fail(fmt.Sprintf("load match %d", m.ID), err)
	}
	defer rows.Close()
	log := make([]engine.Entry, 0, m.Commands-after)
	for rows.Next() {
		var seq int
		var b []byte
		if err := rows.Scan(&seq, &b); err != nil {
			return nil, fail(fmt.Sprintf("load match %d", m.ID), err)
		}
		if want := after + len(log) + 1; seq != want {
			return nil, &CorruptError{Match: m.ID, Err: fmt.Errorf("log entry %d is missing", want)}
		}
		var e engine.Entry
		if err := json.Unmarshal(b, &e); err != nil {
			return nil, &CorruptError{Match: m.ID, Err: fmt.Errorf("log entry %d: %w", seq, err)}
		}
		log = append(log, e)
	}
	if err := rows.Err(); err != nil {
		return nil, fail(fmt.Sprintf("load match %d", m.ID), err)
	}
	if len(log) != m.Commands-after {
		return nil, &CorruptError{Match: m.ID, Err: fmt.Errorf("the log has %d entries, want %d", after+len(log), m.Commands)}
	}
	return log, nil
}

// History lists every match channel has hosted, newest first, without
// their games.
func (db *DB) History(ctx context.Context, channel string) ([]Match, error) {
	return db.list(ctx, "history of "+channel, `SELECT `+matchColumns+` FROM matches WHERE channel = ? ORDER BY id DESC`, channel)
}

// Finished lists closed (finished or abandoned) matches, the most recently
// closed first, at most limit of them (all if limit <= 0).
func (db *DB) Finished(ctx context.Context, limit int) ([]Match, error) {
	if limit <= 0 {
		limit = -1
	}
	return db.list(ctx, "list finished matches", `SELECT `+matchColumns+` FROM matches
		WHERE status IN (3, 4) ORDER BY closed_at DESC, id DESC LIMIT ?`, limit)
}

func (db *DB) list(ctx context.Context, op, query string, args ...any) ([]Match, error) {
	rows, err := db.read.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, fail(op, err)
	}
	defer rows.Close()
	var out []Match
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, fail(op, err)
		}
		out = append(out, *m)
	}
	if err := rows.Err(); err != nil {
		return nil, fail(op, err)
	}
	return out, nil
}

// inScope is the SQL test that a match's channel starts with a prefix
// (the ? parameter, given twice; "" matches every channel). Each adapter
// (Discord, the console) handles only its own channels' timers and posts.
const inScope = `substr(channel, 1, length(?)) = ?`

// OpenMatches lists the open (lobby or active) matches of the channels
// that start with prefix ("" for all), oldest first, without their games.
func (db *DB) OpenMatches(ctx context.Context, prefix string) ([]Match, error) {
	return db.list(ctx, "list open matches", `SELECT `+matchColumns+` FROM matches
		WHERE status IN (1, 2) AND `+inScope+` ORDER BY id`, prefix, prefix)
}

// Due lists the reminders and deadlines of active matches, in channels
// that start with prefix ("" for all), that are due at or before now,
// earliest first. A timer stays due until a Save changes it.
func (db *DB) Due(ctx context.Context, prefix string, now time.Time) ([]Timer, error) {
	ms := now.UnixMilli()
	rows, err := db.read.QueryContext(ctx, `
		SELECT id, channel, 1, remind_at, version FROM matches
			WHERE status = 2 AND remind_at IS NOT NULL AND remind_at <= ? AND `+inScope+`
		UNION ALL
		SELECT id, channel, 2, deadline_at, version FROM matches
			WHERE status = 2 AND deadline_at IS NOT NULL AND deadline_at <= ? AND `+inScope+`
		ORDER BY 4, 1, 3`, ms, prefix, prefix, ms, prefix, prefix)
	if err != nil {
		return nil, fail("list due timers", err)
	}
	defer rows.Close()
	var out []Timer
	for rows.Next() {
		var t Timer
		var at int64
		if err := rows.Scan(&t.Match, &t.Channel, &t.Kind, &at, &t.Version); err != nil {
			return nil, fail("list due timers", err)
		}
		t.At = fromMillis(at)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list due timers", err)
	}
	return out, nil
}

// Outbox lists the posts queued before the given time and not yet
// delivered, for channels that start with prefix ("" for all), oldest
// first, at most limit of them.
func (db *DB) Outbox(ctx context.Context, prefix string, before time.Time, limit int) ([]Post, error) {
	rows, err := db.read.QueryContext(ctx, `
		SELECT o.id, o.match_id, m.channel, o.version, o.body, o.created_at
		FROM outbox o JOIN matches m ON m.id = o.match_id
		WHERE o.created_at < ? AND `+strings.ReplaceAll(inScope, "channel", "m.channel")+`
		ORDER BY o.id LIMIT ?`, before.UnixMilli(), prefix, prefix, limit)
	if err != nil {
		return nil, fail("list queued posts", err)
	}
	defer rows.Close()
	var out []Post
	for rows.Next() {
		var p Post
		var body string
		var ms int64
		if err := rows.Scan(&p.ID, &p.Match, &p.Channel, &p.Version, &body, &ms); err != nil {
			return nil, fail("list queued posts", err)
		}
		p.Body, p.Queued = json.RawMessage(body), fromMillis(ms)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fail("list queued posts", err)
	}
	return out, nil
}

// Delivered removes from the outbox the posts that the change making
// version of match id queued. Delivering twice is harmless.
func (db *DB) Delivered(ctx context.Context, id, version int64) error {
	if _, err := db.write.ExecContext(ctx, `DELETE FROM outbox WHERE match_id = ? AND version = ?`, id, version); err != nil {
		return fail(fmt.Sprintf("mark the posts of match %d version %d delivered", id, version), err)
	}
	return nil
}

// Save applies change c to match id in one transaction, if the match is
// still at version: the match starts, entries are appended to its log,
// its meta, status and timers change, and a snapshot is taken when one is
// due. It returns the new version. A stale version fails with ErrConflict
// and changes nothing; so does any other error.
//
// Save does not replay the entries: they must be what applying the
// commands to the game loaded at version gave, which the version check
// makes sure is still the match's game.
func (db *DB) Save(ctx context.Context, id, version int64, c Change, now time.Time) (int64, error) {
	op := fmt.Sprintf("save match %d", id)
	w, err := prepare(c)
	if err != nil {
		return 0, fmt.Errorf("storage: %s: %w", op, err)
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return 0, fail(op, err)
	}
	defer tx.Rollback()
	var cur struct {
		status   Status
		version  int64
		commands int
	}
	err = tx.QueryRowContext(ctx, `SELECT status, version, commands FROM matches WHERE id = ?`, id).
		Scan(&cur.status, &cur.version, &cur.commands)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, fmt.Errorf("%w (%d)", ErrNotFound, id)
	}
	if err != nil {
		return 0, fail(op, err)
	}
	if cur.version != version {
		return 0, fmt.Errorf("%w (match %d is at version %d, not %d)", ErrConflict, id, cur.version, version)
	}
	status, err := transition(cur.status, c)
	if err != nil {
		return 0, fmt.Errorf("storage: %s: %w", op, err)
	}
	commands := cur.commands + len(w.entries)
	if c.Game != nil && c.Game.Version != commands {
		return 0, fmt.Errorf("storage: %s: the game is at command %d, the log would be at %d", op, c.Game.Version, commands)
	}
	next, ms := version+1, now.UnixMilli()
	if len(w.entries) > 0 {
		if err := insertLog(ctx, tx, id, cur.commands, next, w.entries, ms); err != nil {
			return 0, fail(op, err)
		}
		if db.every > 0 && commands/db.every > cur.commands/db.every {
			if err := snapshot(ctx, tx, id, c.Game); err != nil {
				return 0, fail(op, err)
			}
		}
	}
	set := `version = ?, status = ?, commands = ?, updated_at = ?`
	args := []any{next, status, commands, ms}
	if w.setup != "" {
		set += `, setup = ?`
		args = append(args, w.setup)
	}
	if c.Meta != nil {
		set += `, meta = ?`
		args = append(args, nullJSON(c.Meta))
	}
	if !status.Open() && cur.status.Open() {
		set += `, remind_at = NULL, deadline_at = NULL, closed_at = ?`
		args = append(args, ms)
	} else if c.Timers != nil {
		set += `, remind_at = ?, deadline_at = ?`
		args = append(args, nullMillis(c.Timers.Remind), nullMillis(c.Timers.Deadline))
	}
	args = append(args, id, version)
	res, err := tx.ExecContext(ctx, `UPDATE matches SET `+set+` WHERE id = ? AND version = ?`, args...)
	if err != nil {
		return 0, fail(op, err)
	}
	if n, err := res.RowsAffected(); err != nil || n != 1 {
		// Unreachable while the write lock is held since the read above;
		// kept so that the check does not depend on the lock.
		return 0, fmt.Errorf("%w (match %d)", ErrConflict, id)
	}
	for _, p := range c.Posts {
		if _, err := tx.ExecContext(ctx, `INSERT INTO outbox (match_id, version, body, created_at) VALUES (?, ?, ?, ?)`,
			id, next, string(p), ms); err != nil {
			return 0, fail(op, err)
		}
	}
	if r := c.Request; r != nil {
		_, err := tx.ExecContext(ctx, `INSERT INTO requests (key, match_id, channel, version, user_id, summary, result, created_at)
			SELECT ?, id, channel, ?, ?, ?, ?, ? FROM matches WHERE id = ?`, r.Key, next, r.User, r.Summary, r.Result, ms, id)
		if isCode(err, sqlite3.ErrConstraintPrimaryKey) {
			return 0, fmt.Errorf("%w (key %s)", ErrDuplicate, r.Key)
		}
		if err != nil {
			return 0, fail(op, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return 0, fail(op, err)
	}
	return next, nil
}

// written is a Change encoded for the database, done before the write
// transaction so that it holds the lock as briefly as possible.
type written struct {
	setup   string // "" if unchanged
	entries []string
}

func prepare(c Change) (*written, error) {
	if c.Start == nil && len(c.Entries) == 0 && c.Game == nil && c.Meta == nil && c.Status == 0 && c.Timers == nil && len(c.Posts) == 0 && c.Request == nil {
		return nil, errors.New("nothing to change")
	}
	var w written
	if c.Start != nil {
		g, err := engine.NewGame(*c.Start)
		if err != nil {
			return nil, fmt.Errorf("cannot start: %w", err)
		}
		b, err := json.Marshal(g.Setup)
		if err != nil {
			return nil, err
		}
		w.setup = string(b)
	}
	if (len(c.Entries) > 0) != (c.Game != nil) {
		return nil, errors.New("entries and the game they lead to go together")
	}
	for i, e := range c.Entries {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		w.entries = append(w.entries, string(b))
	}
	if err := checkMeta(c.Meta); err != nil {
		return nil, err
	}
	for i, p := range c.Posts {
		if !json.Valid(p) {
			return nil, fmt.Errorf("post %d is not JSON", i+1)
		}
	}
	if c.Request != nil && c.Request.Key == "" {
		return nil, errors.New("a request without a key")
	}
	return &w, nil
}

// transition returns the status a match in status s has after c, or why c
// does not apply.
func transition(s Status, c Change) (Status, error) {
	if !s.Open() {
		if c.Start != nil || len(c.Entries) > 0 || c.Game != nil || c.Status != 0 || c.Timers != nil {
			return 0, fmt.Errorf("the match is %s: only its meta can change", s)
		}
		return s, nil
	}
	if c.Start != nil {
		if s != Lobby {
			return 0, errors.New("the match has already started")
		}
		s = Active
	}
	if (len(c.Entries) > 0 || c.Game != nil) && s != Active {
		return 0, errors.New("the match has not started: no commands yet")
	}
	switch c.Status {
	case 0:
	case Finished:
		if s != Active {
			return 0, fmt.Errorf("a match in its %s cannot finish (abandon it)", s)
		}
		s = Finished
	case Abandoned:
		s = Abandoned
	default:
		return 0, fmt.Errorf("a change cannot set the status to %s (start the match with Start)", c.Status)
	}
	return s, nil
}

// insertLog appends entries after the first n of match id's log.
func insertLog(ctx context.Context, tx *sql.Tx, id int64, n int, version int64, entries []string, ms int64) error {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO log (match_id, seq, version, entry, created_at) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i, e := range entries {
		if _, err := stmt.ExecContext(ctx, id, n+i+1, version, e, ms); err != nil {
			if isCode(err, sqlite3.ErrConstraintPrimaryKey) {
				return fmt.Errorf("%w (log entry %d of match %d exists)", ErrConflict, n+i+1, id)
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

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// scanMatch reads the matchColumns of a row.
func scanMatch(r scanner) (*Match, error) {
	var m Match
	var meta, setup []byte
	var remind, deadline, closed sql.NullInt64
	var created, updated int64
	err := r.Scan(&m.ID, &m.Channel, &m.Status, &m.Version, &meta, &setup, &m.Commands,
		&remind, &deadline, &created, &updated, &closed)
	if err != nil {
		return nil, err
	}
	if meta != nil {
		m.Meta = json.RawMessage(meta)
	}
	if setup != nil {
		m.Setup = new(engine.Setup)
		if err := json.Unmarshal(setup, m.Setup); err != nil {
			return nil, &CorruptError{Match: m.ID, Err: fmt.Errorf("setup: %w", err)}
		}
	}
	m.Timers = Timers{Remind: fromNullMillis(remind), Deadline: fromNullMillis(deadline)}
	m.Created, m.Updated, m.Closed = fromMillis(created), fromMillis(updated), fromNullMillis(closed)
	return &m, nil
}

// checkMeta refuses meta that is not JSON (nil is no meta).
func checkMeta(meta json.RawMessage) error {
	if meta != nil && !json.Valid(meta) {
		return errors.New("meta is not valid JSON")
	}
	return nil
}

// nullJSON stores empty meta as NULL, and JSON as text (SQLite reads a
// BLOB as its binary JSONB).
func nullJSON(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

func nullMillis(t time.Time) sql.NullInt64 {
	if t.IsZero() {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: t.UnixMilli(), Valid: true}
}

func fromNullMillis(n sql.NullInt64) time.Time {
	if !n.Valid {
		return time.Time{}
	}
	return fromMillis(n.Int64)
}

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
