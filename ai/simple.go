package ai

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// random is seed 004's RandomAI: at every step it picks uniformly among the
// legal moves, a move with an army count being one choice whose count is
// then drawn uniformly from its range. It never surrenders.
type random struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newRandom(opts Options) *random { return &random{rng: newRand(opts.Seed, 1)} }

func (r *random) decide(_ context.Context, s *state.State, seat int) engine.Command {
	return r.pick(engine.Legal(s, seat))
}

// decideCapitals is random in a capitals match: as decide, but in fog
// without the attacks the fog could make illegal (surePlan): engine.Legal
// lists them from the guessed board.
func (r *random) decideCapitals(_ context.Context, s *state.State, seat int, fog unseen) engine.Command {
	legal := engine.Legal(s, seat)
	if fog != nil {
		legal = slices.DeleteFunc(legal, func(c engine.Command) bool {
			p, ok := c.(engine.Plan)
			return ok && !surePlan(s, fog, seat, p)
		})
	}
	return r.pick(legal)
}

// pick draws one of the legal commands, the counts of a ranged one
// uniformly.
func (r *random) pick(legal []engine.Command) engine.Command {
	type choice struct {
		c      engine.Command
		lo, hi int
	}
	choices := make([]choice, 0, len(legal))
	for _, c := range legal {
		switch c.(type) {
		case engine.Surrender, engine.Undo:
			continue
		}
		key, n, ranged := engine.SetAmount(c, 0)
		if ranged && len(choices) > 0 {
			last := &choices[len(choices)-1]
			if lk, _, ok := engine.SetAmount(last.c, 0); ok && lk == key {
				last.hi = n // Legal lists the smallest count, then the largest
				continue
			}
		}
		choices = append(choices, choice{c, n, n})
	}
	if len(choices) == 0 {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ch := choices[r.rng.IntN(len(choices))]
	if ch.hi > ch.lo {
		c, _, _ := engine.SetAmount(ch.c, ch.lo+r.rng.IntN(ch.hi-ch.lo+1))
		return c
	}
	return ch.c
}

// easy is seed 000's minimal AI: as long as a neighbouring territory can be
// taken, try to take it. It puts its whole reserve on one border
// territory, attacks to the end from wherever the rules allow, moves every
// army it may into a conquest, trades the first set it holds, and never
// fortifies.
type easy struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newEasy(opts Options) *easy { return &easy{rng: newRand(opts.Seed, 2)} }

func (e *easy) decide(_ context.Context, s *state.State, seat int) engine.Command {
	e.mu.Lock()
	defer e.mu.Unlock()
	switch s.Phase {
	case state.PhaseSetup, state.PhaseReinforce:
		if sets := engine.Sets(s.Map, s.Seats[seat].Hand); len(sets) > 0 && s.Phase == state.PhaseReinforce {
			return engine.Trade{Cards: sets[0]}
		}
		var fronts []int
		for t := range s.Terr {
			if s.Terr[t].Owner == seat && bordersOther(s, t, seat) {
				fronts = append(fronts, t)
			}
		}
		if len(fronts) == 0 {
			// Behind a teammate's lines: any territory of its own.
			for t := range s.Terr {
				if s.Terr[t].Owner == seat {
					fronts = append(fronts, t)
				}
			}
		}
		if len(fronts) == 0 {
			return nil
		}
		if c, ok := missionPlace(s, seat); ok {
			return c
		}
		fronts = missionFronts(s, seat, fronts)
		return engine.Place{Territory: fronts[e.rng.IntN(len(fronts))], Armies: s.Seats[seat].Reserve}
	case state.PhaseOccupy:
		return missionOccupy(s, seat, engine.Occupy{Armies: s.Occupy.Max})
	case state.PhaseAttack:
		var attacks []engine.Blitz
		for from := range s.Terr {
			if s.Terr[from].Owner != seat || s.Terr[from].Armies < 2 {
				continue
			}
			for _, to := range s.Map.Territories[from].Adj {
				if !s.Sides().Same(s.Terr[to].Owner, seat) {
					attacks = append(attacks, engine.Blitz{From: from, To: to, Keep: 1})
				}
			}
		}
		if attacks = missionAttacks(s, seat, attacks); len(attacks) > 0 {
			return attacks[e.rng.IntN(len(attacks))]
		}
	}
	return endTurn(s, seat)
}

// bordersOther reports whether t touches a territory seat does not own,
// a teammate's not counting.
func bordersOther(s *state.State, t, seat int) bool {
	for _, x := range s.Map.Territories[t].Adj {
		if !s.Sides().Same(s.Terr[x].Owner, seat) {
			return true
		}
	}
	return false
}
