package state_test

import (
	"reflect"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// midSetup is a classic match on the classic map in its initial placement:
// four seats dealt round-robin, one army on each territory, and seats 0 and
// 2 have placed some of their reserve.
func midSetup(t testing.TB) *state.State {
	t.Helper()
	m := loadClassic(t)
	s := &state.State{Map: m, Options: state.DefaultOptions(), Phase: state.PhaseSetup, Winner: -1,
		Seats: make([]state.Seat, 4), Terr: make([]state.Terr, m.Len())}
	for i := range s.Seats {
		s.Seats[i] = state.Seat{ID: string(rune('a' + i)), Reserve: 20}
	}
	for t := range s.Terr {
		s.Terr[t] = state.Terr{Owner: t % 4, Armies: 1}
	}
	s.Terr[0].Armies, s.Seats[0].Reserve = 6, 15 // seat 0 placed 5 on territory 0
	s.Terr[2].Armies, s.Seats[2].Reserve = 4, 17 // seat 2 placed 3 on territory 2
	return s
}

func TestViewHidesOthersSetupPlacements(t *testing.T) {
	s := midSetup(t)
	tests := []struct {
		name   string
		phase  state.Phase
		rules  state.Rules
		viewer int
		want   [4]int // armies shown on territories 0..3
	}{
		{"seat 0 sees its own, not seat 2's", state.PhaseSetup, state.Classic, 0, [4]int{6, 1, 1, 1}},
		{"seat 2 sees its own, not seat 0's", state.PhaseSetup, state.Classic, 2, [4]int{1, 1, 4, 1}},
		{"seat 1 sees nobody's", state.PhaseSetup, state.Classic, 1, [4]int{1, 1, 1, 1}},
		{"a spectator sees nobody's", state.PhaseSetup, state.Classic, -1, [4]int{1, 1, 1, 1}},
		{"after the setup everything shows", state.PhaseReinforce, state.Classic, 1, [4]int{6, 1, 4, 1}},
		{"the capitals setup is in turn order: everything shows", state.PhaseSetup, state.Capitals, 1, [4]int{6, 1, 4, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			x := s.Clone()
			x.Phase, x.Options.Rules = tt.phase, tt.rules
			v := x.View(tt.viewer)
			// ViewInto hides the same, into a state kept for the purpose.
			if into := x.ViewInto(midSetup(t), tt.viewer); !reflect.DeepEqual(into, v) {
				t.Errorf("ViewInto differs from View:\ngot  %+v\nwant %+v", into, v)
			}
			var got [4]int
			for i := range got {
				got[i] = v.Terr[i].Armies
			}
			if got != tt.want {
				t.Errorf("armies shown = %v, want %v", got, tt.want)
			}
			// The reserves (the chat shows them) stay visible.
			for i := range v.Seats {
				if v.Seats[i].Reserve != x.Seats[i].Reserve {
					t.Errorf("seat %d reserve = %d, want %d", i, v.Seats[i].Reserve, x.Seats[i].Reserve)
				}
			}
			// The state itself is untouched.
			if x.Terr[0].Armies != 6 || x.Terr[2].Armies != 4 {
				t.Errorf("View changed the state: %d, %d", x.Terr[0].Armies, x.Terr[2].Armies)
			}
		})
	}
}

func TestCopyInto(t *testing.T) {
	s := midSetup(t)
	s.Seats[1].Hand = s.Seats[1].Hand.Add(3)
	s.RNG = state.RNG{Seed: 9, N: 4}
	tests := []struct {
		name string
		dst  *state.State
	}{
		{"into a zero state", &state.State{}},
		{"into a state too small", &state.State{Seats: make([]state.Seat, 1), Terr: make([]state.Terr, 3)}},
		{"into a state large enough", midSetup(t).View(2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.CopyInto(tt.dst)
			if got != tt.dst {
				t.Fatal("CopyInto did not return dst")
			}
			if !reflect.DeepEqual(got, s) {
				t.Fatalf("copy differs from the original:\ngot  %+v\nwant %+v", got, s)
			}
			// Deep: changing the copy leaves the original alone.
			got.Terr[5].Armies += 10
			got.Seats[1].Reserve = 0
			if s.Terr[5].Armies != 1 || s.Seats[1].Reserve != 20 {
				t.Error("the copy shares slices with the original")
			}
		})
	}
}

func TestCopyIntoAllocatesNothingWhenLargeEnough(t *testing.T) {
	s := midSetup(t)
	dst := s.Clone()
	if n := testing.AllocsPerRun(100, func() { s.CopyInto(dst) }); n != 0 {
		t.Errorf("CopyInto into a large enough state: %v allocations, want 0", n)
	}
}

// BenchmarkClone and BenchmarkCopyInto compare the two ways AI search copies
// a position.
func BenchmarkClone(b *testing.B) {
	s := midSetup(b)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Clone()
	}
}

func BenchmarkCopyInto(b *testing.B) {
	s := midSetup(b)
	dst := new(state.State)
	b.ReportAllocs()
	for b.Loop() {
		s.CopyInto(dst)
	}
}
