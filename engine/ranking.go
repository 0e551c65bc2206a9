package engine

import (
	"cmp"
	"slices"
)

// Finish is where a seat finished a match: 1 for the winner (and, with
// teams, every teammate of the winner, out of the match or not), then the seats
// still playing by territories held, then those that left, the last to go
// first. Seats with one place are tied.
type Finish struct {
	Seat  int // in turn order
	ID    string
	Name  string
	Place int
}

// Ranking replays the record and ranks its seats as the match ended (or as
// the log leaves it): the winner first; the seats still playing by the
// territories they hold (a tie shares a place); then the seats eliminated
// or surrendered, the later out the better placed.
func (r Record) Ranking() ([]Finish, error) {
	g, err := NewGame(r.Setup)
	if err != nil {
		return nil, err
	}
	var out []int // seats in the order they left
	for _, e := range r.Log {
		ev, err := g.Replay(e)
		if err != nil {
			return nil, err
		}
		for _, x := range ev {
			switch x := x.(type) {
			case Eliminated:
				out = append(out, x.Seat)
			case Surrendered:
				out = append(out, x.Seat)
			case RolledBack:
				// The seats it brought back are no longer out.
				out = slices.DeleteFunc(out, func(i int) bool { return g.State.Seats[i].Alive() })
			}
		}
	}
	s := g.State
	left := make([]bool, len(s.Seats))
	for _, i := range out {
		left[i] = true
	}
	// A seat's standing: 0 the winner, 1 playing on, 2 gone; then the
	// territories held (more is better), then how late it left.
	type rank struct{ group, terr, late int }
	ranks := make([]rank, len(s.Seats))
	for i := range s.Seats {
		switch {
		case s.Won(i):
			ranks[i] = rank{0, 0, 0}
		case !left[i]:
			ranks[i] = rank{1, s.Owned(i), 0}
		default:
			ranks[i] = rank{2, 0, slices.Index(out, i)}
		}
	}
	better := func(a, b rank) int {
		return cmp.Or(cmp.Compare(a.group, b.group), cmp.Compare(b.terr, a.terr), cmp.Compare(b.late, a.late))
	}
	places := make([]Finish, len(s.Seats))
	for i, st := range s.Seats {
		p := 1
		for j := range s.Seats {
			if better(ranks[j], ranks[i]) < 0 {
				p++
			}
		}
		places[i] = Finish{Seat: i, ID: st.ID, Name: st.Name, Place: p}
	}
	return places, nil
}
