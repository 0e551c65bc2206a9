package storage

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/engine"
)

// The queries both stores run alike: the same SQL but for its
// placeholders, the same scanning, the same errors. Each is written once
// here with ? placeholders and run on a Querier, which each store makes
// of its connections (PostgreSQL's rebinds them with Dollars). What
// differs by dialect (a conflict's error, a transaction's lock, a bulk
// insert) stays in the stores.

// Querier is a store's connection, pool or transaction as the shared
// queries use it.
type Querier interface {
	// QueryRow runs a query of one row, written with ? placeholders; the
	// row's Scan fails with ErrNoRow if there is none (DriverRow).
	QueryRow(ctx context.Context, query string, args ...any) Scanner
	// Query runs a query of rows, written with ? placeholders (or in the
	// store's own dialect: a query without ? is run as it is), and
	// returns them with the function that closes them.
	Query(ctx context.Context, query string, args ...any) (Rows, func(), error)
	// Exec runs a statement written with ? placeholders and returns how
	// many rows it changed.
	Exec(ctx context.Context, query string, args ...any) (int64, error)
	// Fail wraps err, the error of operation op, as the store words its
	// errors (Fail).
	Fail(op string, err error) error
}

// QueryAll runs a query of operation op on q and reads its rows with
// scan (a ScanMatches, say).
func QueryAll[T any](ctx context.Context, q Querier, op string, scan func(Rows) ([]T, error), query string, args ...any) ([]T, error) {
	rows, done, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, q.Fail(op, err)
	}
	defer done()
	out, err := scan(rows)
	if err != nil {
		return nil, q.Fail(op, err)
	}
	return out, nil
}

// ErrNoRow is the error of a shared query's row that is not there.
var ErrNoRow = errors.New("storage: no row")

// DriverRow is a driver's row as a Querier returns it: its Scan fails
// with ErrNoRow where the driver's fails with noRows (sql.ErrNoRows,
// pgx.ErrNoRows).
func DriverRow(r Scanner, noRows error) Scanner { return driverRow{r, noRows} }

type driverRow struct {
	Scanner
	noRows error
}

func (r driverRow) Scan(dest ...any) error {
	if err := r.Scanner.Scan(dest...); err != nil {
		if errors.Is(err, r.noRows) {
			return ErrNoRow
		}
		return err
	}
	return nil
}

