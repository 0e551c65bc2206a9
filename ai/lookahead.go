package ai

import (
	"sync"

	"github.com/riskbot/riskbot/state"
)

// lookahead is normal's one look ahead per turn: at the turn's first
// decision it plays each plan hard would weigh (the heuristic player at
// other styles, passive, other goal continents) through its own turn and
// the others' next turns, a few times each on the same determinizations
// and dice (common random numbers), and keeps the plan that scores best.
// The chosen plan is cached for the turn; without the cache (a restart)
// the choice is made again from where the turn stands, with the same
// samples, which depend only on the position: normal needs no generator.
type lookahead struct {
	samples int

	mu      sync.Mutex
	plans   map[planKey]params
	scratch state.State
	b       board
	cards   []state.Card
}

// plan returns the plan for seat's turn in s.
func (l *lookahead) plan(base params, s *state.State, seat int) params {
	l.mu.Lock()
	defer l.mu.Unlock()
	key := planKey{match: matchKey(s), turn: s.Turn, seat: seat}
	if p, ok := l.plans[key]; ok {
		return p
	}
	p := l.choose(base, s, seat)
	if l.plans == nil || len(l.plans) > 64 {
		l.plans = make(map[planKey]params)
	}
	l.plans[key] = p
	return p
}

func (l *lookahead) choose(base params, s *state.State, seat int) params {
	cands := candidatePlans(base, s, seat)
	sum := make([]float64, len(cands))
	pos := positionSeed(s, seat)
	for r := range l.samples {
		for i, p := range cands {
			rng := newRand(mix(pos, uint64(r)), 9)
			sim := determinizeInto(&l.scratch, &l.cards, s, seat, rng)
			playTurns(&l.b, sim, seat, p, nil)
			sum[i] += evaluate(sim, seat)
		}
	}
	best := 0
	for i := range cands {
		if sum[i] > sum[best] {
			best = i
		}
	}
	return cands[best]
}

// positionSeed derives the samples' seed from what the seat sees, so that
// the same position gives the same choice.
func positionSeed(s *state.State, seat int) uint64 {
	z := mix(uint64(s.Turn), uint64(seat), uint64(s.Phase), uint64(s.Trades))
	for t := range s.Terr {
		z = mix(z, uint64(s.Terr[t].Owner+1)<<32|uint64(s.Terr[t].Armies))
	}
	return z
}
