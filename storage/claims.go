package storage

import (
	"slices"
	"time"
)

// DueTimers appends the timers of a match that are due at now (for the
// stores' ClaimDue).
func DueTimers(out []Timer, id int64, channel string, version int64, remind, deadline, now time.Time) []Timer {
	if !remind.IsZero() && !remind.After(now) {
		out = append(out, Timer{Match: id, Channel: channel, Kind: Remind, At: remind, Version: version})
	}
	if !deadline.IsZero() && !deadline.After(now) {
		out = append(out, Timer{Match: id, Channel: channel, Kind: Deadline, At: deadline, Version: version})
	}
	return out
}

// SortTimers orders timers as Due lists them: earliest first, then by
// match, reminders before deadlines.
func SortTimers(ts []Timer) {
	slices.SortFunc(ts, func(a, b Timer) int {
		if c := a.At.Compare(b.At); c != 0 {
			return c
		}
		if a.Match != b.Match {
			return int(a.Match - b.Match)
		}
		return int(a.Kind - b.Kind)
	})
}
