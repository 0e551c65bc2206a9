// Package postgres stores hosted matches in PostgreSQL (jackc/pgx), for
// several bot processes sharing one database: the contract of package
// storage, side by side with storage/sqlite, and tested by the same suite
// (storage/storetest).
//
// Every change is checked against the match version its writer read, under
// a lock of the match's heads row (its UPDATE, or SELECT ... FOR UPDATE),
// so racing writers in any number of processes never both win. The schema comes from the embedded migrations,
// numbered as the SQLite store's, each applied in its own transaction under
// an advisory lock, so processes starting together migrate once.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/storage"
)

// DB is the PostgreSQL store of hosted matches. It is safe for concurrent
// use, by goroutines and by processes.
//
// Its own methods are the matches' (create, load, list, save, export and
// import) and the database's (close, ready); the other concerns are parts
// of their own, each in its file, which DB embeds so that one *DB meets
// the whole contract (storetest.Store). What both stores run alike is
// storage's (MatchQueries: stats, requests, delivery; LibraryQueries,
// ClaimQueries). Leaderboard and PlayerStats come with results, from
// storage.Ratings.
type DB struct {
	storage.MatchQueries
	settings
	library
	results
	claims
	pool  *pgxpool.Pool
	every int
	// known is the number of migrations this program knows (Ready).
	known int
}

// config is what Open's options set.
type config struct {
	snapshotEvery int
	maxConns      int32
}

// Option configures Open.
type Option func(*config)

// SnapshotEvery makes Save take a snapshot of the game whenever the log
// reaches a multiple of n commands (storage.DefaultSnapshotEvery unless
// set). Zero or less turns snapshots off.
func SnapshotEvery(n int) Option {
	return func(c *config) { c.snapshotEvery = max(n, 0) }
}

// MaxConns bounds the connections this handle opens (default: pgx's,
// the larger of 4 and the number of processors).
func MaxConns(n int) Option {
	return func(c *config) { c.maxConns = int32(n) }
}

// IsAddress reports whether a database address names a PostgreSQL
// database (a postgres:// or postgresql:// URL) rather than a SQLite file.
func IsAddress(addr string) bool {
	return strings.HasPrefix(addr, "postgres://") || strings.HasPrefix(addr, "postgresql://")
}

// Open connects to the database at url (postgres://user@host:port/db?...)
// and brings its schema up to date. It refuses a database whose schema a
// newer version of this program wrote, and one holding another program's
// matches table. Parameters of the URL that pgx does not know are set on
// every connection (search_path=NAME puts the tables in a schema of their
// own).
func Open(ctx context.Context, url string, opts ...Option) (*DB, error) {
	c := config{snapshotEvery: storage.DefaultSnapshotEvery}
	for _, o := range opts {
		o(&c)
	}
	pc, err := pgxpool.ParseConfig(url)
	if err != nil {
		// pgx's message quotes the URL, password included: only a file
		// the address names (sslrootcert, sslcert, sslkey) is told.
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			return nil, fmt.Errorf("storage: postgres: open: the database address names a file that cannot be read: %w", pe)
		}
		return nil, errors.New("storage: postgres: open: the database address is not a valid postgres:// URL")
	}
	if c.maxConns > 0 {
		pc.MaxConns = c.maxConns
	}
	if _, set := pc.ConnConfig.RuntimeParams["plan_cache_mode"]; !set {
		// The store's statements are short lookups of an index whose best
		// plan does not depend on the values, and pgx prepares each once a
		// connection. PostgreSQL would plan each execution again for its
		// values (a custom plan looks cheaper than a generic one for
		// ranges and limits), which reads the statistics and probes the
		// indexes' ends: at 100,000 matches, planning a list of the page's
		// channels took 0.2-0.3 ms, running it 0.05 ms (docs/performance.md,
		// issue 33). One plan per statement and connection costs the same
		// at any size. An address may set plan_cache_mode itself.
		pc.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_generic_plan"
	}
	pool, err := pgxpool.NewWithConfig(ctx, pc)
	if err != nil {
		return nil, fail("open", err)
	}
	db := &DB{
		MatchQueries: storage.MatchQueries{Read: shared{pool}, Write: shared{pool}, OpenFrom: "matches"},
		settings:     settings{pool},
		library:      library{pool, storage.LibraryQueries{Read: shared{pool}, Write: shared{pool}}},
		results:      newResults(pool),
		claims:       claims{pool, storage.ClaimQueries{Write: shared{pool}}},
		pool:         pool,
		every:        c.snapshotEvery,
	}
	if db.known, err = migrate(ctx, pool, embedded); err != nil {
		pool.Close()
		return nil, fmt.Errorf("storage: postgres: open %s@%s/%s: %w", pc.ConnConfig.User, pc.ConnConfig.Host, pc.ConnConfig.Database, err)
	}
	return db, nil
}

