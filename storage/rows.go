package storage

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/engine"
)

// The rows every store reads back: both schemas have the same tables and
// columns, times as Unix milliseconds (NULL when unset) and JSON as text.
// A store writes each query in its own dialect, selecting the columns in
// the order given here, and reads the result with these functions, which
// take any driver's rows.

// Scanner is one row of a result: *sql.Row or *sql.Rows, pgx.Row or
// pgx.Rows.
type Scanner interface {
	Scan(dest ...any) error
}

// Rows is a query's result, read row by row: *sql.Rows or pgx.Rows. The
// functions reading it leave closing it to the store.
type Rows interface {
	Scanner
	Next() bool
	Err() error
}

// scanAll reads every row of rows with scan.
func scanAll[T any](rows Rows, scan func(Scanner) (T, error)) ([]T, error) {
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// MatchColumns are the columns of a match that ScanMatch reads, in order.
const MatchColumns = `id, channel, status, version, meta, setup, commands, remind_at, deadline_at, created_at, updated_at, closed_at`

// ScanMatch reads the MatchColumns of a row, then its extra columns into
// extra. A setup that does not decode is a *CorruptError.
func ScanMatch(r Scanner, extra ...any) (*Match, error) {
	var m Match
	var meta, setup []byte
	var remind, deadline, closed *int64
	var created, updated int64
	dest := append([]any{&m.ID, &m.Channel, &m.Status, &m.Version, &meta, &setup, &m.Commands,
		&remind, &deadline, &created, &updated, &closed}, extra...)
	if err := r.Scan(dest...); err != nil {
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

// ScanMatches reads every row of rows with ScanMatch.
func ScanMatches(rows Rows) ([]Match, error) {
	return scanAll(rows, func(r Scanner) (Match, error) {
		m, err := ScanMatch(r)
		if err != nil {
			return Match{}, err
		}
		return *m, nil
	})
}

// ScanTimers reads the rows of due timers (Due): id, channel, kind (1 a
// reminder, 2 a deadline), at and version.
func ScanTimers(rows Rows) ([]Timer, error) {
	return scanAll(rows, func(r Scanner) (Timer, error) {
		var t Timer
		var at int64
		err := r.Scan(&t.Match, &t.Channel, &t.Kind, &at, &t.Version)
		t.At = fromMillis(at)
		return t, err
	})
}

// ScanClocks reads the rows of matches with their turn clocks, as ClaimDue
// claims them: id, channel, remind_at, deadline_at and version. DueTimers
// says which of their timers are due.
func ScanClocks(rows Rows) ([]Match, error) {
	return scanAll(rows, func(r Scanner) (Match, error) {
		var m Match
		var remind, deadline *int64
		err := r.Scan(&m.ID, &m.Channel, &remind, &deadline, &m.Version)
		m.Timers = Timers{Remind: fromNullMillis(remind), Deadline: fromNullMillis(deadline)}
		return m, err
	})
}

// ScanPosts reads the rows of queued posts (Outbox, ClaimPosts): id,
// match_id, the match's channel, version, body and created_at.
func ScanPosts(rows Rows) ([]Post, error) {
	return scanAll(rows, func(r Scanner) (Post, error) {
		var p Post
		var body []byte
		var ms int64
		err := r.Scan(&p.ID, &p.Match, &p.Channel, &p.Version, &body, &ms)
		p.Body, p.Queued = json.RawMessage(body), fromMillis(ms)
		return p, err
	})
}

// ScanSettings reads the rows of settings (Settings): scope, id, value and
// updated_at.
func ScanSettings(rows Rows) ([]Setting, error) {
	return scanAll(rows, func(r Scanner) (Setting, error) {
		var st Setting
		var v []byte
		var ms int64
		err := r.Scan(&st.Scope, &st.ID, &v, &ms)
		st.Value, st.Updated = json.RawMessage(v), fromMillis(ms)
		return st, err
	})
}

// RequestColumns are the columns of a request that ScanApplied reads, in
// order.
const RequestColumns = `key, match_id, channel, version, user_id, summary, result, created_at, answered_at`

// ScanApplied reads the RequestColumns of a row.
func ScanApplied(r Scanner) (*Applied, error) {
	var a Applied
	var created int64
	var answered *int64
	if err := r.Scan(&a.Key, &a.Match, &a.Channel, &a.Version, &a.User, &a.Summary, &a.Result, &created, &answered); err != nil {
		return nil, err
	}
	a.Created, a.Answered = fromMillis(created), fromNullMillis(answered)
	return &a, nil
}

// ResultColumns are the columns of a result's seat that ScanResults reads,
// in order.
const ResultColumns = `server, match_id, rules, player, level, name, place, ended_at`

// ScanResults reads the rows of results' seats, ResultColumns each.
func ScanResults(rows Rows) ([]ResultRow, error) {
	return scanAll(rows, func(r Scanner) (ResultRow, error) {
		var row ResultRow
		var rules string
		var ms int64
		if err := r.Scan(&row.Server, &row.Match, &rules, &row.Seat.Player, &row.Seat.Level, &row.Seat.Name, &row.Seat.Place, &ms); err != nil {
			return row, err
		}
		row.Ended = fromMillis(ms)
		return row, row.Rules.UnmarshalText([]byte(rules))
	})
}

// statsSQL is Stats' query in both dialects: the row of counts that
// scanStats reads.
const statsSQL = `SELECT
		(SELECT count(*) FROM matches WHERE status IN (1, 2)),
		(SELECT count(*) FROM matches WHERE status = 2),
		(SELECT count(*) FROM outbox),
		(SELECT min(created_at) FROM outbox)`

// scanStats reads the row of counts that Stats returns: open matches,
// active ones, queued posts and the oldest post's created_at (NULL if
// none).
func scanStats(r Scanner) (Stats, error) {
	var st Stats
	var oldest *int64
	if err := r.Scan(&st.Open, &st.Active, &st.Queued, &oldest); err != nil {
		return Stats{}, err
	}
	st.Oldest = fromNullMillis(oldest)
	return st, nil
}

// NullJSON is JSON as a store writes it: NULL if empty, else its text (as
// text, not bytes: SQLite reads a BLOB as its binary JSONB).
func NullJSON(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	return string(b)
}

// NullMillis is a time as a store writes it: Unix milliseconds, NULL (nil)
// for the zero time.
func NullMillis(t time.Time) *int64 {
	if t.IsZero() {
		return nil
	}
	ms := t.UnixMilli()
	return &ms
}

func fromNullMillis(n *int64) time.Time {
	if n == nil {
		return time.Time{}
	}
	return fromMillis(*n)
}

func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }
