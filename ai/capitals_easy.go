package ai

import (
	"context"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// decideCapitals is easy in a capitals match: seat 000's minimal AI. It
// picks its capital at random, sends its reinforcements to a border
// territory drawn at random, captures a neighbouring neutral territory
// (drawn at random) while there is one, and once none is left attacks an
// enemy territory wherever the strictly-greater rule allows, one attack a
// turn, drawn at random. It never builds a port, never moves, never uses
// an item. (random plays capitals with decide: a uniform legal move.)
func (e *easy) decideCapitals(_ context.Context, s *state.State, seat int) engine.Command {
	e.mu.Lock()
	defer e.mu.Unlock()
	pick := func(cs []engine.Command) engine.Command { return cs[e.rng.IntN(len(cs))] }
	switch s.Phase {
	case state.PhaseSetup:
		var spots []engine.Command
		for _, c := range engine.Legal(s, seat) {
			if _, ok := c.(engine.Capital); ok {
				spots = append(spots, c)
			}
		}
		if len(spots) > 0 {
			return pick(spots)
		}
	case state.PhaseReinforce:
		var fronts []engine.Command
		for t := range s.Terr {
			if s.Terr[t].Owner == seat && bordersOther(s, t, seat) {
				fronts = append(fronts, engine.Reinforce{Territory: t})
			}
		}
		if len(fronts) > 0 {
			return pick(fronts)
		}
		return capitalsFallback(s, seat)
	case state.PhaseAction:
		if s.Cap.NPlan > 0 {
			return engine.Launch{}
		}
		var captures, plans []engine.Command
		for _, c := range engine.Legal(s, seat) {
			switch c := c.(type) {
			case engine.Capture:
				if s.Map.Adjacent(c.From, c.To) {
					captures = append(captures, c)
				}
			case engine.Plan:
				plans = append(plans, c)
			}
		}
		if len(captures) > 0 {
			return pick(captures)
		}
		if len(plans) > 0 {
			return pick(plans)
		}
	}
	return engine.EndTurn{}
}
