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
	flags := newFlags(e, "backup", "[--db PATH] FILE\n\n"+
		"Copies a SQLite database to FILE, which must not exist, while the bot goes on using it:\n"+
		"the copy is the database at one moment (SQLite's VACUUM INTO), with no change half in it,\n"+
		"and opens like the original ('risk console --db FILE'). To restore it, stop the bot, delete\n"+
		"the original's -wal and -shm files if any are left (they belong to the original), and put\n"+
		"the copy in its place. A PostgreSQL database is backed up with PostgreSQL's own\n"+
		"tool, which also copies one moment of a live database: pg_dump -Fc 'postgres://...' > FILE.")
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
