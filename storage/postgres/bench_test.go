package postgres_test

import (
	"context"
	"testing"

	"github.com/riskbot/riskbot/storage/postgres"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
	"github.com/riskbot/riskbot/storage/storetest"
)

// BenchmarkLists measures the lists of the web page's channels in a
// database of 10 matches and in one of 100,000 (a tenth open), both built
// once per run (storetest.BenchLists), each in a schema of its own, in a
// database whose text compares as on most servers (pgtest.Collated), not
// byte by byte.
func BenchmarkLists(b *testing.B) {
	storetest.BenchLists(b, func(b *testing.B, n int) storetest.Store {
		addr := pgtest.Collated(b)
		db, err := postgres.Open(context.Background(), addr)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		storetest.Fill(b, db, n, 20)
		// As autovacuum would soon after a bulk load.
		pgtest.Exec(b, addr, `ANALYZE`)
		return db
	})
}
