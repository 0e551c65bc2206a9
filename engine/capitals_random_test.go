package engine

import (
	"bytes"
	"encoding/json"
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

// playRandomCapitals plays up to maxSteps random legal commands, checking
// the invariants after each, and returns the game and its log.
func playRandomCapitals(t testing.TB, seed uint64, maxSteps int) (*Game, []Entry) {
	t.Helper()
	g, err := NewGame(randomCapitalsSetup(seed))
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(seed, 8))
	var log []Entry
	deadHeroes := make([]bool, len(g.State.Seats))
	for step := 0; step < maxSteps && g.State.Phase != state.PhaseOver; step++ {
		seat, c := randomCapitalsMove(g, r)
		before := g.State.Clone()
		e, ev, err := g.Apply(seat, c)
		if err != nil {
			t.Fatalf("seed %d step %d: legal %#v by seat %d refused: %v", seed, step, c, seat, err)
		}
		log = append(log, e)
		if err := g.State.Check(); err != nil {
			t.Fatalf("seed %d step %d after %#v: %v", seed, step, c, err)
		}
		checkCapitalsStep(t, seed, step, before, g.State, ev, deadHeroes)
	}
	return g, log
}

// checkCapitalsStep checks what one command may do, beyond State.Check:
// a dead hero never returns (undo aside), items appear only at the start of
// a turn, a player's item kind stays off every other seat's view.
func checkCapitalsStep(t testing.TB, seed uint64, step int, before, after *state.State, ev []Event, deadHeroes []bool) {
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

// TestReplayReproducesRandomCapitalsGames plays many random capitals games
// with random options, checks the invariants after every command, and
// replays each log, after a round trip through JSON, to the same final state
// bit for bit.
func TestReplayReproducesRandomCapitalsGames(t *testing.T) {
	n, finished, steps := games(60), 0, 0
	for seed := range uint64(n) {
		g, log := playRandomCapitals(t, seed, 2500)
		steps += len(log)
		if g.State.Phase == state.PhaseOver {
			finished++
		}
		wantRecordReplays(t, seed, g, log)
	}
	t.Logf("%d games, %d commands, %d finished within the step cap", n, steps, finished)
	if finished < n/2 {
		t.Errorf("only %d of %d random games finished: the end of the match is too rarely exercised", finished, n)
	}
}

// A snapshot taken mid-game, decoded and continued, ends where the full
// game ends.
func TestCapitalsSnapshotThenTailEqualsFullReplay(t *testing.T) {
	for seed := range uint64(30) {
		g, log := playRandomCapitals(t, seed, 1000)
		wantSnapshotThenTail(t, seed, g, log)
	}
}

// TestCapitalsLegalMovesAreAccepted: every listed move is accepted, and
// random commands that Legal does not list are refused without changing
// anything.
func TestCapitalsLegalMovesAreAccepted(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	checked, refused := 0, 0
	kinds := map[string]int{}
	for seed := range uint64(60) {
		g, _ := playRandomCapitals(t, seed, r.IntN(500))
		s := g.State
		for seat := range s.Seats {
			legal := Legal(s, seat)
			for _, c := range legal {
				cl := s.Clone()
				if _, err := Apply(cl, seat, c); err != nil {
					t.Fatalf("seed %d: listed %#v refused for seat %d: %v", seed, c, seat, err)
				}
				checked++
				kinds[c.Name()]++
			}
			before, _ := json.Marshal(s)
			for range 300 {
				c := randomCapitalsCommand(r, s)
				if Covers(legal, c) {
					continue
				}
				cl := s.Clone()
				if _, err := Apply(cl, seat, c); err == nil {
					t.Fatalf("seed %d: unlisted %#v accepted for seat %d in phase %s", seed, c, seat, s.Phase)
				} else if _, ok := IsRule(err); !ok {
					t.Fatalf("seed %d: %#v refused with a non-rule error: %v", seed, c, err)
				}
				after, _ := json.Marshal(cl)
				if !bytes.Equal(before, after) {
					t.Fatalf("seed %d: refused %#v changed the state", seed, c)
				}
				refused++
			}
		}
	}
	t.Logf("%d listed moves accepted (%v), %d unlisted refused", checked, kinds, refused)
	for _, k := range []string{"capital", "reinforce", "capture", "port", "plan", "launch", "move", "end"} {
		if kinds[k] == 0 {
			t.Errorf("no %q command was ever listed", k)
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

// Luck is drawn from the match's generator and recorded in the log like
// dice: a replay follows the recorded luck, and a changed luck changes the
// damage done.
func TestLuckIsRecordedInTheLog(t *testing.T) {
	for seed := range uint64(50) {
		g, log := playRandomCapitals(t, seed, 3000)
		for i, e := range log {
			if _, ok := e.Cmd.(Launch); !ok || len(e.Rand) == 0 {
				continue
			}
			for _, v := range e.Rand {
				if v < 0 || v >= LuckSpan {
					t.Fatalf("seed %d: launch recorded luck %d, out of [0,%d)", seed, v, LuckSpan)
				}
			}
			changed := append([]Entry(nil), log[:i+1]...)
			rnd := append([]int32(nil), e.Rand...)
			rnd[0] = LuckSpan - 1 - rnd[0]
			changed[i].Rand = rnd
			a, err := Replay(g.Setup, log[:i+1])
			if err != nil {
				t.Fatal(err)
			}
			b, err := Replay(g.Setup, changed)
			if err != nil {
				t.Fatal(err)
			}
			if a.State.RNG != b.State.RNG {
				t.Fatal("the generator must advance the same way")
			}
			ja, _ := json.Marshal(a.State.Terr)
			jb, _ := json.Marshal(b.State.Terr)
			if !bytes.Equal(ja, jb) {
				return // the recorded luck decided the damage
			}
		}
	}
	t.Fatal("no change of a recorded luck altered an outcome")
}
