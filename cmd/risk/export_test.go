package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/storetest"
)

// runRisk runs risk with args and returns its exit code and output.
func runRisk(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = runEnv(context.Background(), env{args: args, stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb,
		getenv: func(string) string { return "" }})
	return code, out.String(), errb.String()
}

func TestExportImport(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	db, err := storage.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	old := storetest.Start(t, db, "console:main", 2, 1)
	if _, err := db.Save(ctx, old.ID, old.Version, storage.Change{Status: storage.Finished}, storetest.T0); err != nil {
		t.Fatal(err)
	}
	l := storetest.Start(t, db, "console:main", 3, 2)
	g := storetest.Play(t, db, l.ID, 40, rand.New(rand.NewPCG(2, 2)))
	db.Close()

	code, out, errs := runRisk(t, "", "export", "--db", src, "--channel", "console:main")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	var rec engine.Record // what 'risk render --match FILE' reads
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	rg, err := rec.Game(-1)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameGame(t, "exported", rg, g)
	file := filepath.Join(dir, "match.json")
	if err := os.WriteFile(file, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}

	dst := filepath.Join(dir, "dst.db")
	code, got, errs := runRisk(t, "", "import", "--db", dst, file)
	if want := "imported match 1 into console:main: active, 40 commands\n"; code != 0 || got != want {
		t.Fatalf("import: exit %d, %q %s; want %q", code, got, errs, want)
	}
	code, again, errs := runRisk(t, "", "export", "--db", dst, "--match", "1")
	if code != 0 || again != out {
		t.Fatalf("export after import: exit %d %s\n%s\nwant\n%s", code, errs, again, out)
	}
	// From standard input, flags after the file, into another channel.
	code, got, errs = runRisk(t, out, "import", "-", "--db", dst, "--channel", "discord:42")
	if want := "imported match 2 into discord:42: active, 40 commands\n"; code != 0 || got != want {
		t.Fatalf("import from stdin: exit %d, %q %s; want %q", code, got, errs, want)
	}
	// A finished match is found by its channel when no match is open.
	code, got, _ = runRisk(t, "", "export", "--db", src, "--match", "1")
	if code != 0 || !strings.Contains(got, `"status":"finished"`) {
		t.Fatalf("export of the finished match: %d %s", code, got)
	}

	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"export without db", "", []string{"export", "--channel", "x"}, 2, "--db is required"},
		{"export without channel", "", []string{"export", "--db", src}, 2, "give --channel or --match"},
		{"export both", "", []string{"export", "--db", src, "--channel", "x", "--match", "1"}, 2, "give --channel or --match"},
		{"export from no database", "", []string{"export", "--db", filepath.Join(dir, "typo.db"), "--match", "1"}, 1, "no database at"},
		{"export an empty channel", "", []string{"export", "--db", src, "--channel", "discord:0"}, 1, "channel discord:0 has no match"},
		{"export no such match", "", []string{"export", "--db", src, "--match", "99"}, 1, "no such match"},
		{"import into a busy channel", out, []string{"import", "--db", dst, "-"}, 1, "already has a match"},
		{"import without file", "", []string{"import", "--db", dst}, 2, "want one FILE"},
		{"import not json", "hello", []string{"import", "--db", dst, "-"}, 1, "-: "},
		{"import a broken log", strings.Replace(out, `"seat":0`, `"seat":9`, 1), []string{"import", "--db", dst, "--channel", "x:1", "-"}, 1, "does not replay"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runRisk(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.msg) {
				t.Fatalf("exit %d, %q; want exit %d and %q", code, errs, tt.code, tt.msg)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "typo.db")); err == nil {
		t.Fatal("export created a database")
	}
}

// A capitals match, on its generated map, exports and imports like a
// classic one: the map comes back from its name.
func TestExportImportCapitals(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	db, err := storage.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	l := storetest.StartSetup(t, db, "console:caps", storetest.NewCapitalsSetup(3, 5))
	g := storetest.Play(t, db, l.ID, 60, rand.New(rand.NewPCG(5, 5)))
	db.Close()
	if g.State.Turn < 3 {
		t.Fatalf("only %d turns played", g.State.Turn)
	}
	code, out, errs := runRisk(t, "", "export", "--db", src, "--channel", "console:caps")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, `"rules":"capitals"`) {
		t.Fatalf("the export does not say capitals: %.300s", out)
	}
	var rec engine.Record
	if err := json.Unmarshal([]byte(out), &rec); err != nil {
		t.Fatal(err)
	}
	rg, err := rec.Game(-1)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameGame(t, "exported", rg, g)
	dst := filepath.Join(dir, "dst.db")
	code, got, errs := runRisk(t, out, "import", "--db", dst, "-")
	if code != 0 || !strings.Contains(got, "imported match 1 into console:caps") {
		t.Fatalf("import: exit %d, %q %s", code, got, errs)
	}
	code, again, errs := runRisk(t, "", "export", "--db", dst, "--match", "1")
	if code != 0 || again != out {
		t.Fatalf("export after import: exit %d %s", code, errs)
	}
}
