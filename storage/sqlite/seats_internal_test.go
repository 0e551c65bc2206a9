package sqlite

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// TestSeatsCost: a person's list of matches reads their own rows of the
// seats table (by its key) and the matches by theirs, never a scan of the
// open matches; and a closed match leaves no rows behind, so the rows a
// list reads are those it may show.
func TestSeatsCost(t *testing.T) {
	ctx := context.Background()
	db, err := Open(ctx, filepath.Join(t.TempDir(), "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.read.QueryContext(ctx, `EXPLAIN QUERY PLAN SELECT `+storage.MatchColumns+`
		FROM seats s JOIN matches m ON m.id = s.match_id
		WHERE s.user_id = ? AND m.status = 2 AND `+inScope+`
		ORDER BY m.deadline_at IS NULL, m.deadline_at, m.id DESC LIMIT ?`, "u", "", "", 10)
	if err != nil {
		t.Fatal(err)
	}
	var plan []string
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		plan = append(plan, detail)
	}
	rows.Close()
	p := strings.Join(plan, "; ")
	t.Logf("seated: %s", p)
	if !strings.Contains(p, "SEARCH s USING PRIMARY KEY (user_id=?)") || !strings.Contains(p, "SEARCH m USING INTEGER PRIMARY KEY") || strings.Contains(p, "SCAN") {
		t.Errorf("seated: plan %q does not read by the keys", p)
	}

	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	count := func() int {
		t.Helper()
		var n int
		if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM seats`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	for _, status := range []storage.Status{storage.Finished, storage.Abandoned} {
		m, err := db.Create(ctx, "test:cost", nil, now)
		if err != nil {
			t.Fatal(err)
		}
		setup := engine.Setup{Options: state.DefaultOptions(), Seed: 1, Seats: []engine.SeatInfo{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}}}
		v, err := db.Save(ctx, m.ID, m.Version, storage.Change{Start: &setup}, now)
		if err != nil {
			t.Fatal(err)
		}
		if n := count(); n != 2 {
			t.Fatalf("started: %d seats, want 2", n)
		}
		if _, err := db.Save(ctx, m.ID, v, storage.Change{Status: status}, now); err != nil {
			t.Fatal(err)
		}
		if n := count(); n != 0 {
			t.Errorf("%s: %d seats left, want 0", status, n)
		}
	}
}
