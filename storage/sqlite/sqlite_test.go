package sqlite_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

var _ storetest.Store = (*sqlite.DB)(nil)

// sqliteBackend is a new database file in a test's temporary directory.
func sqliteBackend(t testing.TB, every int) storetest.Backend {
	path := filepath.Join(t.TempDir(), "risk.db")
	return storetest.Backend{
		Open: func(ctx context.Context) (storetest.Store, error) {
			return sqlite.Open(ctx, path, sqlite.SnapshotEvery(every))
		},
		Corrupt: func(ctx context.Context, id int64) error {
			return rawExec(ctx, path,
				`DROP TRIGGER log_append_only_update`,
				fmt.Sprintf(`UPDATE log SET entry = json_set(entry, '$.seat', 99)
					WHERE match_id = %d AND seq = (SELECT commands FROM matches WHERE id = %d)`, id, id),
				`CREATE TRIGGER log_append_only_update BEFORE UPDATE ON log
					BEGIN SELECT RAISE(ABORT, 'the command log is append-only'); END`)
		},
	}
}

func TestContract(t *testing.T) {
	storetest.Run(t, sqliteBackend)
}

// rawExec runs statements on the file behind the store's back, in one
// transaction.
func rawExec(ctx context.Context, path string, stmts ...string) error {
	db, err := sql.Open("sqlite3", "file:"+path+"?_txlock=immediate&_busy_timeout=5000&_foreign_keys=on")
	if err != nil {
		return err
	}
	defer db.Close()
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, s := range stmts {
		if _, err := tx.ExecContext(ctx, s); err != nil {
			return err
		}
	}
	return tx.Commit()
}
