package ai

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// hard searches. Once per turn it runs a Monte-Carlo tree search over
// plans (the heuristic player with different styles, goals, or holding
// back): each node of the tree is one of its own turns, each edge the plan
// it plays that turn, and between two of its turns every other seat plays
// its turn as normal might (normalModel). An iteration determinizes the
// match (the hidden cards dealt at random, dice from its own generator),
// walks down the tree choosing plans by UCB1, adds one node, and scores the
// position where it stops; the score is backed up the path. The plan of the root
// tried most often then plays the turn.
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
	plans map[planKey]turnPlan
	// capTurns caches what hard decided of capitals turns
	// (capitals_hard.go).
	capTurns map[planKey]capTurn
	refine   refiner
	// rounds is the search of simultaneous rounds (rounds_search.go).
	rounds roundSearch
}

type planKey struct {
	match string
	turn  int
	seat  int
}

func newHard(opts Options) *hard {
	h := &hard{
		base:       stylePlan(opts.Style),
		budget:     opts.Budget,
		iterations: opts.Iterations,
		rng:        newRand(opts.Seed, 4),
		plans:      make(map[planKey]turnPlan),
	}
	if h.budget <= 0 {
		h.budget = DefaultBudget
	}
	return h
}

func (h *hard) decide(ctx context.Context, s *state.State, seat int) engine.Command {
	if !s.Hidden {
		s = s.View(seat) // handed a full state: search on what the seat may see
	}
	if s.Phase == state.PhaseSetup {
		return h.decideSetup(ctx, s, s, seat)
	}
	return h.decideOn(ctx, s, s, seat)
}

