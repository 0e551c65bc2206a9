package render

import (
	"math/rand/v2"
	"testing"

	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/state"
)

// Capitals fixtures: states built by hand on generated maps (the engine
// does not play capitals yet), so that every marker and panel state shows.

func genMap(t testing.TB, seed uint64, z genmap.Size) *state.Map {
	t.Helper()
	m, err := genmap.Generate(seed, z)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// capitalsState returns a capitals state on m with the named seats: every
// territory neutral with 1 to 5 troops (fortresses 5 more), as a match
// starts.
func capitalsState(m *state.Map, rng *rand.Rand, names ...string) *state.State {
	s := &state.State{Map: m, Options: state.DefaultOptions(), Phase: state.PhaseSetup, Winner: -1}
	s.Options.Rules = state.Capitals
	s.Options.Map = m.Name
	for _, n := range names {
		s.Seats = append(s.Seats, state.Seat{ID: "id" + n, Name: n})
	}
	s.Terr = make([]state.Terr, m.Len())
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: state.Neutral, Armies: 1 + rng.IntN(5)}
		if m.Territories[i].Fortress {
			s.Terr[i].Armies += 5
		}
	}
	s.Hidden, s.Viewer = true, -1
	return s
}

// spread gives each seat its capital (far apart) and grows its land from
// there, each seat in turn taking a neutral neighbour, until each has about
// share territories.
func spread(s *state.State, rng *rand.Rand, share int) {
	m := s.Map
	var capitals []int
	for i := range s.Seats {
		// The territory farthest (in steps) from the capitals so far.
		best, bestD := rng.IntN(m.Len()), -1
		if i > 0 {
			for t := range m.Territories {
				d := 1 << 30
				for _, c := range capitals {
					d = min(d, steps(m, c, t))
				}
				if d > bestD {
					best, bestD = t, d
				}
			}
		}
		capitals = append(capitals, best)
		s.Terr[best] = state.Terr{Owner: i, Armies: 10 + rng.IntN(20)}
		s.Seats[i].Capitals.Capital = int16(best + 1)
	}
	for range share - 1 {
		for i := range s.Seats {
			var cand []int
			for t := range m.Territories {
				if s.Terr[t].Owner != i {
					continue
				}
				for _, u := range m.Territories[t].Adj {
					if s.Terr[u].Owner == state.Neutral {
						cand = append(cand, u)
					}
				}
			}
			if len(cand) == 0 {
				continue
			}
			u := cand[rng.IntN(len(cand))]
			s.Terr[u].Owner = i
			s.Terr[u].Armies = 1 + rng.IntN(30)
		}
	}
}

// steps is the number of borders between a and b.
func steps(m *state.Map, a, b int) int {
	dist := map[int]int{a: 0}
	queue := []int{a}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		if t == b {
			return dist[t]
		}
		for _, u := range append(append([]int(nil), m.Territories[t].Adj...), m.Territories[t].Sea...) {
			if _, ok := dist[u]; !ok {
				dist[u] = dist[t] + 1
				queue = append(queue, u)
			}
		}
	}
	return 1 << 20
}

func ownedBy(s *state.State, seat int) []int {
	var out []int
	for t, tr := range s.Terr {
		if tr.Owner == seat {
			out = append(out, t)
		}
	}
	return out
}

// gridStart is the capitals setup: four players have picked their
// capitals, everything else is neutral.
func gridStart(t testing.TB) *state.State {
	rng := rand.New(rand.NewPCG(1, 1))
	s := capitalsState(genMap(t, 42, genmap.Normal), rng, "Ann", "Bob", "Chloé", "Dmitri")
	spread(s, rng, 1)
	return s
}

// gridMid is a crowded six-seat middle game on a large map: blocks of
// land, ports, capitals, a hero alive, one dead, others locked, items lying
// (one the fat bonus) and held, an eliminated seat, a long name, three
// numbered attacks, one by sea, and a move.
func gridMid(t testing.TB) *state.State { return gridMidGame(t, true) }

// gridPlanned is gridMid before the launch: Ann has planned the three
// attacks (one by sea) and not launched them yet.
func gridPlanned(t testing.TB) *state.State { return gridMidGame(t, false) }

