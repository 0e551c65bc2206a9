package news

import "testing"

// TestCurrent: the record of a turn in the match's line of play is the
// first of its number since the last rollback to it or before.
func TestCurrent(t *testing.T) {
	rec := func(turn, back int) TurnRecord { return TurnRecord{Turn: turn, Back: back} }
	for _, tt := range []struct {
		name  string
		turns []TurnRecord
		turn  int
		want  int
	}{
		{"no rollback", []TurnRecord{rec(0, 0), rec(1, 0), rec(2, 0)}, 1, 1},
		{"capitals: two records of turn 0, the first", []TurnRecord{rec(0, 0), rec(0, 0), rec(1, 0)}, 0, 0},
		{"none of its number", []TurnRecord{rec(1, 0), rec(2, 0)}, 5, -1},
		{"back to 2 from 4: turn 2 again", []TurnRecord{rec(1, 0), rec(2, 0), rec(3, 0), rec(4, 2), rec(2, 0)}, 2, 4},
		{"back to 2 from 4: turn 3 not played again yet", []TurnRecord{rec(1, 0), rec(2, 0), rec(3, 0), rec(4, 2), rec(2, 0)}, 3, -1},
		{"back to 2: turn 1 stays", []TurnRecord{rec(1, 0), rec(2, 0), rec(3, 0), rec(4, 2), rec(2, 0)}, 1, 0},
		{"the turn in progress again", []TurnRecord{rec(1, 0), rec(2, 2), rec(2, 0)}, 2, 2},
		{"back to 3, after back to 2", []TurnRecord{rec(2, 0), rec(3, 2), rec(2, 0), rec(3, 0), rec(4, 3), rec(3, 0)}, 2, 2},
	} {
		if got := Current(tt.turns, tt.turn); got != tt.want {
			t.Errorf("%s: got %d, want %d", tt.name, got, tt.want)
		}
	}
}
