package ai

import (
	"math/rand/v2"
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

	mu    sync.Mutex
	plans map[planKey]params
	pick  planPicker
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
	return l.pick.best(candidatePlans(base, s, seat, 2), s, seat, l.samples)
}

// planPicker is the look ahead's work and its scratch memory, which it
// reuses: normal's look ahead and hard's model of it (normalModel) share
// it.
type planPicker struct {
	scratch state.State
	cards   []state.Card
	b       board
	sums    []float64
	src     *rand.PCG
	rng     *rand.Rand
}

// best plays each plan of cands for seat through its turn and the others'
// next turns on the same samples (common random numbers), and returns the
// one that scores best. Sample r deals the cards seat cannot see and
// seeds the dice from the position (positionSeed) and r alone.
func (pp *planPicker) best(cands []params, s *state.State, seat, samples int) params {
	pp.sums = pp.sums[:0]
	for range cands {
		pp.sums = append(pp.sums, 0)
	}
	if pp.src == nil {
		pp.src = rand.NewPCG(0, 0)
		pp.rng = rand.New(pp.src)
	}
	pos := positionSeed(s, seat)
	for r := range samples {
		for i, p := range cands {
			seedRand(pp.src, mix(pos, uint64(r)), 9)
			sim := determinizeInto(&pp.scratch, &pp.cards, s, seat, pp.rng)
			playTurns(&pp.b, sim, seat, p, nil)
			pp.sums[i] += evaluate(sim, seat)
		}
	}
	return cands[argmax(pp.sums)]
}

// argmax is the index of the first largest of xs (0 when xs is empty or
// all NaN).
func argmax(xs []float64) int {
	best := 0
	for i := range xs {
		if xs[i] > xs[best] {
			best = i
		}
	}
	return best
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
