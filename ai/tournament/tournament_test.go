package tournament

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

func TestWilson(t *testing.T) {
	tests := []struct {
		wins, n int
		lo, hi  float64
	}{
		{0, 10, 0, 0.2775},
		{5, 10, 0.2366, 0.7634},
		{10, 10, 0.7225, 1},
		{95, 100, 0.8882, 0.9785},
		{160, 400, 0.3530, 0.4489},
		{0, 0, 0, 1},
	}
	for _, tt := range tests {
		lo, hi := Wilson(tt.wins, tt.n)
		if math.Abs(lo-tt.lo) > 5e-4 || math.Abs(hi-tt.hi) > 5e-4 {
			t.Errorf("Wilson(%d, %d) = [%.4f, %.4f], want [%.4f, %.4f]", tt.wins, tt.n, lo, hi, tt.lo, tt.hi)
		}
	}
}

func config(players ...string) Config {
	return Config{
		Options: state.DefaultOptions(),
		Players: players,
		Games:   12,
		Seed:    3,
		// A generous budget: with the iteration cap, only a starved
		// machine's clock could end hard's search early and change the
		// results.
		Player: ai.Options{Iterations: 12, Budget: time.Minute},
	}
}

// outcome is what must not change between runs with the same seed
// (decision times do).
func outcome(r *Result) string {
	var b strings.Builder
	for _, p := range r.Players {
		b.WriteString(p.Name)
		b.WriteByte(' ')
		b.WriteString(strings.Repeat("w", p.Wins))
		b.WriteString(strings.Repeat("t", int(p.MeanTurns*100)))
		b.WriteByte(';')
	}
	return b.String() + strings.Repeat("d", r.Draws) + strings.Repeat("m", int(r.MeanTurns*100))
}

func TestSameSeedSameResults(t *testing.T) {
	cfg := config("hard", "normal", "easy", "random")
	if racetest.Enabled {
		cfg.Games = 4 // three at once still, at a third of the cost
	}
	first, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Parallel = 3
	second, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if outcome(first) != outcome(second) {
		t.Errorf("same seed, different results:\n%+v\n%+v", first, second)
	}
	cfg.Seed = 4
	third, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if outcome(first) == outcome(third) {
		t.Error("another seed gave exactly the same results")
	}
	wins := first.Draws
	for _, p := range first.Players {
		wins += p.Wins
		if p.MeanDecisionMS <= 0 || p.MaxDecisionMS < p.MeanDecisionMS {
			t.Errorf("%s: decision time mean %v max %v", p.Name, p.MeanDecisionMS, p.MaxDecisionMS)
		}
		if p.CILow > p.WinRate || p.CIHigh < p.WinRate {
			t.Errorf("%s: win rate %v outside its interval [%v, %v]", p.Name, p.WinRate, p.CILow, p.CIHigh)
		}
	}
	if wins != first.Games {
		t.Errorf("%d wins and draws in %d games", wins, first.Games)
	}
}

// TestNormalBeatsRandom is a smoke test of strength: the recorded runs are
// in docs/ai.md; this only catches a player that broke.
func TestNormalBeatsRandom(t *testing.T) {
	cfg := config("normal", "random", "random", "random")
	cfg.Games = 16
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Players[0].Wins < 14 {
		t.Errorf("normal won %d of 16 games against three random players", r.Players[0].Wins)
	}
}

func TestTurnCapIsADraw(t *testing.T) {
	cfg := config("random", "random", "random")
	cfg.MaxTurns = 6
	cfg.Games = 4
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Draws != 4 {
		t.Errorf("%d draws, want 4 (turn cap 6)", r.Draws)
	}
	for _, p := range r.Players {
		if p.Wins != 0 {
			t.Errorf("%s won a capped game", p.Name)
		}
	}
}

