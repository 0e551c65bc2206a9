package sqlite_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// freshEnv names the database that TestLibraryMapFreshProcess's child
// process loads the match from, and freshMatch the match.
const (
	freshEnv   = "RISK_TEST_FRESH_DB"
	freshMatch = "RISK_TEST_FRESH_MATCH"
	freshName  = "RISK_TEST_FRESH_MAP"
)

// TestLibraryMapFreshProcess: a match on a library map loads in a process
// that never saw the map (another of a fleet, or the bot restarted): the
// store reads the map's files and makes it known to the engine. The child
// is this test binary run again, whose engine knows no library map.
func TestLibraryMapFreshProcess(t *testing.T) {
	ctx := context.Background()
	if path := os.Getenv(freshEnv); path != "" {
		id, _ := strconv.ParseInt(os.Getenv(freshMatch), 10, 64)
		freshChild(t, path, id)
		return
	}
	path := filepath.Join(t.TempDir(), "risk.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	b, err := mapfile.Read(mapfile.Files(storetest.StripMap(t, "Fresh Strip", 8)), mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	lm := storage.LibraryMap{Scope: "test", Name: "Strip", Hash: b.Hash, Title: b.Title, Territories: b.Map.Len()}
	if err := db.AddMap(ctx, lm, storage.MapFiles(b.Files), storetest.T0); err != nil {
		t.Fatal(err)
	}
	if err := engine.AddMap(b.Map); err != nil {
		t.Fatal(err)
	}
	setup := storetest.NewSetup(3, 5)
	setup.Options.Map = b.Map.Name
	l := storetest.StartSetup(t, db, "test:fresh", setup)
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestLibraryMapFreshProcess$", "-test.v")
	cmd.Env = append(os.Environ(), freshEnv+"="+path, freshMatch+"="+strconv.FormatInt(l.ID, 10), freshName+"="+b.Map.Name)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the fresh process failed: %v\n%s", err, out)
	}
}

// freshChild loads match id of the database at path in a process whose
// engine has not seen its map.
func freshChild(t *testing.T, path string, id int64) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	name := os.Getenv(freshName)
	if _, err := engine.LoadMap(name); err == nil {
		t.Fatalf("a fresh process knows map %s before loading the match", name)
	}
	l, err := db.Load(ctx, id)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	if got := l.Game.State.Map.Name; got != name {
		t.Errorf("the game's map: got %s, want %s", got, name)
	}
	if got := l.Game.State.Map.Len(); got != 8 {
		t.Errorf("the game's map: got %d territories, want 8", got)
	}
}
