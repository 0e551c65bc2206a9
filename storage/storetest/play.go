package storetest

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// ErrOver is returned by Move for a match that has ended.
var ErrOver = errors.New("storetest: the match is over")

// NewSetup returns the setup of a classic match for players seats drawn from
// seed (2 to state.MaxSeats players).
func NewSetup(players int, seed uint64) engine.Setup {
	s := engine.Setup{Options: state.DefaultOptions(), Seed: seed}
	for i := range players {
		s.Seats = append(s.Seats, engine.SeatInfo{ID: fmt.Sprintf("p%d", i), Name: fmt.Sprintf("Player %d", i+1)})
	}
	return s
}

// NewCapitalsSetup is NewSetup for a capitals match on a small generated map.
func NewCapitalsSetup(players int, seed uint64) engine.Setup {
	s := NewSetup(players, seed)
	s.Options = state.CapitalsOptions()
	s.Options.Map = "small"
	return s
}

// Move plays one random legal command in g, as a player clicking around
// would: any seat with armies to place during the initial placement,
// otherwise the current seat. It never surrenders and sometimes undoes. It
// returns the log entry to store.
func Move(g *engine.Game, r *rand.Rand) (engine.Entry, error) {
	s := g.State
	if s.Phase == state.PhaseOver {
		return engine.Entry{}, ErrOver
	}
	seat := s.Current
	// Classic players place at the same time; capitals are chosen in turn.
	if s.Phase == state.PhaseSetup && s.Options.Rules == state.Classic {
		var ready []int
		for i := range s.Seats {
			if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
				ready = append(ready, i)
			}
		}
		if len(ready) == 0 {
			return engine.Entry{}, fmt.Errorf("storetest: nobody can place during the setup")
		}
		seat = ready[r.IntN(len(ready))]
	}
	if g.CanUndo(seat) && r.IntN(20) == 0 {
		e, _, err := g.Apply(seat, engine.Undo{})
		return e, err
	}
	var cmds []engine.Command
	for _, c := range engine.Legal(s, seat) {
		if _, ok := c.(engine.Surrender); !ok {
			cmds = append(cmds, c)
		}
	}
	if len(cmds) == 0 {
		return engine.Entry{}, fmt.Errorf("storetest: seat %d has no legal command in phase %s", seat, s.Phase)
	}
	c := cmds[r.IntN(len(cmds))]
	e, _, err := g.Apply(seat, c)
	if err != nil {
		return engine.Entry{}, fmt.Errorf("storetest: legal command %s refused: %w", c.Name(), err)
	}
	return e, nil
}
