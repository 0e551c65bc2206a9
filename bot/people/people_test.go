package people

import (
	"testing"
	"time"
)

func TestAwakeTime(t *testing.T) {
	day := func(d, h, m int) time.Time { return time.Date(2026, 11, d, h, m, 0, 0, time.UTC) }
	tests := []struct {
		name  string
		p     Prefs
		start time.Time
		d     time.Duration
		want  time.Time
	}{
		{"no quiet hours", Prefs{}, day(1, 23, 0), 24 * time.Hour, day(2, 23, 0)},
		{"starting in them", Prefs{QuietFrom: 22, QuietTo: 7}, day(1, 23, 0), 24 * time.Hour, day(3, 16, 0)},
		{"starting before them", Prefs{QuietFrom: 22, QuietTo: 7}, day(1, 20, 30), 2 * time.Hour, day(2, 7, 30)},
		{"ending as they start", Prefs{QuietFrom: 22, QuietTo: 7}, day(1, 20, 0), 2 * time.Hour, day(1, 22, 0)},
		{"within a day", Prefs{QuietFrom: 1, QuietTo: 5}, day(1, 0, 0), 3 * time.Hour, day(1, 7, 0)},
		{"in another zone", Prefs{QuietFrom: 22, QuietTo: 7, Offset: 120}, day(1, 20, 0), time.Hour, day(2, 6, 0)}, // 22:00 to 07:00 local is 20:00 to 05:00 UTC
		{"half-hour zone", Prefs{QuietFrom: 0, QuietTo: 6, Offset: 330}, day(1, 18, 0), time.Hour, day(2, 1, 0)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Awake(tt.start, tt.d); !got.Equal(tt.want) {
				t.Errorf("awake(%v, %v) = %v, want %v", tt.start, tt.d, got, tt.want)
			}
		})
	}
}
