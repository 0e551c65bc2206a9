// Package tournament plays computer players against each other and measures
// them: wins with a 95% Wilson interval, game length, decision time. The
// same configuration and seed give the same games and the same results,
// whatever the parallelism.
package tournament

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Config describes a tournament.
type Config struct {
	// Options are the match rules (classic, map, cards, fortify, victory).
	Options state.Options
	// Players are the levels, one per seat ("hard", "normal", "exec:./bot").
	Players []string
	// Games is the number of games; Seed fixes every one of them.
	Games int
	Seed  uint64
	// Parallel is the number of games played at once (1 if < 1).
	Parallel int
	// MaxTurns ends a game as a draw after that many turns (DefaultMaxTurns
	// if 0).
	MaxTurns int
	// Player holds what every player shares: Budget, Iterations, Timeout,
	// Style, Dir. Seed is replaced per game and seat.
	Player ai.Options
	// Progress, if not nil, receives a progress bar.
	Progress io.Writer
	// New makes the players (ai.New if nil).
	New func(level string, opts ai.Options) (ai.Player, error)
}

// DefaultMaxTurns is the turn cap of a game (turns of all players counted).
const DefaultMaxTurns = 600

// maxCommandsPerTurn ends a turn whose player will not stop (a fault).
const maxCommandsPerTurn = 5000

// Result is the outcome of a tournament.
type Result struct {
	Games int `json:"games"`
	// Draws are the games capped at MaxTurns: nobody won.
	Draws int `json:"draws"`
	// AtRoundLimit are the games decided by the round limit
	// (Config.Options.Rounds), counted among the wins.
	AtRoundLimit int `json:"at_round_limit"`
	// Seed and MaxTurns are the tournament's (MaxTurns with its default
	// filled in), so that a result says how to play it again.
	Seed     uint64 `json:"seed"`
	MaxTurns int    `json:"max_turns"`
	// WallSeconds is the time the whole tournament took.
	WallSeconds float64 `json:"wall_seconds"`
	// MeanTurns is the mean length of a game in turns.
	MeanTurns float64        `json:"mean_turns"`
	Players   []PlayerResult `json:"players"`
	// Ratings are Elo-style ratings of each kind of player (entries of the
	// same level pooled), best first; only when more than two kinds take
	// part (see Ratings).
	Ratings []Rating `json:"ratings,omitempty"`
	// Teams are the teams' wins, with teams (Config.Options.Teams); a
	// player's Wins then count the games its team won.
	Teams []TeamResult `json:"teams,omitempty"`
}

// PlayerResult is one entry of Config.Players over all the games.
type PlayerResult struct {
	// Seat is the entry's number in Config.Players, from 1.
	Seat int `json:"seat"`
	// Name is the entry's level, followed by " #Seat" when another entry
	// has the same level (two copies of one exec: bot told apart).
	Name    string  `json:"name"`
	Wins    int     `json:"wins"`
	WinRate float64 `json:"win_rate"`
	CILow   float64 `json:"ci_low"`
	CIHigh  float64 `json:"ci_high"`
	// MeanTurns is the mean number of its own turns played per game.
	MeanTurns float64 `json:"mean_turns"`
	// Decision time is the time spent choosing the commands of one turn
	// (the whole initial placement counts as one turn).
	MeanDecisionMS float64 `json:"mean_decision_ms"`
	MaxDecisionMS  float64 `json:"max_decision_ms"`
	// Faults counts decisions lost to an error or an illegal command, each
	// replaced by ai.Fallback.
	Faults int `json:"faults"`
}

// game is one game's outcome, by entry of Config.Players.
type game struct {
	winner  int // entry index, or -1 for a draw
	turns   int
	limited bool // decided by the round limit (state.Options.Rounds)
	own     []int
	decided []int           // turns timed
	total   []time.Duration // their time
	longest []time.Duration
	faults  []int
}

