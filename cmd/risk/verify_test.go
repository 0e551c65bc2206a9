package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// A live match's export withholds its seed: it cannot be verified or
// imported. Once the match is over the export reveals the seed, and the
// match verifies against the commitment of its start, unless edited.
func TestExportWithholdsSeedThenVerify(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	db, err := sqlite.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	l := startHosted(t, db, "console:main", 4)
	commitment := l.Game.Commitment()
	g := storetest.Play(t, db, l.ID, 60, rand.New(rand.NewPCG(4, 4)))

	code, live, errs := runRisk(t, "", "export", "--db", src, "--match", "1")
	if code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	if strings.Contains(live, `"seed"`) || !strings.Contains(live, `"commitment":"`+commitment+`"`) {
		t.Fatalf("the export of a live match: %.500s", live)
	}
	code, _, errs = runRisk(t, live, "verify", "-")
	if code != 1 || !strings.Contains(errs, "leaves out the seed of a match still going on") {
		t.Errorf("verify of a live match: exit %d, %s", code, errs)
	}
	code, _, errs = runRisk(t, live, "import", "--db", filepath.Join(dir, "dst.db"), "--channel", "x:1", "-")
	if code != 1 || !strings.Contains(errs, "importing needs the host's full export (risk export --full)") {
		t.Errorf("import of a sealed export: exit %d, %s", code, errs)
	}
	file := filepath.Join(dir, "live.json")
	writeFile(t, file, live)
	png := filepath.Join(dir, "live.png")
	if code, _, errs = runRisk(t, "", "render", "--match", file, "--out", png); code != 0 {
		t.Errorf("render of a sealed export: exit %d, %s", code, errs)
	}

	if _, err := db.Save(ctx, l.ID, l.Version+int64(g.Version), storage.Change{Status: storage.Finished}, storetest.T0); err != nil {
		t.Fatal(err)
	}
	db.Close()
	code, over, errs := runRisk(t, "", "export", "--db", src, "--match", "1")
	if code != 0 || !strings.Contains(over, `"seed":4,`) {
		t.Fatalf("export of the finished match: exit %d %s %.300s", code, errs, over)
	}
	var rec engine.Record
	if err := json.Unmarshal([]byte(over), &rec); err != nil {
		t.Fatal(err)
	}
	die := -1
	for i, e := range rec.Log {
		if _, ok := e.Cmd.(engine.Blitz); ok && len(e.Rand) > 0 {
			die = i
		}
	}
	if die < 0 {
		t.Fatal("no blitz in the log")
	}
	rec.Log[die].Rand[0] = (rec.Log[die].Rand[0] + 1) % 6
	tampered, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		out   string
	}{
		{"the revealed seed", over, []string{"verify", "-"}, 0, "verified: every random outcome follows from the committed seed"},
		{"the published commitment", over, []string{"verify", "-", "--commitment", commitment}, 0, "hashes to the published commitment " + commitment},
		{"another commitment", over, []string{"verify", "--commitment", engine.Commitment(5), "-"}, 1, "not to the commitment " + engine.Commitment(5)},
		{"a tampered die", string(tampered), []string{"verify", "-"}, 1, "do not follow from the seed"},
		{"a swapped seed", strings.Replace(over, `"seed":4,`, `"seed":5,`, 1), []string{"verify", "-"}, 1, "NOT verified"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errs := runRisk(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(out, tt.out) {
				t.Errorf("exit %d, %q %s; want exit %d and %q", code, out, errs, tt.code, tt.out)
			}
		})
	}
	for _, tt := range []struct {
		name  string
		stdin string
		args  []string
		code  int
		msg   string
	}{
		{"no file", "", []string{"verify"}, 2, "want one FILE"},
		{"not json", "hello", []string{"verify", "-"}, 1, "-: "},
		{"not a commitment", over, []string{"verify", "--commitment", "abc", "-"}, 1, "is not a commitment"},
		{"a lobby", `{"channel":"x","status":"lobby"}`, []string{"verify", "-"}, 1, "never started"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, errs := runRisk(t, tt.stdin, tt.args...)
			if code != tt.code || !strings.Contains(errs, tt.msg) {
				t.Errorf("exit %d, %q; want exit %d and %q", code, errs, tt.code, tt.msg)
			}
		})
	}
}
