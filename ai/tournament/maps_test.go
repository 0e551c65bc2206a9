package tournament

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/state"
)

// sampleMap reads a sample map of examples/maps and makes it known to the
// engine, as a store does before a match on it is loaded.
func sampleMap(t testing.TB, name string) *state.Map {
	t.Helper()
	b, err := mapfile.ReadPath(filepath.Join("..", "..", "examples", "maps", name, name+".map"), mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.AddMap(b.Map); err != nil {
		t.Fatal(err)
	}
	return b.Map
}

// Issue 44: the classic rules play on drawn maps, in every mode that
// composes with them, and the computer players bring every game to its end.
func TestDrawnMaps(t *testing.T) {
	type mode struct {
		name    string
		players []string
		edit    func(*state.Options)
	}
	modes := []mode{
		{"classic", []string{"normal", "easy", "easy"}, func(*state.Options) {}},
		{"domination, adjacent fortify, fixed cards", []string{"normal", "easy"}, func(o *state.Options) {
			o.Victory, o.Fortify, o.Cards = state.Domination, state.Adjacent, state.Fixed
		}},
		{"fog", []string{"normal", "easy", "easy"}, func(o *state.Options) { o.Fog = true }},
		{"teams", []string{"normal", "easy", "normal", "easy"}, func(o *state.Options) { o.Teams = 2 }},
		{"simultaneous", []string{"normal", "easy", "easy"}, func(o *state.Options) { o.Turns = state.Simultaneous }},
		{"round limit", []string{"easy", "easy", "easy"}, func(o *state.Options) { o.Rounds = 8 }},
	}
	for _, name := range []string{"inkwell", "fjords", "realms"} {
		m := sampleMap(t, name)
		for _, md := range modes {
			t.Run(name+"/"+md.name, func(t *testing.T) {
				o := state.DefaultOptions()
				o.Map = m.Name
				md.edit(&o)
				games := 2
				if m.Len() > 60 && testing.Short() {
					games = 1
				}
				res, err := Run(context.Background(), Config{Options: o, Players: md.players, Games: games, Seed: 44})
				if err != nil {
					t.Fatal(err)
				}
				t.Logf("%d games, %.0f turns on average", res.Games, res.MeanTurns)
				if res.MeanTurns < 1 {
					t.Errorf("%.1f turns a game: the games were not played", res.MeanTurns)
				}
				if res.Draws > 0 {
					t.Errorf("%d of %d games did not end within %d turns", res.Draws, res.Games, res.MaxTurns)
				}
				for _, p := range res.Players {
					if p.Faults > 0 {
						t.Errorf("%s made %d faults", p.Name, p.Faults)
					}
				}
			})
		}
	}
}

// Issue 44: a match to the end with bots on a drawn map replays from its
// record bit for bit.
func TestDrawnMapReplays(t *testing.T) {
	m := sampleMap(t, "fjords")
	o := state.DefaultOptions()
	o.Map = m.Name
	setup := engine.Setup{Options: o, Seats: []engine.SeatInfo{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}, {ID: "c", Name: "Cid"}}, Seed: 4401}
	g, err := engine.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	players := make([]ai.Player, 3)
	for i := range players {
		if players[i], err = ai.New([]string{"normal", "easy", "easy"}[i], ai.Options{Seed: uint64(i + 1)}); err != nil {
			t.Fatal(err)
		}
	}
	var log []engine.Entry
	act := func(seat int) {
		c, err := players[seat].Act(context.Background(), g.State.View(seat), seat)
		if err != nil {
			c = ai.Fallback(g.State, seat)
		}
		e, _, err := g.Apply(seat, c)
		if err != nil {
			if e, _, err = g.Apply(seat, ai.Fallback(g.State, seat)); err != nil {
				t.Fatalf("the safe default failed: %v", err)
			}
		}
		log = append(log, e)
	}
	for steps := 0; g.State.Phase != state.PhaseOver; steps++ {
		if steps > 50000 {
			t.Fatalf("no end after %d commands, turn %d", steps, g.State.Turn)
		}
		s := g.State
		if s.Phase == state.PhaseSetup {
			for seat := range s.Seats {
				if s.Phase == state.PhaseSetup && s.Seats[seat].Reserve > 0 {
					act(seat)
				}
			}
			continue
		}
		act(s.Current)
	}
	data, err := json.Marshal(engine.Record{Setup: g.Setup, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	var back engine.Record
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	g2, err := back.Game(-1)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(g)
	got, _ := json.Marshal(g2)
	if !bytes.Equal(want, got) {
		t.Fatalf("the replay differs from the match:\n got %.300s\nwant %.300s", got, want)
	}
	if g2.State.Phase != state.PhaseOver || g2.State.Winner < 0 {
		t.Errorf("the replay ends in phase %v, winner %d; want the match's end", g2.State.Phase, g2.State.Winner)
	}
	t.Logf("%d commands, %d turns, won by seat %d", len(log), g.State.Turn, g.State.Winner)
}
