package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// joined is a match's two rows (migration 0009): m, what it is and its
// turn clock, and h, what every change writes. storage.MatchColumns reads
// from it unqualified (no name is in both).
const joined = `matches m JOIN heads h ON h.match_id = m.id`

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
	err = db.pool.QueryRow(ctx, `WITH m AS (
			INSERT INTO matches (channel, status, created_at) VALUES ($1, $2, $4) RETURNING id)
		INSERT INTO heads (match_id, version, commands, updated_at, meta)
			SELECT id, 1, 0, $4, $3 FROM m RETURNING match_id`, channel, storage.Lobby, storage.NullJSON(meta), ms).Scan(&m.ID)
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
	l, err := db.load(ctx, `m.channel = ? AND m.status IN (1, 2)`, channel)
	return l, storage.NoOpenMatch(err, channel)
}

// Load returns match id with its game rebuilt; storage.ErrNotFound if there
// is no such match, *storage.CorruptError if its log does not replay.
func (db *DB) Load(ctx context.Context, id int64) (*storage.Loaded, error) {
	l, err := db.load(ctx, `m.id = ?`, id)
	return l, storage.NoMatch(err, id)
}

// load reads one match with its latest snapshot in one statement, then the
// log after the snapshot, and rebuilds the game. No transaction is needed
// for them to agree: the log up to the match's length is never changed,
// and the snapshot comes with the row it belongs to.
func (db *DB) load(ctx context.Context, where string, arg any) (*storage.Loaded, error) {
	var snapSeq *int
	var snap []byte
	l, err := storage.LoadRow(ctx, shared{db.pool}, `SELECT `+storage.MatchColumns+`, s.seq, s.game FROM `+joined+`
		LEFT JOIN LATERAL (SELECT seq, game FROM snapshots
			WHERE match_id = m.id AND seq <= h.commands ORDER BY seq DESC LIMIT 1) s ON true
		WHERE `+where, arg, &snapSeq, &snap)
	if err != nil || l.Setup == nil {
		return l, err
	}
	m := &l.Match
	seq := 0
	if snapSeq != nil {
		seq = *snapSeq
	}
	if err := storage.NeedMap(m.Setup, func(name string) (storage.MapFiles, error) { return storage.ReadMapFiles(ctx, shared{db.pool}, name) }); err != nil {
		return nil, err
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
	return storage.QueryAll(ctx, shared{q}, fmt.Sprintf("load match %d", m.ID), storage.NewLogReader(m, after).Read,
		`SELECT seq, entry FROM log WHERE match_id = $1 AND seq > $2 AND seq <= $3 ORDER BY seq`, m.ID, after, m.Commands)
}

// History lists every match channel has hosted, newest first, without
// their games.
func (db *DB) History(ctx context.Context, channel string) ([]storage.Match, error) {
	return db.list(ctx, "history of "+channel, `SELECT `+storage.MatchColumns+` FROM `+joined+` WHERE channel = $1 ORDER BY id DESC`, channel)
}

// Finished lists closed (finished or abandoned) matches, the most recently
// closed first, at most limit of them (all if limit <= 0).
func (db *DB) Finished(ctx context.Context, limit int) ([]storage.Match, error) {
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	return db.list(ctx, "list finished matches", `SELECT `+storage.MatchColumns+` FROM `+joined+`
		WHERE status IN (3, 4) ORDER BY closed_at DESC, id DESC LIMIT $1`, lim)
}

// inPrefix is the SQL test that a match's channel starts with prefix, as
// a range of the channel's indexes (storage.PrefixSQL; the column compares
// bytes, migration 0007), and its arguments, numbered from $n.
func inPrefix(prefix string, n int) (string, []any) {
	return storage.PrefixSQL("channel", prefix, func(i int) string { return fmt.Sprintf("$%d", n+i-1) })
}

// openMatchesSQL is OpenMatches' query for a prefix, and its arguments: a
// range of the index of open matches' channels (TestQueryPlans).
func openMatchesSQL(prefix string) (string, []any) {
	in, args := inPrefix(prefix, 1)
	return `SELECT ` + storage.MatchColumns + ` FROM ` + joined + ` WHERE status IN (1, 2) AND ` + in + ` ORDER BY id`, args
}

// OpenMatches lists the open (lobby or active) matches of the channels
// that start with prefix ("" for all), oldest first, without their games.
func (db *DB) OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error) {
	q, args := openMatchesSQL(prefix)
	return db.list(ctx, "list open matches", q, args...)
}

