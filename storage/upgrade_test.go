package storage_test

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
	"github.com/riskbot/riskbot/storage/storetest"
)

// TestUpgrade opens a database that the first release wrote (schema 1,
// before the outbox) with matches in it: it migrates, and keeps them.
func TestUpgrade(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	all, err := fs.Glob(storage.Migrations, "migrations/*.sql")
	if err != nil {
		t.Fatal(err)
	}
	first, err := fs.ReadFile(storage.Migrations, "migrations/0001_matches.sql")
	if err != nil {
		t.Fatal(err)
	}
	v1 := fstest.MapFS{"migrations/0001_matches.sql": &fstest.MapFile{Data: first}}
	old, err := storage.OpenMigrations(ctx, path, v1)
	if err != nil {
		t.Fatal(err)
	}
	m := storetest.Start(t, old, "test:old", 3, 7)
	want := storetest.Play(t, old, m.ID, 30, rand.New(rand.NewPCG(1, 2)))
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	db, err := storage.Open(ctx, path)
	if err != nil {
		t.Fatalf("open the old database: %v", err)
	}
	defer db.Close()
	if v, err := storage.SchemaVersion(ctx, db); err != nil || v != len(all) {
		t.Fatalf("schema version %d, %v; want %d", v, err, len(all))
	}
	l, err := db.Load(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameGame(t, "the match after the upgrade", l.Game, want)
	if _, err := db.Save(ctx, m.ID, l.Version, storage.Change{Posts: []json.RawMessage{json.RawMessage(`{}`)}}, storetest.T0); err != nil {
		t.Fatalf("queue a post after the upgrade: %v", err)
	}
	if ps, err := db.Outbox(ctx, "", storetest.T0.Add(time.Second), 10); err != nil || len(ps) != 1 {
		t.Fatalf("outbox after the upgrade: %v, %v", ps, err)
	}
}
