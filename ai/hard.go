package ai

import (
	"context"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// hard searches. Once per turn it weighs a handful of plans (the heuristic
// player with different styles, goals, or holding back) by Monte-Carlo
// playouts on determinized copies of the match: the hidden cards dealt at
// random, dice from its own generator. A playout plays the rest of the
// turn with the plan, then every other seat's next turn with the normal
// player, and scores the position when the turn comes back. All plans are
// played against the same sampled worlds and dice (common random numbers),
// so their comparison is not drowned in dice noise. The best plan then
// plays the turn.
//
// The plan chosen for a turn is cached; if it is lost (a restart), hard
// searches again from where the turn stands, so the cache is never needed
// for a correct move.
type hard struct {
	base       params
	budget     time.Duration
	iterations int

	mu    sync.Mutex
	rng   *rand.Rand
	plans map[planKey]params
}

type planKey struct {
	match string
	turn  int
	seat  int
}

func newHard(opts Options) *hard {
	h := &hard{
		base:       params{style: bias(opts.Style), goal: -1},
		budget:     opts.Budget,
		iterations: opts.Iterations,
		rng:        newRand(opts.Seed, 4),
		plans:      make(map[planKey]params),
	}
	if h.budget <= 0 {
		h.budget = DefaultBudget
	}
	return h
}

func (h *hard) decide(ctx context.Context, s *state.State, seat int) engine.Command {
	if s.Phase == state.PhaseSetup {
		return h.base.play(s, seat)
	}
	if !s.Hidden {
		s = s.View(seat) // handed a full state: search on what the seat may see
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	key := planKey{match: matchKey(s), turn: s.Turn, seat: seat}
	p, ok := h.plans[key]
	if !ok {
		p = h.search(ctx, s, seat)
		if len(h.plans) > 64 {
			clear(h.plans)
		}
		h.plans[key] = p
	}
	return p.play(s, seat)
}

// matchKey tells matches apart for the plan cache.
func matchKey(s *state.State) string {
	var b strings.Builder
	for _, seat := range s.Seats {
		b.WriteString(seat.ID)
		b.WriteByte(0)
	}
	return b.String()
}

// candidates are the plans hard weighs: the heuristic player's styles
// around its own, a passive plan, and the next-best goal continents.
func (h *hard) candidates(s *state.State, seat int) []params {
	clamp := func(x float64) float64 { return max(-1, min(1.8, x)) }
	st := h.base.style
	out := []params{
		{style: st, goal: -1},
		{style: clamp(st - 0.7), goal: -1},
		{style: clamp(st + 0.6), goal: -1},
		{style: clamp(st - 0.4), goal: -1, passive: true},
	}
	b := newBoard(s, seat)
	for _, c := range b.runnerUpGoals(2) {
		out = append(out, params{style: st, goal: c})
	}
	return out
}

// search runs playouts round-robin over the candidates until the budget
// (time or iterations) is spent, and returns the plan with the best mean.
func (h *hard) search(ctx context.Context, s *state.State, seat int) params {
	cands := h.candidates(s, seat)
	if len(cands) == 1 {
		return cands[0]
	}
	sum := make([]float64, len(cands))
	// The search takes nine tenths of the turn's budget: the rest of the
	// turn's decisions, and a last round of playouts begun just before the
	// deadline, fit in the tenth left.
	deadline := time.Now().Add(h.budget - h.budget/10)
	playouts := 0
	for {
		world := determinize(s, seat, h.rng)
		for i, c := range cands {
			sim := world.Clone()
			sum[i] += playout(sim, seat, c)
			playouts++
		}
		if h.iterations > 0 && playouts >= h.iterations {
			break
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			break
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

// playout plays seat's turn with plan p and every other seat's next turn
// with the default heuristic player, then scores the position for seat.
func playout(s *state.State, seat int, p params) float64 {
	def := params{style: bias(0), goal: -1}
	start := s.Turn
	for steps := 0; steps < 20000; steps++ {
		if s.Phase == state.PhaseOver || !s.Seats[seat].Alive() || (s.Turn != start && s.Current == seat) {
			break
		}
		cur, pl := s.Current, def
		if cur == seat {
			pl = p
		}
		if _, err := engine.Apply(s, cur, pl.play(s, cur)); err != nil {
			if _, err := engine.Apply(s, cur, Fallback(s, cur)); err != nil {
				break
			}
		}
	}
	return evaluate(s, seat)
}

// evaluate scores a position for seat in [0, 1]: 1 for a win, 0 when out,
// otherwise its share of the income, armies and territories in play, with
// a little for cards in hand.
func evaluate(s *state.State, seat int) float64 {
	if s.Phase == state.PhaseOver {
		if s.Winner == seat {
			return 1
		}
		return 0
	}
	if !s.Seats[seat].Alive() {
		return 0
	}
	var myInc, allInc, myArm, allArm, myTerr, allTerr float64
	for p := range s.Seats {
		if !s.Seats[p].Alive() {
			continue
		}
		inc := float64(s.Income(p).Total) + 1.2*float64(s.HandSize(p))
		arm := float64(s.Armies(p))
		terr := float64(s.Owned(p))
		allInc += inc
		allArm += arm
		allTerr += terr
		if p == seat {
			myInc, myArm, myTerr = inc, arm, terr
		}
	}
	v := 0.4*myInc/allInc + 0.35*myArm/allArm + 0.25*myTerr/allTerr
	return 0.05 + 0.9*v
}

// runnerUpGoals returns up to k continents, other than the board's goal,
// that the seat has a foothold in and does not hold, best first.
func (b *board) runnerUpGoals(k int) []int {
	type cg struct {
		c     int
		score float64
	}
	var cs []cg
	for c, cont := range b.m.Continents {
		if c == b.goal || b.contOwner[c] == b.seat || b.contMine[c] == 0 {
			continue
		}
		share := float64(b.contMine[c]) / float64(len(cont.Territories))
		cs = append(cs, cg{c, float64(cont.Bonus+1) * share})
	}
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].score > cs[j-1].score; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
	var out []int
	for _, x := range cs[:min(k, len(cs))] {
		out = append(out, x.c)
	}
	return out
}
