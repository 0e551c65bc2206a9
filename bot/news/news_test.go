package news

import (
	"reflect"
	"testing"

	"github.com/riskbot/riskbot/engine"
)

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

// TestCount: a turn's numbers count what its events did for the seat
// whose turn it is; a territory another seat took meanwhile (an item
// seized on a fortress) is not its conquest.
func TestCount(t *testing.T) {
	for _, tt := range []struct {
		name   string
		events []engine.Event
		want   TurnStats
	}{
		{"income and trades add up", []engine.Event{engine.TurnStarted{Seat: 1, Armies: 5}, engine.Traded{Seat: 1, Armies: 8}, engine.Traded{Seat: 1, Armies: 10}},
			TurnStats{Income: 5, Traded: 18}},
		{"the seat's conquests, captures and seizures", []engine.Event{engine.Conquered{Seat: 1}, engine.Captured{Seat: 1}, engine.Seized{Seat: 1}},
			TurnStats{Conquests: 3}},
		{"another seat's are not", []engine.Event{engine.Conquered{Seat: 2}, engine.Seized{Seat: 0}, engine.Captured{Seat: 2}},
			TurnStats{}},
		{"eliminations in order", []engine.Event{engine.Eliminated{Seat: 3, By: 1}, engine.Eliminated{Seat: 0, By: 1}},
			TurnStats{Eliminated: []int{3, 0}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got TurnStats
			got.Count(1, tt.events)
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestCloneSharesNothing: telling into a clone of a chronicle leaves the
// chronicle as it was.
func TestCloneSharesNothing(t *testing.T) {
	ch := Chronicle{Lines: []string{"a"}, Steps: []int{1}, Stats: TurnStats{Income: 3, Eliminated: []int{2}}}
	cp := ch.Clone()
	if !reflect.DeepEqual(cp, ch) {
		t.Fatalf("clone %+v, want %+v", cp, ch)
	}
	cp.Lines[0], cp.Steps[0], cp.Stats.Eliminated[0] = "b", 9, 5
	cp.Stats.Income++
	if ch.Lines[0] != "a" || ch.Steps[0] != 1 || ch.Stats.Eliminated[0] != 2 || ch.Stats.Income != 3 {
		t.Errorf("the chronicle changed with its clone: %+v", ch)
	}
}

// TestKeys: each message of a change's news has a key of its own, the
// same however often it is written (after a crash, by another process),
// within the 25 characters a chat's nonce takes; the living messages are
// named by match, turn and seat.
func TestKeys(t *testing.T) {
	posts := Keyed(make([]Post, 3), 123456789, 987654321)
	again := Keyed(make([]Post, 3), 123456789, 987654321)
	other := Keyed(make([]Post, 1), 123456789, 987654322)
	seen := map[string]bool{}
	for i, p := range posts {
		if p.Key == "" || len(p.Key) > 25 || seen[p.Key] || again[i].Key != p.Key {
			t.Errorf("post %d: key %q (again %q); want one of its own, the same again, at most 25 characters", i, p.Key, again[i].Key)
		}
		seen[p.Key] = true
	}
	if seen[other[0].Key] {
		t.Errorf("the next version's news has key %q, one of the previous version's", other[0].Key)
	}
	for _, tt := range []struct{ got, want string }{
		{PostRef(7, 3, 1), "7:3:1"},
		{LobbyRef(7), "7:lobby"},
	} {
		if tt.got != tt.want {
			t.Errorf("got ref %q, want %q", tt.got, tt.want)
		}
	}
}
