package engine

import (
	"math/rand/v2"
	"testing"

	"github.com/riskbot/riskbot/internal/racetest"
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

// TestPlansTheWholeDefenceAllowsStayAllowedInTheFog: with fog of war a
// plan counts only the defence in sight (PlanningView), which is never
// more than the whole, so every plan that passes the rule on the whole
// board, as plans did before, is accepted: the logs of older matches
// replay as they were. Checked at every step of random capitals matches
// with fog.
func TestPlansTheWholeDefenceAllowsStayAllowedInTheFog(t *testing.T) {
	racetest.SkipManyGames(t)
	rg := capitalsGames
	setup := rg.setup
	rg.setup = func(seed uint64) Setup { s := setup(seed); s.Options.Fog = true; return s }
	games := 30
	if testing.Short() {
		games = 6
	}
	checked := 0
	for seed := range uint64(games) {
		_, log := rg.play(t, seed, 400)
		g, err := NewGame(rg.setup(seed))
		if err != nil {
			t.Fatal(err)
		}
		for i, e := range log {
			if s := g.State; s.Phase == state.PhaseAction && s.HasFog() {
				for _, c := range wholeDefencePlans(s, s.Current) {
					if _, err := Apply(s.Clone(), s.Current, c); err != nil {
						t.Fatalf("seed %d entry %d: %#v passes the rule on the whole board, refused: %v", seed, i, c, err)
					}
					checked++
				}
			}
			if _, err := g.Replay(e); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Logf("%d plans checked", checked)
	if checked == 0 {
		t.Error("no plan was checked")
	}
}

// wholeDefencePlans lists the plans seat may add on s by the rule as it
// stood before fog counted the defence in sight: on an enemy, with every
// plan beating the whole defence.
func wholeDefencePlans(s *state.State, seat int) []Command {
	n := int(s.Cap.NPlan) + 1
	if n > state.MaxPlan {
		return nil
	}
	for _, p := range s.Cap.Planned() {
		if s.AttackTotal(int(p.From), int(p.To), n).Total <= s.DefenceTotal(int(p.To)) {
			return nil
		}
	}
	var out []Command
	for from := range s.Terr {
		if s.Terr[from].Owner != seat {
			continue
		}
	targets:
		for to := range s.Terr {
			if o := s.Terr[to].Owner; o == seat || o == state.Neutral || s.Sides().Teammates(seat, o) {
				continue
			}
			for _, p := range s.Cap.Planned() {
				if int(p.From) == from && int(p.To) == to {
					continue targets
				}
			}
			if a := s.AttackTotal(from, to, n); a.Reach != state.NoReach && a.Total > s.DefenceTotal(to) {
				out = append(out, Plan{From: from, To: to})
			}
		}
	}
	return out
}
