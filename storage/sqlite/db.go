// Package sqlite stores hosted matches in a SQLite file (mattn/go-sqlite3),
// the default for one bot process: the contract of package storage, side
// by side with storage/postgres, and tested by the same suite
// (storage/storetest).
//
// Writers go through one connection whose transactions begin IMMEDIATE,
// so they queue for the file's write lock instead of failing, and every
// change is checked against the match version its writer read: several
// processes may share the file. Readers use a pool of read-only
// connections on the write-ahead log. The schema comes from the embedded
// migrations, each applied in its own transaction.
package sqlite

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/riskbot/riskbot/storage"
)

// DB is the SQLite store of hosted matches. It is safe for concurrent use,
// also by several processes on the same file: every change is checked
// against the match version its writer read.
//
// Its own methods are the matches' (create, load, list, save, export and
// import) and the database's (close, ready, check, back up); the other
// concerns are parts of their own, each in its file, which DB embeds so
// that one *DB meets the whole contract (storetest.Store). What both
// stores run alike is storage's (MatchQueries: stats, requests, delivery;
// LibraryQueries, ClaimQueries). Leaderboard and PlayerStats come with
// results, from storage.Ratings.
type DB struct {
	conns
	storage.MatchQueries
	settings
	library
	results
	claims
	// backup opens the connection Backup copies through: a reader's, but
	// one that may write the copy, which read's connections may not.
	backup connector
	every  int
}

// conns are the store's two pools, which DB and each of its parts share.
type conns struct {
	// write has one connection: writers queue in the pool rather than spin
	// on SQLite's lock, and every transaction on it begins IMMEDIATE, taking
	// the write lock before reading what it will change.
	write *sql.DB
	// read serves loads and lists, each in a read transaction (a consistent
	// WAL snapshot that does not block the writer).
	read *sql.DB
}

// config is what Open's options set.
type config struct {
	snapshotEvery int
	busyTimeout   time.Duration
	maxPages      int64
	migrations    fs.FS
}

// Option configures Open.
type Option func(*config)

// SnapshotEvery makes Save take a snapshot of the game whenever the log
// reaches a multiple of n commands. Zero or less turns snapshots off (loading
// then replays the whole log).
func SnapshotEvery(n int) Option {
	return func(c *config) { c.snapshotEvery = max(n, 0) }
}

// BusyTimeout sets how long a write waits for another process holding the
// database's write lock before it fails (default 5 s).
func BusyTimeout(d time.Duration) Option {
	return func(c *config) { c.busyTimeout = d }
}

// MaxSize caps the database file at about this many bytes (SQLite's
// max_page_count): a change that would grow it further fails as if the disk
// were full and changes nothing. Zero means no cap.
func MaxSize(bytes int64) Option {
	return func(c *config) { c.maxPages = (bytes + pageSize - 1) / pageSize }
}

// pageSize is SQLite's default page size, which the database keeps.
const pageSize = 4096

// Open opens the database at path, creating it if needed, and brings its
// schema up to date. It refuses, changing nothing, a file that is not a
// SQLite database, a damaged one, another program's database and one
// written by a newer version of this program. Nothing at open scans the
// matches, so it takes the same time however many there are.
func Open(ctx context.Context, path string, opts ...Option) (*DB, error) {
	c := config{snapshotEvery: storage.DefaultSnapshotEvery, busyTimeout: 5 * time.Second, migrations: embedded}
	for _, o := range opts {
		o(&c)
	}
	return open(ctx, path, c)
}

