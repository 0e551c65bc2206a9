package postgres

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
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
