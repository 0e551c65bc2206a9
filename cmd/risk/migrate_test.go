package main

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// risk migrate copies every match (log, meta, status, turn clock,
// undelivered news) and every setting into another database, SQLite or
// PostgreSQL, where the bot, export and import work as before; it refuses
// a destination that holds matches.
func TestMigrate(t *testing.T) {
	ctx := context.Background()
	src := filepath.Join(t.TempDir(), "src.db")
	db, err := sqlite.Open(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	old := startHosted(t, db, "console:main", 1)
	storetest.Play(t, db, old.ID, 30, rand.New(rand.NewPCG(1, 1)))
	x, err := db.Load(ctx, old.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, old.ID, x.Version, storage.Change{Status: storage.Abandoned}, storetest.T0); err != nil {
		t.Fatal(err)
	}
	active := startHosted(t, db, "console:main", 2)
	storetest.Play(t, db, active.ID, 50, rand.New(rand.NewPCG(2, 2)))
	l, err := db.Load(ctx, active.ID)
	if err != nil {
		t.Fatal(err)
	}
	clock := storage.Timers{Remind: storetest.T0.Add(time.Hour), Deadline: storetest.T0.Add(2 * time.Hour)}
	if _, err := db.Save(ctx, active.ID, l.Version, storage.Change{Timers: &clock, Posts: []json.RawMessage{json.RawMessage(`{"note":"late news"}`)}}, storetest.T0); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Create(ctx, "discord:42", json.RawMessage(`{"host":"discord:1"}`), storetest.T0); err != nil {
		t.Fatal(err)
	}
	if err := db.SetSetting(ctx, "server", "discord:7", json.RawMessage(`{"turn_hours":12}`), storetest.T0); err != nil {
		t.Fatal(err)
	}
	db.Close()
	want := map[string]string{} // channel and position in its history -> export
	for _, ch := range []string{"console:main", "discord:42"} {
		for i, m := range history(t, src, ch) {
			want[ch+string(rune('0'+i))] = exported(t, src, m.ID)
		}
	}

	for _, tt := range []struct {
		name string
		dst  func(t *testing.T) string
	}{
		{"sqlite", func(t *testing.T) string { return filepath.Join(t.TempDir(), "dst.db") }},
		{"postgres", func(t *testing.T) string { return pgtest.URL(t) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dst := tt.dst(t)
			code, out, errs := runRisk(t, "", "migrate", "--from", src, "--to", dst)
			if code != 0 || !strings.Contains(out, "copied 3 matches (2 open, 1 closed), 1 queued posts, 1 settings and 0 library maps") ||
				!strings.Contains(out, "dice, checked against each match's seed: 2 verified, 0 copied unverified (marked so), 1 never started") {
				t.Fatalf("migrate: exit %d, %q %s", code, out, errs)
			}
			got := 0
			for _, ch := range []string{"console:main", "discord:42"} {
				for i, m := range history(t, dst, ch) {
					got++
					if x := exported(t, dst, m.ID); x != want[ch+string(rune('0'+i))] {
						t.Errorf("%s, match %d of its history: exported\n%s\nwant\n%s", ch, i+1, x, want[ch+string(rune('0'+i))])
					}
				}
			}
			if got != 3 {
				t.Fatalf("%d matches copied, want 3", got)
			}
			s, err := openExisting(ctx, dst)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			a, err := s.Active(ctx, "console:main")
			if err != nil {
				t.Fatal(err)
			}
			if a.Timers != clock {
				t.Errorf("turn clock %+v, want %+v", a.Timers, clock)
			}
			if ps, err := s.Outbox(ctx, "", time.Now().Add(time.Hour), 10); err != nil || len(ps) != 1 || ps[0].Match != a.ID || string(ps[0].Body) != `{"note":"late news"}` {
				t.Errorf("queued posts %+v, %v", ps, err)
			}
			if v, err := s.Setting(ctx, "server", "discord:7"); err != nil || string(v) != `{"turn_hours":12}` {
				t.Errorf("setting %s, %v", v, err)
			}
			// Into a database that holds matches: refused.
			code, _, errs = runRisk(t, "", "migrate", "--from", src, "--to", dst)
			if code != 1 || !strings.Contains(errs, "must hold no match") {
				t.Errorf("migrate again: exit %d, %s", code, errs)
			}
			// The bot's import checks hold there too.
			file := filepath.Join(t.TempDir(), "match.json")
			writeFile(t, file, want["console:main0"])
			if code, out, errs := runRisk(t, "", "import", "--db", dst, "--channel", "console:copy", file); code != 0 || !strings.Contains(out, "into console:copy: abandoned, 30 commands") {
				t.Errorf("import: exit %d, %q %s", code, out, errs)
			}
		})
	}
	for _, tt := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"migrate", "--from", src}, 2, "give --from and --to"},
		{[]string{"migrate", "--from", src, "--to", src}, 2, "the same database"},
		{[]string{"migrate", "--from", filepath.Join(t.TempDir(), "typo.db"), "--to", filepath.Join(t.TempDir(), "x.db")}, 1, "no database at"},
		{[]string{"migrate", "--from", src, "--to", "postgres://u:hunter2@127.0.0.1:1/x?connect_timeout=1"}, 1, "postgres://u:xxxxx@127.0.0.1:1/x"},
	} {
		code, _, errs := runRisk(t, "", tt.args...)
		if code != tt.code || !strings.Contains(errs, tt.msg) || strings.Contains(errs, "hunter2") {
			t.Errorf("%q: exit %d, %q; want %d and %q", tt.args, code, errs, tt.code, tt.msg)
		}
	}
}

// history lists a channel's matches in db, oldest first.
func history(t *testing.T, db, channel string) []storage.Match {
	t.Helper()
	s, err := openExisting(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	h, err := s.History(context.Background(), channel)
	if err != nil {
		t.Fatal(err)
	}
	for i, j := 0, len(h)-1; i < j; i, j = i+1, j-1 {
		h[i], h[j] = h[j], h[i]
	}
	return h
}

// exported is what risk export --full prints for match id of db.
func exported(t *testing.T, db string, id int64) string {
	t.Helper()
	code, out, errs := runRisk(t, "", "export", "--full", "--db", db, "--match", strconvI(id))
	if code != 0 {
		t.Fatalf("export %d from %s: exit %d: %s", id, db, code, errs)
	}
	return out
}

func strconvI(n int64) string { return strconv.FormatInt(n, 10) }

func writeFile(t *testing.T, name, data string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
