package ai

import (
	"math"
	"math/rand/v2"
	"sort"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// refiner improves a turn's plan one decision at a time. At each decision
// of the turn it weighs a few commands: the plan's own; those the turn's
// other plans would play; when attacking, the six best attacks with at
// least 30% odds, the three best all in, one roll of the best, and
// stopping; when reinforcing, the whole reserve on each
// of the three most promising fronts; when moving in, the fewest, all and
// half. Each is played on the same samples (determinizations, dice and
// the other seats' plans): the command, the rest of the turn by the plan
// it came from (another plan's command by that plan, every other by the
// turn's plan), every other seat's next turn by a model of normal
// (normalModel), and the learned evaluation (hardEvaluate) of where that
// leaves the seat; the worse half of the candidates is dropped after 8,
// 16, 32, ... samples. The plan's own command is played unless another
// beats it by more than the noise (see choose), and the winner's plan
// plays on. A policy improved by its own rollouts this way plays at least
// as well as the policy, up to the noise of the samples; measured, it is
// where most of hard's strength comes from (docs/ai.md).
type refiner struct {
	scratch state.State
	b       board
	cards   []state.Card
	sums    []float64
	live    []bool
	// For each candidate: the sum of its score's differences from the
	// plan's own command's (candidate 0's) on the same samples, the sum of
	// their squares, and its score on the sample at hand.
	diffs   []float64
	sqDiffs []float64
	scores  []float64
	cands   []engine.Command
	conts   []params // the plan that plays on after each candidate
	model   normalModel
	played  int // rollouts so far, for the benchmarks
}

// halve drops the worse half of the live candidates (all have been played
// on the same samples, so their sums compare), keeping at least two and
// never the plan's own command, the default every other is measured
// against, and returns how many are left.
func (r *refiner) halve(live int) int {
	keep := max(2, (live+1)/2)
	for live > keep {
		worst := -1
		for i, ok := range r.live {
			if ok && i > 0 && (worst < 0 || r.sums[i] < r.sums[worst]) {
				worst = i
			}
		}
		r.live[worst] = false
		live--
	}
	return live
}

// choose returns seat's command in view, the best of the candidates
// around plan p (alts are the turn's other plans), and the plan that plays
// the rest of the turn after it: an alternative plan whose own command
// won, else p. Every candidate is
// played on the same samples, one sample for all at a time, until
// done(samples so far) says enough; after 8, 16, 32, ... samples the worse
// half of the candidates still running is dropped (never below two), so
// that the samples go to the ones worth telling apart.
//
// The best mean is played only when it beats the plan's own command by
// at least one standard error of their paired difference; else the
// plan's command is. Taking the best of a dozen noisy means picks, more
// often than not, one that is merely lucky on these samples, while the
// plan's command is a sound default: this margin won 7 points at 640
// iterations and 6 at 200 ms a turn (docs/ai.md, eighth pass).
func (r *refiner) choose(view, sample *state.State, seat int, p params, alts []params, done func(samples int) bool, rng *rand.Rand) (engine.Command, params) {
	cands := r.candidates(view, seat, p, alts)
	if len(cands) == 1 || done(0) {
		return cands[0], p
	}
	r.sums = append(r.sums[:0], make([]float64, len(cands))...)
	r.live = append(r.live[:0], make([]bool, len(cands))...)
	for i := range r.live {
		r.live[i] = true
	}
	r.diffs = append(r.diffs[:0], make([]float64, len(cands))...)
	r.sqDiffs = append(r.sqDiffs[:0], make([]float64, len(cands))...)
	r.scores = append(r.scores[:0], make([]float64, len(cands))...)
	live := len(cands)
	src := rand.NewPCG(0, 0)
	dets := rand.New(src)
	n := 0
	for ; !done(n); n++ {
		if n >= 8 && n&(n-1) == 0 && live > 2 {
			live = r.halve(live)
		}
		seed := rng.Uint64()
		for i, c := range cands {
			if !r.live[i] {
				continue
			}
			src.Seed(seed, 11)
			sim := determinizeInto(&r.scratch, &r.cards, sample, seat, dets)
			if _, err := engine.Apply(sim, seat, c); err != nil {
				// A placement while a full hand must be traded first,
				// say: never chosen.
				r.live[i] = false
				r.sums[i] = math.Inf(-1)
				live--
				continue
			}
			r.model.reset(seed)
			playTurns(&r.b, sim, seat, r.conts[i], &r.model)
			r.scores[i] = hardEvaluate(sim, seat)
			r.sums[i] += r.scores[i]
			r.played++
		}
		if r.live[0] {
			for i, ok := range r.live {
				if ok {
					d := r.scores[i] - r.scores[0]
					r.diffs[i] += d
					r.sqDiffs[i] += d * d
				}
			}
		}
	}
	best := -1
	for i := range cands {
		if r.live[i] && (best < 0 || r.sums[i] > r.sums[best]) {
			best = i
		}
	}
	if best < 0 {
		return cands[0], p
	}
	if best > 0 && r.live[0] && n > 1 && !r.beatsPlan(best, n) {
		best = 0
	}
	return cands[best], r.conts[best]
}

// beatsPlan reports whether candidate i gains over the plan's own
// command, over n paired samples, by at least one standard error of the
// mean gain. (With one sample there is no spread to judge by, and choose
// plays the best.) "At least" lets a candidate that differs from the plan
// on one sample only, and gains there, be played: its mean is exactly
// one standard error, and the builds measured played it.
func (r *refiner) beatsPlan(i, n int) bool {
	mean := r.diffs[i] / float64(n)
	v := max(0, r.sqDiffs[i]/float64(n)-mean*mean)
	return mean > 0 && mean >= math.Sqrt(v/float64(n-1))
}

// candidates lists the commands weighed at seat's decision in view, the
// plan's own first, without repeats, and sets r.conts to the plan that
// plays on after each: the alternative plan a command came from, else p.
// A plan's command judged with the rest of p's turn would be an
// incoherent pair; measured, the change neither won nor lost beyond the
// noise (docs/ai.md, sixth pass).
func (r *refiner) candidates(view *state.State, seat int, p params, alts []params) []engine.Command {
	out := r.cands[:0]
	r.conts = r.conts[:0]
	// addFrom adds c, to be played on by plan from, unless it is there.
	addFrom := func(c engine.Command, from params) {
		for _, x := range out {
			if x == c {
				return
			}
		}
		out = append(out, c)
		r.conts = append(r.conts, from)
	}
	add := func(c engine.Command) { addFrom(c, p) }
	add(p.playOn(&r.b, view, seat))
	for _, a := range alts {
		addFrom(a.playOn(&r.b, view, seat), a)
	}
	switch view.Phase {
	case state.PhaseAttack:
		p.read(&r.b, view, seat)
		var top []attack
		p.eachAttack(&r.b, true, func(a attack, _ bool) {
			if winProb(view.Terr[a.from].Armies-a.keep+1, view.Terr[a.to].Armies) >= 0.3 {
				top = append(top, a)
			}
		})
		sort.Slice(top, func(i, j int) bool { return top[i].score > top[j].score })
		for _, a := range top[:min(6, len(top))] {
			add(engine.Blitz{From: a.from, To: a.to, Keep: a.keep})
		}
		// The three best all in, and one roll of the best, to decide
		// again on what the dice leave.
		for _, a := range top[:min(3, len(top))] {
			add(engine.Blitz{From: a.from, To: a.to, Keep: 1})
		}
		if len(top) > 0 {
			a := top[0]
			add(engine.Attack{From: a.from, To: a.to, Dice: min(3, view.Terr[a.from].Armies-1)})
		}
		add(p.stop(&r.b))
	case state.PhaseReinforce:
		if view.Seats[seat].Reserve > 0 {
			r.placements(view, seat, p, add)
		}
	case state.PhaseOccupy:
		o := view.Occupy
		add(engine.Occupy{Armies: o.Min})
		add(engine.Occupy{Armies: o.Max})
		add(engine.Occupy{Armies: (o.Min + o.Max + 1) / 2})
	}
	r.cands = out
	return out
}

// placements adds the placement of the whole reserve on each of the three
// front territories where it most raises the value of the best attack
// (as normal's placement scores them).
func (r *refiner) placements(view *state.State, seat int, p params, add func(engine.Command)) {
	r.b.reset(view, seat)
	type front struct {
		t    int
		gain float64
	}
	var fs []front
	res := view.Seats[seat].Reserve
	for f := range view.Terr {
		if !r.b.mine(f) || !r.b.front[f] {
			continue
		}
		a := view.Terr[f].Armies
		best := -1.0
		for _, x := range view.Map.Territories[f].Adj {
			if r.b.mine(x) {
				continue
			}
			d := view.Terr[x].Armies
			best = max(best, p.targetValue(&r.b, x)*(winProb(a+res, d)-0.7*winProb(a, d)))
		}
		fs = append(fs, front{f, best})
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].gain > fs[j].gain })
	for _, x := range fs[:min(3, len(fs))] {
		add(engine.Place{Territory: x.t, Armies: res})
	}
}