// closedChannelsSQL is ClosedChannels' query for a prefix, and its
// arguments, the limit last: the latest match of each channel, read from
// the index of every match of a channel, then the rows of those that are
// closed, sorted.
func closedChannelsSQL(prefix string, limit int) (string, []any) {
	in, args := inPrefix(prefix, 1)
	var lim *int
	if limit > 0 {
		lim = &limit
	}
	return `SELECT channel, id, status FROM matches
		WHERE id IN (SELECT max(id) FROM matches WHERE ` + in + ` GROUP BY channel)
		AND status IN (3, 4) ORDER BY closed_at DESC, id DESC LIMIT $` + strconv.Itoa(len(args)+1), append(args, lim)
}

// ClosedChannels lists the channels that start with prefix ("" for all)
// whose latest match is closed (finished or abandoned), the most
// recently closed first, at most limit of them (all if limit <= 0), with
// that match's id and status only. A channel's older matches cost an
// entry of an index each, and are not read.
func (db *DB) ClosedChannels(ctx context.Context, prefix string, limit int) ([]storage.Occupant, error) {
	q, args := closedChannelsSQL(prefix, limit)
	return storage.QueryAll(ctx, shared{db.pool}, "list closed channels", storage.ScanOccupants, q, args...)
}

// IdleLobbies lists the lobbies of the channels starting with prefix
// whose last change was before a time, oldest first, without their games.
func (db *DB) IdleLobbies(ctx context.Context, prefix string, before time.Time) ([]storage.Match, error) {
	return db.list(ctx, "list idle lobbies", `SELECT `+storage.MatchColumns+` FROM `+joined+`
		WHERE status = 1 AND updated_at < $1 AND `+inScope("channel", 2)+` ORDER BY updated_at, id`, before.UnixMilli(), prefix)
}

// list reads matches, storage.MatchColumns each.
func (db *DB) list(ctx context.Context, op, sql string, args ...any) ([]storage.Match, error) {
	return storage.QueryAll(ctx, shared{db.pool}, op, storage.ScanMatches, sql, args...)
}

// Due lists the reminders and deadlines of active matches, in channels
// that start with prefix ("" for all), that are due at or before now,
// earliest first. A timer stays due until a Save changes it.
func (db *DB) Due(ctx context.Context, prefix string, now time.Time) ([]storage.Timer, error) {
	return storage.QueryAll(ctx, shared{db.pool}, "list due timers", storage.ScanTimers, `
		SELECT id, channel, 1, remind_at, version FROM `+joined+`
			WHERE status = 2 AND remind_at IS NOT NULL AND remind_at <= $1 AND `+inScope("channel", 2)+`
		UNION ALL
		SELECT id, channel, 2, deadline_at, version FROM `+joined+`
			WHERE status = 2 AND deadline_at IS NOT NULL AND deadline_at <= $1 AND `+inScope("channel", 2)+`
		ORDER BY 4, 1, 3`, now.UnixMilli(), prefix)
}

// Outbox lists the posts queued before the given time and not yet
// delivered, for channels that start with prefix ("" for all), oldest
// first, at most limit of them.
func (db *DB) Outbox(ctx context.Context, prefix string, before time.Time, limit int) ([]storage.Post, error) {
	return storage.QueryAll(ctx, shared{db.pool}, "list queued posts", storage.ScanPosts, `
		SELECT o.id, o.match_id, m.channel, o.version, o.body, o.created_at
		FROM outbox o JOIN matches m ON m.id = o.match_id
		WHERE o.created_at < $1 AND `+inScope("m.channel", 2)+`
		ORDER BY o.id LIMIT $3`, before.UnixMilli(), prefix, limit)
}

