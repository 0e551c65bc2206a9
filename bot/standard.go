package bot

import (
	"fmt"
	"slices"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/render"
)

// Standard fills the parts of cfg left empty with the standard ones: the map
// renderer, the computer players of package ai and their levels, and the colour names of the default palette. Outside
// ("exec:") players are never offered: a chat user must not be able to start
// programs on the server.
func Standard(cfg Config) Config {
	if cfg.Render == nil {
		cfg.Render = render.New(render.Options{})
	}
	if cfg.NewPlayer == nil {
		cfg.NewPlayer = StandardPlayer
	}
	if len(cfg.Levels) == 0 {
		cfg.Levels = ai.Levels()
		cfg.DefaultLevel = ai.DefaultLevel
	}
	if len(cfg.Colors) == 0 {
		for _, c := range render.PlayerColors(render.Default) {
			cfg.Colors = append(cfg.Colors, c.Name)
		}
	}
	return cfg
}

// StandardPlayer makes a computer player of one of ai's levels, or the
// careful one ("cautious") that stands in for people out of time.
func StandardPlayer(level string, seed uint64) (Player, error) {
	if level == "cautious" {
		return ai.Cautious(seed), nil
	}
	if !slices.Contains(ai.Levels(), level) {
		return nil, fmt.Errorf("bot: no computer player level %q", level)
	}
	return ai.New(level, ai.Options{Seed: seed})
}
