package bot

import (
	"fmt"
	"slices"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/bot/clock"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/render"
)

// Standard fills the parts of cfg left empty with the standard ones: the
// palettes of package render ("standard" by default), the computer players
// of package ai and their levels. Outside ("exec:") players are never
// offered: a chat user must not be able to start programs on the server.
func Standard(cfg Config) Config {
	if cfg.Palettes == nil {
		cfg.Palettes = look.StandardPalettes()
	}
	if cfg.Render == nil {
		def := cfg.Palettes[command.PaletteStandard]
		cfg.Render, cfg.RenderIn, cfg.Colors, cfg.RGB = def.Render, def.In, def.Colors, def.RGB
	}
	if cfg.NewPlayer == nil {
		cfg.NewPlayer = StandardPlayer
	}
	if len(cfg.Levels) == 0 {
		cfg.Levels = ai.Levels()
		cfg.DefaultLevel = ai.DefaultLevel
	}
	if len(cfg.Colors) == 0 {
		cfg.Colors, cfg.RGB = look.PaletteColors(render.Default)
	}
	return cfg
}

// StandardPlayer makes a computer player of one of ai's levels, or the
// careful one ("cautious") that stands in for people out of time.
func StandardPlayer(level string, seed uint64) (clock.Player, error) {
	switch level {
	case "cautious":
		return ai.Cautious(seed), nil
	case "bold":
		// A person's standing orders (caution:bold): normal, attacking more.
		return ai.New("normal", ai.Options{Seed: seed, Style: 0.6})
	}
	if !slices.Contains(ai.Levels(), level) {
		return nil, fmt.Errorf("bot: no computer player level %q", level)
	}
	return ai.New(level, ai.Options{Seed: seed})
}
