package ai_test

import (
	"context"
	"flag"
	"testing"
	"time"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/ai/tournament"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

var endsGames = flag.Int("ends.games", 0, "TestEveryModeEnds: games of each mode (0: 10, 4 under -short)")

// TestEveryModeEnds (issue 47): matches of every mode, played by a mix of
// levels, end before the turn cap, and no decision is refused. Hard
// searches with a small cap (12 iterations) to keep the test quick; the
// 1,000-game version of docs/ai.md is
//
//	go test ./ai -run TestEveryModeEnds -ends.games 1000 -timeout 0
func TestEveryModeEnds(t *testing.T) {
	if racetest.Enabled {
		// Games in one goroutine: the race detector would find nothing
		// there, at ten times the cost (CI runs the package without it).
		t.Skip("many games in one goroutine: run without -race")
	}
	games := 10
	if testing.Short() {
		games = 4
	}
	if *endsGames > 0 {
		games = *endsGames
	}
	mixed := []string{"hard", "normal", "easy", "random"}
	classic := func(f func(o *state.Options)) state.Options {
		o := state.DefaultOptions()
		f(&o)
		return o
	}
	capitals := func(f func(o *state.Options)) state.Options {
		o := state.CapitalsOptions()
		o.Map = "small"
		f(&o)
		return o
	}
	modes := []struct {
		name    string
		opts    state.Options
		players []string
	}{
		{"classic", classic(func(*state.Options) {}), mixed},
		{"fog", classic(func(o *state.Options) { o.Fog = true }), mixed},
		// Hard and normal against easy and random.
		{"teams", classic(func(o *state.Options) { o.Teams = 2 }), []string{"hard", "easy", "normal", "random"}},
		// Two-thirds teams games last about five turns: domination plays
		// them to the end.
		{"teams domination", classic(func(o *state.Options) { o.Teams, o.Victory = 2, state.Domination }), []string{"hard", "easy", "normal", "random"}},
		{"missions", classic(func(o *state.Options) { o.Victory = state.Missions }), mixed},
		// Without random: its orders make rounds matches of ~90 rounds
		// and stacks on which normal's and hard's orders take 0.1 to 2 s
		// a round.
		{"simultaneous rounds", classic(func(o *state.Options) { o.Turns = state.Simultaneous }), []string{"hard", "normal", "easy", "easy"}},
		{"capitals", capitals(func(*state.Options) {}), mixed},
		{"capitals fog", capitals(func(o *state.Options) { o.Fog = true }), mixed},
		{"capitals teams", capitals(func(o *state.Options) { o.Teams = 2 }), []string{"hard", "easy", "normal", "random"}},
	}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			cfg := tournament.Config{
				Options: m.opts, Players: m.players, Games: games, Seed: 4747, Parallel: 1,
				Player: ai.Options{Iterations: 12, Budget: time.Minute},
			}
			r, err := tournament.Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if r.Draws > 0 {
				t.Errorf("%d of %d games reached the turn cap (%d turns)", r.Draws, r.Games, r.MaxTurns)
			}
			for _, p := range r.Players {
				if p.Faults > 0 {
					t.Errorf("%s: %d decisions refused", p.Name, p.Faults)
				}
			}
			t.Logf("%d games, mean %.1f turns, %.1f s", r.Games, r.MeanTurns, r.WallSeconds)
		})
	}
}
