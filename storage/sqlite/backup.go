package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the database to a new file at path,
// while the database stays in use, by this process or others: SQLite's
// VACUUM INTO copies the snapshot of one read transaction, so writers go
// on meanwhile (in the write-ahead log) and no change is half in the copy.
// The copy is compacted and holds the whole database, the log included:
// it opens with Open like the original. Backup refuses a path where a file
// already is, rather than overwrite it.
func (db *DB) Backup(ctx context.Context, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("storage: back up to %s: %w", path, err)
	}
	// VACUUM INTO also writes into an existing empty file; refusing any
	// existing file keeps a mistyped path from meeting another file.
	if _, err := os.Stat(abs); err == nil {
		return fmt.Errorf("storage: back up to %s: %w", path, fs.ErrExist)
	} else if !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("storage: back up to %s: %w", path, err)
	}
	// A connection of its own, opened for the copy and closed after it:
	// backups are rare, and the readers' connections refuse to write.
	conn := sql.OpenDB(db.backup)
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, "VACUUM INTO ?", abs); err != nil {
		return fail("back up to "+path, err)
	}
	if err := conn.Close(); err != nil {
		return fail("back up to "+path, err)
	}
	return nil
}
