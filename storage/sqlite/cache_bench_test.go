package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// BenchmarkCache pairs a load of a 2,000-command match (its snapshot and
// a tail of 99 commands) with the same read through storage.Cache, which
// reads the match's head and copies the match it keeps:
//
//	go test -run '^$' -bench 'Cache' -benchmem ./storage/sqlite
func BenchmarkCache(b *testing.B) {
	ctx := context.Background()
	x := randomLog(b, 4, 2000, 7)
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "risk.db"), sqlite.SnapshotEvery(1901))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	m, err := db.Import(ctx, x, storetest.T0)
	if err != nil {
		b.Fatal(err)
	}
	c := storage.NewCache(db, 16)
	for _, tc := range []struct {
		name string
		load func() (*storage.Loaded, error)
	}{
		{"load", func() (*storage.Loaded, error) { return db.Load(ctx, m.ID) }},
		{"cached", func() (*storage.Loaded, error) { return c.Load(ctx, m.ID) }},
		{"head", func() (*storage.Loaded, error) { _, err := db.Head(ctx, m.ID); return nil, err }},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var lat []time.Duration
			for b.Loop() {
				start := time.Now()
				_, err := tc.load()
				lat = append(lat, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
			}
			percentiles(b, lat)
		})
	}
}

// BenchmarkCacheMemory reports the heap a storage.Cache takes for each
// match it keeps: 6-player classic matches of 150 commands.
func BenchmarkCacheMemory(b *testing.B) {
	ctx := context.Background()
	const n = 64
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "risk.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	var ids []int64
	for i := range n {
		x := randomLog(b, 6, 150, uint64(100+i))
		x.Channel = fmt.Sprintf("bench:%d", i)
		m, err := db.Import(ctx, x, storetest.T0)
		if err != nil {
			b.Fatal(err)
		}
		ids = append(ids, m.ID)
	}
	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var per float64
	for b.Loop() {
		before := heap()
		c := storage.NewCache(db, n)
		for _, id := range ids {
			if _, err := c.Load(ctx, id); err != nil {
				b.Fatal(err)
			}
		}
		per = float64(heap()-before) / n
		runtime.KeepAlive(c)
	}
	b.ReportMetric(per, "B/match")
}
