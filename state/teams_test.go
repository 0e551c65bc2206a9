package state_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// teamFogMatch is fogMatch with a fourth seat, Dan, holding Australia, and
// teams of two: Ann with Cid, Bob with Dan.
func teamFogMatch(t testing.TB) *state.State {
	t.Helper()
	s := fogMatch(t)
	s.Options.Teams = 2
	s.Seats = append(s.Seats, state.Seat{ID: "d", Name: "Dan"})
	for i, team := range []int{1, 2, 1, 2} {
		s.Seats[i].Team = team
	}
	for _, c := range s.Map.Continents {
		if c.Name == "Australia" {
			for _, t := range c.Territories {
				s.Terr[t].Owner = 3
			}
		}
	}
	return s
}

func TestTeammatesShareSight(t *testing.T) {
	s := teamFogMatch(t)
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	for seat := range s.Seats {
		got := s.Sight(seat)
		for i := range s.Terr {
			want := false
			for _, mate := range s.Sides().Of(seat) {
				solo := *s
				solo.Options.Teams = 0
				solo.Seats = append([]state.Seat(nil), s.Seats...)
				for j := range solo.Seats {
					solo.Seats[j].Team = 0
				}
				want = want || solo.Sight(mate).Has(i)
			}
			if got.Has(i) != want {
				t.Errorf("seat %d sees %s: %v, want %v (what the team sees)", seat, s.Map.Territories[i].Name, got.Has(i), want)
			}
		}
	}
	// Cid's Siam is out of Ann's own sight but in her team's: her view
	// shows it with its owner.
	siam := terr(t, s, "Siam")
	if v := s.View(0); v.Terr[siam].Fog || v.Terr[siam].Owner != 2 {
		t.Errorf("Ann's view of Siam, her teammate's: %+v", v.Terr[siam])
	}
}

func TestPublicSightIsWhatEveryTeamSees(t *testing.T) {
	s := teamFogMatch(t)
	pub := s.PublicSight()
	for i := range s.Terr {
		want := s.Sight(0).Has(i) && s.Sight(1).Has(i)
		if pub.Has(i) != want {
			t.Errorf("%s public: %v, want %v", s.Map.Territories[i].Name, pub.Has(i), want)
		}
	}
	// A team out of the match no longer limits the public view.
	for _, i := range []int{1, 3} {
		s.Seats[i].Status = state.Eliminated
	}
	for i := range s.Terr {
		if s.Terr[i].Owner == 1 || s.Terr[i].Owner == 3 {
			s.Terr[i].Owner = 0
		}
	}
	if pub := s.PublicSight(); pub != s.Sight(0) {
		t.Errorf("with one team left the public sees %v, want the team's %v", pub, s.Sight(0))
	}
}

func TestTeamsChecked(t *testing.T) {
	for _, tc := range []struct {
		size  int
		teams []int
		want  string
	}{
		{2, []int{1, 2, 1, 2}, ""},
		{3, []int{1, 1, 2, 2, 1, 2}, ""},
		{9, []int{1, 2}, "teams of 9"},
		{2, []int{1, 1}, "cannot make two or more teams"},
		{2, []int{1, 2, 1}, "cannot make two or more teams"},
		{2, []int{1, 1, 1, 2}, "team 1: want 2 players, not 3"},
		{2, []int{1, 2, 0, 2}, "seat 2 is in team 0"},
	} {
		err := state.CheckTeams(tc.size, tc.teams)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckTeams(%d, %v) = %v, want %q", tc.size, tc.teams, err, tc.want)
		}
	}
	s := teamFogMatch(t)
	s.Seats[0].Team = 2
	if err := s.Check(); err == nil || !strings.Contains(err.Error(), "team 1: want 2 players, not 1") {
		t.Errorf("Check with uneven teams: %v", err)
	}
}

func TestTeamsJSON(t *testing.T) {
	s := fogMatch(t)
	b, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), `"team`) {
		t.Errorf("a match without teams encodes teams: %s", b)
	}
	s = teamFogMatch(t)
	b, err = json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var back state.State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Options.Teams != 2 || back.Seats[3].Team != 2 {
		t.Errorf("decoded teams %d, Dan's team %d", back.Options.Teams, back.Seats[3].Team)
	}
}