// Dollars rewrites the ? placeholders of query as PostgreSQL's $1, $2,
// …, in order. A query run on PostgreSQL's Querier holds no other ?: no
// string literal with one, no jsonb ? operator (jsonb_exists instead).
func Dollars(query string) string {
	if !strings.Contains(query, "?") {
		return query
	}
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	for _, r := range query {
		if r != '?' {
			b.WriteRune(r)
			continue
		}
		n++
		b.WriteByte('$')
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// ReadSetting returns the value stored under scope and id, or
// ErrNotFound.
func ReadSetting(ctx context.Context, q Querier, scope, id string) (json.RawMessage, error) {
	var v []byte
	err := q.QueryRow(ctx, `SELECT value FROM settings WHERE scope = ? AND id = ?`, scope, id).Scan(&v)
	if errors.Is(err, ErrNoRow) {
		return nil, fmt.Errorf("%w (setting %s %s)", ErrNotFound, scope, id)
	}
	if err != nil {
		return nil, q.Fail(fmt.Sprintf("read setting %s %s", scope, id), err)
	}
	return json.RawMessage(v), nil
}

// WriteSetting stores value, the host's JSON, under scope and id,
// replacing what was there; a nil value deletes it.
func WriteSetting(ctx context.Context, q Querier, scope, id string, value json.RawMessage, now time.Time) error {
	op := fmt.Sprintf("store setting %s %s", scope, id)
	if err := CheckSetting(scope, id, value); err != nil {
		return q.Fail(op, err)
	}
	if value == nil {
		if _, err := q.Exec(ctx, `DELETE FROM settings WHERE scope = ? AND id = ?`, scope, id); err != nil {
			return q.Fail(op, err)
		}
		return nil
	}
	_, err := q.Exec(ctx, `INSERT INTO settings (scope, id, value, updated_at) VALUES (?, ?, ?, ?)
		ON CONFLICT (scope, id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		scope, id, string(bytes.TrimSpace(value)), now.UnixMilli())
	if err != nil {
		return q.Fail(op, err)
	}
	return nil
}

// ReadOrigin returns where match id came from if it was imported: nil if
// it was played here.
func ReadOrigin(ctx context.Context, q Querier, id int64) (*Origin, error) {
	o, err := ScanOrigin(q.QueryRow(ctx, `SELECT `+OriginColumns+` FROM imports WHERE match_id = ?`, id))
	switch {
	case errors.Is(err, ErrNoRow):
		return nil, nil
	case err != nil:
		return nil, q.Fail(fmt.Sprintf("read where match %d came from", id), err)
	}
	return o, nil
}

// LibraryQueries are the methods of a store's library that both stores
// run alike, reading on Read and writing on Write: a store's library
// embeds them.
type LibraryQueries struct{ Read, Write Querier }

// LibraryMap returns the map of a scope's library named name, whatever
// its case; ErrNoMap if there is none.
func (l LibraryQueries) LibraryMap(ctx context.Context, scope, name string) (LibraryMap, error) {
	return ReadLibraryMap(ctx, l.Read, scope, name)
}

// MapFiles returns the files of the map whose engine name is name
// (LibraryMap.Engine), in any library or none; ErrNoMap if they were
// never stored.
func (l LibraryQueries) MapFiles(ctx context.Context, name string) (MapFiles, error) {
	return ReadMapFiles(ctx, l.Read, name)
}

// RemoveMap removes a map from a scope's library; ErrNoMap if there is
// none named name. Its files stay: matches played on it replay.
func (l LibraryQueries) RemoveMap(ctx context.Context, scope, name string) error {
	return RemoveLibraryMap(ctx, l.Write, scope, name)
}

// ReadLibraryMap returns the map of a scope's library named name, whatever
// its case; ErrNoMap if there is none.
func ReadLibraryMap(ctx context.Context, q Querier, scope, name string) (LibraryMap, error) {
	m, err := ScanLibraryMap(q.QueryRow(ctx, `SELECT `+LibraryColumns+` FROM library
		WHERE scope = ? AND folded = ?`, scope, FoldName(name)))
	if errors.Is(err, ErrNoRow) {
		return m, fmt.Errorf("%w: %q in %s", ErrNoMap, name, scope)
	}
	if err != nil {
		return m, q.Fail(fmt.Sprintf("read map %q of %s", name, scope), err)
	}
	return m, nil
}

// ReadMapFiles returns the files of the map whose engine name is name
// (LibraryMap.Engine); ErrNoMap if they were never stored.
func ReadMapFiles(ctx context.Context, q Querier, name string) (MapFiles, error) {
	var f MapFiles
	err := q.QueryRow(ctx, `SELECT map, picture, idx FROM map_files WHERE name = ?`, name).Scan(&f.Map, &f.Picture, &f.Index)
	if errors.Is(err, ErrNoRow) {
		return f, fmt.Errorf("%w: %s", ErrNoMap, name)
	}
	if err != nil {
		return f, q.Fail("read the files of map "+name, err)
	}
	return f, nil
}

// MapConflict refuses a map named name with this hash in scope's library
// (a *MapConflictError naming the map in the way) if the name is taken,
// whatever its case, or the hash is there already ("" hash: the name only,
// for a rename).
func MapConflict(ctx context.Context, q Querier, scope, name, hash string) error {
	var have string
	err := q.QueryRow(ctx, `SELECT name FROM library WHERE scope = ? AND hash = ?`, scope, hash).Scan(&have)
	switch {
	case err == nil:
		return &MapConflictError{Name: have, Same: true}
	case !errors.Is(err, ErrNoRow):
		return q.Fail("read the library of "+scope, err)
	}
	err = q.QueryRow(ctx, `SELECT name FROM library WHERE scope = ? AND folded = ?`, scope, FoldName(name)).Scan(&have)
	switch {
	case err == nil:
		return &MapConflictError{Name: have}
	case !errors.Is(err, ErrNoRow):
		return q.Fail("read the library of "+scope, err)
	}
	return nil
}

// InsertLibraryMap adds map m, with files f, to its scope's library in
// transaction q: a *MapConflictError if MapConflict finds one; else the
// error of the insert as the store's Fail wraps it, for a store whose
// writers may race to tell a conflict by its constraint.
func InsertLibraryMap(ctx context.Context, q Querier, m LibraryMap, f MapFiles, now time.Time) error {
	if err := MapConflict(ctx, q, m.Scope, m.Name, m.Hash); err != nil {
		return err
	}
	op := fmt.Sprintf("add map %q to %s", m.Name, m.Scope)
	if err := InsertMapFiles(ctx, q, m.Engine(), m.Hash, f, now); err != nil {
		return q.Fail(op, err)
	}
	_, err := q.Exec(ctx, `INSERT INTO library (scope, name, folded, hash, title, author, territories, size, added_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`, m.Scope, m.Name, FoldName(m.Name), m.Hash, m.Title, m.Author,
		m.Territories, f.Size(), now.UnixMilli())
	if err != nil {
		return q.Fail(op, err)
	}
	return nil
}

// UpdateLibraryMap renames the map of scope's library named old to new in
// transaction q (its case alone, too): ErrNoMap if there is none, a
// *MapConflictError if MapConflict finds another named new; else the
// error of the update as the store's Fail wraps it, for the store to
// tell a conflict by its constraint.
func UpdateLibraryMap(ctx context.Context, q Querier, scope, old, new string) error {
	if FoldName(old) != FoldName(new) {
		if err := MapConflict(ctx, q, scope, new, ""); err != nil {
			return err
		}
	}
	n, err := q.Exec(ctx, `UPDATE library SET name = ?, folded = ? WHERE scope = ? AND folded = ?`,
		new, FoldName(new), scope, FoldName(old))
	return OneMapChanged(q, n, err, fmt.Sprintf("rename map %q of %s", old, scope), old, scope)
}

// InsertMapFiles stores a map's files under its engine name and hash,
// keeping those there already.
func InsertMapFiles(ctx context.Context, q Querier, name, hash string, f MapFiles, now time.Time) error {
	_, err := q.Exec(ctx, `INSERT INTO map_files (name, hash, map, picture, idx, created_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`, name, hash, f.Map, f.Picture, f.Index, now.UnixMilli())
	return err
}

// RemoveLibraryMap removes a map from a scope's library; ErrNoMap if
// there is none named name. Its files stay: matches played on it replay.
func RemoveLibraryMap(ctx context.Context, q Querier, scope, name string) error {
	n, err := q.Exec(ctx, `DELETE FROM library WHERE scope = ? AND folded = ?`, scope, FoldName(name))
	return OneMapChanged(q, n, err, fmt.Sprintf("remove map %q of %s", name, scope), name, scope)
}

// OneMapChanged checks the result of operation op, a change to the map of
// scope's library named name, which changed n rows: an error, or no row
// changed (ErrNoMap).
func OneMapChanged(q Querier, n int64, err error, op, name, scope string) error {
	if err != nil {
		return q.Fail(op, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: %q in %s", ErrNoMap, name, scope)
	}
	return nil
}

// ReadyImport checks export e before a store imports it: the map files it
// carries (ImportedMap), else the stored files of its map, read with files
// (NeedMap), and its log (CheckImport). It returns the hash to store the
// carried files under ("" if none) and the game the log replays to (nil
// for a match that never started).
func ReadyImport(e *Export, files func(name string) (MapFiles, error)) (string, *engine.Game, error) {
	hash, err := ImportedMap(e)
	if err != nil {
		return "", nil, err
	}
	if err := NeedMap(&e.Record.Setup, files); err != nil {
		return "", nil, err
	}
	g, err := CheckImport(e)
	return hash, g, err
}

// InsertOrigin stores where match id, just imported, came from: o, if
// not nil.
func InsertOrigin(ctx context.Context, q Querier, id int64, o *Origin) error {
	if o == nil {
		return nil
	}
	_, err := q.Exec(ctx, `INSERT INTO imports (match_id, source, sha256, imported_at, rated) VALUES (?, ?, ?, ?, ?)`,
		id, o.Source, o.SHA256, o.Imported.UnixMilli(), o.Rated)
	return err
}

// ExportWhole is match id's whole export, without replaying its log:
// what exportLog (the store's ExportLog) reads of it, with where it came
// from (ReadOrigin, on q) and the files of its map if it plays a
// library's (files: the store's MapFiles).
func ExportWhole(ctx context.Context, q Querier, id int64,
	exportLog func(ctx context.Context, id int64, after, limit int) (*Export, int, error),
	files func(ctx context.Context, name string) (MapFiles, error)) (*Export, error) {
	e, _, err := exportLog(ctx, id, 0, 0)
	if err != nil {
		return nil, err
	}
	if e.Origin, err = ReadOrigin(ctx, q, id); err != nil {
		return nil, err
	}
	if e.Map, err = MapOf(&e.Record.Setup, func(name string) (MapFiles, error) { return files(ctx, name) }); err != nil {
		return nil, fmt.Errorf("export match %d: %w", id, err)
	}
	return e, nil
}

// ReadExport is part of match id's export as a store's ExportLog returns
// it, read on q: the match from `from` (its table, or the join that has
// its MatchColumns), its map made known to the engine, and its log after
// its first after entries, at most limit, read with readLog.
func ReadExport(ctx context.Context, q Querier, from string, id int64, after, limit int,
	readLog func(part *Match) ([]engine.Entry, error)) (*Export, int, error) {
	m, err := ScanMatch(q.QueryRow(ctx, `SELECT `+MatchColumns+` FROM `+from+` WHERE id = ?`, id))
	if errors.Is(err, ErrNoRow) {
		return nil, 0, fmt.Errorf("%w (%d)", ErrNotFound, id)
	}
	if err != nil {
		return nil, 0, q.Fail(fmt.Sprintf("export match %d", id), err)
	}
	// Whoever reads the export plays it on its map: the map is made known
	// here, as a load would. A map that cannot be had is not the export's
	// failure (it is for a bug report too): replaying it will say so.
	_ = NeedMap(m.Setup, func(name string) (MapFiles, error) { return ReadMapFiles(ctx, q, name) })
	return ExportPart(m, after, limit, readLog)
}

// LoadRow reads the row of the match that query finds with arg, as a
// store's load does: its MatchColumns, then extra (a snapshot read with
// it, say); ErrNotFound if there is none. The game is the store's to
// rebuild, if the match has a setup.
func LoadRow(ctx context.Context, q Querier, query string, arg any, extra ...any) (*Loaded, error) {
	m, err := ScanMatch(q.QueryRow(ctx, query, arg), extra...)
	if errors.Is(err, ErrNoRow) {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, q.Fail("load", err)
	}
	return &Loaded{Match: *m}, nil
}

// PlanLocked reads p's match's row on q, in the store's write transaction
// and under its lock, with query and args, and plans p against it
// (PlanSave). The query selects the match's status, version and
// commands, then whether the setting the change requires holds
// (Change.Requires; true if it requires none). It fails with ErrNotFound
// if there is no match, ErrRequirement if the setting does not hold.
func PlanLocked(ctx context.Context, q Querier, query string, args []any, p Plan) (Row, *Write, error) {
	id, c := p.ID, p.Change
	op := fmt.Sprintf("save match %d", id)
	var row Row
	var held bool
	err := q.QueryRow(ctx, query, args...).Scan(&row.Status, &row.Version, &row.Commands, &held)
	switch {
	case errors.Is(err, ErrNoRow):
		return row, nil, fmt.Errorf("%w (%d)", ErrNotFound, id)
	case err != nil:
		return row, nil, q.Fail(op, err)
	case !held && c.Requires != nil:
		return row, nil, fmt.Errorf("%w (%s %s)", ErrRequirement, c.Requires.Scope, c.Requires.ID)
	}
	w, err := PlanSave(p, row)
	if err != nil {
		return row, nil, q.Fail(op, err)
	}
	return row, w, nil
}

// MatchQueries are the methods of a store's matches, their posts and
// their requests (requests.go) that both stores run alike, reading on
// Read and writing on Write: a store's DB embeds them.
type MatchQueries struct {
	Read, Write Querier
	// OpenFrom is the table the open matches are listed from, with the
	// store's hint of the index that finds them ("matches", or SQLite's
	// "matches INDEXED BY matches_open_channel").
	OpenFrom string
}

// Delivered removes from the outbox the posts that the change making
// version of match id queued. Delivering twice is harmless.
func (mq MatchQueries) Delivered(ctx context.Context, id, version int64) error {
	if _, err := mq.Write.Exec(ctx, `DELETE FROM outbox WHERE match_id = ? AND version = ?`, id, version); err != nil {
		return mq.Write.Fail(fmt.Sprintf("mark the posts of match %d version %d delivered", id, version), err)
	}
	return nil
}

// Stats counts the open matches and the queued posts.
func (mq MatchQueries) Stats(ctx context.Context) (Stats, error) {
	st, err := scanStats(mq.Read.QueryRow(ctx, statsSQL))
	if err != nil {
		return Stats{}, mq.Read.Fail("count matches and posts", err)
	}
	return st, nil
}

// OpenChannels lists the channels that start with prefix ("" for all)
// and hold an open match, in the order of their names (byte by byte),
// with the match's id and status only: what a list of channels shows,
// read from the index of open channels, so that it costs what it shows
// however many matches the database holds.
func (mq MatchQueries) OpenChannels(ctx context.Context, prefix string) ([]Occupant, error) {
	q, args := OpenChannelsSQL(mq.OpenFrom, prefix)
	return QueryAll(ctx, mq.Read, "list open channels", ScanOccupants, q, args...)
}

// OpenChannelsSQL is OpenChannels' query for a prefix, on the open
// matches of from (MatchQueries.OpenFrom), and its arguments: a range of
// the index of open matches' channels (the stores' TestQueryPlans).
func OpenChannelsSQL(from, prefix string) (string, []any) {
	in, args := PrefixSQL("channel", prefix, func(int) string { return "?" })
	return `SELECT channel, id, status FROM ` + from + `
		WHERE status IN (1, 2) AND ` + in + ` ORDER BY channel`, args
}