// decideSetup places hard's setup armies by the plan the search finds
// best when the setup's placements and the first turns are played out
// (grow): the plans of every turn, and every continent the seat has a
// foothold in as the goal. The plan is chosen at the seat's first
// placement and kept for the rest of the setup. As in decideOn, s is the
// view or a guess of it, sample what the samples are drawn from.
//
// In simultaneous rounds, whose orders the playouts do not play, hard
// places as normal does.
func (h *hard) decideSetup(ctx context.Context, s, sample *state.State, seat int) engine.Command {
	if s.Options.Turns == state.Simultaneous {
		return h.base.play(s, seat)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	tp := h.plan(s, seat, func() turnPlan {
		alts := candidatePlans(h.base, s, seat, len(s.Map.Continents))
		return turnPlan{p: h.search(ctx, sample, seat, alts), alts: alts}
	})
	return tp.p.play(s, seat)
}

// decideFog implements fogDecider: hard decides its candidates on guess,
// the board GuessFog makes of view, and weighs them on samples each of
// which draws the fog anew (determinizeInto), so that the search weighs
// what the view leaves open instead of one guess's mistakes (docs/ai.md,
// "Fog of war").
func (h *hard) decideFog(ctx context.Context, view, guess *state.State, seat int) engine.Command {
	if guess.Phase == state.PhaseSetup {
		return h.decideSetup(ctx, guess, view, seat)
	}
	return h.decideOn(ctx, guess, view, seat)
}

// decideOn is hard's decision in s, a view or a guess of one without fog,
// its samples drawn from sample: s, or the view with fog s was guessed
// from.
func (h *hard) decideOn(ctx context.Context, s, sample *state.State, seat int) engine.Command {
	h.mu.Lock()
	defer h.mu.Unlock()
	tp := h.plan(s, seat, func() turnPlan {
		start := time.Now()
		alts := h.candidates(s, seat)
		return turnPlan{p: h.search(ctx, sample, seat, alts), alts: alts, start: start}
	})
	c, next := h.refine.choose(s, sample, seat, tp.p, tp.alts, h.refineStop(ctx, tp.start, refineMost(sample)), h.rng)
	if next != tp.p {
		// Another plan's command won: that plan plays on.
		tp.p = next
		h.plans[planKey{match: matchKey(s), turn: s.Turn, seat: seat}] = tp
	}
	return c
}

// plan returns what hard decided of seat's turn at hand in s, deciding
// it with decide if nothing is cached. The cache holds a few matches'
// turns; cleared past that, it costs only a search again. h.mu is held.
func (h *hard) plan(s *state.State, seat int, decide func() turnPlan) turnPlan {
	key := planKey{match: matchKey(s), turn: s.Turn, seat: seat}
	tp, ok := h.plans[key]
	if !ok {
		tp = decide()
		if len(h.plans) > 64 {
			clear(h.plans)
		}
		h.plans[key] = tp
	}
	return tp
}

// turnPlan is what hard keeps of a turn: the plan it plays (the search's
// choice, until the refinement hands the turn to another plan), the plans
// the search weighed, and when the turn's thinking began.
type turnPlan struct {
	p     params
	alts  []params
	start time.Time
}

// refineStop says when a decision's refinement (refiner) has played its
// candidates on enough samples: never more than most (refineMaxSamples,
// or refineWideSamples in fog and in teams). With an
// iteration cap it is a number of samples, a share of the cap, so that
// play is deterministic. Without one it is most, with time as
// a ceiling (on a quiet core 64 samples take a few ms): each decision may take a fifth of the
// time the turn has left (a thirty-second of the budget at least), so that
// the first decisions, which shape the turn, get the most and the turn's
// thinking stays within the budget; and at least a few samples, unless the
// turn's budget is all but spent.
func (h *hard) refineStop(ctx context.Context, start time.Time, most int) func(samples int) bool {
	if h.iterations > 0 {
		want := min(most, max(refineMinSamples, h.iterations/refineShare*most/refineMaxSamples))
		return func(n int) bool { return n >= want }
	}
	last := start.Add(h.budget - h.budget/20)
	left := time.Until(last)
	if left <= 0 {
		return func(int) bool { return true } // out of time: the plan's own command
	}
	end := time.Now().Add(min(left, max(h.budget/32, left/5)))
	// The few samples a decision needs to be worth weighing, unless they
	// would take the turn past its budget.
	over := start.Add(h.budget - h.budget/64)
	return func(n int) bool {
		if n >= most || ctx.Err() != nil {
			return true
		}
		now := time.Now()
		return now.After(over) || (n >= refineMinSamples && now.After(end))
	}
}

// The refinement's samples (of each candidate still in the running): with
// an iteration cap, the cap over refineShare (640 iterations: 64 samples);
// by time, as many as the time allows, within the bounds.
//
// More samples than refineMaxSamples lose games: the rollouts judge a
// command by models (of the others, of the rest of the turn, of the
// position) whose errors more samples do not average out, and the more
// samples, the smaller the margin a candidate needs to beat the plan's
// own command (choose), so the more often a bias passes for a gain.
//
// In fog, and in teams of two scored by the side's chance (refineMost),
// refineWideSamples win more games: each sample also draws the board out
// of sight, or plays the teammate's turn, so the candidates' paired
// differences spread more. The games behind each bound, mode by mode,
// are in docs/ai.md.
const (
	refineShare       = 10
	refineMinSamples  = 8
	refineMaxSamples  = 64
	refineWideSamples = 256
)

// refineMost is the most samples a decision's refinement plays in
// match s: refineWideSamples in fog and in teams of two scored by the
// side's chance, refineMaxSamples otherwise.
func refineMost(s *state.State) int {
	if s.Fogged() || teamEvaluated(s) {
		return refineWideSamples
	}
	return refineMaxSamples
}

// planIterations is how many iterations the plan search runs when
// Options.Iterations does not say, the budget then being only a ceiling
// (grow, refineStop): a turn's thinking is then the same on a quiet and
// on a loaded machine, unless the machine is so slow that the ceilings
// bind. Bounded by an eighth of the 2 s budget alone, the search ran
// about 370 iterations on a quiet core at the start of a match, and
// fewer under load (issue 34); more than a few hundred gain little
// (docs/ai.md, V6 and V8).
const planIterations = 400

// matchKey tells matches apart for the plan cache.
func matchKey(s *state.State) string {
	var b strings.Builder
	for _, seat := range s.Seats {
		b.WriteString(seat.ID)
		b.WriteByte(0)
	}
	return b.String()
}

// candidates are the plans hard weighs for the turn at hand: those of
// every turn (laterPlans) and the two next-best goal continents.
func (h *hard) candidates(s *state.State, seat int) []params {
	return candidatePlans(h.base, s, seat, 2)
}

// candidatePlans are the plans weighed for seat's turn in s around the
// base plan: laterPlans and up to goals next-best goal continents.
func candidatePlans(base params, s *state.State, seat, goals int) []params {
	return withGoals(laterPlans(base), base, newBoard(s, seat).runnerUpGoals(nil, goals))
}

// withGoals appends to plans base turned toward each of the goals.
func withGoals(plans []params, base params, goals []int) []params {
	for _, c := range goals {
		plans = append(plans, params{style: base.style, goal: c, ref: base.ref})
	}
	return plans
}

// Search parameters: how many of its own turns the tree looks ahead, and
// how widely UCB1 explores. Scores of plans differ by a few hundredths
// (shares of income, armies and territories), so exploration is scaled
// down to match.
const (
	searchDepth = 2
	exploration = 0.05
)

// node is one of the seat's turns in the search tree: the plans it may
// play, how often each was tried and what it scored, and the turn after
// each (nil until an iteration reaches it).
type node struct {
	plans  []params
	next   []*node
	visits []int
	sum    []float64
	total  int
}

func newNode(plans []params) *node {
	return &node{plans: plans, next: make([]*node, len(plans)), visits: make([]int, len(plans)), sum: make([]float64, len(plans))}
}

// choose picks the plan to try by UCB1: each plan once, then the best mean
// plus a bonus for the less tried.
func (n *node) choose() int {
	best, bestV := 0, math.Inf(-1)
	for i := range n.plans {
		if n.visits[i] == 0 {
			return i
		}
		v := n.sum[i]/float64(n.visits[i]) + exploration*math.Sqrt(math.Log(float64(n.total))/float64(n.visits[i]))
		if v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// laterPlans are the plans of every turn: the heuristic player at its own
// style, more defensive, more aggressive, and passive. They do not depend
// on the position, so that one node of the tree can stand for every
// position the dice lead to.
func (h *hard) laterPlans() []params { return laterPlans(h.base) }

// laterPlans are hard's plans of every turn around base.
func laterPlans(base params) []params {
	clamp := func(x float64) float64 { return max(-1, min(1.8, x)) }
	st, ref := base.style, base.ref
	return []params{
		{style: st, goal: -1, ref: ref},
		{style: clamp(st - 0.7), goal: -1, ref: ref},
		{style: clamp(st + 0.6), goal: -1, ref: ref},
		{style: clamp(st - 0.4), goal: -1, passive: true, ref: ref},
	}
}

// search runs the tree search from the turn at hand and returns the root
// plan tried most often.
func (h *hard) search(ctx context.Context, s *state.State, seat int, cands []params) params {
	if len(cands) == 1 {
		return cands[0]
	}
	root := newNode(cands)
	h.grow(ctx, root, s, seat)
	best := 0
	for i := range cands {
		if root.visits[i] > root.visits[best] || (root.visits[i] == root.visits[best] && root.sum[i] > root.sum[best]) {
			best = i
		}
	}
	return cands[best]
}

// grow runs iterations of the search under root until the budget (time or
// iterations) is spent.
func (h *hard) grow(ctx context.Context, root *node, s *state.State, seat int) {
	later := h.laterPlans()
	// With an iteration cap, the search runs that many iterations within
	// an eighth of the turn's budget. Without one it runs planIterations,
	// with a quarter of the budget as a ceiling: the refinement of the
	// turn's decisions, worth more (docs/ai.md), may take the rest
	// (refineStop), and at most refineMaxSamples a decision takes far
	// less.
	target, deadline := h.iterations, time.Now().Add(h.budget/8)
	if target <= 0 {
		target, deadline = planIterations, time.Now().Add(h.budget/4)
	}
	type step struct {
		n *node
		i int
	}
	path := make([]step, 0, searchDepth)
	// One scratch state, board and card list serve every playout: a
	// playout then allocates almost nothing (BenchmarkPlayout).
	var (
		scratch state.State
		b       board
		cards   []state.Card
		model   normalModel
	)
	for iter := 1; ; iter++ {
		sim := determinizeInto(&scratch, &cards, s, seat, h.rng)
		model.reset(h.rng.Uint64())
		path = path[:0]
		n := root
		for depth := 0; ; depth++ {
			i := n.choose()
			path = append(path, step{n, i})
			if sim.Phase == state.PhaseSetup {
				// The root's plan places the seat's setup armies too;
				// then the others play up to the seat's first turn.
				finishSetup(&b, sim, seat, n.plans[i])
				if sim.Current != seat {
					playTurns(&b, sim, seat, n.plans[i], &model)
				}
			}
			playTurns(&b, sim, seat, n.plans[i], &model)
			if depth+1 >= searchDepth || sim.Phase == state.PhaseOver || !sim.Seats[seat].Alive() {
				break
			}
			if n.next[i] == nil {
				n.next[i] = newNode(later) // expand, and score from here
				break
			}
			n = n.next[i]
		}
		score := hardEvaluate(sim, seat)
		for _, st := range path {
			st.n.visits[st.i]++
			st.n.sum[st.i] += score
			st.n.total++
		}
		if iter >= target {
			return
		}
		if ctx.Err() != nil || time.Now().After(deadline) {
			return
		}
	}
}

// playTurns plays seat's turn with plan p and every other seat's next turn,
// until the turn comes back to seat: with the default heuristic player, or
// with the plans of model m if it is not nil. b is scratch memory for the
// players' boards.
func playTurns(b *board, s *state.State, seat int, p params, m *normalModel) {
	def := defaultPlan()
	start := s.Turn
	for steps := 0; steps < 20000; steps++ {
		if s.Phase == state.PhaseOver || !s.Seats[seat].Alive() || (s.Turn != start && s.Current == seat) {
			break
		}
		cur, pl := s.Current, def
		switch {
		case cur == seat:
			pl = p
		case m != nil:
			pl = m.plan(b, s, cur)
		}
		if !pl.apply(b, s, cur) {
			break
		}
	}
}

// apply plays seat cur's next command of plan p in s, or Fallback's if
// the plan's is refused; false if both are.
func (p params) apply(b *board, s *state.State, cur int) bool {
	if _, err := engine.Apply(s, cur, p.playOn(b, s, cur)); err == nil {
		return true
	}
	_, err := engine.Apply(s, cur, Fallback(s, cur))
	return err == nil
}

// finishSetup plays out the simultaneous setup of s: seat places with
// plan p, every other seat as normal does (the default plan), in turns of
// a placement each.
func finishSetup(b *board, s *state.State, seat int, p params) {
	def := defaultPlan()
	for placed := true; placed && s.Phase == state.PhaseSetup; {
		placed = false
		for cur := range s.Seats {
			if s.Phase != state.PhaseSetup || s.Seats[cur].Reserve == 0 {
				continue
			}
			pl := def
			if cur == seat {
				pl = p
			}
			if pl.apply(b, s, cur) {
				placed = true
			}
		}
	}
}

// normalModel is how hard's samples play the other seats. Normal picks one
// of its plans each turn by a short look ahead of a few samples, so its
// turns vary (normalShares). The model plays each other seat's turn with
// one of those plans, picked at random from the sample's seed in normal's
// proportions. Measured, a model that always plays the default plan
// misjudges normal's replies enough to cost hard 8 points of its wins.
// Normal's own look ahead on a sample of the position picks normal's real
// plan twice as often as the shares, but each rollout then costs twelve
// times as much; with the refinement's margin it won no more at 2 s a
// turn (800 games a side), and it is gone (docs/ai.md, ninth pass).
type normalModel struct {
	plans []params // laterPlans of the default player
	seed  uint64
	turn  int // the turn whose plan is held, or -1
	held  params
	goals []int
}

// The kinds of plan normal plays (laterPlans, candidatePlans).
const (
	planOwn  = iota // its own style
	planGoal        // a runner-up goal continent
	planPassive
	planDefensive
	planAggressive
	numPlanKinds
)

// normalShares returns the shares, in percent, of normal's turns played
// with each kind of plan, when it has a runner-up continent to turn to and
// when it has none. Measured over 30 games of four normal
// (TestNormalPlanShares).
func normalShares(goals bool) [numPlanKinds]int {
	if goals {
		return [numPlanKinds]int{22, 35, 28, 12, 3}
	}
	return [numPlanKinds]int{41, 0, 39, 18, 2}
}

// reset starts the model on a new sample.
func (m *normalModel) reset(seed uint64) {
	if m.plans == nil {
		m.plans = laterPlans(defaultPlan())
	}
	m.seed, m.turn = seed, -1
}

// plan returns the plan seat cur plays in the turn at hand of s, the same
// throughout the turn.
func (m *normalModel) plan(b *board, s *state.State, cur int) params {
	if m.turn == s.Turn {
		return m.held
	}
	m.turn = s.Turn
	p := m.plans[0]
	p.read(b, s, cur)
	m.goals = b.runnerUpGoals(m.goals[:0], 2)
	h := int(mix(m.seed, uint64(cur), uint64(s.Turn)) % 100)
	shares := normalShares(len(m.goals) > 0)
	kind := 0
	for ; kind < numPlanKinds-1 && h >= shares[kind]; kind++ {
		h -= shares[kind]
	}
	switch kind { // m.plans: own style, defensive, aggressive, passive
	case planGoal:
		p.goal = m.goals[h%len(m.goals)]
	case planPassive:
		p = m.plans[3]
	case planDefensive:
		p = m.plans[1]
	case planAggressive:
		p = m.plans[2]
	}
	m.held = p
	return p
}

// settled returns the score of a position decided for seat: 1 if it won,
// 0 if it lost or is out.
func settled(s *state.State, seat int) (float64, bool) {
	switch {
	case s.Phase == state.PhaseOver && s.Winner == seat:
		return 1, true
	case s.Phase == state.PhaseOver || !s.Seats[seat].Alive():
		return 0, true
	}
	return 0, false
}

// evaluate scores a position for seat in [0, 1]: 1 for a win, 0 when out,
// otherwise its share of the income, armies and territories in play, with
// a little for cards in hand.
func evaluate(s *state.State, seat int) float64 {
	if v, ok := settled(s, seat); ok {
		return v
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

// runnerUpGoals appends to dst up to k continents, other than the board's
// goal, that the seat has a foothold in and does not hold, best first. It
// allocates nothing when dst has room: hard's samples call it.
func (b *board) runnerUpGoals(dst []int, k int) []int {
	start := len(dst)
	for range k {
		best, bestScore := -1, 0.0
	next:
		for c, cont := range b.m.Continents {
			if c == b.goal || b.contOwner[c] == b.seat || b.contMine[c] == 0 {
				continue
			}
			for _, x := range dst[start:] {
				if x == c {
					continue next
				}
			}
			share := float64(b.contMine[c]) / float64(len(cont.Territories))
			if score := float64(cont.Bonus+1) * share; best < 0 || score > bestScore {
				best, bestScore = c, score
			}
		}
		if best < 0 {
			break
		}
		dst = append(dst, best)
	}
	return dst
}
