package main

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

func TestStats(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	l := startHosted(t, db, "console:main", 3)
	g := storetest.Play(t, db, l.ID, 60, rand.New(rand.NewPCG(3, 3)))
	if _, err := db.Save(ctx, l.ID, l.Version+int64(g.Version), storage.Change{Status: storage.Finished}, storetest.T0); err != nil {
		t.Fatal(err)
	}
	// An open match counts for nothing.
	startHosted(t, db, "console:other", 4)
	db.Close()
	code, out, errs := runRisk(t, "", "stats", "--db", path, "--record")
	if code != 0 || out != "recorded the results of 1 finished match\n" {
		t.Fatalf("record: exit %d, %q %s", code, out, errs)
	}
	// Twice is once.
	code, out, errs = runRisk(t, "", "stats", "--db", path, "--record", "--server", "console:main")
	if code != 0 || !strings.HasPrefix(out, "recorded the results of 1 finished match\nLeaderboard of console:main, classic (multiplayer Elo from 1500)\n") ||
		strings.Count(out, "played 1,") != 3 || !strings.Contains(out, "bot:easy") {
		t.Fatalf("record again and show: exit %d, %q %s", code, out, errs)
	}
	code, out, errs = runRisk(t, "", "stats", "--db", path, "--server", "console:main", "--player", "bot:easy:1")
	if code != 0 || !strings.HasPrefix(out, "bot:easy, classic on console:main: played 1, won ") {
		t.Fatalf("player: exit %d, %q %s", code, out, errs)
	}
	code, out, _ = runRisk(t, "", "stats", "--db", path, "--server", "console:main", "--rules", "capitals")
	if code != 0 || !strings.Contains(out, "no finished match yet") {
		t.Errorf("capitals: exit %d, %q", code, out)
	}
	code, out, _ = runRisk(t, "", "stats", "--db", path, "--server", "console:main", "--player", "discord:nobody")
	if code != 0 || out != "discord:nobody has no finished match on console:main\n" {
		t.Errorf("nobody: exit %d, %q", code, out)
	}
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"stats", "--server", "x"}, 1, "no database at"},
		{[]string{"stats", "--db", path}, 2, "give --server (or --record)"},
		{[]string{"stats", "--db", path, "--server", "x", "--rules", "chess"}, 2, "chess"},
		{[]string{"stats", "--db", filepath.Join(t.TempDir(), "none.db"), "--server", "x"}, 1, "no database at"},
	} {
		code, _, errs := runRisk(t, "", tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.msg) {
			t.Errorf("%v: exit %d, %q; want %d and %q", tt.args, code, errs, tt.code, tt.msg)
		}
	}
}

// TestStatsCountImportsOnlyRated (issue 42, item 6): a won match's file,
// its first seat relabelled to someone else (discord:1234), imports and
// verifies (the dice do not depend on who sits where); it credits nobody
// in risk stats unless imported with --rated.
func TestStatsCountImportsOnlyRated(t *testing.T) {
	relabelled := edit(t, wonExport(t), func(x *storage.Export) {
		meta, err := hosted.DecodeMeta(x.Meta)
		if err != nil {
			t.Fatal(err)
		}
		x.Record.Setup.Seats[0].ID = "discord:1234"
		meta.Seats[0].ID, meta.Seats[0].Level = "discord:1234", ""
		x.Meta = meta.Encode()
	})
	path := filepath.Join(t.TempDir(), "risk.db")
	code, out, errs := runRisk(t, relabelled, "import", "--db", path, "-")
	if code != 0 || !strings.Contains(out, "stats: not counted, since the file names whom its result would credit (discord:1234 (Napoleon))") {
		t.Fatalf("import: exit %d, %q %s", code, out, errs)
	}
	player := []string{"stats", "--db", path, "--server", "console", "--player", "discord:1234"}
	code, out, errs = runRisk(t, "", append(player, "--record")...)
	if want := "recorded the results of 0 finished matches\nleft out 1 imported without --rated: they count for nobody\n" +
		"discord:1234 has no finished match on console\n"; code != 0 || out != want {
		t.Fatalf("stats of an unrated import: exit %d, %q %s; want %q", code, out, errs, want)
	}
	code, out, errs = runRisk(t, relabelled, "import", "--db", path, "--channel", "console:again", "--rated", "-")
	if code != 0 || !strings.Contains(out, "stats: counted (--rated): its result credits discord:1234 (Napoleon)") {
		t.Fatalf("import --rated: exit %d, %q %s", code, out, errs)
	}
	code, out, errs = runRisk(t, "", append(player, "--record")...)
	if code != 0 || !strings.Contains(out, "recorded the results of 1 finished match\nleft out 1 imported") || !strings.Contains(out, "Napoleon, classic on console: played 1, won ") {
		t.Fatalf("stats once a rated import is recorded: exit %d, %q %s", code, out, errs)
	}
}
