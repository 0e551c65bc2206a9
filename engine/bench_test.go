package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// midGame returns a 4-player game some way into play.
func midGame(b *testing.B) *state.State {
	return playRandomUntil(b, state.DefaultOptions(), 12, randomMove).State
}

var fourSeats = []SeatInfo{{"a", "A"}, {"b", "B"}, {"c", "C"}, {"d", "D"}}

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

// sink keeps benchmark results on the heap, as real callers would.
var sink *state.State

func BenchmarkClone(b *testing.B) {
	s := midGame(b)
	b.ReportAllocs()
	for b.Loop() {
		sink = s.Clone()
	}
}

func BenchmarkLegal(b *testing.B) {
	s := midGame(b)
	for s.Phase != state.PhaseAttack {
		if _, err := Apply(s, s.Current, AutoPlace{}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Legal(s, s.Current)
	}
}

// BenchmarkRandomGame plays a whole 4-player game of random legal play
// (biased toward attacks so that it ends), without recording a log.
func BenchmarkRandomGame(b *testing.B) {
	benchRandomGames(b, state.DefaultOptions(), randomMove)
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
