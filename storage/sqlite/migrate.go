package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/riskbot/riskbot/storage"
)

// embedded holds the schema migrations, migrations/NNNN_name.sql, applied
// in order, each in its own transaction.
//
//go:embed migrations/*.sql
var embedded embed.FS

// applicationID marks the file as ours in its SQLite header ("RISK").
const applicationID = 0x5249534b

// migrate brings the schema up to date, one migration per transaction, and
// refuses files that are not ours or that a newer version wrote, before it
// writes anything. Several processes may open a database at once: each
// transaction takes the write lock first and re-reads the version.
func migrate(ctx context.Context, db *sql.DB, fsys fs.FS, patience time.Duration) error {
	ms, err := storage.ReadMigrations(fsys)
	if err != nil {
		return err
	}
	// The first statement reads the file's header: a file that is not a
	// database fails here.
	if _, err := inspect(ctx, db, len(ms)); err != nil {
		return err
	}
	// WAL is a property of the file, set outside any transaction, once the
	// file is known to be ours.
	if err := setWAL(ctx, db, patience); err != nil {
		return err
	}
	for {
		done, err := migrateOne(ctx, db, ms)
		if err != nil || done {
			return err
		}
	}
}

// setWAL switches the file to write-ahead logging. When another connection
// is opening the same new file, SQLite can refuse the switch with
// SQLITE_BUSY at once: it does not call the busy handler where waiting
// could deadlock. So the switch is tried again, for as long as the busy
// timeout would have waited.
func setWAL(ctx context.Context, db *sql.DB, patience time.Duration) error {
	deadline := time.Now().Add(patience)
	wait := 2 * time.Millisecond
	for {
		var mode string
		err := db.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode)
		if err == nil {
			if mode != "wal" {
				return fmt.Errorf("cannot use write-ahead logging (journal mode %q)", mode)
			}
			return nil
		}
		var e sqlite3.Error
		if !errors.As(err, &e) || e.Code != sqlite3.ErrBusy || time.Now().After(deadline) {
			return describe("set the journal mode", err)
		}
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return ctx.Err()
		case <-t.C:
		}
		wait = min(2*wait, 100*time.Millisecond)
	}
}

// migrateOne applies the next migration due, if any, in one transaction.
func migrateOne(ctx context.Context, db *sql.DB, ms []storage.Migration) (done bool, err error) {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return false, describe("migrate", err)
	}
	defer tx.Rollback()
	v, err := inspect(ctx, tx, len(ms))
	if err != nil {
		return false, err
	}
	if v == len(ms) {
		return true, nil
	}
	if v == 0 {
		_, err := tx.ExecContext(ctx, `
			CREATE TABLE IF NOT EXISTS schema_version (
				version    INTEGER PRIMARY KEY,
				applied_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
			);
			PRAGMA application_id = `+strconv.Itoa(applicationID))
		if err != nil {
			return false, describe("create the schema", err)
		}
	}
	m := ms[v]
	if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
		return false, describe("migration "+m.Name, err)
	}
	if _, err := tx.ExecContext(ctx, "INSERT INTO schema_version (version) VALUES (?)", m.Version); err != nil {
		return false, describe("migration "+m.Name, err)
	}
	if err := tx.Commit(); err != nil {
		return false, describe("migration "+m.Name, err)
	}
	return false, nil
}

// inspect returns the last migration applied (0 for a new database),
// refusing another program's database and one with migrations beyond the
// known ones. It only reads.
func inspect(ctx context.Context, q querier, known int) (int, error) {
	var app int64
	if err := q.QueryRowContext(ctx, "PRAGMA application_id").Scan(&app); err != nil {
		return 0, describe("read the schema", err)
	}
	var ours, others int
	err := q.QueryRowContext(ctx, `SELECT
		count(*) FILTER (WHERE name = 'schema_version'),
		count(*) FILTER (WHERE name <> 'schema_version' AND name NOT LIKE 'sqlite\_%' ESCAPE '\')
		FROM sqlite_schema`).Scan(&ours, &others)
	if err != nil {
		return 0, describe("read the schema", err)
	}
	switch {
	case app != 0 && app != applicationID:
		return 0, fmt.Errorf("the file is another program's SQLite database (application id %#x)", app)
	case ours == 0 && others > 0:
		return 0, errors.New("the file is another program's SQLite database (it has tables but no schema version)")
	case ours == 0:
		return 0, nil
	}
	var v int
	if err := q.QueryRowContext(ctx, "SELECT coalesce(max(version), 0) FROM schema_version").Scan(&v); err != nil {
		return 0, describe("read the schema version", err)
	}
	if err := storage.CheckSchema(v, known); err != nil {
		return 0, err
	}
	return v, nil
}