// Close closes the connections once the calls under way have returned.
func (db *DB) Close() error {
	db.pool.Close()
	return nil
}

// Ready reports whether the database answers and its schema is the one
// this program knows: what a process needs to take work.
func (db *DB) Ready(ctx context.Context) error {
	v, err := version(ctx, db.pool)
	if err != nil {
		return fail("ready", err)
	}
	if v != db.known {
		return fmt.Errorf("storage: postgres: the schema is at version %d, this program expects %d", v, db.known)
	}
	return nil
}

// fail wraps an error of operation op (storage.Fail), explaining
// PostgreSQL's errors that a person can act on.
func fail(op string, err error) error {
	return storage.Fail("storage: postgres", op, explain(err), err)
}

// describe is fail without the package prefix, for errors that the caller
// wraps again.
func describe(op string, err error) error { return storage.Describe(op, explain(err), err) }

// explain says what a PostgreSQL error means for whoever runs the program,
// by its SQLSTATE class.
func explain(err error) string {
	var e *pgconn.PgError
	if !errors.As(err, &e) {
		if _, ok := errors.AsType[*pgconn.ConnectError](err); ok {
			return "cannot connect to the database server (is it running, and is the address right?)"
		}
		if pgconn.Timeout(err) {
			return "the database did not answer in time; try again"
		}
		return ""
	}
	switch {
	case strings.HasPrefix(e.Code, "53"):
		return "the database server is out of resources (disk, memory or connections); nothing was changed"
	case strings.HasPrefix(e.Code, "28"):
		return "the database refused the user or password"
	case e.Code == "3D000":
		return "no such database"
	case e.Code == "42501":
		return "permission denied"
	case strings.HasPrefix(e.Code, "57"):
		return "the database server is shutting down or restarting; try again"
	case e.Code == "40001" || e.Code == "40P01":
		return "the database gave up a transaction that raced another; try again"
	}
	return ""
}

// uniqueViolation reports whether err is a unique violation of the named
// constraint or index.
func uniqueViolation(err error, constraint string) bool {
	var e *pgconn.PgError
	return errors.As(err, &e) && e.Code == "23505" && e.ConstraintName == constraint
}

// querier is what queries need of a pool, a connection or a
// transaction.
type querier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
}

// shared runs the queries both stores share (storage.Querier) on a pool,
// a connection or a transaction, with PostgreSQL's placeholders.
type shared struct{ q querier }

func (s shared) QueryRow(ctx context.Context, sql string, args ...any) storage.Scanner {
	return storage.DriverRow(s.q.QueryRow(ctx, storage.Dollars(sql), args...), pgx.ErrNoRows)
}

func (s shared) Exec(ctx context.Context, sql string, args ...any) (int64, error) {
	tag, err := s.q.Exec(ctx, storage.Dollars(sql), args...)
	return tag.RowsAffected(), err
}

func (s shared) Query(ctx context.Context, sql string, args ...any) (storage.Rows, func(), error) {
	rows, err := s.q.Query(ctx, storage.Dollars(sql), args...)
	if err != nil {
		return nil, nil, err
	}
	return rows, rows.Close, nil
}

func (shared) Fail(op string, err error) error { return fail(op, err) }