// TestSeatsRotate: over n games every entry plays first once (classic:
// the first turn; capitals: the first choice of a capital, made in turn
// order).
func TestSeatsRotate(t *testing.T) {
	for g := range 3 {
		seen := map[int]bool{}
		for pos := range 3 {
			seen[(pos+g)%3] = true
		}
		if len(seen) != 3 {
			t.Fatal("not a rotation")
		}
	}
	for _, tt := range []struct {
		cfg   Config
		first func(s *state.State, seat int) bool // seat makes the first decision
	}{
		{config("a", "b", "c"), func(s *state.State, seat int) bool {
			return s.Turn == 1 && s.Phase == state.PhaseReinforce && s.Seats[seat].Reserve > 0
		}},
		{capitalsConfig("a", "b", "c"), func(s *state.State, seat int) bool {
			return s.Phase == state.PhaseSetup && s.Capital(0) < 0 && s.Capital(1) < 0 && s.Capital(2) < 0
		}},
	} {
		t.Run(fmt.Sprint(tt.cfg.Options.Rules), func(t *testing.T) {
			first := map[string]int{}
			cfg := tt.cfg
			cfg.Games = 3
			cfg.MaxTurns = 1
			cfg.New = func(level string, opts ai.Options) (ai.Player, error) {
				return firstMover{level, first, tt.first}, nil
			}
			if _, err := Run(context.Background(), cfg); err != nil {
				t.Fatal(err)
			}
			for _, l := range []string{"a", "b", "c"} {
				if first[l] != 1 {
					t.Errorf("%s made the first decision %d times in 3 games, want 1", l, first[l])
				}
			}
		})
	}
}

// firstMover counts the first decisions of the entry name (as isFirst
// tells them) and otherwise plays the fallback.
type firstMover struct {
	name    string
	first   map[string]int
	isFirst func(s *state.State, seat int) bool
}

func (f firstMover) Act(_ context.Context, s *state.State, seat int) (engine.Command, error) {
	if f.isFirst(s, seat) {
		f.first[f.name]++
	}
	return ai.Fallback(s, seat), nil
}

// broken misbehaves in every way a player can.
type broken struct{ n *int }

func (b broken) Act(_ context.Context, s *state.State, seat int) (engine.Command, error) {
	*b.n++
	switch *b.n % 3 {
	case 0:
		return nil, errors.New("broken: no idea")
	case 1:
		return engine.Attack{From: 0, To: 0, Dice: 9}, nil
	}
	return engine.Surrender{}, errors.New("broken: gives up")
}

func TestFaultyPlayerDoesNotStopTheTournament(t *testing.T) {
	cfg := config("broken", "easy", "easy")
	cfg.Games = 3
	n := 0
	cfg.New = func(level string, opts ai.Options) (ai.Player, error) {
		if level == "broken" {
			return broken{&n}, nil
		}
		return ai.New(level, opts)
	}
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Players[0].Faults == 0 || r.Players[0].Faults != n {
		t.Errorf("faults = %d, want every one of the %d decisions", r.Players[0].Faults, n)
	}
}

func TestBadConfig(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
	}{
		{"one player", config("normal")},
		{"seven players", config("easy", "easy", "easy", "easy", "easy", "easy", "easy")},
		{"unknown level", config("normal", "grandmaster")},
		{"no games", func() Config { c := config("easy", "easy"); c.Games = 0; return c }()},
		{"capitals with classic options", func() Config { c := config("easy", "easy"); c.Options.Rules = state.Capitals; return c }()},
		{"capitals on no such size", func() Config { c := capitalsConfig("easy", "easy"); c.Options.Map = "huge"; return c }()},
		{"no such map", func() Config { c := config("easy", "easy"); c.Options.Map = "atlantis"; return c }()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Run(context.Background(), tt.cfg); err == nil {
				t.Error("no error")
			}
		})
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	cfg := config("easy", "easy")
	if _, err := Run(ctx, cfg); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
}

