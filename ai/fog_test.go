package ai

import (
	"context"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// fogMidgame plays a match with fog of war between normal players for a
// few turns and returns it.
func fogMidgame(t *testing.T, opts state.Options, seed uint64) *state.State {
	t.Helper()
	opts.Fog = true
	s := newMatch(t, 4, seed, opts)
	players := make([]Player, 4)
	for i := range players {
		players[i] = mustNew(t, "normal", Options{Seed: uint64(i), Iterations: 8, Budget: time.Minute})
	}
	for s.Turn < 9 && s.Phase != state.PhaseOver {
		step(t, s, players)
	}
	if s.Phase == state.PhaseOver {
		t.Fatal("the match ended before the test could look at it")
	}
	return s
}

func TestGuessFogKeepsWhatIsSeenAndTheTotals(t *testing.T) {
	capitals := state.CapitalsOptions()
	for name, opts := range map[string]state.Options{"classic": state.DefaultOptions(), "capitals": capitals} {
		t.Run(name, func(t *testing.T) {
			s := fogMidgame(t, opts, 3)
			for seat := range s.Seats {
				v := s.View(seat)
				g := GuessFog(v, seat)
				fogged := 0
				for i := range g.Terr {
					if v.Terr[i].Fog {
						fogged++
					} else if g.Terr[i] != v.Terr[i] {
						t.Errorf("seat %d: %s, in sight, guessed as %+v, seen as %+v", seat, s.Map.TerritoryName(i), g.Terr[i], v.Terr[i])
					}
					if g.Terr[i].Fog {
						t.Fatalf("seat %d: the guess keeps fog", seat)
					}
				}
				if fogged == 0 {
					t.Fatalf("seat %d sees the whole board: the test tests nothing", seat)
				}
				for i := range s.Seats {
					if g.Owned(i) != s.Owned(i) || g.Armies(i) != s.Armies(i) {
						t.Errorf("seat %d's guess: seat %d holds %d territories and %d armies, want %d and %d", seat, i, g.Owned(i), g.Armies(i), s.Owned(i), s.Armies(i))
					}
					if opts.Rules == state.Capitals && s.Seats[i].Alive() && g.Capital(i) < 0 {
						t.Errorf("seat %d's guess: seat %d has no capital", seat, i)
					}
				}
				if err := g.Check(); err != nil {
					t.Errorf("seat %d's guess: %v", seat, err)
				}
			}
		})
	}
}

// TestFogHidesTheBoardFromComputerPlayers: two boards that differ only out
// of a seat's sight get the same decisions from every level.
func TestFogHidesTheBoardFromComputerPlayers(t *testing.T) {
	base := fogMidgame(t, state.DefaultOptions(), 5)
	seat := base.Current
	sight := base.Sight(seat)
	// Two territories out of sight held by two other seats change hands:
	// the farthest from the seat's own, so that the turn goes on a while
	// before they come into sight.
	dist := make([]int, len(base.Terr))
	var q []int
	for i, tr := range base.Terr {
		dist[i] = -1
		if tr.Owner == seat {
			dist[i], q = 0, append(q, i)
		}
	}
	for ; len(q) > 0; q = q[1:] {
		for _, nb := range base.Map.Territories[q[0]].Adj {
			if dist[nb] < 0 {
				dist[nb], q = dist[q[0]]+1, append(q, nb)
			}
		}
	}
	a, b := -1, -1
	for i, tr := range base.Terr {
		if !sight.Has(i) && tr.Owner >= 0 && (a < 0 || dist[i] > dist[a]) {
			a = i
		}
	}
	for i, tr := range base.Terr {
		if !sight.Has(i) && tr.Owner >= 0 && tr.Owner != base.Terr[a].Owner && (b < 0 || dist[i] > dist[b]) {
			b = i
		}
	}
	if b < 0 {
		t.Fatal("no two territories of different seats out of sight")
	}
	base.Terr[a].Armies, base.Terr[b].Armies = 3, 3
	twin := base.Clone()
	twin.Terr[a].Owner, twin.Terr[b].Owner = base.Terr[b].Owner, base.Terr[a].Owner
	for _, l := range []string{"random", "easy", "normal", "hard", ReferenceLevel} {
		t.Run(l, func(t *testing.T) {
			pa := mustNew(t, l, Options{Seed: 9, Iterations: 20, Budget: time.Minute})
			pb := mustNew(t, l, Options{Seed: 9, Iterations: 20, Budget: time.Minute})
			sa, sb := base.Clone(), twin.Clone()
			turn, compared := sa.Turn, 0
			// Until a conquest brings a or b into sight.
			for k := 0; k < 30 && sa.Turn == turn && sa.Phase != state.PhaseOver; k++ {
				if v := sa.Sight(seat); v.Has(a) || v.Has(b) {
					break
				}
				compared++
				ca, err := pa.Act(context.Background(), sa, seat)
				if err != nil {
					t.Fatal(err)
				}
				cb, err := pb.Act(context.Background(), sb, seat)
				if err != nil {
					t.Fatal(err)
				}
				if ca != cb {
					t.Fatalf("decision %d: %v on the board, %v on its twin", k, ca, cb)
				}
				sb.RNG = sa.RNG
				if _, err := engine.Apply(sa, seat, ca); err != nil {
					t.Fatal(err)
				}
				if _, err := engine.Apply(sb, seat, cb); err != nil {
					t.Fatal(err)
				}
			}
			if compared < 3 {
				t.Errorf("%d decisions compared: the test tests little", compared)
			}
			if Faults(pa) != 0 {
				t.Errorf("%s lost %d decisions to the safe default", l, Faults(pa))
			}
		})
	}
}
