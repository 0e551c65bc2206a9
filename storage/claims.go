package storage

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
)

// How the stores choose the work they claim (Claim), each in its own SQL
// around these tests.

// ScopeSQL is the SQL test that the channel in column is in scope, the
// text in parameter p (written as the database wants it: "?" or "$3"),
// given as the claims take it: "" for every channel, a prefix ending in
// ':' for a platform's ("discord:"), anything else for that one channel.
func ScopeSQL(column, p string) string {
	return fmt.Sprintf("(%[2]s = '' OR %[1]s = %[2]s OR (substr(%[2]s, length(%[2]s), 1) = ':' AND substr(%[1]s, 1, length(%[2]s)) = %[2]s))", column, p)
}

// FreeSQL is the SQL test that the claim in the claim_holder, claim_at and
// claim_until columns of table t ("", or an alias and its dot: "o.") is
// free for a claim (Claim) whose holder, start and time are the parameters
// holder, started and now (written as the database wants them: "?2",
// "$2").
func FreeSQL(t, holder, started, now string) string {
	return fmt.Sprintf("(%[1]sclaim_holder IS NULL OR %[1]sclaim_until <= %[4]s OR (%[1]sclaim_holder = %[2]s AND %[1]sclaim_at <= %[3]s))",
		t, holder, started, now)
}

// DueTimers returns the timers of matches ms (ScanClocks) that are due at
// now, ordered as Due lists them: earliest first, then by match, reminders
// before deadlines.
func DueTimers(ms []Match, now time.Time) []Timer {
	var out []Timer
	for _, m := range ms {
		t := Timer{Match: m.ID, Channel: m.Channel, Version: m.Version}
		if r := m.Timers.Remind; !r.IsZero() && !r.After(now) {
			t.Kind, t.At = Remind, r
			out = append(out, t)
		}
		if d := m.Timers.Deadline; !d.IsZero() && !d.After(now) {
			t.Kind, t.At = Deadline, d
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b Timer) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		if a.Match != b.Match {
			return int(a.Match - b.Match)
		}
		return int(a.Kind - b.Kind)
	})
	return out
}

// ClaimQueries are the methods of a store's claims that both stores run
// alike, on Write: the releases and the named leases. Choosing the work
// to claim is each store's own (FOR UPDATE SKIP LOCKED, or SQLite's one
// writer); a store's claims embed them.
type ClaimQueries struct{ Write Querier }

// ReleaseDue gives up holder's claim on the timers of match id (the work
// failed: another try, by any process, may claim them at once).
func (cq ClaimQueries) ReleaseDue(ctx context.Context, id int64, holder string) error {
	if _, err := cq.Write.Exec(ctx, `UPDATE matches SET claim_holder = NULL, claim_at = NULL, claim_until = NULL
		WHERE id = ? AND claim_holder = ?`, id, holder); err != nil {
		return cq.Write.Fail(fmt.Sprintf("release the timers of match %d", id), err)
	}
	return nil
}

// ReleasePosts gives up holder's claim on the posts that version of match
// id queued (their delivery failed: the next try, by any process, may
// claim them at once).
func (cq ClaimQueries) ReleasePosts(ctx context.Context, id, version int64, holder string) error {
	if _, err := cq.Write.Exec(ctx, `UPDATE outbox SET claim_holder = NULL, claim_at = NULL, claim_until = NULL
		WHERE match_id = ? AND version = ? AND claim_holder = ?`, id, version, holder); err != nil {
		return cq.Write.Fail(fmt.Sprintf("release the posts of match %d version %d", id, version), err)
	}
	return nil
}

// Lease takes, or renews, the named lease for c.Holder until c.Until: it
// succeeds if nobody holds it, its lease has ended, or c.Holder holds it
// already (a name is one process; a restarted one takes back its own), and
// reports false if another holder's lease runs.
func (cq ClaimQueries) Lease(ctx context.Context, name string, c Claim) (bool, error) {
	op := "take lease " + name
	if err := c.Check(); err != nil {
		return false, cq.Write.Fail(op, err)
	}
	var holder string
	err := cq.Write.QueryRow(ctx, `INSERT INTO leases (name, holder, since, until) VALUES (?, ?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET
			since = CASE WHEN leases.holder = excluded.holder THEN leases.since ELSE excluded.since END,
			holder = excluded.holder, until = excluded.until
		WHERE leases.holder = excluded.holder OR leases.until <= excluded.since
		RETURNING holder`, name, c.Holder, c.Now.UnixMilli(), c.Until.UnixMilli()).Scan(&holder)
	switch {
	case errors.Is(err, ErrNoRow):
		return false, nil
	case err != nil:
		return false, cq.Write.Fail(op, err)
	}
	return true, nil
}

// Unlease lets go of holder's named lease (another holder's is left alone).
func (cq ClaimQueries) Unlease(ctx context.Context, name, holder string) error {
	if _, err := cq.Write.Exec(ctx, `DELETE FROM leases WHERE name = ? AND holder = ?`, name, holder); err != nil {
		return cq.Write.Fail("let go of lease "+name, err)
	}
	return nil
}
