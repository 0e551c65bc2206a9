package console

import (
	"context"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// BenchmarkCommandWithMap measures a console command to its reply,
// including loading the match from SQLite and rendering the map to a PNG
// file: /risk map in a match in progress. It reports the median.
func BenchmarkCommandWithMap(b *testing.B) {
	dir := b.TempDir()
	db, err := sqlite.Open(context.Background(), filepath.Join(dir, "risk.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	con := New(io.Discard, "console:bench", filepath.Join(dir, "maps"))
	bt, err := bot.New(bot.Standard(bot.Config{Store: db, Poster: con, Seed: func() uint64 { return 5 }}))
	if err != nil {
		b.Fatal(err)
	}
	defer bt.Close()
	con.SetBot(bt)
	setup := "Ann: /risk new\nAnn: /risk addbot level:easy\nAnn: /risk addbot level:easy\nAnn: /risk start\nAnn: /risk autoplace\n"
	if err := con.Run(context.Background(), strings.NewReader(setup), false); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		if err := con.Line(context.Background(), "Ann: /risk map", false); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}
