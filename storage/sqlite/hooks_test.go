package sqlite

import (
	"context"
	"io/fs"
	"time"
)

// Test hooks for the external tests of this package.

// Migrations are the embedded schema migrations.
var Migrations fs.FS = embedded

// OpenMigrations opens path with other migrations, as an older or newer
// release would.
func OpenMigrations(ctx context.Context, path string, migrations fs.FS) (*DB, error) {
	return open(ctx, path, config{snapshotEvery: 10, busyTimeout: time.Second, migrations: migrations})
}

// SchemaVersion returns the schema version of db.
func SchemaVersion(ctx context.Context, db *DB) (int, error) {
	var v int
	err := db.read.QueryRowContext(ctx, "SELECT max(version) FROM schema_version").Scan(&v)
	return v, err
}
