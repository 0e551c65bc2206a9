package postgres_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/storage/postgres"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
	"github.com/riskbot/riskbot/storage/storetest"
)

var _ storetest.Store = (*postgres.DB)(nil)

// backend is a new, empty schema on the test server.
func backend(t testing.TB, every int) storetest.Backend {
	return backendAt(t, pgtest.URL(t), every)
}

// backendAt is a store on the empty database at addr.
func backendAt(t testing.TB, addr string, every int) storetest.Backend {
	return storetest.Backend{
		Open: func(ctx context.Context) (storetest.Store, error) {
			return postgres.Open(ctx, addr, postgres.SnapshotEvery(every))
		},
		Corrupt: func(ctx context.Context, id int64) error {
			pgtest.Exec(t, addr,
				`ALTER TABLE log DISABLE TRIGGER log_append_only`,
				fmt.Sprintf(`UPDATE log SET entry = jsonb_set(entry::jsonb, '{seat}', '99')::json
					WHERE match_id = %d AND seq = (SELECT commands FROM heads WHERE match_id = %d)`, id, id),
				`ALTER TABLE log ENABLE TRIGGER log_append_only`)
			return nil
		},
	}
}

// The PostgreSQL store keeps the same contract as the SQLite one.
func TestContract(t *testing.T) {
	storetest.Run(t, backend)
}

// The contract holds in a database whose text does not compare byte by
// byte (ICU's collation, as en_US.UTF-8 on most servers), where a range of
// channels would hold others than those of its prefix: the matches'
// channels compare bytes whatever the database's collation (migration
// 0007).
func TestContractCollated(t *testing.T) {
	if testing.Short() {
		t.Skip("the contract again, on another database")
	}
	storetest.Run(t, func(t testing.TB, every int) storetest.Backend {
		return backendAt(t, pgtest.Collated(t), every)
	})
}

// Processes opening a new database at once migrate it once; a schema of a
// newer version, or another program's matches table, is refused before
// anything is written; Ready says whether the schema is current.
func TestMigrations(t *testing.T) {
	ctx := context.Background()
	addr := pgtest.URL(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			db, err := postgres.Open(ctx, addr)
			if err == nil {
				err = db.Ready(ctx)
				db.Close()
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatalf("concurrent open: %v", err)
		}
	}
	pgtest.Exec(t, addr, `INSERT INTO schema_version (version) VALUES (99)`)
	if db, err := postgres.Open(ctx, addr); err == nil || !strings.Contains(err.Error(), "newer version") {
		if db != nil {
			db.Close()
		}
		t.Fatalf("open a newer schema: %v, want a refusal", err)
	}

	other := pgtest.URL(t)
	pgtest.Exec(t, other, `CREATE TABLE matches (id int)`)
	if db, err := postgres.Open(ctx, other); err == nil || !strings.Contains(err.Error(), "another program") {
		if db != nil {
			db.Close()
		}
		t.Fatalf("open another program's tables: %v, want a refusal", err)
	}

	if _, err := postgres.Open(ctx, "postgres://nobody:secret@127.0.0.1:1/x?connect_timeout=1"); err == nil || strings.Contains(err.Error(), "secret") {
		t.Fatalf("open an unreachable server: %v; want an error without the password", err)
	}
}
