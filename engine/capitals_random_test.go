package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// randomCapitalsSetup varies the player count, the map size and every
// capitals option with the seed.
func randomCapitalsSetup(seed uint64) Setup {
	r := rand.New(rand.NewPCG(seed, 1234))
	seats := randomSeats(r)
	o := state.CapitalsOptions()
	o.Map = []string{"small", "normal", "large"}[r.IntN(3)]
	o.NeutralMin = r.IntN(4)
	o.NeutralMax = o.NeutralMin + r.IntN(6)
	o.CapitalTroops = 5 + r.IntN(16)
	o.Rounds = randomRounds(r)
	o.Fog = r.IntN(4) == 0
	randomTeams(r, &o, seats) // last, so that earlier setups draw the same
	return Setup{Options: o, Seats: seats, Seed: seed}
}

// randomCapitalsMove picks a random legal command for the seat to play,
// sometimes an undo, rarely an abandon, leaning toward attacks so that
// games end within the cap.
func randomCapitalsMove(g *Game, r *rand.Rand) (int, Command) {
	s := g.State
	seat := s.Current
	if g.CanUndo(seat) && r.IntN(12) == 0 {
		return seat, Undo{}
	}
	moves := Legal(s, seat)
	byType := map[string][]Command{}
	for _, c := range moves {
		byType[c.Name()] = append(byType[c.Name()], c)
	}
	pick := func(name string) Command {
		cs := byType[name]
		return cs[r.IntN(len(cs))]
	}
	if r.IntN(1500) == 0 {
		return seat, Surrender{}
	}
	for _, p := range []struct {
		name   string
		chance int // in 100
	}{{"launch", 60}, {"plan", 70}, {"use", 30}, {"capture", 60}, {"port", 15}, {"reinforce", 95}, {"move", 50}, {"capital", 100}} {
		if len(byType[p.name]) > 0 && r.IntN(100) < p.chance {
			return seat, pick(p.name)
		}
	}
	for {
		c := moves[r.IntN(len(moves))]
		if _, ok := c.(Surrender); !ok {
			return seat, c
		}
	}
}

// capitalsSteps returns the checks of each command of g beyond
// State.Check: a dead hero never returns (undo aside), items appear only at
// the start of a turn, a player's item kind stays off every other seat's
// view.
func capitalsSteps(g *Game) stepCheck {
	deadHeroes := make([]bool, len(g.State.Seats))
	return func(t testing.TB, seed uint64, step int, before, after *state.State, ev []Event) {
		t.Helper()
		undone := false
		for _, e := range ev {
			if _, ok := e.(Undone); ok {
				undone = true
			}
		}
		for i := range after.Seats {
			c := after.Seats[i].Capitals
			if c.HeroWon && c.Hero == 0 && after.Seats[i].Alive() {
				deadHeroes[i] = true
			}
			if deadHeroes[i] && c.Hero != 0 && !undone {
				t.Fatalf("seed %d step %d: seat %d's dead hero came back", seed, step, i)
			}
			for v := range after.Seats {
				if v != i && after.View(v).Seats[i].Capitals.Item.Known() {
					t.Fatalf("seed %d step %d: seat %d sees seat %d's item", seed, step, v, i)
				}
			}
		}
		for t2, tr := range after.Terr {
			if tr.Item != state.NoItem && before.Terr[t2].Item == state.NoItem && after.Turn == before.Turn && !undone {
				t.Fatalf("seed %d step %d: an item appeared on %d mid-turn", seed, step, t2)
			}
		}
	}
}

// randomCapitalsCommand makes a command of any type, capitals or classic,
// with plausible or silly fields.
func randomCapitalsCommand(r *rand.Rand, s *state.State) Command {
	t := func() int { return r.IntN(s.Map.Len()+4) - 2 }
	switch r.IntN(12) {
	case 0:
		return Capital{t()}
	case 1:
		return Reinforce{t()}
	case 2:
		return Capture{t(), t()}
	case 3:
		return BuildPort{t()}
	case 4, 5:
		return Plan{t(), t()}
	case 6:
		return Launch{}
	case 7:
		return UseItem{}
	case 8, 9:
		return Move{t(), t(), r.IntN(6) - 1, r.IntN(2) == 0}
	case 10:
		return EndTurn{}
	}
	return randomCommand(r, s)
}