// Run plays the tournament.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	n := len(cfg.Players)
	if n < 2 || n > state.MaxSeats {
		return nil, fmt.Errorf("tournament: want 2 to %d players, not %d", state.MaxSeats, n)
	}
	if cfg.Games < 1 {
		return nil, fmt.Errorf("tournament: want at least one game, not %d", cfg.Games)
	}
	if err := checkTeams(cfg); err != nil {
		return nil, err
	}
	switch cfg.Options.Rules {
	case state.Classic:
		if cfg.Options.Map == "" {
			cfg.Options.Map = "classic"
		}
	case state.Capitals:
		// The map is generated for each game from its seed, at the size
		// Options.Map names ("small", "normal", "large"; "" is normal).
		if _, err := engine.New(engine.Setup{Options: cfg.Options, Seats: withTeams(seatInfos(cfg.Players), cfg.Options.Teams), Seed: cfg.Seed}); err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
	default:
		return nil, fmt.Errorf("tournament: the %s rules have no computer players", cfg.Options.Rules)
	}
	if cfg.MaxTurns <= 0 {
		cfg.MaxTurns = DefaultMaxTurns
	}
	if cfg.New == nil {
		cfg.New = ai.New
	}
	began := time.Now()
	for _, lvl := range cfg.Players { // fail early on a bad level
		p, err := cfg.New(lvl, cfg.Player)
		if err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
		if err := ai.Close(p); err != nil {
			return nil, fmt.Errorf("tournament: %w", err)
		}
	}
	par := max(1, min(cfg.Parallel, cfg.Games))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	games := make([]game, cfg.Games)
	bar := newProgress(cfg.Progress, cfg.Games)
	jobs := make(chan int)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
	)
	for range par {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range jobs {
				res, err := play(ctx, cfg, g)
				if err != nil {
					mu.Lock()
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					cancel()
					continue
				}
				games[g] = res
				bar.done()
			}
		}()
	}
feed:
	for g := range cfg.Games {
		select {
		case jobs <- g:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	bar.finish()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("tournament: %w", err)
	}
	r := summarize(cfg, games)
	r.WallSeconds = time.Since(began).Seconds()
	return r, nil
}

