package ai

import (
	"context"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// missionsOptions are the classic options with secret missions to win by.
func missionsOptions() state.Options {
	o := state.DefaultOptions()
	o.Victory = state.Missions
	return o
}

// missionBoard is a 4-seat missions match past its placement, seat 0 to
// attack with 6 armies everywhere, holding mission m: Alaska borders
// Kamchatka (seat 2's) and Alberta (seat 1's).
func missionBoard(t *testing.T, m state.Mission) *state.State {
	t.Helper()
	s := newMatch(t, 4, 3, missionsOptions())
	for i := range s.Seats {
		s.Seats[i].Reserve = 0
	}
	for tr := range s.Terr {
		if s.Terr[tr].Owner == 0 {
			s.Terr[tr].Owner = 3
		}
	}
	lookup := func(name string) int {
		id, err := s.Map.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	s.Terr[lookup("Alaska")] = state.Terr{Owner: 0, Armies: 6}
	s.Terr[lookup("Kamchatka")] = state.Terr{Owner: 2, Armies: 1}
	s.Terr[lookup("Alberta")] = state.Terr{Owner: 1, Armies: 1}
	s.Terr[lookup("Northwest Territory")] = state.Terr{Owner: 1, Armies: 1}
	s.Phase, s.Current, s.Turn, s.Round = state.PhaseAttack, 0, 1, 1
	s.Seats[0].Mission = m
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	return s
}

// The computer players aim at their mission: with a card to destroy seat
// 2, easy and normal attack seat 2's Kamchatka, not seat 1's Alberta or
// Northwest Territory, whatever their seed.
func TestMissionsPlayersAttackTheirTarget(t *testing.T) {
	for _, level := range []string{"easy", "normal"} {
		for seed := range uint64(20) {
			s := missionBoard(t, state.DestroyMission(2))
			p, err := New(level, Options{Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			c, err := p.Act(context.Background(), s.View(0), 0)
			if err != nil {
				t.Fatal(err)
			}
			b, ok := c.(engine.Blitz)
			if !ok || s.Terr[b.To].Owner != 2 {
				t.Fatalf("%s (seed %d) with a card to destroy seat 2 plays %#v", level, seed, c)
			}
		}
	}
}

// For the 18-territory mission a blitz keeps two armies behind, and a
// conquest leaves two behind when it can.
func TestMissionsPlayersKeepTwoArmiesFor18Territories(t *testing.T) {
	s := missionBoard(t, state.MissionTerritories18)
	for _, level := range []string{"easy", "normal"} {
		p, err := New(level, Options{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		c, err := p.Act(context.Background(), s.View(0), 0)
		if err != nil {
			t.Fatal(err)
		}
		if b, ok := c.(engine.Blitz); !ok || b.Keep < state.MissionHeldArmies {
			t.Errorf("%s plays %#v: want a blitz that keeps 2 armies", level, c)
		}
	}
	s.Phase = state.PhaseOccupy
	s.Occupy = state.Occupy{From: 0, To: 1, Min: 3, Max: 8}
	s.Terr[0] = state.Terr{Owner: 0, Armies: 6}
	s.Terr[1] = state.Terr{Owner: 0, Armies: 3}
	if got := missionOccupy(s, 0, engine.Occupy{Armies: 8}); got != (engine.Occupy{Armies: 7}) {
		t.Errorf("occupation %#v, want 7 in and 2 behind", got)
	}
	s.Seats[0].Mission = state.MissionAsiaAfrica
	if got := missionOccupy(s, 0, engine.Occupy{Armies: 8}); got != (engine.Occupy{Armies: 8}) {
		t.Errorf("occupation %#v for another mission, want the player's own 8", got)
	}
}

// TestGuessMissions: a determinized view of a missions match gives every
// other seat a mission of its own, drawn from the cards the seat does not
// hold (each at most once), so that the samples of hard and of normal's
// look ahead see a match the others can win by theirs; a destroy card of
// a colour that is out is 24 territories. The seat's own mission stays.
func TestGuessMissions(t *testing.T) {
	for seed := range uint64(30) {
		s := missionBoard(t, state.DestroyMission(2))
		s.Seats[3].Status = state.Eliminated
		sim := determinize(s.View(0), 0, newRand(seed, 1))
		if sim.Seats[0].Mission != state.DestroyMission(2) {
			t.Fatalf("seed %d: the seat's own mission is %v", seed, sim.Seats[0].Mission)
		}
		seen := map[int]bool{sim.Seats[0].Mission.Card(): true}
		for i := 1; i < len(sim.Seats); i++ {
			m := sim.Seats[i].Mission
			if !m.Valid() || seen[m.Card()] {
				t.Fatalf("seed %d: seat %d holds %v (cards dealt: %v)", seed, i, m, seen)
			}
			seen[m.Card()] = true
			if c, ok := m.Target(); ok && m.Hunting() && (c == i || c == 3) {
				t.Errorf("seed %d: seat %d hunts colour %d", seed, i, c)
			}
		}
	}
}

// TestHardEvaluateMissions: hard scores a missions match with the
// evaluation fitted on missions games, on its own view (where only its
// mission shows), and any other match with the classic one.
func TestHardEvaluateMissions(t *testing.T) {
	tests := []struct {
		name     string
		opts     state.Options
		missions bool
	}{
		{"missions", missionsOptions(), true},
		{"two-thirds", state.DefaultOptions(), false},
		{"domination", func() state.Options {
			o := state.DefaultOptions()
			o.Victory = state.Domination
			return o
		}(), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newMatch(t, 4, 7, tt.opts)
			for s.Phase == state.PhaseSetup {
				if _, err := engine.Apply(s, toMove(s), engine.AutoPlace{}); err != nil {
					t.Fatal(err)
				}
			}
			for seat := range s.Seats {
				v := s.View(seat)
				want, ok := missionWinChance(v, seat)
				if ok != tt.missions {
					t.Fatalf("seat %d: missionWinChance ok = %v, want %v", seat, ok, tt.missions)
				}
				if !ok {
					want = winChance(v, seat)
				}
				if got := hardEvaluate(v, seat); got != want {
					t.Errorf("seat %d: hardEvaluate = %v, want %v", seat, got, want)
				}
				if other := (seat + 1) % len(s.Seats); tt.missions {
					if _, ok := missionWinChance(v, other); ok {
						t.Errorf("seat %d's view: seat %d's hidden mission is evaluated", seat, other)
					}
				}
			}
		})
	}
}

// TestOthersProgress: the evaluation's threat of the others' missions
// reads what the state shows of them: nothing in a view, where they are
// hidden, and on a sample the missions dealt to it (guessMissions), the
// nearest to fulfilment of them.
func TestOthersProgress(t *testing.T) {
	s := missionBoard(t, state.DestroyMission(2))
	s.Seats[1].Mission = state.MissionTerritories24
	s.Seats[2].Mission = state.DestroyMission(1)
	s.Seats[3].Mission = state.MissionTerritories18
	if got, sq := othersProgress(s.View(0), 0); got != 0 || sq != 0 {
		t.Errorf("on the view: %v, %v, want 0 (the others' missions are hidden)", got, sq)
	}
	want := 0.0
	for p := 1; p < len(s.Seats); p++ {
		share, _ := missionShare(s, p)
		want = max(want, share)
	}
	if want == 0 {
		t.Fatal("no other seat has made progress: the board tests nothing")
	}
	if got, sq := othersProgress(s, 0); got != want || sq != want*want {
		t.Errorf("on the match: %v, %v, want %v and its square", got, sq, want)
	}
	sim := determinize(s.View(0), 0, newRand(1, 1))
	if got, _ := othersProgress(sim, 0); got == 0 {
		t.Error("on a sample: 0, want the progress of the missions dealt to it")
	}
}
