package sqlite_test

import (
	"context"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"path/filepath"
	"testing"
	"testing/fstest"
	"time"

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
