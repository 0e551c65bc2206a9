package sqlite_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// TestUpgrade opens a database that the first release wrote (schema 1,
// before the outbox) with matches in it: it migrates, and keeps them.
func TestUpgrade(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	all, err := fs.Glob(sqlite.Migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	first, err := fs.ReadFile(sqlite.Migrations, "migrations/0001_matches.sql")
	if err != nil {
		t.Fatal(err)
	}
	v1 := fstest.MapFS{"migrations/0001_matches.sql": &fstest.MapFile{Data: first}}
	old, err := sqlite.OpenMigrations(ctx, path, v1)
	if err != nil {
		t.Fatal(err)
	}
	// The match is played on a scratch database of today's schema, whose
	// writes need today's columns, and imported into the old one: an
	// import writes only what the first schema has.
	scratch, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "scratch.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer scratch.Close()
	played := storetest.Start(t, scratch, "test:old", 3, 7)
	want := storetest.Play(t, scratch, played.ID, 30, rand.New(rand.NewPCG(1, 2)))
	x, err := scratch.Export(ctx, played.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	id := writeOld(ctx, t, path, x)
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatalf("open the old database: %v", err)
	}
	defer db.Close()
	if v, err := sqlite.SchemaVersion(ctx, db); err != nil || v != len(all) {
		t.Fatalf("schema version %d, %v; want %d", v, err, len(all))
	}
	l, err := db.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameGame(t, "the match after the upgrade", l.Game, want)
	if _, err := db.Save(ctx, id, l.Version, storage.Change{Posts: []json.RawMessage{json.RawMessage(`{}`)}}, storetest.T0); err != nil {
		t.Fatalf("queue a post after the upgrade: %v", err)
	}
	if ps, err := db.Outbox(ctx, "", storetest.T0.Add(time.Second), 10); err != nil || len(ps) != 1 {
		t.Fatalf("outbox after the upgrade: %v, %v", ps, err)
	}
	// The seats of a match under way before the seats table are filled
	// by its migration.
	if ms, err := db.Seated(ctx, "p2", "", 0); err != nil || len(ms) != 1 || ms[0].ID != id {
		t.Fatalf("seated p2 after the upgrade: %+v, %v; want match %d", ms, err, id)
	}
}

// TestUpgradeImports (issue 42): migration 0010 gives the matches imported
// before it (their data says so: meta.imported) an origin, unrated, so
// that the standings stop counting them; a match played here, or whose
// data does not decode, gets none.
func TestUpgradeImports(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	v9 := fstest.MapFS{}
	for i := 1; i <= 9; i++ {
		names, err := fs.Glob(sqlite.Migrations, fmt.Sprintf("migrations/%04d_*.sql", i))
		if err != nil || len(names) != 1 {
			t.Fatalf("migration %d: %v, %v", i, names, err)
		}
		b, err := fs.ReadFile(sqlite.Migrations, names[0])
		if err != nil {
			t.Fatal(err)
		}
		v9[names[0]] = &fstest.MapFile{Data: b}
	}
	old, err := sqlite.OpenMigrations(ctx, path, v9)
	if err != nil {
		t.Fatal(err)
	}
	old.Close()
	t0 := storetest.T0.UnixMilli()
	err = rawExec(ctx, path,
		fmt.Sprintf(`INSERT INTO matches (id, channel, status, version, meta, setup, commands, created_at, updated_at, closed_at) VALUES
			(1, 'up:played', 4, 1, '{"host":"a","started":"2025-03-01T12:00:00Z"}', NULL, 0, %[1]d, %[1]d, %[1]d),
			(2, 'up:imported', 4, 1, '{"host":"b","imported":"2025-03-01T11:00:00.123456789Z"}', NULL, 0, %[2]d, %[2]d, %[2]d),
			(3, 'up:odd', 4, 1, '"not an object"', NULL, 0, %[1]d, %[1]d, %[1]d)`, t0, t0+1000),
		fmt.Sprintf(`INSERT INTO results (match_id, seat, server, rules, player, level, name, place, ended_at) VALUES
			(1, 0, 'g', 'classic', 'discord:ann', '', 'Ann', 1, %[1]d), (1, 1, 'g', 'classic', 'discord:bob', '', 'Bob', 2, %[1]d),
			(2, 0, 'g', 'classic', 'discord:mallory', '', 'Mallory', 1, %[1]d), (2, 1, 'g', 'classic', 'discord:bob', '', 'Bob', 2, %[1]d)`, t0))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatalf("open the database of schema 9: %v", err)
	}
	defer db.Close()
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
