package storage_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/riskbot/riskbot/storage"
)

// PlanSave refuses a stale version and a change that does not apply, and
// SetSQL writes the same assignments in either dialect's parameters.
func TestPlanSave(t *testing.T) {
	now := time.UnixMilli(5000)
	active := storage.Row{Status: storage.Active, Version: 3, Commands: 99}
	enc := func(c storage.Change) *storage.Encoded {
		e, err := storage.EncodeChange(c)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	plan := func(version int64, c storage.Change) storage.Plan {
		return storage.Plan{ID: 1, Version: version, Change: c, Enc: enc(c), Every: 100, Now: now}
	}
	meta := storage.Change{Meta: json.RawMessage(`{"a":1}`)}
	if _, err := storage.PlanSave(plan(2, meta), active); !errors.Is(err, storage.ErrConflict) {
		t.Errorf("stale version: %v, want ErrConflict", err)
	}
	closed := storage.Row{Status: storage.Finished, Version: 3}
	tm := storage.Change{Timers: &storage.Timers{Remind: now}}
	if _, err := storage.PlanSave(plan(3, tm), closed); err == nil || errors.Is(err, storage.ErrConflict) {
		t.Errorf("timers of a finished match: %v, want a refusal", err)
	}

	for _, tt := range []struct {
		name     string
		row      storage.Row
		c        storage.Change
		sqlite   string
		postgres string
		args     int
	}{
		{"meta", active, meta,
			"version = ?, status = ?, commands = ?, updated_at = ?, claim_holder = NULL, claim_at = NULL, claim_until = NULL, meta = ?",
			"version = $1, status = $2, commands = $3, updated_at = $4, claim_holder = NULL, claim_at = NULL, claim_until = NULL, meta = $5", 5},
		{"timers", active, tm,
			"version = ?, status = ?, commands = ?, updated_at = ?, claim_holder = NULL, claim_at = NULL, claim_until = NULL, remind_at = ?, deadline_at = ?",
			"version = $1, status = $2, commands = $3, updated_at = $4, claim_holder = NULL, claim_at = NULL, claim_until = NULL, remind_at = $5, deadline_at = $6", 6},
		{"abandon", active, storage.Change{Status: storage.Abandoned, Timers: tm.Timers},
			"version = ?, status = ?, commands = ?, updated_at = ?, claim_holder = NULL, claim_at = NULL, claim_until = NULL, remind_at = NULL, deadline_at = NULL, closed_at = ?",
			"version = $1, status = $2, commands = $3, updated_at = $4, claim_holder = NULL, claim_at = NULL, claim_until = NULL, remind_at = NULL, deadline_at = NULL, closed_at = $5", 5},
	} {
		w, err := storage.PlanSave(plan(3, tt.c), tt.row)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		if w.Next != 4 || w.Snapshot {
			t.Errorf("%s: next %d, snapshot %v; want 4, false", tt.name, w.Next, w.Snapshot)
		}
		set, args := w.SetSQL(func(int) string { return "?" })
		if set != tt.sqlite || len(args) != tt.args {
			t.Errorf("%s: SQLite's SET %s (%d arguments), want %s (%d)", tt.name, set, len(args), tt.sqlite, tt.args)
		}
		set, _ = w.SetSQL(func(n int) string { return fmt.Sprintf("$%d", n) })
		if set != tt.postgres {
			t.Errorf("%s: PostgreSQL's SET %s, want %s", tt.name, set, tt.postgres)
		}
	}
}

func TestSnapshotDue(t *testing.T) {
	for _, tt := range []struct {
		from, to, every int
		want            bool
	}{
		{99, 100, 100, true}, {98, 99, 100, false}, {100, 100, 100, false}, {90, 250, 100, true},
		{0, 100, 100, true}, {0, 99, 100, false}, {0, 500, 0, false},
	} {
		if got := storage.SnapshotDue(tt.from, tt.to, tt.every); got != tt.want {
			t.Errorf("SnapshotDue(%d, %d, %d) = %v, want %v", tt.from, tt.to, tt.every, got, tt.want)
		}
	}
}