// play plays game number g. Seats rotate: the entry i of Config.Players
// plays at position (i - g) mod n of the turn order, so over n games every
// player starts from every position.
func play(ctx context.Context, cfg Config, g int) (game, error) {
	n := len(cfg.Players)
	seats := withTeams(seatInfos(cfg.Players), cfg.Options.Teams)
	// entry[seat] is the Config.Players entry at that turn position.
	entry := make([]int, n)
	deal := &engine.Deal{Order: make([]int, n)}
	for pos := range n {
		entry[pos] = (pos + g) % n
		deal.Order[pos] = entry[pos]
	}
	setup := engine.Setup{Options: cfg.Options, Seats: seats, Seed: ai.Mix(cfg.Seed, uint64(g), 0), Deal: deal}
	if cfg.Options.Rules == state.Capitals {
		// The engine draws the map and the neutral troops from the game's
		// seed; only the turn order (and so the order in which capitals
		// are chosen) is set here.
		drawn, err := engine.New(engine.Setup{Options: cfg.Options, Seats: seats, Seed: setup.Seed})
		if err != nil {
			return game{}, fmt.Errorf("tournament: game %d: %w", g, err)
		}
		for t := range drawn.Terr {
			deal.Troops = append(deal.Troops, drawn.Terr[t].Armies)
		}
	} else {
		// Generated islands ("islands-large") are drawn from each game's seed.
		m, err := engine.LoadMap(engine.ClassicMatchMap(cfg.Options.Map, setup.Seed))
		if err != nil {
			return game{}, fmt.Errorf("tournament: %w", err)
		}
		deal.Owners = make([]int, m.Len())
		rng := rand.New(rand.NewPCG(ai.Mix(cfg.Seed, uint64(g), 1), 7))
		for i, t := range rng.Perm(m.Len()) {
			deal.Owners[t] = i % n
		}
		if cfg.Options.Victory == state.Missions {
			// Drawn after the territories: other games deal as before.
			deal.Missions = rng.Perm(state.MissionCards)[:n]
		}
	}
	s, err := engine.New(setup)
	if err != nil {
		return game{}, fmt.Errorf("tournament: game %d: %w", g, err)
	}
	players := make([]ai.Player, n)
	res := game{winner: -1, own: make([]int, n), decided: make([]int, n), total: make([]time.Duration, n), longest: make([]time.Duration, n), faults: make([]int, n)}
	defer func() {
		for _, p := range players {
			if p != nil {
				_ = ai.Close(p)
			}
		}
	}()
	for pos := range n {
		opts := cfg.Player
		opts.Seed = ai.Mix(cfg.Seed, uint64(g), 2, uint64(entry[pos]))
		p, err := cfg.New(cfg.Players[entry[pos]], opts)
		if err != nil {
			return game{}, fmt.Errorf("tournament: %w", err)
		}
		players[pos] = p
	}
	spent := make([]time.Duration, n) // this turn so far, by position
	flush := func(pos int) {
		if spent[pos] == 0 {
			return
		}
		e := entry[pos]
		res.decided[e]++
		res.total[e] += spent[pos]
		res.longest[e] = max(res.longest[e], spent[pos])
		spent[pos] = 0
	}
	act := func(pos int) error {
		start := time.Now()
		c, err := players[pos].Act(ctx, s.View(pos), pos)
		spent[pos] += max(time.Since(start), time.Nanosecond)
		if ctx.Err() != nil {
			return fmt.Errorf("tournament: %w", ctx.Err())
		}
		if err == nil {
			_, err = engine.Apply(s, pos, c)
		}
		if err != nil {
			res.faults[entry[pos]]++
			if _, err := engine.Apply(s, pos, ai.Fallback(s, pos)); err != nil {
				return fmt.Errorf("tournament: game %d: the safe default failed: %w", g, err)
			}
		}
		return nil
	}
	for steps := 0; s.Phase == state.PhaseSetup; steps++ {
		if steps > maxCommandsPerTurn {
			return game{}, fmt.Errorf("tournament: game %d: the initial placement does not end", g)
		}
		if cfg.Options.Rules == state.Capitals {
			// Capitals are chosen one at a time, in turn order.
			if err := act(s.Current); err != nil {
				return game{}, err
			}
			continue
		}
		for pos := range n {
			if s.Phase == state.PhaseSetup && s.Seats[pos].Alive() && s.Seats[pos].Reserve > 0 {
				if err := act(pos); err != nil {
					return game{}, err
				}
			}
		}
	}
	for pos := range n {
		flush(pos)
	}
	for s.Phase != state.PhaseOver && s.Turn <= cfg.MaxTurns {
		if s.Phase == state.PhaseOrders {
			if err := round(s, n, act, flush, &res, entry, g); err != nil {
				return game{}, err
			}
			continue
		}
		pos, turn := s.Current, s.Turn
		res.own[entry[pos]]++
		for steps := 0; s.Phase != state.PhaseOver && s.Turn == turn; steps++ {
			if steps >= maxCommandsPerTurn {
				res.faults[entry[pos]]++
				for s.Phase != state.PhaseOver && s.Turn == turn {
					if _, err := engine.Apply(s, pos, ai.Fallback(s, pos)); err != nil {
						return game{}, fmt.Errorf("tournament: game %d: the safe default failed: %w", g, err)
					}
				}
				break
			}
			if err := act(pos); err != nil {
				return game{}, err
			}
		}
		flush(pos)
	}
	res.turns = s.Turn
	for pos, p := range players {
		res.faults[entry[pos]] += ai.Faults(p)
	}
	if s.Phase == state.PhaseOver {
		res.winner = entry[s.Winner]
		res.limited = engine.EndedAtRoundLimit(s)
	}
	return res, nil
}

