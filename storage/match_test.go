package storage

import "testing"

func TestTimerKindString(t *testing.T) {
	tests := []struct {
		k    TimerKind
		want string
	}{
		{Remind, "remind"},
		{Deadline, "deadline"},
		{0, "timer(0)"},
		{Deadline + 1, "timer(3)"},
		{-1, "timer(-1)"},
	}
	for _, tt := range tests {
		if got := tt.k.String(); got != tt.want {
			t.Errorf("TimerKind(%d).String() = %q, want %q", int(tt.k), got, tt.want)
		}
	}
}
