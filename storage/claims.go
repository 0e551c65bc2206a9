package storage

import (
	"slices"
	"time"
)

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