func TestFormatAndProgress(t *testing.T) {
	cfg := config("normal", "easy")
	cfg.Games = 3
	var bar bytes.Buffer
	cfg.Progress = &bar
	r, err := Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(bar.String(), "3/3 games") {
		t.Errorf("progress bar %q never reached 3/3", bar.String())
	}
	var out bytes.Buffer
	if err := Format(&out, cfg, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"normal", "easy", "95% CI", "3 games"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

func capitalsConfig(players ...string) Config {
	c := config(players...)
	c.Options = state.CapitalsOptions()
	c.Options.Map = "small"
	return c
}

// TestCapitals plays a short capitals tournament for each level: every
// game ends with a winner or at the cap, no decision is lost, the seats
// rotate, and the same seed gives the same results.
func TestCapitals(t *testing.T) {
	tests := []struct {
		players []string
		// strongest must win at least this many of the games, if > 0.
		wins int
	}{
		{[]string{"random", "random", "random"}, 0},
		{[]string{"easy", "random", "random", "random"}, 6},
		{[]string{"normal", "random", "random", "random"}, 7},
		{[]string{"normal", "easy", "easy", "easy"}, 0},
		{[]string{"hard", "normal", "easy", "random"}, 0},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.players, ","), func(t *testing.T) {
			t.Parallel()
			cfg := capitalsConfig(tt.players...)
			cfg.Games = 8
			r, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range r.Players {
				if p.Faults != 0 {
					t.Errorf("%s lost %d decisions", p.Name, p.Faults)
				}
			}
			if r.Players[0].Wins < tt.wins {
				t.Errorf("%s won %d of %d games, want %d at least", tt.players[0], r.Players[0].Wins, cfg.Games, tt.wins)
			}
			cfg.Parallel = 2
			again, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if outcome(r) != outcome(again) {
				t.Errorf("same seed, different results:\n%+v\n%+v", r, again)
			}
		})
	}
}

// TestExampleBotBothRules builds the sample outside bot and plays short
// tournaments of both rule sets with it through the exec: level.
func TestExampleBotBothRules(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	bin := filepath.Join(t.TempDir(), "bot")
	out, err := exec.Command("go", "build", "-o", bin, "../../examples/bot").CombinedOutput()
	if err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, cfg := range []Config{config(ai.ExecPrefix+bin, "easy", "random"), capitalsConfig(ai.ExecPrefix+bin, "easy", "random")} {
		t.Run(fmt.Sprint(cfg.Options.Rules), func(t *testing.T) {
			cfg.Games = 3
			cfg.MaxTurns = 150
			r, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if f := r.Players[0].Faults; f != 0 {
				t.Errorf("the sample bot lost %d decisions", f)
			}
		})
	}
}

func TestRatings(t *testing.T) {
	win := func(w int) game { return game{winner: w} }
	repeat := func(n int, g game) []game {
		out := make([]game, n)
		for i := range out {
			out[i] = g
		}
		return out
	}
	tests := []struct {
		name    string
		players []string
		games   []game
		want    []string  // kinds, best first
		gap     []float64 // rating differences between neighbours, ±5
	}{
		{"two kinds: no table", []string{"hard", "normal"}, repeat(10, win(0)), nil, nil},
		{"two kinds, copies: no table", []string{"hard", "normal", "normal"}, repeat(10, win(0)), nil, nil},
		{
			// a beats b 3 to 1 and b beats c 3 to 1 (a beats c too): a
			// Bradley–Terry fit puts them ~190 points apart each.
			"three kinds in order",
			[]string{"a", "b", "c"},
			append(append(repeat(300, win(0)), repeat(100, win(1))...), repeat(0, win(2))...),
			[]string{"a", "b", "c"}, nil,
		},
		{
			"equal kinds rate equal",
			[]string{"x", "y", "z"},
			append(append(repeat(50, win(0)), repeat(50, win(1))...), repeat(50, win(2))...),
			[]string{"x", "y", "z"}, []float64{0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Ratings(tt.players, tt.games)
			if tt.want == nil {
				if got != nil {
					t.Errorf("got ratings %v, want none", got)
				}
				return
			}
			var names []string
			mean := 0.0
			for _, r := range got {
				names = append(names, r.Name)
				mean += r.Elo / float64(len(got))
			}
			if fmt.Sprint(names) != fmt.Sprint(tt.want) {
				t.Errorf("order %v, want %v (%+v)", names, tt.want, got)
			}
			if math.Abs(mean-eloMean) > 1e-6 {
				t.Errorf("mean rating %v, want %d", mean, eloMean)
			}
			for i, gap := range tt.gap {
				if d := got[i].Elo - got[i+1].Elo; math.Abs(d-gap) > 5 {
					t.Errorf("%s - %s = %.1f, want %.0f", got[i].Name, got[i+1].Name, d, gap)
				}
			}
		})
	}
}

