package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"

	"github.com/riskbot/riskbot/storage"
)

// counting counts the full loads a cache asks of its store.
type counting struct {
	Store
	loads atomic.Int64
}

func (c *counting) Load(ctx context.Context, id int64) (*storage.Loaded, error) {
	c.loads.Add(1)
	return c.Store.Load(ctx, id)
}

func (c *counting) Active(ctx context.Context, channel string) (*storage.Loaded, error) {
	c.loads.Add(1)
	return c.Store.Active(ctx, channel)
}

// testCache: a storage.Cache answers what the store answers, by id and by
// channel, after changes made through another handle; it rebuilds a match
// only when its version changed; what it hands out is the caller's to
// play on; it keeps at most its size.
func testCache(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 10)
	db, other := Open(t, b), Open(t, b)
	inner := &counting{Store: db}
	c := storage.NewCache(inner, 2)
	l := Start(t, other, "test:cache", 3, 11)
	id := l.ID
	same := func(when string, got, want *storage.Loaded) {
		t.Helper()
		if a, b := mustJSON(t, got.Match), mustJSON(t, want.Match); !bytes.Equal(a, b) {
			t.Fatalf("%s: cached\n%s\nwant\n%s", when, a, b)
		}
		if got.Game != nil || want.Game != nil {
			SameGame(t, when, got.Game, want.Game)
		}
	}
	load := func(when string, wantLoads int64) {
		t.Helper()
		before := inner.loads.Load()
		byID, err := c.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		want, err := other.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		same(when+", by id", byID, want)
		if want.Status.Open() {
			byChannel, err := c.Active(ctx, want.Channel)
			if err != nil {
				t.Fatal(err)
			}
			same(when+", by channel", byChannel, want)
		}
		if n := inner.loads.Load() - before; n != wantLoads {
			t.Errorf("%s: %d full loads, want %d", when, n, wantLoads)
		}
	}
	load("first", 1)
	load("again", 0)
	// Another handle plays on: the cache sees each change.
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 5 {
		Play(t, other, id, 1+i, r)
		load("after moves elsewhere", 1)
	}
	if _, err := other.Save(ctx, id, mustLoad(t, other, id).Version, storage.Change{Meta: json.RawMessage(`{"host":"changed"}`)}, T0); err != nil {
		t.Fatal(err)
	}
	load("after a meta change", 1)
	// What the cache hands out is the caller's.
	mine, err := c.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if _, err := Move(mine.Game, r); err != nil {
			break
		}
	}
	mine.Version, mine.Meta = 999, json.RawMessage(`{"mine":1}`)
	load("after a caller played on its copy", 0)
	// Changes saved through the cache are kept as they leave the match:
	// the next read is no rebuild, and is what the store reads.
	at := T0
	save := func(what string, ch storage.Change) {
		t.Helper()
		at = at.Add(1500 * time.Microsecond) // not a whole millisecond: stored to the millisecond
		cur, err := c.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(ch.Entries) == 0 && ch.Game == nil && ch.Status == 0 && ch.Meta == nil && ch.Timers == nil {
			e, err := Move(cur.Game, r)
			if err != nil {
				t.Fatal(err)
			}
			ch.Entries, ch.Game = []engine.Entry{e}, cur.Game
		}
		if _, err := c.Save(ctx, id, cur.Version, ch, at); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ch.Game != nil {
			// The caller plays on with its game: the kept one stays.
			_, _ = Move(ch.Game, r)
		}
		load("after "+what+" saved through the cache", 0)
	}
	for range 12 {
		save("a move", storage.Change{Posts: []json.RawMessage{json.RawMessage(`{"post":1}`)}})
	}
	save("a meta change", storage.Change{Meta: json.RawMessage(`{"host": "again"}`)})
	save("timers", storage.Change{Timers: &storage.Timers{Remind: at.Add(time.Hour + 123*time.Microsecond), Deadline: at.Add(2 * time.Hour)}})
	save("a move with a request", storage.Change{Request: &storage.Request{Key: "cache-1", User: "p0", Summary: "move"}})
	save("timers cleared", storage.Change{Timers: &storage.Timers{}})
	// It keeps two matches: a third pushes out the least recently used.
	l2, l3 := Start(t, other, "test:cache2", 2, 12), Start(t, other, "test:cache3", 2, 13)
	for _, x := range []*storage.Loaded{l2, l3} {
		if _, err := c.Load(ctx, x.ID); err != nil {
			t.Fatal(err)
		}
	}
	load("pushed out", 1)
	// A closed match leaves its channel, and the cache says so too.
	if _, err := other.Save(ctx, id, mustLoad(t, other, id).Version, storage.Change{Status: storage.Abandoned}, T0); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Active(ctx, "test:cache"); err == nil {
		t.Error("the closed match is still its channel's open match")
	}
	if g, err := c.Load(ctx, id); err != nil || g.Status != storage.Abandoned {
		t.Errorf("the closed match: %v, %v", g, err)
	}
	// Closed through the cache: its timers cleared, its time of closing set.
	l4 := Start(t, other, "test:cache4", 2, 14)
	if _, err := c.Load(ctx, l4.ID); err != nil {
		t.Fatal(err)
	}
	id = l4.ID
	save("timers", storage.Change{Timers: &storage.Timers{Remind: at.Add(time.Hour), Deadline: at.Add(2 * time.Hour)}})
	save("the match abandoned", storage.Change{Status: storage.Abandoned, Meta: json.RawMessage(`{"over":true}`)})
	save("a meta change of a closed match", storage.Change{Meta: json.RawMessage(`{"over":2}`)})
}

// mustLoad loads match id, failing the test if it cannot.
func mustLoad(t *testing.T, db Store, id int64) *storage.Loaded {
	t.Helper()
	l, err := db.Load(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// mustCreate creates a lobby in channel with the host's meta, at T0,
// failing the test if it cannot.
func mustCreate(t testing.TB, db Store, channel string, meta json.RawMessage) *storage.Match {
	t.Helper()
	m, err := db.Create(context.Background(), channel, meta, T0)
	if err != nil {
		t.Fatalf("create a lobby in %s: %v", channel, err)
	}
	return m
}

// mustExport exports match id whole, failing the test if it cannot.
func mustExport(t testing.TB, db Store, id int64) *storage.Export {
	t.Helper()
	x, err := db.Export(context.Background(), id)
	if err != nil {
		t.Fatalf("export match %d: %v", id, err)
	}
	return x
}

// mustJSON is v as JSON, to compare whole, failing the test if it does
// not encode.
func mustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
