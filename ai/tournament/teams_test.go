package tournament

import (
	"context"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

func TestTeams(t *testing.T) {
	for _, rules := range []string{"classic", "capitals", "domination"} {
		t.Run(rules, func(t *testing.T) {
			cfg := config("normal", "random", "normal", "random")
			switch rules {
			case "capitals":
				cfg = capitalsConfig("normal", "random", "normal", "random")
			case "domination":
				// Longer games, where a player may find itself behind
				// its teammate's lines, with no enemy to face.
				cfg = config("normal", "easy", "normal", "easy")
				cfg.Options.Victory = state.Domination
			}
			cfg.Options.Teams = 2
			cfg.Games = 8
			r, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if len(r.Teams) != 2 || strings.Join(r.Teams[0].Members, ",") != "normal #1,normal #3" || strings.Join(r.Teams[1].Members, ",") != strings.Join(cfg.Players[1:2], "")+" #2,"+cfg.Players[1]+" #4" {
				t.Fatalf("teams %+v: want the normals together against the randoms", r.Teams)
			}
			if got := r.Teams[0].Wins + r.Teams[1].Wins + r.Draws; got != r.Games {
				t.Errorf("team wins %d + %d and %d draws for %d games", r.Teams[0].Wins, r.Teams[1].Wins, r.Draws, r.Games)
			}
			for i, p := range r.Players {
				if want := r.Teams[i%2].Wins; p.Wins != want {
					t.Errorf("%s won %d, its team %d", p.Name, p.Wins, want)
				}
				// Computer teammates never try to attack each other: a
				// command the rules refuse would be a fault.
				if p.Faults != 0 {
					t.Errorf("%s made %d faults", p.Name, p.Faults)
				}
			}
			if r.Teams[0].Wins <= r.Teams[1].Wins {
				t.Errorf("the normals won %d, the others %d", r.Teams[0].Wins, r.Teams[1].Wins)
			}
			if len(r.Ratings) != 0 {
				t.Errorf("ratings in a tournament of teams: %+v", r.Ratings)
			}
		})
	}
	cfg := config("normal", "random", "easy")
	cfg.Options.Teams = 2
	if _, err := Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "3 players cannot make two or more teams of 2") {
		t.Errorf("3 players in teams of 2: %v", err)
	}
}