// round plays a simultaneous round: each living seat orders, from its
// own view (the others' orders hidden), until it commits; the last commit
// resolves the round. A seat's decisions are timed as one turn.
func round(s *state.State, n int, act func(int) error, flush func(int), res *game, entry []int, g int) error {
	turn := s.Turn
	for pos := range n {
		waiting := func() bool {
			return s.Phase == state.PhaseOrders && s.Turn == turn && s.Seats[pos].Alive() && !s.Seats[pos].Ready
		}
		if !waiting() {
			continue
		}
		res.own[entry[pos]]++
		for steps := 0; waiting(); steps++ {
			if steps >= maxCommandsPerTurn {
				res.faults[entry[pos]]++
				for waiting() {
					if _, err := engine.Apply(s, pos, ai.Fallback(s, pos)); err != nil {
						return fmt.Errorf("tournament: game %d: the safe default failed: %w", g, err)
					}
				}
				break
			}
			if err := act(pos); err != nil {
				return err
			}
		}
		flush(pos)
	}
	return nil
}

// seatInfos names the seats of a game after the entries of Config.Players.
func seatInfos(players []string) []engine.SeatInfo {
	seats := make([]engine.SeatInfo, len(players))
	for i, lvl := range players {
		seats[i] = engine.SeatInfo{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("%s #%d", lvl, i+1)}
	}
	return seats
}

func summarize(cfg Config, games []game) *Result {
	n := len(cfg.Players)
	r := &Result{Games: len(games), Seed: cfg.Seed, MaxTurns: cfg.MaxTurns, Players: make([]PlayerResult, n)}
	decided := make([]int, n)
	total := make([]time.Duration, n)
	longest := make([]time.Duration, n)
	own := make([]int, n)
	turns := 0
	for _, g := range games {
		turns += g.turns
		if g.winner < 0 {
			r.Draws++
		} else {
			r.Players[g.winner].Wins++
			for i := range n {
				if i != g.winner && cfg.Options.Teams > 0 && entryTeam(i, n, cfg.Options.Teams) == entryTeam(g.winner, n, cfg.Options.Teams) {
					r.Players[i].Wins++ // won with its team
				}
			}
		}
		if g.limited {
			r.AtRoundLimit++
		}
		for i := range n {
			decided[i] += g.decided[i]
			total[i] += g.total[i]
			longest[i] = max(longest[i], g.longest[i])
			own[i] += g.own[i]
			r.Players[i].Faults += g.faults[i]
		}
	}
	r.MeanTurns = float64(turns) / float64(len(games))
	if cfg.Options.Teams == 0 {
		// (The ratings match one winner against the table: not teams.)
		r.Ratings = Ratings(cfg.Players, games)
	}
	r.Teams = teamResults(cfg, games)
	for i := range n {
		p := &r.Players[i]
		p.Seat, p.Name = i+1, entryName(cfg.Players, i)
		p.WinRate = float64(p.Wins) / float64(len(games))
		p.CILow, p.CIHigh = Wilson(p.Wins, len(games))
		p.MeanTurns = float64(own[i]) / float64(len(games))
		if decided[i] > 0 {
			p.MeanDecisionMS = ms(total[i]) / float64(decided[i])
		}
		p.MaxDecisionMS = ms(longest[i])
	}
	return r
}

// entryName is entry i's level, with its seat number when another entry
// has the same level.
func entryName(players []string, i int) string {
	for j, p := range players {
		if j != i && p == players[i] {
			return fmt.Sprintf("%s #%d", players[i], i+1)
		}
	}
	return players[i]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// Wilson returns the 95% Wilson score interval of a proportion of wins in
// n trials.
func Wilson(wins, n int) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	const z = 1.959963984540054
	p := float64(wins) / float64(n)
	nn := float64(n)
	den := 1 + z*z/nn
	centre := (p + z*z/(2*nn)) / den
	half := z / den * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn))
	return max(0, centre-half), min(1, centre+half)
}

