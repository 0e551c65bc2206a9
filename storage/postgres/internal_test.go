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
	"github.com/riskbot/riskbot/state"
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
	chansAll, chansAllArgs := storage.OpenChannelsSQL(db.OpenFrom, "")
	chansWeb, chansWebArgs := storage.OpenChannelsSQL(db.OpenFrom, "web:")
	closedAll, closedAllArgs := closedChannelsSQL("", 10)
	closedWeb, closedWebArgs := closedChannelsSQL("web:", 10)
	for _, q := range []struct {
		name, query string
		args        []any
		index       string
	}{
		{"open matches", openWeb, openWebArgs, "matches_open_channel"},
		{"all open matches", openAll, openAllArgs, "matches_open_channel"},
		{"open channels", chansWeb, chansWebArgs, "matches_open_channel"},
		{"all open channels", chansAll, chansAllArgs, "matches_open_channel"},
		{"closed channels", closedWeb, closedWebArgs, "matches_channel"},
		{"all closed channels", closedAll, closedAllArgs, "matches_channel"},
	} {
		// The shared queries are written with ? (storage.Dollars).
		rows, err := conn.Query(ctx, "EXPLAIN "+storage.Dollars(q.query), q.args...)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		p := strings.Join(lines, "\n")
		t.Logf("%s:\n%s", q.name, p)
		if strings.Contains(p, "Seq Scan") || !strings.Contains(p, "Index") || !strings.Contains(p, q.index) {
			t.Errorf("%s: the plan does not read a range of the index %s:\n%s", q.name, q.index, p)
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
	migrateTo(t, addr, 6)
	pgtest.Exec(t, addr, `INSERT INTO matches (channel, status, version, created_at, updated_at, closed_at) VALUES
		('web:a', 1, 1, 0, 0, NULL), ('web;', 1, 1, 0, 0, NULL), ('web:b', 4, 2, 0, 0, 0), ('wea', 1, 1, 0, 0, NULL)`)
	db := openReady(t, addr)
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

// migrateTo brings the empty database at addr to schema version v, as a
// program that knew only the first v migrations would.
// openReady opens the database at addr, migrated to the latest schema,
// and closes it when the test ends.
func openReady(t *testing.T, addr string) *DB {
	t.Helper()
	db, err := Open(context.Background(), addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if err := db.Ready(context.Background()); err != nil {
		t.Fatal(err)
	}
	return db
}

func migrateTo(t *testing.T, addr string, v int) {
	t.Helper()
	ctx := context.Background()
	old := fstest.MapFS{}
	for i := 1; i <= v; i++ {
		names, err := fs.Glob(embedded, fmt.Sprintf("migrations/%04d_*.sql", i))
		if err != nil || len(names) != 1 {
			t.Fatalf("migration %d: %v, %v", i, names, err)
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
	defer pool.Close()
	if n, err := migrate(ctx, pool, old); err != nil || n != v {
		t.Fatalf("schema %d: %d, %v", v, n, err)
	}
}

// TestUpgradeHeads upgrades a database of schema 8, whose matches rows
// hold their versions, logs' lengths, times and meta, to the heads rows of
// migration 0009: the matches read back as they were written (a lobby, an
// active match with a log, a snapshot and a claim on its due timers, a
// finished match), the claim still holds, and they take changes after it.
func TestUpgradeHeads(t *testing.T) {
	ctx := context.Background()
	addr := pgtest.URL(t)
	migrateTo(t, addr, 8)
	setup := storetest.NewSetup(3, 5)
	g, err := engine.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	setupJSON, err := json.Marshal(g.Setup)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 5))
	var entries []string
	for range 3 {
		e, err := storetest.Move(g, r)
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(e)
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, string(b))
	}
	snap, err := json.Marshal(g)
	if err != nil {
		t.Fatal(err)
	}
	t0 := storetest.T0.UnixMilli()
	ms := func(d time.Duration) int64 { return t0 + d.Milliseconds() }
	pgtest.Exec(t, addr,
		fmt.Sprintf(`INSERT INTO matches (id, channel, status, version, meta, setup, commands, remind_at, deadline_at, created_at, updated_at, closed_at, claim_holder, claim_at, claim_until) VALUES
			(1, 'up:lobby', 1, 3, '{"host":"a"}', NULL, 0, NULL, NULL, %d, %d, NULL, NULL, NULL, NULL),
			(2, 'up:active', 2, 6, '{"host":"b"}', '%s', 3, %d, %d, %d, %d, NULL, 'p1', %d, %d),
			(3, 'up:done', 3, 9, NULL, '%s', 0, NULL, NULL, %d, %d, %d, NULL, NULL, NULL)`,
			t0, ms(time.Minute),
			setupJSON, ms(time.Hour), ms(2*time.Hour), t0, ms(2*time.Minute), ms(time.Hour), ms(3*time.Hour),
			setupJSON, t0, ms(3*time.Minute), ms(3*time.Minute)),
		fmt.Sprintf(`INSERT INTO log (match_id, seq, version, entry, created_at) VALUES (2, 1, 4, '%s', %d), (2, 2, 5, '%s', %d), (2, 3, 6, '%s', %d)`,
			entries[0], t0, entries[1], t0, entries[2], t0),
		fmt.Sprintf(`INSERT INTO snapshots (match_id, seq, game) VALUES (2, 3, '%s')`, snap),
		`SELECT setval(pg_get_serial_sequence('matches', 'id'), 3)`)
	db := openReady(t, addr)
	for _, want := range []struct {
		id       int64
		version  int64
		commands int
		updated  int64
		meta     string
	}{
		{1, 3, 0, ms(time.Minute), `{"host":"a"}`},
		{2, 6, 3, ms(2 * time.Minute), `{"host":"b"}`},
		{3, 9, 0, ms(3 * time.Minute), ``},
	} {
		h, err := db.Head(ctx, want.id)
		if err != nil || h.Version != want.version || h.Commands != want.commands {
			t.Errorf("head of match %d: %+v, %v; want version %d, %d commands", want.id, h, err, want.version, want.commands)
		}
		l, err := db.Load(ctx, want.id)
		if err != nil {
			t.Fatalf("load match %d: %v", want.id, err)
		}
		if l.Version != want.version || l.Commands != want.commands || l.Updated.UnixMilli() != want.updated || string(l.Meta) != want.meta {
			t.Errorf("match %d after the upgrade: %+v; want version %d, %d commands, updated %d, meta %s",
				want.id, l.Match, want.version, want.commands, want.updated, want.meta)
		}
	}
	l, err := db.Load(ctx, 2)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameGame(t, "the active match", l.Game, g)
	if idle, err := db.IdleLobbies(ctx, "up:", storetest.T0.Add(time.Hour)); err != nil || len(idle) != 1 || idle[0].ID != 1 || idle[0].Version != 3 {
		t.Errorf("idle lobbies: %+v, %v; want match 1 at version 3", idle, err)
	}
	due, err := db.Due(ctx, "up:", storetest.T0.Add(3*time.Hour))
	if err != nil || len(due) != 2 || due[0].Version != 6 {
		t.Errorf("due timers: %+v, %v; want match 2's two at version 6", due, err)
	}
	// The claim still holds at the match's version: another holder finds
	// its timers taken until the lease ends; the holder releases it.
	now := storetest.T0.Add(2 * time.Hour)
	claim := storage.Claim{Holder: "p2", Started: now, Now: now, Until: now.Add(time.Minute)}
	if got, err := db.ClaimDue(ctx, "up:", claim, 10); err != nil || len(got) != 0 {
		t.Errorf("claim by another holder while p1's lease runs: %+v, %v; want none", got, err)
	}
	if err := db.ReleaseDue(ctx, 2, "p1"); err != nil {
		t.Fatal(err)
	}
	if got, err := db.ClaimDue(ctx, "up:", claim, 10); err != nil || len(got) != 2 || got[0].Version != 6 {
		t.Errorf("claim after p1's release: %+v, %v; want match 2's two timers at version 6", got, err)
	}
	e, err := storetest.Move(g, r)
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.Save(ctx, 2, 6, storage.Change{Entries: []engine.Entry{e}, Game: g}, now)
	if err != nil || v != 7 {
		t.Fatalf("a command after the upgrade: %d, %v; want version 7", v, err)
	}
	if _, err := db.Save(ctx, 2, 6, storage.Change{Meta: json.RawMessage(`{}`)}, now); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("a change at the old version: %v, want ErrConflict", err)
	}
	if l, err := db.Load(ctx, 2); err != nil || l.Version != 7 || l.Commands != 4 || !l.Updated.Equal(now) {
		t.Errorf("after the command: %+v, %v", l, err)
	}
	// The command (one statement, which leaves the matches row alone)
	// released p2's claim: the timers are free at the new version.
	claim.Holder = "p3"
	if got, err := db.ClaimDue(ctx, "up:", claim, 10); err != nil || len(got) != 2 || got[0].Version != 7 {
		t.Errorf("claim after the command: %+v, %v; want match 2's two timers at version 7", got, err)
	}
	if _, err := db.Create(ctx, "up:active", nil, now); !errors.Is(err, storage.ErrChannelBusy) {
		t.Errorf("a second match in up:active: %v, want ErrChannelBusy", err)
	}
	// The identity goes on from the old matches (the refused one above
	// used a number too).
	if m, err := db.Create(ctx, "up:new", nil, now); err != nil || m.ID <= 3 || m.Version != 1 {
		t.Errorf("a new match: %+v, %v; want a new id at version 1", m, err)
	} else if h, err := db.Head(ctx, m.ID); err != nil || h.Version != 1 || h.Status != storage.Lobby {
		t.Errorf("the new match's head: %+v, %v", h, err)
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
		w, err := storage.PlanSave(storage.Plan{ID: m.ID, Version: step.version, Change: step.c, Enc: enc, Every: db.every, Now: storetest.T0}, row)
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

// TestUpgradeImports (issue 42): migration 0010 gives the matches imported
// before it (meta.imported) an origin, unrated, so that the standings stop
// counting them; a match played here, or whose data is not an object,
// gets none (the SQLite store's TestUpgradeImports).
func TestUpgradeImports(t *testing.T) {
	ctx := context.Background()
	addr := pgtest.URL(t)
	migrateTo(t, addr, 9)
	t0 := storetest.T0.UnixMilli()
	pgtest.Exec(t, addr,
		fmt.Sprintf(`INSERT INTO matches (id, channel, status, setup, created_at, closed_at) VALUES
			(1, 'up:played', 4, NULL, %[1]d, %[1]d), (2, 'up:imported', 4, NULL, %[2]d, %[2]d), (3, 'up:odd', 4, NULL, %[1]d, %[1]d)`, t0, t0+1000),
		fmt.Sprintf(`INSERT INTO heads (match_id, version, commands, updated_at, meta) VALUES
			(1, 1, 0, %[1]d, '{"host":"a","started":"2025-03-01T12:00:00Z"}'),
			(2, 1, 0, %[1]d, '{"host":"b","imported":"2025-03-01T11:00:00.123456789Z"}'),
			(3, 1, 0, %[1]d, '"not an object"')`, t0),
		fmt.Sprintf(`INSERT INTO results (match_id, seat, server, rules, player, level, name, place, ended_at) VALUES
			(1, 0, 'g', 'classic', 'discord:ann', '', 'Ann', 1, %[1]d), (1, 1, 'g', 'classic', 'discord:bob', '', 'Bob', 2, %[1]d),
			(2, 0, 'g', 'classic', 'discord:mallory', '', 'Mallory', 1, %[1]d), (2, 1, 'g', 'classic', 'discord:bob', '', 'Bob', 2, %[1]d)`, t0),
		`SELECT setval(pg_get_serial_sequence('matches', 'id'), 3)`)
	db := openReady(t, addr)
	for id, want := range map[int64]*storage.Origin{1: nil, 2: {Source: "an import before origins were kept", Imported: time.UnixMilli(t0 + 1000).UTC()}, 3: nil} {
		x, err := db.Export(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if (x.Origin == nil) != (want == nil) || want != nil && *x.Origin != *want {
			t.Errorf("match %d: origin %+v, want %+v", id, x.Origin, want)
		}
	}
	board, err := db.Leaderboard(ctx, "g", state.Classic, 0)
	if err != nil {
		t.Fatal(err)
	}
	var players []string
	for _, s := range board {
		players = append(players, fmt.Sprintf("%s %d", s.Player, s.Played))
	}
	if got, want := strings.Join(players, ", "), "discord:ann 1, discord:bob 1"; got != want {
		t.Errorf("the leaderboard after the upgrade: %s, want %s", got, want)
	}
}

// TestOpenSaysWhichFile: an address whose CA file cannot be read says so
// (it said the address was not a valid URL), and no address's password
// ever shows in the error. No server is needed: the address is refused
// before any connection.
func TestOpenSaysWhichFile(t *testing.T) {
	ctx := context.Background()
	missing := t.TempDir() + "/no-such-ca.pem"
	tests := []struct {
		addr, want string
	}{
		{"postgres://risk:s3cret@db.example:5432/risk?sslmode=verify-full&sslrootcert=" + missing, "no-such-ca.pem"},
		{"postgres://risk:s3cret@db.example:notaport/risk", "not a valid postgres:// URL"},
	}
	for _, tt := range tests {
		_, err := Open(ctx, tt.addr)
		if err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "s3cret") {
			t.Errorf("Open(%q) = %v, want an error naming %q without the password", tt.addr, err, tt.want)
		}
	}
}
