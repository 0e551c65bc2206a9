package voice

import (
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// TeamPlan reads the seat's view only: what is out of its team's sight
// changes nothing it says, however much it changes (RULES.md section 3,
// fog of war with teams).
func TestTeamPlanSeesOnlyItsView(t *testing.T) {
	seats := []engine.SeatInfo{{ID: "test:ann", Name: "Ann", Team: 1}, {ID: "test:bob", Name: "Bob", Team: 2}, {ID: "test:cid", Name: "Cid", Team: 1}, {ID: "test:dan", Name: "Dan", Team: 2}}
	o := state.DefaultOptions()
	o.Teams, o.Fog = 2, true
	g, err := engine.NewGame(engine.Setup{Options: o, Seed: 3, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	for g.State.Phase == state.PhaseSetup {
		for seat := range g.State.Seats {
			if g.State.Seats[seat].Reserve > 0 {
				if _, _, err := g.Apply(seat, engine.AutoPlace{}); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	lb := Speaking(lang.English).Lobby()
	for seat := range g.State.Seats {
		s := g.State
		want := lb.TeamPlan(s.View(seat), seat)
		view := s.View(seat)
		changed := s.Clone()
		enemy := (seat + 1) % len(s.Seats) // teams 1, 2, 1, 2 in some order
		for s.Sides().Same(seat, enemy) {
			enemy = (enemy + 1) % len(s.Seats)
		}
		hidden := 0
		for i := range changed.Terr {
			if view.Terr[i].Fog {
				hidden++
				changed.Terr[i].Owner = enemy // as if one enemy held it all
				changed.Terr[i].Armies = 60
			}
		}
		if hidden == 0 {
			t.Fatalf("seat %d sees the whole map: fog hides nothing to test", seat)
		}
		if got := lb.TeamPlan(changed.View(seat), seat); got != want {
			t.Errorf("seat %d: what it cannot see changed its plan:\n got %q\nwant %q", seat, got, want)
		}
	}
}
