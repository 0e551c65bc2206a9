package main

import (
	"context"
	"fmt"
	"os"

	"github.com/riskbot/riskbot/storage/postgres"
)

// backuper is a database that copies itself while in use (a SQLite file:
// sqlite.DB.Backup).
type backuper interface {
	Backup(ctx context.Context, path string) error
}

// runBackup is `risk backup [--db PATH] FILE`.
func runBackup(ctx context.Context, e env) error {
	flags := newFlags(e, "backup")
	path := dbFlag(flags, "")
	file, err := parseWithFile(flags, e.args)
	if err != nil {
		return err
	}
	if postgres.IsAddress(*path) {
		return usageError("back up a PostgreSQL database with pg_dump: pg_dump -Fc '%s' > %s", redacted(*path), file)
	}
	db, err := openDefault(ctx, path, e.getenv)
	if err != nil {
		return err
	}
	defer db.Close()
	b, ok := db.(backuper)
	if !ok {
		return fmt.Errorf("%s: this database cannot back itself up", redacted(*path))
	}
	if err := b.Backup(ctx, file); err != nil {
		return err
	}
	st, err := os.Stat(file)
	if err != nil {
		return err
	}
	fmt.Fprintf(e.stdout, "backed up %s to %s (%d bytes)\n", *path, file, st.Size())
	return nil
}