func gridMidGame(t testing.TB, launched bool) *state.State {
	rng := rand.New(rand.NewPCG(2, 2))
	s := capitalsState(genMap(t, 2024, genmap.Large), rng, "Ann", "Bob", "Chloé", "Dmitri", "Eve", "Farouk al-Rashid the Magnificent")
	spread(s, rng, 5)
	s.Phase, s.Turn, s.Current = state.PhaseMove, 31, 0
	m := s.Map
	// Ports on the coastal territories of seats 0 to 2, and one neutral
	// port left behind.
	for t, tr := range m.Territories {
		if tr.Coast && s.Terr[t].Owner >= 0 && s.Terr[t].Owner <= 2 && t%2 == 0 {
			s.Terr[t].Port = true
		}
	}
	for t, tr := range m.Territories {
		if tr.Coast && s.Terr[t].Owner == state.Neutral {
			s.Terr[t].Port = true
			break
		}
	}
	// Heroes: Ann's on a territory next to her capital, Bob's dead,
	// Chloé's with her at home, the others locked.
	ann := ownedBy(s, 0)
	s.Seats[0].Capitals.HeroWon, s.Seats[0].Capitals.Hero = true, int16(ann[len(ann)-1]+1)
	s.Seats[1].Capitals.HeroWon = true
	s.Seats[2].Capitals.HeroWon, s.Seats[2].Capitals.Hero = true, s.Seats[2].Capitals.Capital
	// Items, as a spectator sees them: two lying (kinds hidden), the fat
	// bonus, and two kept.
	var neutral []int
	for t := range s.Terr {
		if s.Terr[t].Owner == state.Neutral {
			neutral = append(neutral, t)
		}
	}
	s.Terr[neutral[0]].Item, s.Terr[neutral[0]].ItemAge = state.ItemHidden, 1
	s.Terr[neutral[len(neutral)/2]].Item = state.ItemFat
	s.Terr[neutral[len(neutral)-1]].Item = state.ItemHidden
	s.Seats[1].Capitals.Item = state.ItemHidden
	s.Seats[3].Capitals.Item = state.ItemHidden
	// Eve lost her capital to Dmitri: eliminated, her land his.
	for _, t := range ownedBy(s, 4) {
		s.Terr[t].Owner = 3
	}
	s.Seats[4].Status = state.Eliminated
	s.Terr[ann[0]].Armies = 187
	// Ann's turn: three planned attacks launched in order, one by sea,
	// then a move.
	capital := func(u int) bool {
		for _, st := range s.Seats {
			if int(st.Capitals.Capital) == u+1 {
				return true
			}
		}
		return false
	}
	var land, sea []state.Arrow
	for _, t := range ann {
		for _, u := range m.Territories[t].Adj {
			if o := s.Terr[u].Owner; o > 0 && o != 4 && !capital(u) {
				land = append(land, state.Arrow{From: int16(t), To: int16(u), Kind: state.ArrowAttack, Seat: 0, Count: 1})
			}
		}
		for _, u := range m.Territories[t].Sea {
			if o := s.Terr[u].Owner; o > 0 && o != 4 {
				sea = append(sea, state.Arrow{From: int16(t), To: int16(u), Kind: state.ArrowAttack, Seat: 0, Count: 1})
			}
		}
	}
	if len(land) < 2 || len(sea) < 1 {
		t.Fatalf("fixture: %d land and %d sea targets for Ann", len(land), len(sea))
	}
	if !launched {
		s.Phase = state.PhaseAction
		for _, a := range []state.Arrow{land[0], land[1], sea[0]} {
			s.Cap.Plan[s.Cap.NPlan] = state.Planned{From: a.From, To: a.To}
			s.Cap.NPlan++
		}
		return s
	}
	// The engine numbers launched attacks by their order (Count).
	arrows := []state.Arrow{land[0], land[1], sea[0]}
	for i := range arrows {
		arrows[i].Count = int32(i + 1)
	}
	arrows[1].Kind = state.ArrowConquest
	s.Terr[arrows[1].To].Owner, s.Terr[arrows[1].To].Armies = 0, 0
	for _, a := range arrows {
		s.This.Add(a)
	}
	if len(ann) > 2 {
		s.This.Add(state.Arrow{From: int16(ann[1]), To: int16(ann[2]), Kind: state.ArrowFortify, Seat: 0, Count: 12})
	}
	return s
}

// gridOver is a finished match on a small map: Bob holds every capital.
func gridOver(t testing.TB) *state.State {
	rng := rand.New(rand.NewPCG(3, 3))
	s := capitalsState(genMap(t, 1, genmap.Small), rng, "Ann", "Bob", "Chloé")
	spread(s, rng, 4)
	for t := range s.Terr {
		if s.Terr[t].Owner != 1 && rng.IntN(3) > 0 {
			s.Terr[t].Owner = 1
		}
	}
	for i := range s.Seats {
		if i != 1 {
			s.Seats[i].Status = state.Eliminated
			for _, t := range ownedBy(s, i) {
				s.Terr[t].Owner = 1
			}
		}
	}
	s.Seats[1].Capitals.HeroWon, s.Seats[1].Capitals.Hero = true, s.Seats[1].Capitals.Capital
	s.Phase, s.Turn, s.Current, s.Winner = state.PhaseOver, 44, 1, 1
	return s
}
