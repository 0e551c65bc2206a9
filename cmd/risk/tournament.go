package main

import (
	"context"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/ai/tournament"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/state"
)

// runTournament is `risk tournament --players hard,normal,easy,random [--games N] [--seed S] ...`.
func runTournament(ctx context.Context, e env) error {
	fs := newFlags(e, "tournament", "{levels}", strings.Join(ai.Levels(), ", "), "{reference}", ai.ReferenceLevel)
	rules := fs.String("rules", "classic", "rule set: classic or capitals")
	mapName := fs.String("map", "classic", "map (classic rules): classic, islands-small|normal|large generated for each game, or a Domination FILE.map (its images beside it) or FILE.zip")
	size := fs.String("size", "normal", "size of the maps generated for each game (capitals rules): small, normal or large")
	cards := fs.String("cards", "escalating", "card values: escalating or fixed")
	fortify := fs.String("fortify", "connected", "fortification: connected or adjacent")
	victory := fs.String("victory", "two-thirds", "victory: two-thirds or domination")
	turns := fs.String("turns", "sequential", "turns: sequential, or simultaneous rounds (classic rules)")
	rounds := fs.Int("rounds", 0, "round limit: a game ends after that many rounds, the most territories winning (0: none)")
	fog := fs.Bool("fog", false, "fog of war: each player sees only its territories and their neighbours")
	teams := fs.Int("teams", 0, "team size, 2 or 3 (0: every player alone); entry i of --players is in team i mod (players/size) + 1")
	players := fs.String("players", "", "comma-separated levels, one per seat (2 to 6)")
	games := fs.Int("games", 100, "number of games")
	seed := fs.Uint64("seed", 1, "seed of the whole tournament")
	parallel := fs.Int("parallel", 1, "games played at once")
	maxTurns := fs.Int("max-turns", tournament.DefaultMaxTurns, "turns after which a game is a draw")
	budget := fs.Duration("budget", ai.DefaultBudget, "the most hard may think per turn: a ceiling on its fixed numbers of iterations")
	iterations := fs.Int("iterations", 0, "hard's search iterations per turn (0: its own numbers, 400 playouts in capitals; set it, with a generous --budget, for reproducible results)")
	timeout := fs.Duration("timeout", ai.DefaultTimeout, "an exec: bot's time per decision")
	startup := fs.Duration("startup", ai.DefaultStartup, "added to an exec: bot's first decision after each start of its program")
	style := fs.Float64("style", 0, "style of normal and hard, -1 defensive .. +1 aggressive")
	asJSON := fs.Bool("json", false, "print JSON")
	quiet := fs.Bool("quiet", false, "no progress bar")
	if err := parseNoArgs(fs, e.args); err != nil {
		return err
	}
	rs, err := state.ParseRules(*rules)
	if err != nil {
		return usageError("%v", err)
	}
	var opts state.Options
	switch rs {
	case state.Capitals:
		// Every game plays on a map generated from its own seed.
		if _, err := genmap.ParseSize(*size); err != nil {
			return usageError("--size: %v", err)
		}
		opts = state.CapitalsOptions()
		opts.Map = *size
	default:
		opts = state.DefaultOptions()
		if opts.Cards, err = state.ParseCardMode(*cards); err != nil {
			return usageError("%v", err)
		}
		if opts.Fortify, err = state.ParseFortify(*fortify); err != nil {
			return usageError("%v", err)
		}
		if opts.Victory, err = state.ParseVictory(*victory); err != nil {
			return usageError("%v", err)
		}
		opts.Map = *mapName
		if ext := strings.ToLower(filepath.Ext(*mapName)); ext == ".map" || ext == ".zip" {
			b, err := mapfile.ReadPath(*mapName, mapfile.Options{})
			if err != nil {
				return err
			}
			if err := engine.AddMap(b.Map); err != nil {
				return err
			}
			opts.Map = b.Map.Name
		}
	}
	if opts.Turns, err = state.ParseTurnMode(*turns); err != nil {
		return usageError("--turns: %v", err)
	}
	if opts.Turns == state.Simultaneous && rs != state.Classic {
		return usageError("--turns simultaneous: simultaneous turns are played with the classic rules only")
	}
	if *rounds < 0 || *rounds > state.MaxRounds {
		return usageError("--rounds: want 0 to %d, not %d", state.MaxRounds, *rounds)
	}
	opts.Rounds = *rounds
	opts.Fog = *fog
	if *teams != 0 {
		if *teams != 2 && *teams != 3 {
			return usageError("--teams: want 2 or 3, not %d", *teams)
		}
		if opts.Victory == state.Missions {
			return usageError("--teams: secret missions are played alone")
		}
	}
	opts.Teams = *teams
	if *players == "" {
		return usageError("--players is required, e.g. --players hard,normal,easy,random")
	}
	levels := strings.Split(*players, ",")
	for _, l := range levels {
		if !knownLevel(l) {
			return usageError("--players: unknown level %q: want %s, %s (the yardstick), or %sCOMMAND",
				l, strings.Join(ai.Levels(), ", "), ai.ReferenceLevel, ai.ExecPrefix)
		}
	}
	cfg := tournament.Config{
		Options:  opts,
		Players:  levels,
		Games:    *games,
		Seed:     *seed,
		Parallel: *parallel,
		MaxTurns: *maxTurns,
		Player:   ai.Options{Budget: *budget, Iterations: *iterations, Timeout: *timeout, Startup: *startup, Style: *style},
	}
	if !*quiet {
		cfg.Progress = e.stderr
	}
	res, err := tournament.Run(ctx, cfg)
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	return tournament.Format(e.stdout, cfg, res)
}

// knownLevel reports whether ai.New knows level by its name: a built-in
// level, the reference player, or an outside program (exec:COMMAND, whose
// command is tried when the tournament starts).
func knownLevel(level string) bool {
	return slices.Contains(ai.Levels(), level) || level == ai.ReferenceLevel ||
		(strings.HasPrefix(level, ai.ExecPrefix) && strings.TrimSpace(strings.TrimPrefix(level, ai.ExecPrefix)) != "")
}
