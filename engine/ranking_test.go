package engine

import (
	"testing"

	"github.com/riskbot/riskbot/state"
)

func TestRanking(t *testing.T) {
	t.Run("a finished match", func(t *testing.T) {
		rec := finishedRecord(t, 8) // three seats
		g, err := rec.Game(-1)
		if err != nil {
			t.Fatal(err)
		}
		// The seats out, in the order they went.
		var out []int
		h, _ := NewGame(rec.Setup)
		for _, e := range rec.Log {
			ev, _ := h.Replay(e)
			for _, x := range ev {
				if x, ok := x.(Eliminated); ok {
					out = append(out, x.Seat)
				}
			}
		}
		ranking, err := rec.Ranking()
		if err != nil {
			t.Fatal(err)
		}
		if len(ranking) != 3 || ranking[g.State.Winner].Place != 1 {
			t.Fatalf("ranking %+v, winner %d", ranking, g.State.Winner)
		}
		for k, seat := range out { // the first out is last
			if want := len(ranking) - k; ranking[seat].Place != want {
				t.Errorf("seat %d, out %d of %d: place %d, want %d", seat, k+1, len(out), ranking[seat].Place, want)
			}
		}
		for i, f := range ranking {
			if f.Seat != i || f.ID != g.State.Seats[i].ID || f.Name != g.State.Seats[i].Name {
				t.Errorf("finish %d: %+v", i, f)
			}
		}
	})
	t.Run("a surrender, then a match going on", func(t *testing.T) {
		g, log := classicGames.play(t, 8, 0)
		for g.State.Phase == state.PhaseSetup {
			seat := 0
			for i := range g.State.Seats {
				if g.State.Seats[i].Reserve > 0 {
					seat = i
					break
				}
			}
			e, _, err := g.Apply(seat, AutoPlace{})
			if err != nil {
				t.Fatal(err)
			}
			log = append(log, e)
		}
		quitter := g.State.Current
		e, _, err := g.Apply(quitter, Surrender{})
		if err != nil {
			t.Fatal(err)
		}
		log = append(log, e)
		ranking, err := Record{Setup: g.Setup, Log: log}.Ranking()
		if err != nil {
			t.Fatal(err)
		}
		n := len(g.State.Seats)
		if ranking[quitter].Place != n {
			t.Errorf("the seat that surrendered placed %d of %d", ranking[quitter].Place, n)
		}
		// The others by territories held, ties sharing a place.
		for i := range ranking {
			if i == quitter {
				continue
			}
			want := 1
			for j := range ranking {
				if j != quitter && g.State.Owned(j) > g.State.Owned(i) {
					want++
				}
			}
			if ranking[i].Place != want {
				t.Errorf("seat %d with %d territories placed %d, want %d", i, g.State.Owned(i), ranking[i].Place, want)
			}
		}
	})
}
