package render

import (
	"math/rand/v2"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// playGame plays a seeded match of random but purposeful legal moves (place
// everything, blitz when stronger, fortify, end the turn) for at most steps
// commands, or to its end when steps < 0. It returns the game.
func playGame(t testing.TB, players int, seed uint64, steps int) *engine.Game {
	t.Helper()
	names := []string{"Ann", "Bob", "Chloé", "Dmitri", "Eve", "Farouk"}
	var seats []engine.SeatInfo
	for i := range players {
		seats = append(seats, engine.SeatInfo{ID: names[i], Name: names[i]})
	}
	g, err := engine.NewGame(engine.Setup{Options: state.DefaultOptions(), Seats: seats, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 7))
	attacks := 0
	for n := 0; steps < 0 || n < steps; n++ {
		s := g.State
		if s.Phase == state.PhaseOver || n > 20000 {
			break
		}
		seat := s.Current
		if s.Phase == state.PhaseSetup {
			for i := range s.Seats {
				if s.Seats[i].Reserve > 0 {
					seat = i
					break
				}
			}
		}
		c := pickMove(rng, s, engine.Legal(s, seat), &attacks)
		if c == nil {
			t.Fatalf("no move for seat %d in phase %s", seat, s.Phase)
		}
		if _, _, err := g.Apply(seat, c); err != nil {
			t.Fatalf("apply %#v: %v", c, err)
		}
	}
	return g
}

func pickMove(rng *rand.Rand, s *state.State, legal []engine.Command, attacks *int) engine.Command {
	var blitz, fortify, trade, other []engine.Command
	var end, auto, occupy engine.Command
	for _, c := range legal {
		switch c := c.(type) {
		case engine.Surrender:
		case engine.AutoPlace:
			auto = c
		case engine.Trade:
			trade = append(trade, c)
		case engine.EndTurn:
			end = c
		case engine.Occupy:
			if occupy == nil || c.Armies > occupy.(engine.Occupy).Armies {
				occupy = c
			}
		case engine.Blitz:
			if c.Keep == 1 && s.Terr[c.From].Armies > s.Terr[c.To].Armies+1 {
				blitz = append(blitz, c)
			}
		case engine.Fortify:
			fortify = append(fortify, c)
		case engine.Attack:
		default:
			other = append(other, c)
		}
	}
	switch {
	case len(trade) > 0:
		return trade[rng.IntN(len(trade))]
	case auto != nil:
		return auto
	case occupy != nil:
		return occupy
	case len(blitz) > 0 && *attacks < 4:
		*attacks++
		return blitz[rng.IntN(len(blitz))]
	case len(fortify) > 0 && s.Phase == state.PhaseAttack && rng.IntN(2) == 0:
		*attacks = 0
		return fortify[rng.IntN(len(fortify))]
	case end != nil:
		*attacks = 0
		return end
	case len(other) > 0:
		return other[rng.IntN(len(other))]
	}
	return nil
}