// Format writes the result as a table for people.
func Format(w io.Writer, cfg Config, r *Result) error {
	maxTurns := cfg.MaxTurns
	if maxTurns <= 0 {
		maxTurns = DefaultMaxTurns
	}
	var b strings.Builder
	limit := ""
	if cfg.Options.Fog {
		limit = ", fog of war"
	}
	if t := cfg.Options.Teams; t > 0 {
		limit += fmt.Sprintf(", teams of %d", t)
	}
	if cfg.Options.Rounds > 0 {
		limit += fmt.Sprintf(", %d decided at the round limit (%d)", r.AtRoundLimit, cfg.Options.Rounds)
	}
	fmt.Fprintf(&b, "%s rules, %s map, %d seats, %d games, seed %d: %d capped at the turn cap (%d turns, draws)%s, mean game %.1f turns\n",
		cfg.Options.Rules, cfg.Options.Map, len(cfg.Players), r.Games, cfg.Seed, r.Draws, maxTurns, limit, r.MeanTurns)
	fmt.Fprintf(&b, "%-3s %-14s %6s %8s %17s %7s %12s %12s %7s\n", "#", "player", "wins", "win rate", "95% CI", "turns", "mean ms/turn", "max ms/turn", "faults")
	for _, p := range r.Players {
		fmt.Fprintf(&b, "%-3d %-14s %6d %7.1f%% %7.1f%% – %5.1f%% %7.1f %12.3f %12.3f %7d\n",
			p.Seat, shorten(p.Name, 14), p.Wins, 100*p.WinRate, 100*p.CILow, 100*p.CIHigh, p.MeanTurns, p.MeanDecisionMS, p.MaxDecisionMS, p.Faults)
	}
	formatTeams(&b, r)
	if len(r.Ratings) > 0 {
		fmt.Fprintf(&b, "\nElo-style ratings (mean %d; the winner of a game beats each other kind at the table, a draw is a draw):\n", eloMean)
		fmt.Fprintf(&b, "%-22s %7s %7s\n", "player", "rating", "score")
		for _, x := range r.Ratings {
			fmt.Fprintf(&b, "%-22s %7.0f %6.1f%%\n", shorten(x.Name, 22), x.Elo, 100*x.Score)
		}
	}
	fmt.Fprintf(&b, "(wall time %.1f s)\n", r.WallSeconds)
	_, err := io.WriteString(w, b.String())
	return err
}

// shorten cuts name to width runes, keeping a seat number (" #3") at its
// end, so that two copies of a long exec: command stay apart.
func shorten(name string, width int) string {
	rs := []rune(name)
	if len(rs) <= width {
		return name
	}
	tail := []rune{}
	if i := strings.LastIndex(name, " #"); i > 0 {
		tail = []rune(name[i:])
	}
	keep := max(0, width-1-len(tail))
	return string(rs[:keep]) + "…" + string(tail)
}

// progress draws a bar on a terminal: "[#####.....] 12/400 games".
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	total int
	n     int
	start time.Time
}

func newProgress(w io.Writer, total int) *progress {
	p := &progress{w: w, total: total, start: time.Now()}
	p.draw()
	return p
}

func (p *progress) done() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	p.draw()
}

func (p *progress) draw() {
	if p.w == nil {
		return
	}
	const width = 30
	fill := width * p.n / max(1, p.total)
	eta := ""
	if p.n > 0 && p.n < p.total {
		left := time.Since(p.start) / time.Duration(p.n) * time.Duration(p.total-p.n)
		eta = fmt.Sprintf(", %s left", left.Round(time.Second))
	}
	fmt.Fprintf(p.w, "\r[%s%s] %d/%d games%s   ", strings.Repeat("#", fill), strings.Repeat(".", width-fill), p.n, p.total, eta)
}

func (p *progress) finish() {
	if p.w == nil {
		return
	}
	fmt.Fprintln(p.w)
}
