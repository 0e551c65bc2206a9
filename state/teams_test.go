package state_test

import (
	"encoding/json"
	"slices"
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

func TestSides(t *testing.T) {
	teams, solo := teamFogMatch(t), fogMatch(t)
	// Ann (0) and Cid (2) are team 1, Bob (1) and Dan (3) team 2; without
	// teams every seat is its own side.
	for _, tc := range []struct {
		name         string
		s            *state.State
		a, b         int
		same, mates  bool
		teamA, teamB int
	}{
		{"one seat", teams, 0, 0, true, false, 1, 1},
		{"teammates", teams, 0, 2, true, true, 1, 1},
		{"teammates, the other way", teams, 3, 1, true, true, 2, 2},
		{"enemies", teams, 0, 1, false, false, 1, 2},
		{"a seat and a neutral", teams, 0, state.Neutral, false, false, 1, 0},
		{"two neutrals", teams, state.Neutral, state.Neutral, true, false, 0, 0},
		{"a seat past the last", teams, 0, 9, false, false, 1, 0},
		{"without teams, two seats", solo, 0, 2, false, false, 0, 0},
		{"without teams, one seat", solo, 1, 1, true, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sd := tc.s.Sides()
			if got := sd.Same(tc.a, tc.b); got != tc.same {
				t.Errorf("Same(%d, %d) = %v, want %v", tc.a, tc.b, got, tc.same)
			}
			if got := sd.Teammates(tc.a, tc.b); got != tc.mates {
				t.Errorf("Teammates(%d, %d) = %v, want %v", tc.a, tc.b, got, tc.mates)
			}
			if got := sd.Team(tc.a); got != tc.teamA {
				t.Errorf("Team(%d) = %d, want %d", tc.a, got, tc.teamA)
			}
			if got := sd.Team(tc.b); got != tc.teamB {
				t.Errorf("Team(%d) = %d, want %d", tc.b, got, tc.teamB)
			}
		})
	}
	for _, tc := range []struct {
		name    string
		s       *state.State
		teams   int
		members [][]int // of team 1, 2, ...
		of      [][]int // of seat 0, 1, ...
	}{
		{"teams", teams, 2, [][]int{{0, 2}, {1, 3}}, [][]int{{0, 2}, {1, 3}, {0, 2}, {1, 3}}},
		{"without teams", solo, 0, [][]int{nil, nil}, [][]int{{0}, {1}, {2}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sd := tc.s.Sides()
			if got := sd.Teams(); got != tc.teams {
				t.Errorf("Teams() = %d, want %d", got, tc.teams)
			}
			for i, want := range tc.members {
				if got := sd.Members(i + 1); !slices.Equal(got, want) {
					t.Errorf("Members(%d) = %v, want %v", i+1, got, want)
				}
			}
			for seat, want := range tc.of {
				if got := sd.Of(seat); !slices.Equal(got, want) {
					t.Errorf("Of(%d) = %v, want %v", seat, got, want)
				}
				owned, armies := 0, 0
				for _, i := range want {
					owned += tc.s.Owned(i)
					armies += tc.s.Armies(i)
				}
				if got := sd.Owned(seat); got != owned {
					t.Errorf("Owned(%d) = %d, want %d (its side's)", seat, got, owned)
				}
				if got := sd.Armies(seat); got != armies {
					t.Errorf("Armies(%d) = %d, want %d (its side's)", seat, got, armies)
				}
			}
		})
	}
}

func TestSidesAlive(t *testing.T) {
	for _, tc := range []struct {
		name  string
		teams bool
		out   []int // the seats eliminated
		want  int
	}{
		{"two teams", true, nil, 2},
		{"a team with one player left", true, []int{0}, 2},
		{"one team left", true, []int{1, 3}, 1},
		{"three players", false, nil, 3},
		{"one player out", false, []int{1}, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := fogMatch(t)
			if tc.teams {
				s = teamFogMatch(t)
			}
			for _, i := range tc.out {
				s.Seats[i].Status = state.Eliminated
			}
			if got := s.Sides().Alive(); got != tc.want {
				t.Errorf("Alive() = %d, want %d", got, tc.want)
			}
		})
	}
}

// BenchmarkTeamSight is the sight of every seat of a fog match with teams
// and whether each territory borders an enemy: both ask, for every
// territory, whether two owners are on one side.
func BenchmarkTeamSight(b *testing.B) {
	s := teamFogMatch(b)
	b.ReportAllocs()
	b.ResetTimer()
	for range b.N {
		for seat := range s.Seats {
			_ = s.Sight(seat)
		}
		for t := range s.Terr {
			_ = s.BordersEnemy(t)
		}
	}
}
