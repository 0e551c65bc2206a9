package bot

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/postgres"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// scaleMatches is the size of BenchmarkScale's community: small by
// default, 100,000 for docs/scaling.md.
var scaleMatches = flag.Int("scale.matches", 1000, "BenchmarkScale's matches in the database (a tenth open)")

// scalePlayed is how many matches BenchmarkScale plays through the bot,
// among the community's.
const scalePlayed = 20

// BenchmarkScale measures one bot process on a database of a large
// community, in SQLite and in PostgreSQL (skipped without
// RISK_TEST_POSTGRES): -scale.matches matches (a tenth open, copies of a
// 20-command game, filled in bulk), and scalePlayed matches of two people
// played through the bot. Each iteration is a turn of one of them, as in
// a channel: /risk status, /risk autoplace, /risk end (the commands,
// saved with their news; no map is drawn: nothing posts it), and the web
// page's list of channels (OpenChannels, which GET /web/channels reads).
// It reports the percentiles of each, the Go heap in use after the run,
// and the database's size.
//
//	go test ./bot -run '^$' -bench Scale -benchtime 2000x -scale.matches 100000
func BenchmarkScale(b *testing.B) {
	for _, kind := range []string{"sqlite", "postgres"} {
		b.Run(fmt.Sprintf("%s/matches=%d", kind, *scaleMatches), func(b *testing.B) {
			ctx := context.Background()
			var db Store
			var size func() int64
			analyze := func() {}
			switch kind {
			case "sqlite":
				path := filepath.Join(b.TempDir(), "risk.db")
				s, err := sqlite.Open(ctx, path)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { s.Close() })
				db, size = s, func() int64 {
					var n int64
					for _, f := range []string{path, path + "-wal"} {
						if fi, err := os.Stat(f); err == nil {
							n += fi.Size()
						}
					}
					return n
				}
			case "postgres":
				addr := pgtest.URL(b)
				s, err := postgres.Open(ctx, addr)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { s.Close() })
				db, size = s, func() int64 { return schemaSize(b, addr) }
				// As autovacuum would soon after a bulk load.
				analyze = func() { pgtest.Exec(b, addr, `ANALYZE`) }
			}
			start := time.Now()
			storetest.Fill(b, db.(storetest.Store), *scaleMatches, 20)
			analyze()
			b.Logf("filled %d matches in %v", *scaleMatches, time.Since(start).Round(time.Second))
			benchScale(b, db)
			b.ReportMetric(float64(size())/(1<<20), "db-MiB")
		})
	}
}

// benchScale plays the turns of BenchmarkScale on db and reports their
// percentiles.
func benchScale(b *testing.B, db Store) {
	ctx := context.Background()
	bot, err := New(Standard(Config{Store: db, Render: sharedRenderer(), Poster: discardPoster{}, Instance: "scale", Scope: "scale:",
		Log: slog.New(slog.DiscardHandler)}))
	if err != nil {
		b.Fatal(err)
	}
	defer bot.Close()
	key := 0
	do := func(ch, who, command string) (chat.Message, time.Duration) {
		b.Helper()
		key++
		var got chat.Message
		req := chat.Request{Channel: ch, User: chat.User{ID: "scale:" + strings.ToLower(who), Name: who}, Command: command, Key: fmt.Sprintf("scale-%d", key)}
		start := time.Now()
		err := bot.Handle(ctx, req, chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil }))
		took := time.Since(start)
		if err != nil || got.Refused {
			b.Fatalf("%s %s /risk %s: %v %q", ch, who, command, err, got.Text)
		}
		return got, took
	}
	// toAct is who plays now in a match.
	toAct := func(ch string) string {
		l, err := db.Active(ctx, ch)
		if err != nil || l.Game == nil {
			b.Fatalf("%s: %v", ch, err)
		}
		id := l.Game.State.Seats[l.Game.State.Current].ID
		return map[string]string{"scale:ann": "Ann", "scale:bob": "Bob"}[id]
	}
	current := make([]string, scalePlayed)
	for i := range scalePlayed {
		ch := fmt.Sprintf("scale:%d", i)
		for _, c := range []struct{ who, cmd string }{{"Ann", "new"}, {"Bob", "join"}, {"Ann", "start"}, {"Ann", "autoplace"}, {"Bob", "autoplace"}} {
			do(ch, c.who, c.cmd)
		}
		current[i] = toAct(ch)
	}
	r := rand.New(rand.NewPCG(33, 6))
	var commands, statuses, lists []time.Duration
	for b.Loop() {
		i := r.IntN(scalePlayed)
		ch, who := fmt.Sprintf("scale:%d", i), current[i]
		_, took := do(ch, who, "status")
		statuses = append(statuses, took)
		_, took = do(ch, who, "autoplace")
		commands = append(commands, took)
		m, took := do(ch, who, "end")
		commands = append(commands, took)
		if !strings.Contains(m.Text, "ended turn") {
			current[i] = toAct(ch)
		} else {
			current[i] = map[string]string{"Ann": "Bob", "Bob": "Ann"}[who]
		}
		start := time.Now()
		open, err := db.(interface {
			OpenChannels(context.Context, string) ([]storage.Occupant, error)
		}).OpenChannels(ctx, "web:")
		lists = append(lists, time.Since(start))
		if err != nil || len(open) != storetest.PageChannels {
			b.Fatalf("the page's channels: %d, %v", len(open), err)
		}
	}
	b.StopTimer()
	for _, p := range []struct {
		name string
		lat  []time.Duration
	}{{"cmd", commands}, {"status", statuses}, {"list", lists}} {
		slices.Sort(p.lat)
		if len(p.lat) == 0 {
			continue
		}
		b.ReportMetric(float64(p.lat[len(p.lat)/2].Microseconds())/1000, p.name+"-p50-ms")
		b.ReportMetric(float64(p.lat[len(p.lat)*99/100].Microseconds())/1000, p.name+"-p99-ms")
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MiB")
}

// discardPoster posts nothing: no map is drawn.
type discardPoster struct{}

func (discardPoster) Post(context.Context, string, chat.Message) (string, error) { return "", nil }

// schemaSize is the size on disk of the tables and indexes of the test's
// schema at addr.
func schemaSize(b *testing.B, addr string) int64 {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, addr)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close(ctx)
	var n int64
	if err := conn.QueryRow(ctx, `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::bigint FROM pg_class c
		JOIN pg_namespace ns ON ns.oid = c.relnamespace WHERE ns.nspname = current_schema() AND c.relkind = 'r'`).Scan(&n); err != nil {
		b.Fatal(err)
	}
	return n
}
