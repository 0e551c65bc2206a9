package clock

import (
	"context"
	"strings"

	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// orderedPlayer plays a seat by its player's standing orders, over a
// computer player: reinforcements on the borders of the continent to
// defend (while it has any), and no attacks if so ordered.
type orderedPlayer struct {
	Player
	orders people.Orders
}

// Act implements Player.
func (p orderedPlayer) Act(ctx context.Context, view *state.State, seat int) (engine.Command, error) {
	c, err := p.Player.Act(ctx, view, seat)
	if err != nil {
		return c, err
	}
	switch c := c.(type) {
	case engine.Attack, engine.Blitz, engine.Capture, engine.Plan, engine.Launch:
		if p.orders.NoAttack {
			return engine.EndTurn{}, nil
		}
	case engine.Place:
		if t := defendWhere(view, seat, p.orders.Defend); t >= 0 && t != c.Territory {
			return engine.Place{Territory: t, Armies: c.Armies}, nil
		}
	case engine.Reinforce:
		if t := defendWhere(view, seat, p.orders.Defend); t >= 0 {
			return engine.Reinforce{Territory: t}, nil
		}
	}
	return c, nil
}

// defendWhere is the seat's territory of the continent to defend that is
// the weakest against its enemy neighbours; -1 if none borders an enemy.
func defendWhere(s *state.State, seat int, continent string) int {
	if continent == "" || s.Phase == state.PhaseSetup {
		return -1
	}
	best, worst := -1, 0
	for _, c := range s.Map.Continents {
		if !strings.EqualFold(c.Name, continent) {
			continue
		}
		for _, t := range c.Territories {
			if s.Terr[t].Owner != seat {
				continue
			}
			threat := 0
			for _, n := range s.Map.Territories[t].Adj {
				if o := s.Terr[n].Owner; o != seat {
					threat += s.Terr[n].Armies
				}
			}
			if gap := threat - s.Terr[t].Armies; threat > 0 && (best < 0 || gap > worst) {
				best, worst = t, gap
			}
		}
	}
	return best
}