// Save applies change c to match id in one transaction, if the match is
// still at version: the match starts, entries are appended to its log,
// its meta, status and timers change, and a snapshot is taken when one is
// due (storage.PlanSave). It returns the new version. A stale version
// fails with storage.ErrConflict and changes nothing; so does any other
// error.
//
// Every change updates the match's heads row (its version, the length of
// its log, the time, the meta: migration 0009), whose lock serialises
// writers; a change of the match's status, setup or turn clock updates
// its matches row too, after it. A command that does not move the clock
// writes its heads row and its log only.
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
		if w, err := storage.PlanSave(storage.Plan{ID: id, Version: version, Change: c, Enc: enc, Every: db.every, Now: now}, row); err == nil {
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

// column is an assignment of an UPDATE: a column and its new value (nil
// for NULL).
type column struct {
	name  string
	value any
}

// columns returns what change c, planned against row as w, writes: the
// columns of the match's heads row, which every change updates, and those
// of its matches row, none if the change leaves that row alone (a command
// that does not move the turn clock). It is storage.Write.SetSQL split
// between the two rows (migration 0009). Any change releases the claim on
// the match's timers (what was due is handled, or moot) by moving the
// version on (ClaimDue); closing the match clears its timers.
func columns(w *storage.Write, row storage.Row, c storage.Change) (heads, match []column) {
	heads = []column{{"version", w.Next}, {"commands", w.Commands}, {"updated_at", w.Millis}}
	if c.Meta != nil {
		heads = append(heads, column{"meta", storage.NullJSON(c.Meta)})
	}
	if w.Status != row.Status {
		match = append(match, column{"status", w.Status})
	}
	if w.Setup != "" {
		match = append(match, column{"setup", w.Setup})
	}
	if !w.Status.Open() && row.Status.Open() {
		match = append(match, column{"remind_at", nil}, column{"deadline_at", nil}, column{"closed_at", w.Millis})
	} else if t := c.Timers; t != nil {
		match = append(match, column{"remind_at", storage.NullMillis(t.Remind)}, column{"deadline_at", storage.NullMillis(t.Deadline)})
	}
	return heads, match
}

// setSQL is the SET list of an UPDATE of cols; arg adds a value to the
// statement's arguments and returns its placeholder.
func setSQL(cols []column, arg func(any) string) string {
	set := make([]string, len(cols))
	for i, col := range cols {
		if col.value == nil {
			set[i] = col.name + ` = NULL`
		} else {
			set[i] = col.name + ` = ` + arg(col.value)
		}
	}
	return strings.Join(set, ", ")
}

// args is a statement's arguments, each added by add, which returns its
// placeholder.
type args []any

func (a *args) add(v any) string {
	*a = append(*a, v)
	return "$" + strconv.Itoa(len(*a))
}

// saveAs writes w, change c planned against row, in one statement if the
// match is still row, and reports whether it was: the update of the
// match's heads row guards the rest, which all select from it. The
// statement is prepared once a connection (pgx caches it) for each shape
// of change (which columns it sets, whether it updates the matches row).
func (db *DB) saveAs(ctx context.Context, id, version int64, row storage.Row, w *storage.Write, c storage.Change) (bool, error) {
	q, args, err := saveSQL(id, version, row, w, c)
	if err != nil {
		return false, err
	}
	var saved int64
	var reads []byte
	err = db.pool.QueryRow(ctx, q, args...).Scan(&saved, &reads)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if r := c.Reads; r != nil {
		// The change is saved: what it read is as good as a read after.
		r.Found, r.Read = decodeReads(reads), true
	}
	return true, nil
}

// decodeReads reads the settings a save read (saveSQL): a JSON array of
// [scope, id, value, updated_at], or nothing.
func decodeReads(b []byte) []storage.Setting {
	var rows [][4]json.RawMessage
	if len(b) == 0 || json.Unmarshal(b, &rows) != nil {
		return nil
	}
	out := make([]storage.Setting, 0, len(rows))
	for _, r := range rows {
		var st storage.Setting
		var ms int64
		if json.Unmarshal(r[0], &st.Scope) != nil || json.Unmarshal(r[1], &st.ID) != nil || json.Unmarshal(r[3], &ms) != nil {
			continue
		}
		st.Value, st.Updated = r[2], time.UnixMilli(ms).UTC()
		out = append(out, st)
	}
	return out
}

// saveSQL is saveAs' statement and its arguments. It holds only what the
// change writes (the update of the matches row, log entries, posts, a
// request, a snapshot): each part of a statement costs its execution
// something, written or not (its tables and indexes are locked and
// opened), and a command's usual statement writes two rows.
func saveSQL(id, version int64, row storage.Row, w *storage.Write, c storage.Change) (string, []any, error) {
	heads, match := columns(w, row, c)
	var a args
	var q strings.Builder
	set := setSQL(heads, a.add)
	pID, pVersion, pFrom, pStatus := a.add(id), a.add(version), a.add(row.Commands), a.add(row.Status)
	holds := ""
	if r := c.Requires; r != nil {
		holds = `
				AND ` + requiredSQL(r, a.add)
	}
	q.WriteString(`WITH h AS (
			UPDATE heads SET ` + set + `
			WHERE match_id = ` + pID + ` AND version = ` + pVersion + ` AND commands = ` + pFrom + `
				AND (SELECT status FROM matches WHERE id = ` + pID + `) = ` + pStatus + holds + `
			RETURNING match_id AS id)`)
	if len(match) > 0 {
		set := setSQL(match, a.add)
		q.WriteString(`,
		mu AS (UPDATE matches SET ` + set + ` FROM h WHERE matches.id = h.id)`)
	}
	// One entry (a command's usual change) is a row of values; several
	// an array unnested, each numbered by its place.
	if len(w.Entries) == 1 {
		pNext, pMillis, pEntry := a.add(w.Next), a.add(w.Millis), a.add(w.Entries[0])
		q.WriteString(`,
		l AS (INSERT INTO log (match_id, seq, version, entry, created_at)
			SELECT h.id, ` + pFrom + `::integer + 1, ` + pNext + `::bigint, ` + pEntry + `::json, ` + pMillis + `::bigint FROM h)`)
	} else if len(w.Entries) > 0 {
		pNext, pMillis, pEntries := a.add(w.Next), a.add(w.Millis), a.add(w.Entries)
		q.WriteString(`,
		l AS (INSERT INTO log (match_id, seq, version, entry, created_at)
			SELECT h.id, ` + pFrom + `::integer + e.n, ` + pNext + `::bigint, e.entry::json, ` + pMillis + `::bigint
			FROM h, unnest(` + pEntries + `::text[]) WITH ORDINALITY AS e (entry, n))`)
	}
	if len(c.Posts) > 0 {
		posts := make([]string, len(c.Posts))
		for i, p := range c.Posts {
			posts[i] = string(p)
		}
		holder, claimed, until := w.Claimed()
		pNext, pMillis, pPosts := a.add(w.Next), a.add(w.Millis), a.add(posts)
		pHolder, pClaimed, pUntil := a.add(holder), a.add(claimed), a.add(until)
		q.WriteString(`,
		o AS (INSERT INTO outbox (match_id, version, body, created_at, claim_holder, claim_at, claim_until)
			SELECT h.id, ` + pNext + `::bigint, p.body::json, ` + pMillis + `::bigint, ` + pHolder + `::text, ` + pClaimed + `::bigint, ` + pUntil + `::bigint
			FROM h, unnest(` + pPosts + `::text[]) WITH ORDINALITY AS p (body, n) ORDER BY p.n)`)
	}
	if r := c.Request; r != nil {
		pKey, pNext, pUser, pSummary := a.add(r.Key), a.add(w.Next), a.add(r.User), a.add(r.Summary)
		pResult, pMillis := a.add(r.Result), a.add(w.Millis)
		q.WriteString(`,
		r AS (INSERT INTO requests (key, match_id, channel, version, user_id, summary, result, created_at)
			SELECT ` + pKey + `::text, h.id, m.channel, ` + pNext + `::bigint, ` + pUser + `::text, ` + pSummary + `::text, ` + pResult + `::text, ` + pMillis + `::bigint
			FROM h JOIN matches m ON m.id = h.id)`)
	}
	if w.Snapshot {
		b, err := json.Marshal(c.Game)
		if err != nil {
			return "", nil, fmt.Errorf("snapshot: %w", err)
		}
		pSeq, pSnap := a.add(c.Game.Version), a.add(string(b))
		// Only the latest snapshot is ever read.
		q.WriteString(`,
		d AS (DELETE FROM snapshots
			WHERE match_id = ` + pID + `::bigint AND seq <> ` + pSeq + `::integer AND EXISTS (SELECT FROM h)),
		s AS (INSERT INTO snapshots (match_id, seq, game)
			SELECT h.id, ` + pSeq + `::integer, ` + pSnap + `::text FROM h
			ON CONFLICT (match_id, seq) DO UPDATE SET game = excluded.game)`)
	}
	if r := c.Reads; r != nil && len(r.Keys) > 0 {
		scopes, ids := settingKeys(r.Keys)
		pScopes, pIDs := a.add(scopes), a.add(ids)
		q.WriteString(`
		SELECT id, (SELECT json_agg(json_build_array(s.scope, s.id, s.value, s.updated_at))
			FROM settings s JOIN unnest(` + pScopes + `::text[], ` + pIDs + `::text[]) AS k (scope, id) ON s.scope = k.scope AND s.id = k.id) FROM h`)
		return q.String(), a, nil
	}
	q.WriteString(`
		SELECT id, NULL::json FROM h`)
	return q.String(), a, nil
}

// requiredSQL is the test that setting r holds its value (storage.Change's
// Requires): equal as JSON, or both absent; arg adds a value to the
// statement's arguments and returns its placeholder. (The column is json,
// which has no equality: the two sides are compared as jsonb.)
func requiredSQL(r *storage.Setting, arg func(any) string) string {
	return `(SELECT value::jsonb FROM settings WHERE scope = ` + arg(r.Scope) + `::text AND id = ` + arg(r.ID) + `::text) IS NOT DISTINCT FROM ` +
		arg(storage.NullJSON(r.Value)) + `::jsonb`
}

// saveError is the error of a Save whose writes failed with err.
func saveError(op string, err error, id int64, c storage.Change) error {
	switch {
	case uniqueViolation(err, "requests_pkey"):
		return fmt.Errorf("%w (key %s)", storage.ErrDuplicate, c.Request.Key)
	case uniqueViolation(err, "log_pkey"):
		// Unreachable while the match's heads row is locked by the
		// writer; kept so that the check does not depend on the lock.
		return fmt.Errorf("%w (the log of match %d grew)", storage.ErrConflict, id)
	}
	return fail(op, err)
}

// saveLocked is Save the long way, for any change: it locks the match's
// heads row (FOR UPDATE) and reads it with the matches row, plans the
// change against them, then writes it in one batch and commits: four
// round trips. The lock is held from the version check to the commit, so
// a writer that read the same version waits, then finds it stale. Every
// change of the match's status (the one column of the matches row read
// here) is made under that lock and moves the version on, so a status
// read before a wait for the lock is stale only if the version is, and
// the change is refused.
func (db *DB) saveLocked(ctx context.Context, id, version int64, c storage.Change, enc *storage.Encoded, now time.Time) (int64, error) {
	op := fmt.Sprintf("save match %d", id)
	tx, err := db.pool.Begin(ctx)
	if err != nil {
		return 0, fail(op, err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))
	holds, ra := "true", args{id}
	if r := c.Requires; r != nil {
		holds = requiredSQL(r, ra.add)
	}
	row, w, err := storage.PlanLocked(ctx, shared{tx}, `SELECT m.status, h.version, h.commands, `+holds+` FROM `+joined+` WHERE m.id = $1 FOR UPDATE OF h`, ra,
		storage.Plan{ID: id, Version: version, Change: c, Enc: enc, Every: db.every, Now: now})
	if err != nil {
		return 0, err
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
	heads, match := columns(w, row, c)
	var ha args
	b.Queue(`UPDATE heads SET `+setSQL(heads, ha.add)+` WHERE match_id = `+ha.add(id), ha...)
	if len(match) > 0 {
		var ma args
		b.Queue(`UPDATE matches SET `+setSQL(match, ma.add)+` WHERE id = `+ma.add(id), ma...)
	}
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
	var found []storage.Setting
	if r := c.Reads; r != nil && len(r.Keys) > 0 {
		scopes, ids := settingKeys(r.Keys)
		if found, err = storage.QueryAll(ctx, shared{tx}, op, storage.ScanSettings, settingsOfSQL, scopes, ids); err != nil {
			return 0, err
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return 0, fail(op, err)
	}
	if r := c.Reads; r != nil {
		r.Found, r.Read = found, true
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
