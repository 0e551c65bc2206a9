package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// runRisk runs risk with args and returns its exit code and output. Its
// data directory is an empty temporary one: a command without --db never
// reaches the real one.
func runRisk(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	data := t.TempDir()
	code = runEnv(context.Background(), env{args: args, stdin: strings.NewReader(stdin), stdout: &out, stderr: &errb,
		getenv: func(k string) string {
			if k == "XDG_DATA_HOME" {
				return data
			}
			return ""
		}})
	return code, out.String(), errb.String()
}

func TestExportImport(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	db, err := sqlite.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	old := storetest.Start(t, db, "console:main", 2, 1)
	if _, err := db.Save(ctx, old.ID, old.Version, storage.Change{Status: storage.Finished}, storetest.T0); err != nil {
		t.Fatal(err)
	}
	l := startHosted(t, db, "console:main", 2)
	g := storetest.Play(t, db, l.ID, 40, rand.New(rand.NewPCG(2, 2)))
	db.Close()

	code, out, errs := runRisk(t, "", "export", "--full", "--db", src, "--channel", "console:main")
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
	sum := sha256.Sum256([]byte(out))
	if want := "imported match 1 into console:main: active, 40 commands\n" +
		"dice: verified: the deal and 88 random values in 40 commands follow from seed 2, which hashes to the file's commitment " + engine.Commitment(2) + "\n" +
		"origin: " + file + " (sha256 " + hex.EncodeToString(sum[:]) + "), imported "; code != 0 || !strings.HasPrefix(got, want) ||
		!strings.HasSuffix(got, "stats: not counted, since the file names whom its result would credit (p0 (Player 1), p1 (Player 2)): --rated counts a file you trust\n") {
		t.Fatalf("import: exit %d, %q %s; want %q, then the stats not counted", code, got, errs, want)
	}
	// The export after the import is the export, marked imported.
	code, again, errs := runRisk(t, "", "export", "--full", "--db", dst, "--match", "1")
	if code != 0 || unmarked(t, again) != out {
		t.Fatalf("export after import: exit %d %s\n%s\nwant\n%s", code, errs, again, out)
	}
	// From standard input, flags after the file, into another channel.
	code, got, errs = runRisk(t, out, "import", "-", "--db", dst, "--channel", "discord:42")
	if want := "imported match 2 into discord:42: active, 40 commands\n"; code != 0 || !strings.HasPrefix(got, want) {
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
		{"export without db", "", []string{"export", "--channel", "x"}, 1, "no database at"},
		{"export without channel", "", []string{"export", "--db", src}, 2, "give --channel or --match"},
		{"export both", "", []string{"export", "--db", src, "--channel", "x", "--match", "1"}, 2, "give --channel or --match"},
		{"export from no database", "", []string{"export", "--db", filepath.Join(dir, "typo.db"), "--match", "1"}, 1, "no database at"},
		{"export an empty channel", "", []string{"export", "--db", src, "--channel", "discord:0"}, 1, "channel discord:0 has no match"},
		{"export no such match", "", []string{"export", "--db", src, "--match", "99"}, 1, "no such match"},
		{"import into a busy channel", out, []string{"import", "--db", dst, "-"}, 1, "already has a match"},
		{"import without file", "", []string{"import", "--db", dst}, 2, "want one FILE"},
		{"import not json", "hello", []string{"import", "--db", dst, "-"}, 1, "-: "},
		{"import a broken log", strings.Replace(out, `"seat":0`, `"seat":9`, 1), []string{"import", "--db", dst, "--channel", "x:1", "-"}, 1, "does not replay"},
		// Issue 12, fault 5: what the bot could not host is refused,
		// saying why, and nothing is stored.
		{"meta not an object", withMeta(t, out, `"surprise"`), []string{"import", "--db", dst, "--channel", "x:2", "-"}, 1, "meta: must be an object, not a string"},
		{"meta of the wrong shape", withMeta(t, out, `{"host":"p0","seats":7}`), []string{"import", "--db", dst, "--channel", "x:3", "-"}, 1, "meta: seats: must be an array, not number"},
		{"no meta", withMeta(t, out, ``), []string{"import", "--db", dst, "--channel", "x:4", "-"}, 1, "meta: missing"},
		{"finished, not won", strings.Replace(out, `"status":"active"`, `"status":"finished"`, 1), []string{"import", "--db", dst, "--channel", "x:5", "-"}, 1, "status: finished, but nobody has won"},
		{"negative turn hours", strings.Replace(out, `"turn_hours":24`, `"turn_hours":-5`, 1), []string{"import", "--db", dst, "--channel", "x:6", "-"}, 1, "meta.settings.turn_hours: -5, want 1 to 720"},
		{"an outside program", strings.Replace(out, `{"id":"bot:1","name":"Player 3","level":"easy"}`, `{"id":"bot:1","name":"Player 3","level":"exec:rm -rf /"}`, 1), []string{"import", "--db", dst, "--channel", "x:7", "-"}, 1, `level: "exec:rm -rf /" is not one of random, easy, normal, hard`},
		{"a name that pings", strings.Replace(out, `"name":"Player 1"}`, `"name":"@everyone"}`, 1), []string{"import", "--db", dst, "--channel", "x:8", "-"}, 1, `name: "@everyone" is not fit to show`},
		{"a turn that pings", strings.Replace(out, `"bots":`, `"turn":["{{mention:discord:1}} lost"],"bots":`, 1), []string{"import", "--db", dst, "--channel", "x:9", "-"}, 1, "carries {{"},
		{"seats not the game's", strings.Replace(out, `{"id":"bot:1","name":"Player 3","level":"easy"}`, `{"id":"bot:2","name":"Player 3","level":"easy"}`, 1), []string{"import", "--db", dst, "--channel", "x:10", "-"}, 1, "the game's seat bot:1 (\"Player 3\") is missing"},
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
	check, err := sqlite.Open(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	defer check.Close()
	for i := 2; i <= 10; i++ {
		if ms, err := check.History(ctx, fmt.Sprintf("x:%d", i)); err != nil || len(ms) > 0 {
			t.Errorf("a refused import stored %d matches in x:%d (%v)", len(ms), i, err)
		}
	}
	// The match imported open has a turn clock.
	l2, err := check.Load(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if l2.Timers.Deadline.IsZero() {
		t.Error("the imported match has no deadline: it would never move on")
	}
}

// startHosted starts a match of three (the third a computer player) with
// the bot's data of it: the host, the default settings and the seats, as
// the bot would have stored them.
func startHosted(t *testing.T, db *sqlite.DB, channel string, seed uint64) *storage.Loaded {
	t.Helper()
	return startHostedSetup(t, db, channel, storetest.NewSetup(3, seed))
}

// startHostedSetup is startHosted with a three-seat setup of the caller's.
func startHostedSetup(t *testing.T, db *sqlite.DB, channel string, setup engine.Setup) *storage.Loaded {
	t.Helper()
	ctx := context.Background()
	setup.Seats[2].ID = "bot:1"
	opts, err := json.Marshal(setup.Options)
	if err != nil {
		t.Fatal(err)
	}
	var seats []string
	for i, s := range setup.Seats {
		level := ""
		if i == 2 {
			level = `,"level":"easy"`
		}
		seats = append(seats, fmt.Sprintf(`{"id":%q,"name":%q%s}`, s.ID, s.Name, level))
	}
	meta := fmt.Sprintf(`{"host":%q,"settings":{"options":%s,"turn_hours":24,"on_timeout":"bot"},"seats":[%s],"bots":1}`, setup.Seats[0].ID, opts, strings.Join(seats, ","))
	m, err := db.Create(ctx, channel, json.RawMessage(meta), storetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, m.ID, m.Version, storage.Change{Start: &setup}, storetest.T0); err != nil {
		t.Fatal(err)
	}
	l, err := db.Load(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// unmarked is an export of an imported match without the mark of its
// import: the export it was imported from, if it had none.
func unmarked(t *testing.T, export string) string {
	t.Helper()
	re := regexp.MustCompile(`,"imported":"[^"]*"`)
	if !re.MatchString(export) {
		t.Errorf("the export of an imported match is not marked imported: %.300s", export)
	}
	return re.ReplaceAllString(export, "")
}

// withMeta replaces the meta of an exported match (drops it if meta is "").
func withMeta(t *testing.T, export, meta string) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(export), &m); err != nil {
		t.Fatal(err)
	}
	if meta == "" {
		delete(m, "meta")
	} else {
		m["meta"] = json.RawMessage(meta)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A capitals match, on its generated map, exports and imports like a
// classic one: the map comes back from its name.
func TestExportImportCapitals(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(dir, "src.db")
	db, err := sqlite.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	l := startHostedSetup(t, db, "console:caps", storetest.NewCapitalsSetup(3, 5))
	g := storetest.Play(t, db, l.ID, 60, rand.New(rand.NewPCG(5, 5)))
	db.Close()
	if g.State.Turn < 3 {
		t.Fatalf("only %d turns played", g.State.Turn)
	}
	code, out, errs := runRisk(t, "", "export", "--full", "--db", src, "--channel", "console:caps")
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
	// The storage keeps it whole...
	dst := filepath.Join(dir, "dst.db")
	db2, err := sqlite.Open(ctx, dst)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	var x storage.Export
	if err := json.Unmarshal([]byte(out), &x); err != nil {
		t.Fatal(err)
	}
	m, err := db2.Import(ctx, &x, storetest.T0)
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameGame(t, "imported", storetest.Replayed(t, db2, m.ID), g)
	// ...and so does the bot's import, which checks it can host it.
	botDB := filepath.Join(dir, "bot.db")
	code, got, errs := runRisk(t, out, "import", "--db", botDB, "-")
	if code != 0 || !strings.Contains(got, "imported match 1 into console:caps") {
		t.Fatalf("risk import of a capitals match: exit %d, %q %s", code, got, errs)
	}
	code, again, errs := runRisk(t, "", "export", "--full", "--db", botDB, "--match", "1")
	if code != 0 || unmarked(t, again) != out {
		t.Fatalf("export after import: exit %d %s", code, errs)
	}
	// A capitals match with options out of range is refused.
	bad := strings.Replace(out, `"capital_troops":10`, `"capital_troops":99`, 1)
	code, _, errs = runRisk(t, bad, "import", "--db", filepath.Join(dir, "bad.db"), "-")
	if code != 1 || !strings.Contains(errs, "capital") {
		t.Fatalf("import of a bad capitals match: exit %d, %s", code, errs)
	}
}

// TestExportOfALiveMatchIsPublic: without --full, risk export of a match
// still played prints what anyone may see of it, and says so on standard
// error: with fog of war no log at all (issue 42, item 7: it printed the
// whole log, only the seed withheld), else the log with every card drawn
// withheld. --full prints everything.
func TestExportOfALiveMatchIsPublic(t *testing.T) {
	for _, fog := range []bool{true, false} {
		t.Run(fmt.Sprintf("fog %v", fog), func(t *testing.T) {
			ctx := context.Background()
			src := filepath.Join(t.TempDir(), "src.db")
			db, err := sqlite.Open(ctx, src)
			if err != nil {
				t.Fatal(err)
			}
			setup := storetest.NewSetup(3, 5)
			setup.Options.Fog = fog
			l := startHostedSetup(t, db, "console:live", setup)
			g := storetest.Play(t, db, l.ID, 150, rand.New(rand.NewPCG(5, 5)))
			db.Close()
			if g.State.Phase == state.PhaseOver || g.State.Phase == state.PhaseSetup {
				t.Fatalf("the match is in its %s phase, want it under way", g.State.Phase)
			}
			code, out, errs := runRisk(t, "", "export", "--db", src, "--match", "1")
			if code != 0 {
				t.Fatalf("export: exit %d, stderr %q", code, errs)
			}
			var x storage.Export
			if err := json.Unmarshal([]byte(out), &x); err != nil {
				t.Fatal(err)
			}
			drawn := 0
			if fog && len(x.Record.Log) != 0 {
				t.Errorf("the export of a live match with fog of war has %d commands of its %d, want none", len(x.Record.Log), g.Version)
			}
			if !fog {
				if len(x.Record.Log) != g.Version {
					t.Errorf("the export has %d commands, want %d", len(x.Record.Log), g.Version)
				}
				for i, e := range x.Record.Log {
					if _, ok := e.Cmd.(engine.EndTurn); ok && len(e.Rand) > 0 {
						drawn++
						if e.Rand[0] != engine.Withheld {
							t.Errorf("command %d draws a card, the export shows its draw %v", i+1, e.Rand)
						}
					}
				}
				if drawn == 0 {
					t.Error("no card was drawn: nothing was tried")
				}
				if rg, err := x.Record.Game(-1); err != nil || rg.Version != g.Version {
					t.Errorf("the public export does not replay: %v", err)
				}
			}
			if !x.Record.Told || x.Record.Audience != engine.Public || x.Record.Setup.Seed != 0 {
				t.Errorf("the export is told %v to %d, seed %d: want the public's", x.Record.Told, x.Record.Audience, x.Record.Setup.Seed)
			}
			if !strings.Contains(errs, "match 1 is still played: printing what anyone may see of it") || !strings.Contains(errs, "--full prints everything") {
				t.Errorf("export: stderr %q, want it to say what it prints", errs)
			}
			code, out, errs = runRisk(t, "", "export", "--full", "--db", src, "--match", "1")
			if code != 0 || errs != "" || !strings.Contains(out, `"seed":5,`) {
				t.Fatalf("export --full: exit %d, %s, %.200s", code, errs, out)
			}
		})
	}
}
