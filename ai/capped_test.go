package ai_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/ai/tournament"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

var (
	cappedPlayers = flag.String("capped", "", "TestCappedGames: the players of a capitals tournament, comma-separated (empty: skip)")
	cappedSeed    = flag.Uint64("capped.seed", 1, "TestCappedGames: the tournament's seed")
	cappedGames   = flag.Int("capped.games", 100, "TestCappedGames: the number of games")
	cappedSize    = flag.String("capped.size", "normal", "TestCappedGames: the map size")
	cappedLast    = flag.Int("capped.last", 10, "TestCappedGames: how many of the last turns to print")
)

// TestCappedGames plays a capitals tournament as risk tournament does
// and prints the last turns of every game that reaches the turn cap: each
// command, and the board at the start of each of those turns. It is how
// issue 34 found why matches stalled:
//
//	go test ./ai -run TestCappedGames -capped normal,easy,easy,easy -capped.seed 39
func TestCappedGames(t *testing.T) {
	if *cappedPlayers == "" {
		t.Skip("run with -capped LEVELS")
	}
	players := strings.Split(*cappedPlayers, ",")
	opts := state.CapitalsOptions()
	opts.Map = *cappedSize
	const maxTurns = tournament.DefaultMaxTurns
	var (
		mu      sync.Mutex
		made    int
		logs    = map[int]*strings.Builder{} // by game
		reached = map[int]bool{}
	)
	cfg := tournament.Config{Options: opts, Players: players, Games: *cappedGames, Seed: *cappedSeed, Parallel: 1, MaxTurns: maxTurns,
		New: func(level string, o ai.Options) (ai.Player, error) {
			p, err := ai.New(level, o)
			mu.Lock()
			defer mu.Unlock()
			made++
			// The tournament checks every level once, then makes each
			// game's players in turn (one game at a time).
			game := (made - len(players) - 1) / len(players)
			return recorder{p, level, game, func(g int, line string, cap bool) {
				mu.Lock()
				defer mu.Unlock()
				if logs[g] == nil {
					logs[g] = &strings.Builder{}
				}
				logs[g].WriteString(line)
				reached[g] = reached[g] || cap
			}}, err
		}}
	recorderFrom = maxTurns - *cappedLast + 1
	r, err := tournament.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	for g := range *cappedGames {
		if reached[g] {
			fmt.Fprintf(os.Stdout, "game %d reached the turn cap:\n%s\n", g, logs[g])
		}
	}
	t.Logf("%d of %d games reached the turn cap", r.Draws, r.Games)
}

// recorderFrom is the first turn a recorder writes down.
var recorderFrom int

// recorder is a player that writes down its decisions from turn
// recorderFrom on, with the board at the start of each turn.
type recorder struct {
	ai.Player
	level string
	game  int
	note  func(game int, line string, capped bool)
}

func (p recorder) Act(ctx context.Context, v *state.State, seat int) (engine.Command, error) {
	c, err := p.Player.Act(ctx, v, seat)
	if v.Turn < recorderFrom || err != nil {
		return c, err
	}
	var b strings.Builder
	if v.Phase == state.PhaseReinforce && v.Seats[seat].Reserve > 0 {
		fmt.Fprintf(&b, "turn %d, seat %d (%s), board:\n", v.Turn, seat, p.level)
		for t := range v.Terr {
			o := v.Terr[t].Owner
			mark := ""
			if o >= 0 && v.Capital(o) == t {
				mark += " capital"
			}
			if o >= 0 && v.Hero(o) == t {
				mark += " hero"
			}
			if v.Terr[t].Port {
				mark += " port"
			}
			fmt.Fprintf(&b, "  t%d owner %d troops %d defence %d%s; land %v, sea %v\n", t, o, v.Terr[t].Armies,
				v.DefenceTotal(t)/state.PowerUnit, mark, v.Map.Territories[t].Adj, v.Map.Territories[t].Sea)
		}
	}
	fmt.Fprintf(&b, "turn %d, seat %d (%s), %s: %s\n", v.Turn, seat, p.level, v.Phase, engine.Describe(v.Map, c))
	p.note(p.game, b.String(), v.Turn >= tournament.DefaultMaxTurns)
	return c, err
}
