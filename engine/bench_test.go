package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// benchRules are the rule sets the benchmarks of a game's state run over:
// a 4-player game of each some turns into random play (capitals on a
// normal map), and the command that takes it on to the phase of many
// legal commands (attack, action).
var benchRules = []struct {
	name  string
	opts  state.Options
	turns int
	move  randomMover
	phase state.Phase
	next  func(s *state.State) Command
}{
	{"classic", state.DefaultOptions(), 12, randomMove, state.PhaseAttack, func(*state.State) Command { return AutoPlace{} }},
	{"capitals", state.CapitalsOptions(), 16, randomCapitalsMove, state.PhaseAction, func(s *state.State) Command { return Legal(s, s.Current)[0] }},
}

var fourSeats = []SeatInfo{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}, {ID: "c", Name: "C"}, {ID: "d", Name: "D"}}

// playRandomUntil plays a 4-player game with opts from seed 42, random
// legal commands but no undo (to move on), until turn turns or its end.
func playRandomUntil(b *testing.B, opts state.Options, turns int, move randomMover) *Game {
	g, err := NewGame(Setup{Options: opts, Seats: fourSeats, Seed: 42})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(42, 42))
	for g.State.Turn < turns && g.State.Phase != state.PhaseOver {
		seat, c := move(g, r)
		if _, ok := c.(Undo); ok {
			continue
		}
		if _, _, err := g.Apply(seat, c); err != nil {
			b.Fatal(err)
		}
	}
	return g
}

// BenchmarkAttackRoll applies one attack roll (3 dice against 2), events
// included.
func BenchmarkAttackRoll(b *testing.B) {
	s := board(b, annAttacks)
	from, to := T("Alaska"), T("Kamchatka")
	b.ReportAllocs()
	for b.Loop() {
		s.Terr[from].Armies = 100
		s.Terr[to].Armies = 100
		if _, err := Apply(s, 0, Attack{from, to, 3}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCapitalsLaunch plans one attack and launches it (luck drawn,
// damage done, events), from a prepared action phase.
func BenchmarkCapitalsLaunch(b *testing.B) {
	s := capBoard(b, twoCapitals+"\nAlba: Ann 40 capital\nBrin: Bob 1")
	b.ReportAllocs()
	for b.Loop() {
		s.Phase = state.PhaseAction
		s.Terr[I("Brin")] = state.Terr{Owner: 1, Armies: 1}
		if _, err := Apply(s, 0, Plan{I("Alba"), I("Brin")}); err != nil {
			b.Fatal(err)
		}
		if _, err := Apply(s, 0, Launch{}); err != nil {
			b.Fatal(err)
		}
	}
}

// sink keeps benchmark results on the heap, as real callers would.
var sink *state.State

// BenchmarkClone clones a 4-player mid-game state.
func BenchmarkClone(b *testing.B) {
	for _, r := range benchRules {
		b.Run(r.name, func(b *testing.B) {
			s := playRandomUntil(b, r.opts, r.turns, r.move).State
			b.ReportAllocs()
			for b.Loop() {
				sink = s.Clone()
			}
		})
	}
}

// BenchmarkLegal lists every legal command of an attack phase (classic) or
// an action phase (capitals: captures, ports, the plans that pass the
// strictly-greater rule, every move by quarters).
func BenchmarkLegal(b *testing.B) {
	for _, r := range benchRules {
		b.Run(r.name, func(b *testing.B) {
			s := playRandomUntil(b, r.opts, r.turns, r.move).State
			for s.Phase != r.phase {
				if _, err := Apply(s, s.Current, r.next(s)); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				_ = Legal(s, s.Current)
			}
		})
	}
}

// BenchmarkRandomGame plays a whole 4-player game of random legal play
// (biased toward attacks so that it ends), without recording a log; a
// capitals game on a normal map, generated once, as the host caches it.
func BenchmarkRandomGame(b *testing.B) {
	b.Run("classic", func(b *testing.B) { benchRandomGames(b, state.DefaultOptions(), randomMove) })
	b.Run("capitals", func(b *testing.B) {
		o := state.CapitalsOptions()
		o.Map = MatchMap("normal", 1)
		benchRandomGames(b, o, randomCapitalsMove)
	})
}

// benchRandomGames plays a whole 4-player game with opts per op, a new
// seed each, with move's random legal commands and no undo, and reports
// the commands a game takes.
func benchRandomGames(b *testing.B, opts state.Options, move randomMover) {
	b.ReportAllocs()
	seed := uint64(0)
	commands := 0
	for b.Loop() {
		seed++
		s, err := New(Setup{Options: opts, Seats: fourSeats, Seed: seed})
		if err != nil {
			b.Fatal(err)
		}
		g := &Game{State: s}
		r := rand.New(rand.NewPCG(seed, 1))
		for step := 0; step < 5000 && s.Phase != state.PhaseOver; step++ {
			seat, c := move(g, r)
			if _, ok := c.(Undo); ok {
				continue
			}
			if _, err := Apply(s, seat, c); err != nil {
				b.Fatal(err)
			}
			commands++
		}
	}
	b.ReportMetric(float64(commands)/float64(b.N), "commands/game")
}

func BenchmarkAttackOdds200(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AttackOdds(200, 200); err != nil {
			b.Fatal(err)
		}
	}
}