func open(ctx context.Context, path string, c config) (*DB, error) {
	if path == "" {
		return nil, errors.New("storage: open: no database path")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	drv := &sqlite3.SQLiteDriver{}
	if c.maxPages > 0 {
		drv.ConnectHook = func(conn *sqlite3.SQLiteConn) error {
			_, err := conn.Exec("PRAGMA max_page_count = "+strconv.FormatInt(c.maxPages, 10), nil)
			return err
		}
	}
	db := &DB{
		conns:  conns{write: sql.OpenDB(connector{drv, dsn(abs, c, writer)})},
		backup: connector{drv, dsn(abs, c, copier)},
		every:  c.snapshotEvery,
	}
	db.write.SetMaxOpenConns(1)
	if err := migrate(ctx, db.write, c.migrations, c.busyTimeout); err != nil {
		db.write.Close()
		return nil, fmt.Errorf("storage: open %s: %w", path, err)
	}
	db.read = sql.OpenDB(connector{drv, dsn(abs, c, reader)})
	db.read.SetMaxOpenConns(max(4, runtime.GOMAXPROCS(0)))
	db.settings, db.library, db.results = settings{db.conns}, library{db.conns, storage.LibraryQueries{Read: shared{db.read}, Write: shared{db.write}}}, newResults(db.conns)
	db.MatchQueries = storage.MatchQueries{Read: shared{db.read}, Write: shared{db.write}, OpenFrom: openFrom}
	db.claims = claims{db.conns, storage.ClaimQueries{Write: shared{db.write}}}
	return db, nil
}

// role is what a connection is for.
type role int

const (
	writer role = iota // changes, in IMMEDIATE transactions
	reader             // loads and lists, which must change nothing
	copier             // Backup's VACUUM INTO: reads the database, writes another file
)

// dsn is the URI go-sqlite3 opens: the path, escaped, with the pragmas
// every connection of role r runs.
func dsn(abs string, c config, r role) string {
	q := url.Values{}
	q.Set("_busy_timeout", strconv.FormatInt(c.busyTimeout.Milliseconds(), 10))
	q.Set("_foreign_keys", "on")
	q.Set("_synchronous", "FULL") // a committed command survives a power cut
	// Each connection keeps the statements it ran last, prepared: a
	// statement's preparation cost more than running it (a fifth of a
	// command's time). The store runs a few dozen statements in all.
	q.Set("_stmt_cache_size", "64")
	switch r {
	case writer:
		// WAL mode is set by migrate, once it knows the file is ours.
		q.Set("_txlock", "immediate")
	case reader:
		q.Set("_txlock", "deferred")
		q.Set("_query_only", "on")
	case copier:
		// query_only refuses VACUUM INTO, which writes (another file).
		q.Set("_txlock", "deferred")
	}
	return (&url.URL{Scheme: "file", Path: abs, RawQuery: q.Encode()}).String()
}

// connector opens connections with a driver of our own, so that no driver
// is registered globally under a name.
type connector struct {
	drv *sqlite3.SQLiteDriver
	dsn string
}

func (c connector) Connect(context.Context) (driver.Conn, error) { return c.drv.Open(c.dsn) }
func (c connector) Driver() driver.Driver                        { return c.drv }

// Close closes the database once the calls under way have returned.
func (db *DB) Close() error {
	var errs []error
	if db.read != nil {
		errs = append(errs, db.read.Close())
	}
	errs = append(errs, db.write.Close())
	if err := errors.Join(errs...); err != nil {
		return fail("close", err)
	}
	return nil
}

// Ready reports whether the database answers and its schema is the one
// this program knows: what a process needs to take work.
func (db *DB) Ready(ctx context.Context) error {
	ms, err := storage.ReadMigrations(embedded)
	if err != nil {
		return fail("ready", err)
	}
	v, err := inspect(ctx, db.read, len(ms))
	if err != nil {
		return fail("ready", err)
	}
	if v != len(ms) {
		return fmt.Errorf("storage: the schema is at version %d, this program expects %d", v, len(ms))
	}
	return nil
}

// Check runs SQLite's integrity check over the whole file (slow on a big
// database: for operators and tests, not for startup).
func (db *DB) Check(ctx context.Context) error {
	rows, err := db.read.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fail("check", err)
	}
	defer rows.Close()
	var problems []error
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return fail("check", err)
		}
		if s != "ok" {
			problems = append(problems, errors.New(s))
		}
	}
	if err := rows.Err(); err != nil {
		return fail("check", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("storage: check: the database file is damaged: %w", errors.Join(problems...))
	}
	return nil
}

// fail wraps an error of operation op (storage.Fail), explaining SQLite's
// codes that a person can act on.
func fail(op string, err error) error { return storage.Fail("storage", op, explain(err), err) }

// describe is fail without the package prefix, for errors that the caller
// wraps again.
func describe(op string, err error) error { return storage.Describe(op, explain(err), err) }

// explain says what an SQLite error means for whoever runs the program.
func explain(err error) string {
	var e sqlite3.Error
	if !errors.As(err, &e) {
		return ""
	}
	return explained[e.Code]
}

// explained are the SQLite errors that a person can act on, by their
// primary codes, and what explain says of them.
var explained = map[sqlite3.ErrNo]string{
	sqlite3.ErrFull:     "the disk is full (or the database reached its size limit); nothing was changed",
	sqlite3.ErrReadonly: "the database is read-only (check the permissions of the file and of its directory); nothing was changed",
	sqlite3.ErrCantOpen: "cannot open or create the database file (check that its directory exists and is writable)",
	sqlite3.ErrPerm:     "permission denied",
	sqlite3.ErrAuth:     "permission denied",
	sqlite3.ErrNotADB:   "the file is not a SQLite database",
	sqlite3.ErrCorrupt:  "the database file is damaged; restore it from a backup",
	sqlite3.ErrBusy:     "another process held the database locked for too long; try again",
	sqlite3.ErrLocked:   "another process held the database locked for too long; try again",
	sqlite3.ErrIoErr:    "the disk failed to read or write",
}

// isCode reports whether err is SQLite's error with this extended code.
func isCode(err error, code sqlite3.ErrNoExtended) bool {
	var e sqlite3.Error
	return errors.As(err, &e) && e.ExtendedCode == code
}

// querier is what queries need of a *sql.DB or a *sql.Tx.
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// shared is a *sql.DB or a *sql.Tx as the queries both stores share run
// on it (storage.Querier).
type shared struct{ q querier }

func (s shared) QueryRow(ctx context.Context, query string, args ...any) storage.Scanner {
	return storage.DriverRow(s.q.QueryRowContext(ctx, query, args...), sql.ErrNoRows)
}

func (s shared) Exec(ctx context.Context, query string, args ...any) (int64, error) {
	res, err := s.q.ExecContext(ctx, query, args...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (s shared) Query(ctx context.Context, query string, args ...any) (storage.Rows, func(), error) {
	rows, err := s.q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, nil, err
	}
	return rows, func() { rows.Close() }, nil
}

func (shared) Fail(op string, err error) error { return fail(op, err) }
