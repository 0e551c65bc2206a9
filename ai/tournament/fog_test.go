package tournament

import (
	"context"
	"fmt"
	"testing"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// TestCapitalsFogNoFaults: in capitals with fog of war no level proposes
// a command the engine refuses (issue 42, item 8: `risk tournament --games
// 10 --seed 9 --players easy,easy,normal --rules capitals --size small
// --fog` counted faults 0/6/7 before each level planned against the
// defence its view allows). The run first, then every level on
// both sizes; fewer games under -short and the race detector.
func TestCapitalsFogNoFaults(t *testing.T) {
	games := func(n int) int {
		if testing.Short() || racetest.Enabled {
			return max(1, n/5)
		}
		return n
	}
	tests := []struct {
		players []string
		size    string
		games   int
		seed    uint64
	}{
		{[]string{"easy", "easy", "normal"}, "small", 10, 9}, // the issue's
		{[]string{"random", "easy", "normal", "random"}, "small", 20, 4201},
		{[]string{"easy", "easy", "easy", "easy"}, "normal", 10, 4202},
		{[]string{"normal", "normal", "normal", "normal"}, "normal", 10, 4203},
		{[]string{"hard", "normal", "normal"}, "small", 5, 4204},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("%v/%s", tt.players, tt.size), func(t *testing.T) {
			opts := state.CapitalsOptions()
			opts.Map = tt.size
			opts.Fog = true
			cfg := Config{Options: opts, Players: tt.players, Games: games(tt.games), Seed: tt.seed,
				Player: ai.Options{Iterations: 12}}
			r, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d games, %.1f turns on average, %d drawn", cfg.Games, r.MeanTurns, r.Draws)
			for _, p := range r.Players {
				if p.Faults != 0 {
					t.Errorf("%s (seat %d): %d faults in %d games, want none", p.Name, p.Seat, p.Faults, cfg.Games)
				}
			}
		})
	}
}
