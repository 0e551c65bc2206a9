package postgres

import (
	"context"
	"encoding/json"
	"fmt"
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
// the long way (saveLocked: lock and read the match, then the writes in a
// batch, then COMMIT), and inserts an entry, one after the other, so that
// the three see the same load on a shared machine. It reports each one's
// percentiles and the ratios of the medians to the floor's, each timed by
// its own clock, around the call; a snapshot is taken every 100 commands.
// The game's move generation is outside those clocks, not outside the
// benchmark's: b.StartTimer reads the memory statistics, stopping the
// world, and the save it would start timing paid for it (0.1-0.2 of the
// ratio, which the plain INSERT, not after it, did not), so ns/op counts
// the moves too.
func BenchmarkSave(b *testing.B) {
	benchSave(b, func() storage.Change { return storage.Change{} }, "save", "long")
}

// BenchmarkSaveBot is BenchmarkSave for a command saved as the bot saves
// one (bot/hosted's Matches.Save): with the host's meta (750 bytes:
// seats, settings, the turn's lines), a post queued and claimed for
// delivery, and the request's key. (The command that ends a turn also
// sets the turn clock, in the matches row: once a turn.)
func BenchmarkSaveBot(b *testing.B) {
	n := 0
	benchSave(b, func() storage.Change {
		n++
		cl := storage.Claim{Holder: "bench", Started: storetest.T0, Now: storetest.T0, Until: storetest.T0.Add(time.Minute)}
		return storage.Change{
			Meta:    json.RawMessage(botMeta),
			Posts:   []json.RawMessage{json.RawMessage(`{"text":"Ann attacks Kamchatka from Alaska: 6 5 3 against 4 2; Kamchatka falls."}`)},
			Claim:   &cl,
			Request: &storage.Request{Key: fmt.Sprintf("interaction-%d", n), User: "u1", Summary: "attack", Result: "Kamchatka falls"},
		}
	}, "bot", "botlong")
}

// botMeta is host data of the size the bot keeps in a match under way.
const botMeta = `{"host":"100000000000000001","server":"200000000000000002","settings":{"turn_hours":24,"palette":"classic","fog":false},` +
	`"seats":[{"id":"100000000000000001","name":"Ann","held":12},{"id":"100000000000000003","name":"Bob","held":9},` +
	`{"id":"bot:1","name":"Cleo","level":"normal","held":11},{"id":"100000000000000004","name":"Dan","held":10}],` +
	`"turn":["Ann places 3 armies in Alaska.","Ann attacks Kamchatka from Alaska: 6 5 3 against 4 2; Kamchatka falls.",` +
	`"Ann moves 4 armies into Kamchatka.","Ann attacks Yakutsk from Kamchatka: 5 4 1 against 6 3; both lose one.",` +
	`"Ann attacks Yakutsk from Kamchatka: 6 6 2 against 5 1; Yakutsk falls.","Ann moves 3 armies into Yakutsk."],` +
	`"steps":[1,1,1,1,1,1],"stats":{"attacks":3,"won":2,"lost":2,"killed":5},"bots":1}`

// benchSave saves commands, each in a change made by with (to which it
// adds the entry and the game), in one statement (named one) and the long
// way (named long), against the plain INSERT, and reports as BenchmarkSave
// says.
func benchSave(b *testing.B, with func() storage.Change, one, long string) {
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
	var ones, longs, plain []time.Duration
	seq := 0
	for b.Loop() {
		for _, lat := range []*[]time.Duration{&ones, &longs} {
			e, err := storetest.Move(l.Game, r)
			if err != nil {
				b.Fatal(err)
			}
			c := with()
			c.Entries, c.Game = []engine.Entry{e}, l.Game
			start := time.Now()
			var v int64
			if lat == &ones {
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
	}{{one, ones}, {long, longs}, {"insert", plain}} {
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
