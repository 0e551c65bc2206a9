package play

import (
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// until:N keeps its promise even when the defender is down to one army:
// an engine blitz would roll three dice and, taking the territory, move
// three in; the bot's rolls never use more dice than the armies above N.
func TestUntilKeepsItsPromise(t *testing.T) {
	g, err := engine.NewGame(engine.Setup{Options: state.DefaultOptions(), Seed: 1,
		Seats: []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range g.State.Seats {
		if _, _, err := g.Apply(seat, engine.AutoPlace{}); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := g.Apply(g.State.Current, engine.AutoPlace{}); err != nil {
		t.Fatal(err)
	}
	for trial := range 40 {
		s := g.State.Clone()
		seat := s.Current
		from, to := -1, -1
		for _, c := range engine.Legal(s, seat) {
			if a, ok := c.(engine.Attack); ok {
				from, to = a.From, a.To
				break
			}
		}
		if from < 0 {
			t.Fatal("no attack")
		}
		keep := 2 + trial%3
		att := keep + 1 + trial%4
		s.Terr[from].Armies, s.Terr[to].Armies = att, 1+trial%2
		s.RNG.N += uint64(trial) * 7 // other dice each time
		cmds, err := untilRolls(s, seat, from, to, keep)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cmds {
			if a := c.(engine.Attack); a.Dice > engine.MaxDice(s.Terr[from].Armies) || s.Terr[from].Armies-a.Dice < keep {
				t.Fatalf("a roll of %d dice from %d armies, keeping %d", a.Dice, s.Terr[from].Armies, keep)
			}
			if _, err := engine.Apply(s, seat, c); err != nil {
				t.Fatal(err)
			}
		}
		if s.Phase == state.PhaseOccupy && s.Terr[from].Armies < keep {
			t.Fatalf("trial %d: the move-in left %d of the %d to keep", trial, s.Terr[from].Armies, keep)
		}
	}
}
