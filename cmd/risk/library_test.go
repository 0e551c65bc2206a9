package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine/mapfile"
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
