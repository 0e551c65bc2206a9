package postgres

import (
	"context"
	"embed"
	"errors"
	"io/fs"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/storage"
)

// embedded holds the schema migrations, migrations/NNNN_name.sql.
//
//go:embed migrations/*.sql
var embedded embed.FS

// migrationLock is the advisory lock key under which migrations run
// ("RISK").
const migrationLock = 0x5249534b

// migrate applies the migrations due, one per transaction, and returns how
// many it knows. Each transaction takes an advisory lock first and reads
// the version again: processes opening a new database at once apply each
// migration once.
func migrate(ctx context.Context, pool *pgxpool.Pool, fsys fs.FS) (int, error) {
	ms, err := storage.ReadMigrations(fsys)
	if err != nil {
		return 0, err
	}
	for {
		done, err := migrateOne(ctx, pool, ms)
		if err != nil {
			return 0, err
		}
		if done {
			return len(ms), nil
		}
	}
}

func migrateOne(ctx context.Context, pool *pgxpool.Pool, ms []storage.Migration) (done bool, err error) {
	tx, err := pool.Begin(ctx)
	if err != nil {
		return false, describe("migrate", err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, migrationLock); err != nil {
		return false, describe("migrate", err)
	}
	v, err := version(ctx, tx)
	if err != nil {
		return false, err
	}
	if err := storage.CheckSchema(v, len(ms)); err != nil {
		return false, err
	}
	switch v {
	case len(ms):
		return true, nil
	case 0:
		var other bool
		if err := tx.QueryRow(ctx, `SELECT to_regclass('matches') IS NOT NULL`).Scan(&other); err != nil {
			return false, describe("read the schema", err)
		}
		if other {
			return false, errors.New("the database has a matches table but no schema version: another program's? (use a database or a search_path of its own)")
		}
		if _, err := tx.Exec(ctx, `CREATE TABLE schema_version (
			version    integer PRIMARY KEY,
			applied_at timestamptz NOT NULL DEFAULT now()
		)`); err != nil {
			return false, describe("create the schema", err)
		}
	}
	m := ms[v]
	// No arguments: pgx sends it as a simple query, several statements in one.
	if _, err := tx.Exec(ctx, m.SQL); err != nil {
		return false, describe("migration "+m.Name, err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO schema_version (version) VALUES ($1)`, m.Version); err != nil {
		return false, describe("migration "+m.Name, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return false, describe("migration "+m.Name, err)
	}
	return false, nil
}

// version returns the last migration applied, 0 for a new database.
func version(ctx context.Context, q querier) (int, error) {
	var exists bool
	if err := q.QueryRow(ctx, `SELECT to_regclass('schema_version') IS NOT NULL`).Scan(&exists); err != nil {
		return 0, describe("read the schema version", err)
	}
	if !exists {
		return 0, nil
	}
	var v int
	if err := q.QueryRow(ctx, `SELECT coalesce(max(version), 0) FROM schema_version`).Scan(&v); err != nil {
		return 0, describe("read the schema version", err)
	}
	return v, nil
}
