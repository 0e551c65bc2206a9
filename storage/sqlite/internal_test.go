package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/mattn/go-sqlite3"
	"github.com/riskbot/riskbot/storage"
)

func TestMigrationsAreNumbered(t *testing.T) {
	ms, err := storage.ReadMigrations(embedded)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].Version != 1 {
		t.Fatalf("migrations: %+v", ms)
	}
}

// TestMigrationTransactions checks that each migration commits alone: a
// failing one leaves the earlier ones applied and nothing of itself.
func TestMigrationTransactions(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "risk.db")
	first, err := embeddedCopy()
	if err != nil {
		t.Fatal(err)
	}
	n := len(first)
	brokenName := fmt.Sprintf("%04d_broken.sql", n+1)
	broken := fstest.MapFS{"migrations/" + brokenName: &fstest.MapFile{Data: []byte(
		"CREATE TABLE half_done (x INTEGER);\nINSERT INTO no_such_table VALUES (1);")}}
	for k, v := range first {
		broken[k] = v
	}
	cfg := config{snapshotEvery: 10, busyTimeout: time.Second, migrations: broken}
	_, err = open(ctx, path, cfg)
	if err == nil || !strings.Contains(err.Error(), brokenName) {
		t.Fatalf("open with a broken migration: got %v, want an error naming it", err)
	}
	db, err := Open(ctx, path)
	if err != nil {
		t.Fatalf("open after the failed migration: %v", err)
	}
	defer db.Close()
	var v, half int
	if err := db.read.QueryRowContext(ctx, "SELECT max(version) FROM schema_version").Scan(&v); err != nil {
		t.Fatal(err)
	}
	if err := db.read.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_schema WHERE name = 'half_done'").Scan(&half); err != nil {
		t.Fatal(err)
	}
	if v != n || half != 0 {
		t.Fatalf("schema version %d, half_done tables %d; want %d and 0", v, half, n)
	}
}

// embeddedCopy copies the embedded migrations into a MapFS.
func embeddedCopy() (fstest.MapFS, error) {
	ms, err := storage.ReadMigrations(embedded)
	if err != nil {
		return nil, err
	}
	out := fstest.MapFS{}
	for _, m := range ms {
		out["migrations/"+m.Name] = &fstest.MapFile{Data: []byte(m.SQL)}
	}
	return out, nil
}

func TestPragmas(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "risk.db"), BusyTimeout(1500*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, pool := range []struct {
		name string
		db   *sql.DB
	}{{"writer", db.write}, {"reader", db.read}} {
		for _, p := range []struct{ pragma, want string }{
			{"journal_mode", "wal"},
			{"foreign_keys", "1"},
			{"synchronous", "2"}, // FULL
			{"busy_timeout", "1500"},
			{"application_id", strconv.Itoa(applicationID)},
		} {
			var got string
			if err := pool.db.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(&got); err != nil {
				t.Fatal(err)
			}
			if got != p.want {
				t.Errorf("%s: PRAGMA %s = %s, want %s", pool.name, p.pragma, got, p.want)
			}
		}
	}
	// Readers cannot write, even by mistake.
	_, err = db.read.ExecContext(ctx, "INSERT INTO matches (channel, status, version, created_at, updated_at) VALUES ('x', 1, 1, 0, 0)")
	if err == nil {
		t.Fatal("the read pool wrote")
	}
}

