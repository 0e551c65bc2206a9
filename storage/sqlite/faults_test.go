package sqlite_test

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mattn/go-sqlite3"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
	"github.com/riskbot/riskbot/storage/storetest"
)

// dirState is what a directory holds: file names and contents' hashes.
func dirState(t *testing.T, dir string) string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %x\n", e.Name(), sha256.Sum256(data))
	}
	return b.String()
}

// sqliteCode returns the SQLite error code inside err, or 0.
func sqliteCode(err error) sqlite3.ErrNo {
	var e sqlite3.Error
	if errors.As(err, &e) {
		return e.Code
	}
	return 0
}

// newMatches makes a database at path with two active matches of n
// commands each, closed. It returns their games.
func newMatches(t *testing.T, path string, n int) []*engine.Game {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, path, sqlite.SnapshotEvery(10))
	if err != nil {
		t.Fatal(err)
	}
	var games []*engine.Game
	for i, ch := range []string{"test:1", "test:2"} {
		l := storetest.Start(t, db, ch, 3, uint64(i))
		games = append(games, storetest.Play(t, db, l.ID, n, rand.New(rand.NewPCG(uint64(i), 0))))
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	return games
}

func TestNotADatabase(t *testing.T) {
	ctx := context.Background()
	other := filepath.Join(t.TempDir(), "other.db")
	odb, err := sql.Open("sqlite3", other)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := odb.Exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('mine')"); err != nil {
		t.Fatal(err)
	}
	odb.Close()
	otherData, err := os.ReadFile(other)
	if err != nil {
		t.Fatal(err)
	}
	random := randomBytes(64<<10, 1)
	for _, tt := range []struct {
		name, want string
		data       []byte
	}{
		{"text", "not a SQLite database", []byte("This is a README, not a database.\n" + strings.Repeat("Lorem ipsum. ", 400))},
		{"random bytes", "not a SQLite database", random},
		{"another program's database", "another program's SQLite database", otherData},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "risk.db")
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			before := dirState(t, dir)
			db, err := sqlite.Open(ctx, path)
			if err == nil {
				db.Close()
				t.Fatal("opened")
			}
			if !strings.HasPrefix(err.Error(), "storage: open ") || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("got %q, want a message saying %q", err, tt.want)
			}
			if after := dirState(t, dir); after != before {
				t.Fatalf("the directory changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

func TestNewerSchema(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "risk.db")
	newMatches(t, path, 3)
	if err := rawExec(ctx, path, "INSERT INTO schema_version (version) SELECT max(version) + 1 FROM schema_version"); err != nil {
		t.Fatal(err)
	}
	before := dirState(t, dir)
	db, err := sqlite.Open(ctx, path)
	if err == nil {
		db.Close()
		t.Fatal("opened")
	}
	if !strings.Contains(err.Error(), "newer version") || !strings.Contains(err.Error(), "schema version") {
		t.Fatalf("got %q, want it to say a newer version wrote a later schema version", err)
	}
	if after := dirState(t, dir); after != before {
		t.Fatalf("the directory changed:\n%s\nwas\n%s", after, before)
	}
}

// TestOneOpenMatchPerChannel checks that the schema itself, not only the
// code, refuses a second open match in a channel.
func TestOneOpenMatchPerChannel(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	newMatches(t, path, 1)
	err := rawExec(ctx, path, `INSERT INTO matches (channel, status, version, created_at, updated_at) VALUES ('test:1', 1, 1, 0, 0)`)
	if sqliteCode(err) != sqlite3.ErrConstraint {
		t.Fatalf("a second open match in a channel: got %v, want a constraint error", err)
	}
	err = rawExec(ctx, path, `UPDATE log SET entry = '{}' WHERE seq = 1`)
	if sqliteCode(err) != sqlite3.ErrConstraint {
		t.Fatalf("an update of the log: got %v, want it refused", err)
	}
	err = rawExec(ctx, path, `INSERT INTO log (match_id, seq, version, entry, created_at) VALUES (999, 1, 1, '{}', 0)`)
	if sqliteCode(err) != sqlite3.ErrConstraint {
		t.Fatalf("a log entry of no match: got %v, want a foreign key error", err)
	}
}

// TestCorruptFile damages a database behind the store's back: the store
// reports it clearly and writes nothing.
func TestCorruptFile(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		name   string
		damage func(t *testing.T, path string)
	}{
		{"header", func(t *testing.T, path string) { overwrite(t, path, 0, 100) }},
		{"truncated", func(t *testing.T, path string) {
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Truncate(path, fi.Size()/2+1000); err != nil {
				t.Fatal(err)
			}
		}},
		{"log pages", func(t *testing.T, path string) {
			root := rootPage(t, path, "log")
			overwrite(t, path, int64(root-1)*4096, 4096)
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "risk.db")
			newMatches(t, path, 200)
			tt.damage(t, path)
			before := dirState(t, dir)
			db, err := sqlite.Open(ctx, path)
			if err != nil {
				if !strings.HasPrefix(err.Error(), "storage: open") || !strings.Contains(err.Error(), "damaged") && !strings.Contains(err.Error(), "not a SQLite database") {
					t.Fatalf("open: got %q, want a clear message", err)
				}
				t.Logf("open: %v", err)
			} else {
				_, err = db.Active(ctx, "test:1")
				if sqliteCode(err) != sqlite3.ErrCorrupt || !strings.Contains(err.Error(), "damaged") {
					t.Fatalf("active: got %v, want a clear error about a damaged file", err)
				}
				t.Logf("active: %v", err)
				if _, err := db.Save(ctx, 1, 1, storage.Change{Meta: json.RawMessage(`1`)}, storetest.T0); err == nil {
					t.Fatal("saved into a damaged file")
				}
				db.Close()
			}
			if after := dirState(t, dir); after != before {
				t.Fatalf("the directory changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
}

// overwrite writes n random bytes at off.
func overwrite(t *testing.T, path string, off, n int64) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteAt(randomBytes(n, byte(off)), off); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// randomBytes returns n bytes drawn from seed.
func randomBytes(n int64, seed byte) []byte {
	b := make([]byte, n)
	rand.NewChaCha8([32]byte{seed}).Read(b)
	return b
}

// rootPage returns the first page of a table's b-tree.
func rootPage(t *testing.T, path, table string) int {
	t.Helper()
	db, err := sql.Open("sqlite3", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	if err := db.QueryRow("SELECT rootpage FROM sqlite_schema WHERE name = ?", table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestBadSnapshot damages a snapshot: loading passes over it and replays
// the whole log.
func TestBadSnapshot(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	games := newMatches(t, path, 35)
	for _, damage := range []string{
		`UPDATE snapshots SET game = '{"format":1}'`,
		`UPDATE snapshots SET game = 'garbage'`,
		`UPDATE snapshots SET game = (SELECT game FROM snapshots WHERE match_id = 2) WHERE match_id = 1`,
		`UPDATE snapshots SET seq = seq - 1`,
	} {
		if err := rawExec(ctx, path, damage); err != nil {
			t.Fatal(err)
		}
		db, err := sqlite.Open(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		for i, ch := range []string{"test:1", "test:2"} {
			l, err := db.Active(ctx, ch)
			if err != nil {
				t.Fatalf("%s: %v", damage, err)
			}
			storetest.SameGame(t, damage, l.Game, games[i])
		}
		db.Close()
	}
}

// TestCorruptLogBehindSnapshot checks that a good snapshot does not hide a
// damaged log from a full replay, while the match stays loadable.
func TestCorruptLogBehindSnapshot(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	games := newMatches(t, path, 25)
	if err := rawExec(ctx, path,
		`DROP TRIGGER log_append_only_update`,
		`UPDATE log SET entry = json_set(entry, '$.seat', 99) WHERE match_id = 1 AND seq = 3`,
	); err != nil {
		t.Fatal(err)
	}
	db, err := sqlite.Open(ctx, path, sqlite.SnapshotEvery(10))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// Loading starts from the snapshot at 20: the damage is before it.
	l, err := db.Active(ctx, "test:1")
	if err != nil {
		t.Fatal(err)
	}
	storetest.SameGame(t, "from the snapshot", l.Game, games[0])
	// A full replay, as an export and import do, finds it.
	x, err := db.Export(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	x.Channel = "test:copy"
	if _, err := db.Import(ctx, x, storetest.T0); err == nil || !strings.Contains(err.Error(), "does not replay") {
		t.Fatalf("import: got %v, want a replay failure", err)
	}
	if err := db.Check(ctx); err != nil {
		t.Fatalf("the file itself is sound: %v", err)
	}
}
