package main

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// writeStrip writes a map's three files into dir and returns the .map's
// path.
func writeStrip(t *testing.T, dir, title string, n int) string {
	t.Helper()
	f := storetest.StripMap(t, title, n)
	for name, data := range map[string][]byte{"strip.map": f.Map, "strip-pic.png": f.Picture, "strip-map.png": f.Index} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(dir, "strip.map")
}

// TestMapLibraryRoundTrip: risk map import, list, show, export, rename,
// remove on one database; the export reads back as the same map (its
// hash), and every refusal leaves the library as it was.
func TestMapLibraryRoundTrip(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "risk.db")
	file := writeStrip(t, dir, "Round Trip", 6)
	in, err := mapfile.ReadPath(file, mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	steps := []struct {
		name     string
		args     []string
		wantCode int
		want     string // in stdout, or stderr when the code is not 0
	}{
		{"import", []string{"map", "import", file, "--db", db, "--author", "Ann"}, 0, `added "Round Trip" to the library of console: 6 territories`},
		{"import again", []string{"map", "import", file, "--db", db, "--name", "Again"}, 1, `in the library of console already, named "Round Trip"`},
		{"name taken", []string{"map", "import", writeStrip(t, t.TempDir(), "Other", 5), "--name", "round trip", "--db", db}, 1, `has a map named "Round Trip" already`},
		{"built-in name", []string{"map", "import", file, "--name", "Classic", "--db", db, "--scope", "web"}, 1, "built-in board's name"},
		{"refused by mapfile", []string{"map", "import", filepath.Join(dir, "strip-pic.png"), "--db", db}, 1, "refused"},
		{"list", []string{"map", "list", "--db", db}, 0, "Round Trip  6            Ann"},
		{"show", []string{"map", "show", "round trip", "--db", db}, 0, "Round Trip (library of console, engine name " + "lib-" + in.Hash[:16] + ") by Ann"},
		{"show elsewhere", []string{"map", "show", "Round Trip", "--db", db, "--scope", "web"}, 1, "the library of web has no such map"},
		{"export", []string{"map", "export", "Round Trip", out, "--db", db}, 0, "wrote \"Round Trip\" to " + filepath.Join(out, "round-trip.map")},
		{"rename", []string{"map", "rename", "round trip", "Harbour", "--db", db}, 0, `renamed "round trip" to "Harbour"`},
		{"remove", []string{"map", "remove", "HARBOUR", "--db", db}, 0, `removed "Harbour" from the library of console`},
		{"remove again", []string{"map", "remove", "Harbour", "--db", db}, 1, "has no such map"},
		{"list empty", []string{"map", "list", "--db", db}, 0, "the library of console has no maps"},
	}
	for _, s := range steps {
		code, stdout, stderr := runRisk(t, "", s.args...)
		text := stdout
		if code != 0 {
			text = stderr
		}
		if code != s.wantCode || !strings.Contains(text, s.want) {
			t.Errorf("%s: got exit %d, %q; want exit %d with %q", s.name, code, text, s.wantCode, s.want)
		}
	}
	back, err := mapfile.ReadPath(filepath.Join(out, "round-trip.map"), mapfile.Options{})
	if err != nil {
		t.Fatalf("read the export: %v", err)
	}
	if back.Hash != in.Hash {
		t.Errorf("the export's hash: got %s, want %s", back.Hash, in.Hash)
	}
}

// risk migrate copies each scope's library, and each match on a library
// map brings the map's files with it: the destination loads the match and
// lists the map without the source (TestLibraryMapFreshProcess shows a
// fresh process needs the stored files to load such a match).
func TestMigrateLibrary(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	file := writeStrip(t, dir, "Strait", 6)
	if code, _, errs := runRisk(t, "", "map", "import", file, "--db", src, "--scope", "web"); code != 0 {
		t.Fatalf("import: %s", errs)
	}
	// A match on a map that was removed from the library since: its files
	// are kept, and travel with the match.
	gone := writeStrip(t, t.TempDir(), "Gone", 5)
	b, err := mapfile.ReadPath(gone, mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := db.AddMap(ctx, storage.LibraryMap{Scope: "web", Name: "Gone", Hash: b.Hash, Title: "Gone", Territories: 5}, storage.MapFiles(b.Files), storetest.T0); err != nil {
		t.Fatal(err)
	}
	if err := engine.AddMap(b.Map); err != nil { // as the lobby does before a start
		t.Fatal(err)
	}
	setup := storetest.NewSetup(3, 5)
	setup.Options.Map = b.Map.Name
	m := startHostedSetup(t, db, "web:strait", setup)
	storetest.Play(t, db, m.ID, 20, rand.New(rand.NewPCG(5, 5)))
	if err := db.RemoveMap(ctx, "web", "Gone"); err != nil {
		t.Fatal(err)
	}
	want := exported(t, src, m.ID)
	db.Close()

	dst := filepath.Join(dir, "dst.db")
	code, out, errs := runRisk(t, "", "migrate", "--from", src, "--to", dst)
	if code != 0 || !strings.Contains(out, "1 library maps") {
		t.Fatalf("migrate: exit %d, %q %s", code, out, errs)
	}
	to, err := sqlite.Open(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	defer to.Close()
	libs, err := to.Libraries(ctx)
	if err != nil || len(libs) != 1 || libs[0].Name != "Strait" || libs[0].Scope != "web" {
		t.Errorf("libraries after migrate: %+v, %v; want Strait in web", libs, err)
	}
	for _, name := range []string{libs[0].Engine(), b.Map.Name} {
		if _, err := to.MapFiles(ctx, name); err != nil {
			t.Errorf("files of %s after migrate: %v", name, err)
		}
	}
	h := history(t, dst, "web:strait")
	if len(h) != 1 {
		t.Fatalf("%d matches in web:strait, want 1", len(h))
	}
	if got := exported(t, dst, h[0].ID); got != want {
		t.Errorf("exported after migrate:\n%.300s\nwant\n%.300s", got, want)
	}
}
