package postgres_test

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"

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

// BenchmarkSave measures saving one command (Save: the version check, the
// log, the match's row, a snapshot every 100 commands) against the floor,
// a plain INSERT transaction of the same entry (BEGIN, INSERT, COMMIT)
// on the same server, side by side in one run. The game's move generation
// is outside the clock.
func BenchmarkSave(b *testing.B) {
	ctx := context.Background()
	addr := pgtest.URL(b)
	db, err := postgres.Open(ctx, addr)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	pgtest.Exec(b, addr, `CREATE TABLE plain (match_id bigint, seq integer, entry json, created_at bigint, PRIMARY KEY (match_id, seq))`)
	l := storetest.Start(b, db, "bench:1", 4, 1)
	r := rand.New(rand.NewPCG(1, 1))
	seq := 0
	b.Run("command", func(b *testing.B) {
		var lat []time.Duration
		for b.Loop() {
			b.StopTimer()
			e, err := storetest.Move(l.Game, r)
			if err != nil {
				b.Fatal(err)
			}
			b.StartTimer()
			start := time.Now()
			v, err := db.Save(ctx, l.ID, l.Version, storage.Change{Entries: []engine.Entry{e}, Game: l.Game}, storetest.T0)
			lat = append(lat, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			l.Version = v
		}
		percentiles(b, lat)
	})
	b.Run("insert", func(b *testing.B) {
		pool, err := pgxpool.New(ctx, addr)
		if err != nil {
			b.Fatal(err)
		}
		defer pool.Close()
		// An entry of the size of an attack's in the log.
		entry := `{"seat":1,"cmd":{"name":"attack","from":"alaska","to":"kamchatka","dice":3},"dice":[6,5,3,4,2]}`
		var lat []time.Duration
		for b.Loop() {
			seq++
			start := time.Now()
			err := pgx.BeginFunc(ctx, pool, func(tx pgx.Tx) error {
				_, err := tx.Exec(ctx, `INSERT INTO plain (match_id, seq, entry, created_at) VALUES ($1, $2, $3, $4)`, 1, seq, entry, int64(seq))
				return err
			})
			lat = append(lat, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
		}
		percentiles(b, lat)
	})
}

// percentiles reports the median and 99th percentile of the latencies.
func percentiles(b *testing.B, lat []time.Duration) {
	slices.Sort(lat)
	if len(lat) == 0 {
		return
	}
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
