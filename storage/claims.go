package storage

import (
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