// TestRatingsParIsEqual: one of a kind that wins a quarter of the games
// against three copies of another rates equal to them.
func TestRatingsParIsEqual(t *testing.T) {
	players := []string{"hard", "normal", "normal", "normal", "easy"}
	var games []game
	for i := range 100 {
		switch i % 5 {
		case 0:
			games = append(games, game{winner: 0})
		case 1, 2, 3:
			games = append(games, game{winner: i % 5})
		default:
			games = append(games, game{winner: -1})
		}
	}
	got := Ratings(players, games)
	elo := map[string]float64{}
	for _, r := range got {
		elo[r.Name] = r.Elo
	}
	if d := elo["hard"] - elo["normal"]; math.Abs(d) > 30 {
		t.Errorf("hard winning its share rates %.0f from normal, want about 0 (%+v)", d, got)
	}
	if !(elo["easy"] < elo["normal"]) {
		t.Errorf("easy never won but rates %.0f against normal's %.0f", elo["easy"], elo["normal"])
	}
}

// TestTwinEntriesToldApart: two entries of the same level carry their seat
// numbers, in the result and in the table, however long the name.
func TestTwinEntriesToldApart(t *testing.T) {
	long := "exec:./a-rather-long-bot-name --fast"
	r := &Result{Games: 1, Players: []PlayerResult{{Seat: 1, Name: entryName([]string{long, long, "easy"}, 0)},
		{Seat: 2, Name: entryName([]string{long, long, "easy"}, 1)}, {Seat: 3, Name: entryName([]string{long, long, "easy"}, 2)}}}
	if r.Players[0].Name == r.Players[1].Name || r.Players[2].Name != "easy" {
		t.Fatalf("names %q, %q, %q", r.Players[0].Name, r.Players[1].Name, r.Players[2].Name)
	}
	var out bytes.Buffer
	if err := Format(&out, config(long, long, "easy"), r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"… #1", "… #2", " easy "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, out.String())
		}
	}
}

// TestSimultaneousMatchesEnd: every level orders and commits each round of
// simultaneous matches, never needing the safe default, and the matches
// end with a winner; normal beats three easy players, and hard's search
// three normal ones, far more often than a seat's share (the figures with
// their intervals are in docs/ai.md, from risk tournament --turns
// simultaneous).
func TestSimultaneousMatchesEnd(t *testing.T) {
	racetest.SkipManyGames(t)
	for _, tc := range []struct {
		players []string
		games   int
		beats   bool // the first wins more than half the games
	}{
		{[]string{"random", "easy", "normal", "hard"}, 6, false},
		{[]string{"normal", "easy", "easy", "easy"}, 16, true},
		{[]string{"hard", "normal", "normal", "normal"}, 8, true},
	} {
		cfg := config(tc.players...)
		cfg.Options.Turns = state.Simultaneous
		cfg.Games = tc.games
		r, err := Run(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Draws > 0 {
			t.Errorf("%v: %d of %d games reached the turn cap", tc.players, r.Draws, r.Games)
		}
		for _, p := range r.Players {
			if p.Faults > 0 {
				t.Errorf("%v: %s needed the safe default %d times", tc.players, p.Name, p.Faults)
			}
		}
		if tc.beats && r.Players[0].Wins*2 <= r.Games {
			t.Errorf("%v: %s won %d of %d games", tc.players, tc.players[0], r.Players[0].Wins, r.Games)
		}
	}
}

// TestClassicOnIslands plays classic tournaments on generated islands of
// each size, a map for each game: every game is won, none capped.
func TestClassicOnIslands(t *testing.T) {
	for _, m := range engine.IslandsNames() {
		t.Run(m, func(t *testing.T) {
			cfg := config("normal", "easy", "random")
			cfg.Options.Map = m
			cfg.Games = 3
			r, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			if r.Draws != 0 {
				t.Errorf("%d of %d games capped at %d turns, want every game won", r.Draws, r.Games, cfg.MaxTurns)
			}
		})
	}
}
