package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// randomLog plays a random game of n commands (a new game whenever one
// ends) and returns its export.
func randomLog(tb testing.TB, players, n int, seed uint64) *storage.Export {
	tb.Helper()
	for ; ; seed += 1000 {
		g, err := engine.NewGame(storetest.NewSetup(players, seed))
		if err != nil {
			tb.Fatal(err)
		}
		r := rand.New(rand.NewPCG(seed, 0))
		x := &storage.Export{Channel: "bench:0", Status: storage.Active, Record: engine.Record{Setup: g.Setup}}
		for len(x.Record.Log) < n {
			e, err := storetest.Move(g, r)
			if err != nil {
				break
			}
			x.Record.Log = append(x.Record.Log, e)
		}
		if len(x.Record.Log) == n {
			return x
		}
	}
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

// BenchmarkSave measures appending one command and committing it
// (synchronous=FULL: the commit waits for the disk), the game's move
// generation outside the clock. A snapshot is written every 100 commands.
func BenchmarkSave(b *testing.B) {
	for _, every := range []int{storage.DefaultSnapshotEvery, 0} {
		b.Run(fmt.Sprintf("snapshots=%d", every), func(b *testing.B) {
			benchSave(b, every, nil)
		})
	}
}

// BenchmarkSaveNews measures a change that ends a turn: the command saved
// with its news queued in the outbox, then the news marked delivered, two
// durable transactions.
func BenchmarkSaveNews(b *testing.B) {
	news := json.RawMessage(`{"turns":[{"turn":12,"seat":2,"lines":["` + strings.Repeat("Ann attacks Brazil from Peru: 6 5 3 v 4 2, Brazil loses 2. ", 12) + `"]}]}`)
	benchSave(b, storage.DefaultSnapshotEvery, news)
}

// benchSave times saving one random move after another, with news queued
// and then marked delivered if news is not nil, and reports the latency
// percentiles.
func benchSave(b *testing.B, snapshotEvery int, news json.RawMessage) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(b.TempDir(), "risk.db"), sqlite.SnapshotEvery(snapshotEvery))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	l := storetest.Start(b, db, "bench:1", 4, 1)
	r := rand.New(rand.NewPCG(1, 1))
	var lat []time.Duration
	for b.Loop() {
		b.StopTimer()
		e, err := storetest.Move(l.Game, r)
		if err != nil {
			b.Fatal(err)
		}
		c := storage.Change{Entries: []engine.Entry{e}, Game: l.Game}
		if news != nil {
			c.Posts = []json.RawMessage{news}
		}
		b.StartTimer()
		start := time.Now()
		v, err := db.Save(ctx, l.ID, l.Version, c, storetest.T0)
		if err == nil && news != nil {
			err = db.Delivered(ctx, l.ID, v)
		}
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
		l.Version = v
	}
	percentiles(b, lat)
}

// BenchmarkLoad measures loading a 2,000-command match: from a snapshot
// with no tail, from a snapshot 99 commands back (the most a snapshot
// every 100 commands leaves), and by replaying the whole log.
func BenchmarkLoad(b *testing.B) {
	ctx := context.Background()
	x := randomLog(b, 4, 2000, 7)
	want, err := engine.Replay(x.Record.Setup, x.Record.Log)
	if err != nil {
		b.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		snapshot int // commands before the snapshot; 0 for none
	}{
		{"snapshot+tail=0", 2000},
		{"snapshot+tail=99", 1901},
		{"no-snapshot", 0},
	} {
		b.Run(tc.name, func(b *testing.B) {
			path := filepath.Join(b.TempDir(), "risk.db")
			// Import the log up to the snapshot, taking one at its end,
			// then save the tail without snapshots.
			head := *x
			head.Record.Log = x.Record.Log[:max(tc.snapshot, 1)]
			db, err := sqlite.Open(ctx, path, sqlite.SnapshotEvery(tc.snapshot))
			if err != nil {
				b.Fatal(err)
			}
			m, err := db.Import(ctx, &head, storetest.T0)
			if err != nil {
				b.Fatal(err)
			}
			db.Close()
			db, err = sqlite.Open(ctx, path, sqlite.SnapshotEvery(0))
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			if tail := x.Record.Log[m.Commands:]; len(tail) > 0 {
				if _, err := db.Save(ctx, m.ID, m.Version, storage.Change{Entries: tail, Game: want}, storetest.T0); err != nil {
					b.Fatal(err)
				}
			}
			var lat []time.Duration
			for b.Loop() {
				start := time.Now()
				l, err := db.Load(ctx, m.ID)
				lat = append(lat, time.Since(start))
				if err != nil {
					b.Fatal(err)
				}
				if l.Game.Version != 2000 {
					b.Fatalf("loaded %d commands", l.Game.Version)
				}
			}
			percentiles(b, lat)
			l, err := db.Load(ctx, m.ID)
			if err != nil {
				b.Fatal(err)
			}
			storetest.SameGame(b, "loaded", l.Game, want)
		})
	}
}

// BenchmarkOpen measures opening a database of 10,000 matches (100
// commands and a snapshot each; 1,000 active, the rest finished), loading
// one match, listing due timers and closing.
func BenchmarkOpen(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "risk.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	const matches = 10000
	for i := range 10 {
		x := randomLog(b, 2+i%5, 100, uint64(i))
		x.Status = storage.Finished
		if i == 0 {
			x.Status = storage.Active
		}
		var channels []string
		for j := range matches / 10 {
			channels = append(channels, fmt.Sprintf("bench:%d", j*10+i))
		}
		if err := db.ImportCopies(ctx, x, channels, storetest.T0); err != nil {
			b.Fatal(err)
		}
	}
	if err := db.Close(); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		db, err := sqlite.Open(ctx, path)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := db.Active(ctx, "bench:5000"); err != nil {
			b.Fatal(err)
		}
		if _, err := db.Due(ctx, "", storetest.T0); err != nil {
			b.Fatal(err)
		}
		if err := db.Close(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fi.Size())/(1<<20), "db-MiB")
}

// BenchmarkLists measures the lists of the web page's channels in a
// database of 10 matches and in one of 100,000 (a tenth open), both built
// once per run (storetest.BenchLists).
func BenchmarkLists(b *testing.B) {
	storetest.BenchLists(b, func(b *testing.B, n int) storetest.Store {
		db, err := sqlite.Open(context.Background(), filepath.Join(b.TempDir(), fmt.Sprintf("risk-%d.db", n)))
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { db.Close() })
		storetest.Fill(b, db, n, 20)
		return db
	})
}
