package postgres

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
	"github.com/riskbot/riskbot/storage/storetest"
)

// BenchmarkSave measures saving one command against the floor, a plain
// INSERT transaction of an entry as long (BEGIN, INSERT, COMMIT), on the
// same server: each iteration saves a command in one statement (Save), one
// the long way (saveLocked: lock and read the row, then the writes in a
// batch, then COMMIT), and inserts an entry, one after the other, so that
// the three see the same load on a shared machine. It reports each one's
// percentiles and the ratios of the medians to the floor's. The game's
// move generation is outside the clock; a snapshot is taken every 100
// commands.
func BenchmarkSave(b *testing.B) {
	ctx := context.Background()
	addr := pgtest.URL(b)
	db, err := Open(ctx, addr)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	pgtest.Exec(b, addr, `CREATE TABLE plain (match_id bigint, seq integer, entry json, created_at bigint, PRIMARY KEY (match_id, seq))`)
	l := storetest.Start(b, db, "bench:1", 4, 1)
	r := rand.New(rand.NewPCG(1, 1))
	// An entry of the size of an attack's in the log.
	const entry = `{"seat":1,"cmd":{"name":"attack","from":"alaska","to":"kamchatka","dice":3},"dice":[6,5,3,4,2]}`
	var one, long, plain []time.Duration
	seq := 0
	for b.Loop() {
		for _, lat := range []*[]time.Duration{&one, &long} {
			b.StopTimer()
			e, err := storetest.Move(l.Game, r)
			if err != nil {
				b.Fatal(err)
			}
			c := storage.Change{Entries: []engine.Entry{e}, Game: l.Game}
			b.StartTimer()
			start := time.Now()
			var v int64
			if lat == &one {
				v, err = db.Save(ctx, l.ID, l.Version, c, storetest.T0)
			} else {
				var enc *storage.Encoded
				if enc, err = storage.EncodeChange(c); err == nil {
					v, err = db.saveLocked(ctx, l.ID, l.Version, c, enc, storetest.T0)
				}
			}
			*lat = append(*lat, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			l.Version = v
		}
		seq++
		start := time.Now()
		err := pgx.BeginFunc(ctx, db.pool, func(tx pgx.Tx) error {
			_, err := tx.Exec(ctx, `INSERT INTO plain (match_id, seq, entry, created_at) VALUES ($1, $2, $3, $4)`, 1, seq, entry, int64(seq))
			return err
		})
		plain = append(plain, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
	}
	floor := median(plain)
	for _, m := range []struct {
		name string
		lat  []time.Duration
	}{{"save", one}, {"long", long}, {"insert", plain}} {
		b.ReportMetric(float64(median(m.lat).Microseconds()), m.name+"-p50-µs")
		b.ReportMetric(float64(m.lat[len(m.lat)*99/100].Microseconds()), m.name+"-p99-µs")
		if m.name != "insert" {
			b.ReportMetric(float64(median(m.lat))/float64(floor), m.name+"/insert")
		}
	}
}

// median sorts lat and returns its median.
func median(lat []time.Duration) time.Duration {
	slices.Sort(lat)
	return lat[len(lat)/2]
}