// TestQueryPlans checks that the lookups the bot makes at run time use
// indexes: nothing scans all matches, and nothing sorts more than it
// returns (a list sorts what it shows at most: sorted says so).
func TestQueryPlans(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	openAll, openAllArgs := openMatchesSQL("")
	openWeb, openWebArgs := openMatchesSQL("web:")
	chansAll, chansAllArgs := storage.OpenChannelsSQL(openFrom, "")
	chansWeb, chansWebArgs := storage.OpenChannelsSQL(openFrom, "web:")
	closedAll, closedAllArgs := closedChannelsSQL("")
	closedWeb, closedWebArgs := closedChannelsSQL("web:")
	for _, q := range []struct {
		name, query string
		args        []any
		sorted      bool // sorts the rows it returns
	}{
		{"active", `SELECT ` + storage.MatchColumns + ` FROM matches WHERE channel = ? AND status IN (1, 2)`, []any{"c"}, false},
		{"history", `SELECT ` + storage.MatchColumns + ` FROM matches WHERE channel = ? ORDER BY id DESC`, []any{"c"}, false},
		{"finished", `SELECT ` + storage.MatchColumns + ` FROM matches WHERE status IN (3, 4) ORDER BY closed_at DESC, id DESC LIMIT ?`, []any{10}, false},
		{"remind", `SELECT id FROM matches WHERE status = 2 AND remind_at IS NOT NULL AND remind_at <= ?`, []any{0}, false},
		{"deadline", `SELECT id FROM matches WHERE status = 2 AND deadline_at IS NOT NULL AND deadline_at <= ?`, []any{0}, false},
		{"snapshot", `SELECT seq, game FROM snapshots WHERE match_id = ? AND seq <= ? ORDER BY seq DESC LIMIT 1`, []any{1, 1}, false},
		{"log", `SELECT seq, entry FROM log WHERE match_id = ? AND seq > ? AND seq <= ? ORDER BY seq`, []any{1, 0, 1}, false},
		{"open matches", openWeb, openWebArgs, true},
		{"all open matches", openAll, openAllArgs, true},
		{"open channels", chansWeb, chansWebArgs, false},
		{"all open channels", chansAll, chansAllArgs, false},
		{"closed channels", closedWeb, append(closedWebArgs, 10), true},
		{"all closed channels", closedAll, append(closedAllArgs, 10), true},
		{"idle lobbies", idleLobbiesSQL, []any{0, "web:", "web:"}, false},
		{"due", dueSQL, []any{0, "web:", "web:", 0, "web:", "web:"}, false},
		{"outbox", outboxSQL, []any{0, "web:", "web:", 10}, false},
		{"settings of", settingsOfSQL(2), []any{"player", "web:ann", "channel", "web:c"}, false},
	} {
		p := plan(t, db, q.query, q.args...)
		t.Logf("%s: %s", q.name, p)
		if !strings.Contains(p, "USING") || scansMatches.MatchString(p) ||
			(!q.sorted && strings.Contains(p, "TEMP B-TREE")) {
			t.Errorf("%s: plan %q scans or sorts", q.name, p)
		}
	}
}

// scansMatches finds a plan's step that reads the whole matches table, not
// an index of it. (The outbox holds the posts not yet delivered only: it
// may be read whole.)
var scansMatches = regexp.MustCompile(`SCAN (matches|m)(;|$)`)

// plan returns the details of SQLite's plan for a query, joined by "; ".
func plan(t *testing.T, db *DB, query string, args ...any) string {
	t.Helper()
	rows, err := db.read.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+query, args...)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return strings.Join(plan, "; ")
}

func TestExplain(t *testing.T) {
	if explain(errors.New("x")) != "" {
		t.Error("a plain error explained")
	}
	for _, code := range []sqlite3.ErrNo{sqlite3.ErrFull, sqlite3.ErrReadonly, sqlite3.ErrCantOpen, sqlite3.ErrNotADB, sqlite3.ErrCorrupt, sqlite3.ErrBusy} {
		if explain(sqlite3.Error{Code: code}) == "" {
			t.Errorf("code %d not explained", code)
		}
	}
}

// TestOpenTogether opens a new file from several handles at once, as
// processes starting together would: one creates the schema, all succeed.
func TestOpenTogether(t *testing.T) {
	ctx := context.Background()
	want, err := storage.ReadMigrations(embedded)
	if err != nil {
		t.Fatal(err)
	}
	for round := range 5 {
		path := filepath.Join(t.TempDir(), "risk.db")
		type opened struct {
			db  *DB
			err error
		}
		results := make(chan opened, 6)
		for range 6 {
			go func() {
				db, err := Open(ctx, path)
				results <- opened{db, err}
			}()
		}
		for range 6 {
			r := <-results
			if r.err != nil {
				t.Fatalf("round %d: %v", round, r.err)
			}
			db := r.db
			var v int
			if err := db.read.QueryRowContext(ctx, "SELECT count(*) FROM schema_version").Scan(&v); err != nil || v != len(want) {
				t.Fatalf("round %d: %d schema versions, %v; want %d", round, v, err, len(want))
			}
			db.Close()
		}
	}
}
