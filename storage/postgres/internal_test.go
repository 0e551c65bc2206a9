package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
	"github.com/riskbot/riskbot/storage/storetest"
)

// TestQueryPlans checks that the lists of channels read a range of an
// index, in a database whose collation does not order bytes (where an
// index of the channel in it would not serve the range): sequential scans
// are turned off, so a query that cannot use an index still scans, and
// fails.
func TestQueryPlans(t *testing.T) {
	ctx := context.Background()
	addr := pgtest.Collated(t)
	db, err := Open(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	conn, err := pgx.Connect(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, `SET enable_seqscan = off`); err != nil {
		t.Fatal(err)
	}
	openAll, openAllArgs := openMatchesSQL("")
	openWeb, openWebArgs := openMatchesSQL("web:")
	chansAll, chansAllArgs := openChannelsSQL("")
	chansWeb, chansWebArgs := openChannelsSQL("web:")
	for _, q := range []struct {
		name, query string
		args        []any
	}{
		{"open matches", openWeb, openWebArgs},
		{"all open matches", openAll, openAllArgs},
		{"open channels", chansWeb, chansWebArgs},
		{"all open channels", chansAll, chansAllArgs},
	} {
		rows, err := conn.Query(ctx, "EXPLAIN "+q.query, q.args...)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		p := strings.Join(lines, "\n")
		t.Logf("%s:\n%s", q.name, p)
		if strings.Contains(p, "Seq Scan") || !strings.Contains(p, "Index") || !strings.Contains(p, "matches_open_channel") {
			t.Errorf("%s: the plan does not read a range of the open channels' index:\n%s", q.name, p)
		}
	}
}

// TestUpgradeChannelOrder upgrades a database of schema 6 holding open
// and closed matches in a collation that does not order bytes: after
// migration 0007 its channels list by prefix, and a channel still holds
// one open match at most.
func TestUpgradeChannelOrder(t *testing.T) {
	ctx := context.Background()
	addr := pgtest.Collated(t)
	old := fstest.MapFS{}
	for v := 1; v <= 6; v++ {
		names, err := fs.Glob(embedded, fmt.Sprintf("migrations/%04d_*.sql", v))
		if err != nil || len(names) != 1 {
			t.Fatalf("migration %d: %v, %v", v, names, err)
		}
		b, err := fs.ReadFile(embedded, names[0])
		if err != nil {
			t.Fatal(err)
		}
		old[names[0]] = &fstest.MapFile{Data: b}
	}
	pool, err := pgxpool.New(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	if n, err := migrate(ctx, pool, old); err != nil || n != 6 {
		t.Fatalf("schema 6: %d, %v", n, err)
	}
	pool.Close()
	pgtest.Exec(t, addr, `INSERT INTO matches (channel, status, version, created_at, updated_at, closed_at) VALUES
		('web:a', 1, 1, 0, 0, NULL), ('web;', 1, 1, 0, 0, NULL), ('web:b', 4, 2, 0, 0, 0), ('wea', 1, 1, 0, 0, NULL)`)
	db, err := Open(ctx, addr)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	got, err := db.OpenChannels(ctx, "web:")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Channel != "web:a" {
		t.Errorf("open channels of web: after the upgrade: %+v, want web:a", got)
	}
	if _, err := db.Create(ctx, "web:a", nil, time.Unix(0, 0)); !errors.Is(err, storage.ErrChannelBusy) {
		t.Errorf("a second match in web:a: %v, want ErrChannelBusy", err)
	}
}

// TestSaveAs checks that a start and a command are written by the one
// statement of saveAs when the match is as they presume, and that it
// writes nothing when the match is not (Save then takes the long way).
func TestSaveAs(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, pgtest.URL(t), SnapshotEvery(1))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	m, err := db.Create(ctx, "test:1", nil, storetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	setup := storetest.NewSetup(2, 3)
	g, err := engine.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	e, err := storetest.Move(g, rand.New(rand.NewPCG(3, 3)))
	if err != nil {
		t.Fatal(err)
	}
	key := "k1"
	for _, step := range []struct {
		name    string
		version int64
		c       storage.Change
		saved   bool
	}{
		{"start", m.Version, storage.Change{Start: &setup}, true},
		{"stale start", m.Version, storage.Change{Start: &setup}, false},
		{"stale command", m.Version, storage.Change{Entries: []engine.Entry{e}, Game: g}, false},
		{"command", m.Version + 1, storage.Change{Entries: []engine.Entry{e}, Game: g, Posts: []json.RawMessage{json.RawMessage(`{"a":1}`), json.RawMessage(`{"b":2}`)},
			Request: &storage.Request{Key: key, User: "u"}}, true},
	} {
		row, ok := storage.Presumed(step.c, step.version)
		if !ok {
			t.Fatalf("%s: nothing presumed", step.name)
		}
		enc, err := storage.EncodeChange(step.c)
		if err != nil {
			t.Fatal(err)
		}
		w, err := storage.PlanSave(m.ID, step.version, row, step.c, enc, db.every, storetest.T0)
		if err != nil {
			t.Fatal(err)
		}
		saved, err := db.saveAs(ctx, m.ID, step.version, row, w, step.c)
		if err != nil || saved != step.saved {
			t.Fatalf("%s: saved %v, %v; want %v", step.name, saved, err, step.saved)
		}
	}
	l, err := db.Load(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if l.Version != 3 || l.Commands != 1 || l.Status != storage.Active {
		t.Fatalf("after the saves: %+v", l.Match)
	}
	storetest.SameGame(t, "saved", l.Game, g)
	posts, err := db.Outbox(ctx, "", storetest.T0.Add(time.Second), 10)
	if err != nil || len(posts) != 2 || string(posts[0].Body) != `{"a":1}` || posts[0].Version != 3 {
		t.Fatalf("queued posts %+v, %v", posts, err)
	}
	if a, err := db.Applied(ctx, key); err != nil || a.Version != 3 || a.Channel != "test:1" {
		t.Fatalf("the request: %+v, %v", a, err)
	}
	var snaps []int
	rows, err := db.pool.Query(ctx, `SELECT seq FROM snapshots WHERE match_id = $1`, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if snaps, err = pgx.CollectRows(rows, pgx.RowTo[int]); err != nil || fmt.Sprint(snaps) != "[1]" {
		t.Fatalf("snapshots %v, %v; want the one at 1", snaps, err)
	}
}
