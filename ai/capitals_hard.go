package ai

import (
	"context"
	"slices"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// hard in a capitals match searches once per turn, at its first decision,
// over whole-turn plans (capCandidates): where the reinforcements go (the
// territories normal ranks best, and the capital), which action follows
// (normal's choice, or the best capture, the best attacks, a port, none),
// which move (normal's, its second or third best, none), and plans that
// gather troops on the capital or next to an enemy capital. Each iteration
// determinizes the view (determinizeCapitals: the hidden items drawn
// plausibly, the luck from hard's own generator), plays the turn with a
// plan, then capRounds rounds with the normal player for every seat
// (hard's own later turns included), and scores the position
// (capScore). The plans are compared on common random numbers, and the
// worse half is dropped after 4, 8, 16, ... rounds; the best mean plays
// the turn, its action computed on the real outcome. Once the attacks are
// launched, a second search of the same kind weighs the moves on their real
// outcome (moveSearch). The capital is chosen by a shorter search of the
// same kind (chooseCapital).
//
// Without an iteration cap the search plays capIterations playouts, and
// the move's capMovePlayouts, the budget only a ceiling; with one, the
// move's search plays in proportion.
//
// The plan is cached for the turn; if it is lost (a restart), hard
// searches again from where the turn stands, or plays as normal past the
// action but for the move, which it always searches.

// capPlan is one way to play a capitals turn.
type capPlan struct {
	reinforce int // the territory the reinforcements go to; -1: normal's choice
	action    actionKind
	// move is the rank of the move among normal's (topMoves) after the
	// action: 0 normal's own, 1 the second best, ...; -1 none.
	move int
	// gather, if not -1, replaces the move: the most troops that one move
	// can bring to this territory (3/4 of a neighbour's).
	gather int
	// bold plans the turn's attacks against the defences of the board
	// guessed from the view (fog only) rather than against the worst case
	// the fog allows: the engine accepts them (it checks the defence in
	// sight, never more than the guess's), and the launch skips one that
	// the troops out of sight stop, which the search weighs on its samples.
	bold bool
}

// actionKind is the action a capPlan takes.
type actionKind uint8

const (
	actNormal  actionKind = iota // as normal decides
	actCapture                   // the best capture
	actAttack                    // the best attacks
	actPort                      // the best port
	actNone                      // no action: straight to the move
)

// capIterations is how many playouts the turn's search plays when
// Options.Iterations does not say: the budget is then only a ceiling.
// Between 100 and 400 a turn the wins did not move beyond the noise, and
// the whole 2 s budget (thousands) won little more (docs/ai.md); 400
// take about 0.1 to 0.3 s.
const capIterations = 400

// capScore is how hard's capitals playouts score where they stop: the
// learned evaluation. With it hard won 69.5% against three normal, with
// capEvaluate 61.5% (200 games each, seed 5, docs/ai.md).
var capScore = capWinChance

// capRounds is how many rounds after its turn hard plays out before
// scoring.
const capRounds = 2

// gatherMove is the move that brings the most troops to t: 3/4 of those of
// one of the seat's territories that reaches it.
func gatherMove(s *state.State, seat, t int) (engine.Command, bool) {
	best, most := -1, 0
	for x := range s.Terr {
		if x == t || s.Terr[x].Owner != seat || s.Map.Reach(x, t, s.Terr[x].Port) == state.NoReach {
			continue
		}
		if n := state.MoveCount(s.Terr[x].Armies, 3); n > most {
			best, most = x, n
		}
	}
	if best < 0 {
		return nil, false
	}
	return engine.Move{From: best, To: t, Quarters: 3}, true
}

// strongestReaching returns seat's territory with the most troops among
// those that reach territory y (by land, or by sea from a port), or -1.
func strongestReaching(s *state.State, seat, y int) int {
	x := -1
	for t := range s.Terr {
		if s.Terr[t].Owner == seat && s.Map.Reach(t, y, s.Terr[t].Port) != state.NoReach && (x < 0 || s.Terr[t].Armies > s.Terr[x].Armies) {
			x = t
		}
	}
	return x
}

// rollout is the heuristic player of the playouts.
var rollout = capParams{}

// In fog, hard decides on the board guessed from its view, and its own
// turn, in the playouts as in play, attacks only where the attack is
// legal whatever the fog hides (own: the rollout player with the fog's
// margins); the other turns of the playouts are played on the whole
// board each playout draws.
func (h *hard) decideCapitals(ctx context.Context, s *state.State, seat int, fog unseen) engine.Command {
	if !s.Hidden {
		s = s.View(seat) // handed a full state: search on what the seat may see
	}
	return h.decideCapitalsOn(ctx, s, s, seat, fog)
}

// decideCapitalsFog implements capitalsFogDecider: hard plays on guess,
// the board GuessFog makes of view, and its searches' samples each draw
// the fog anew from view (determinizeCapitals).
func (h *hard) decideCapitalsFog(ctx context.Context, view, guess *state.State, seat int, fog unseen) engine.Command {
	return h.decideCapitalsOn(ctx, guess, view, seat, fog)
}

// decideCapitalsOn is hard's capitals decision in s, a view or a guess of
// one, its samples drawn from sample: s, or the view with fog s was
// guessed from.
func (h *hard) decideCapitalsOn(ctx context.Context, s, sample *state.State, seat int, fog unseen) engine.Command {
	own := rollout
	own.fog = fog
	if s.Phase == state.PhaseSetup {
		h.mu.Lock()
		defer h.mu.Unlock()
		return h.chooseCapital(ctx, s, seat, time.Now().Add(h.budget-h.budget/10))
	}
	if s.Phase == state.PhaseReinforce && s.Seats[seat].Capitals.Item == state.ItemTwoTurns {
		return engine.UseItem{}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.capTurns == nil {
		h.capTurns = make(map[planKey]capTurn)
	}
	key := planKey{match: matchKey(s), turn: s.Turn, seat: seat}
	turn, ok := h.capTurns[key]
	if !ok {
		// The searches take nine tenths of the turn's budget, counted from
		// here: the rest of the turn's decisions, and a last playout begun
		// just before the deadline, fit in the tenth left.
		turn = capTurn{plan: normalPlan, deadline: time.Now().Add(h.budget - h.budget/10)}
		if cands := h.capCandidates(own, s, seat); len(cands) > 0 {
			var boldDef []int
			if slices.ContainsFunc(cands, func(c capPlan) bool { return c.bold }) {
				boldDef = boldDefences(s, fog)
			}
			turn.plan = h.capSearch(ctx, own, sample, seat, cands, boldDef, turn.deadline)
		}
		if len(h.capTurns) > 64 {
			clear(h.capTurns)
		}
	}
	if turn.plan.bold {
		own.fog = fog.bold()
	}
	if s.Phase == state.PhaseMove && !s.Cap.Moved && turn.move == nil {
		turn.move = h.moveSearch(ctx, s, sample, seat, turn.plan.play(own, s, seat), turn.deadline)
	}
	h.capTurns[key] = turn
	if s.Phase == state.PhaseMove && !s.Cap.Moved {
		return turn.move
	}
	return turn.plan.play(own, s, seat)
}

// capTurn is what hard has decided of a capitals turn: the plan, the
// deadline of the turn's searches, and the move once chosen.
type capTurn struct {
	plan     capPlan
	deadline time.Time
	move     engine.Command
}

// normalPlan plays as normal.
var normalPlan = capPlan{reinforce: -1, action: actNormal, gather: -1}

// capMovePlayouts is how many playouts the move phase's search plays.
const capMovePlayouts = 128

// moveSearch weighs the moves of the turn's move phase on the real outcome
// of its action (the attacks' luck is drawn by then): the plan's own
// (first, so that it wins ties), normal's four best, the gathering moves
// and none, each followed by capRounds rounds of normal play and scored by
// capScore, on common samples with successive halving. The turn's search
// chose the plan's move on luck of its own; with the move searched again
// hard won 75.0% against three normal instead of 69.5% (200 games each,
// seed 1201, docs/ai.md).
func (h *hard) moveSearch(ctx context.Context, s, sample *state.State, seat int, planned engine.Command, deadline time.Time) engine.Command {
	cands := []engine.Command{planned}
	add := func(c engine.Command) {
		if c != nil && !slices.Contains(cands, c) {
			cands = append(cands, c)
		}
	}
	for _, m := range rollout.topMoves(s, seat, 4) {
		add(m)
	}
	add(engine.EndTurn{})
	if m, ok := gatherMove(s, seat, s.Capital(seat)); ok {
		add(m)
	}
	for v := range s.Seats {
		y := s.Capital(v)
		if s.Sides().Same(v, seat) || y < 0 {
			continue
		}
		if x := strongestReaching(s, seat, y); x >= 0 {
			if m, ok := gatherMove(s, seat, x); ok {
				add(m)
			}
		}
	}
	if len(cands) == 1 {
		return planned
	}
	play := capRollout(sample.Options.Fog)
	score := func(i int, seed uint64) float64 {
		sim := determinizeCapitals(sample, seat, newRand(seed, 9))
		if _, err := engine.Apply(sim, seat, cands[i]); err != nil {
			return 0
		}
		playCapTurn(sim, seat, play)
		for range capRounds {
			if !playCapRound(sim, seat, nil, play) {
				break
			}
		}
		return capScore(sim, seat)
	}
	playouts := capMovePlayouts
	if h.iterations > 0 {
		playouts = max(1, h.iterations*capMovePlayouts/capIterations) // in proportion
	}
	return cands[h.halving(ctx, len(cands), playouts, deadline, score)]
}

// The capital choice (chooseCapital): the spots normal ranks best are
// each played capOpeningRounds rounds ahead, every seat as normal, on
// common samples, the worse half dropped after 4, 8, ... samples, at most
// capOpeningPlayouts playouts in all.
const (
	capOpeningSpots    = 6
	capOpeningRounds   = 8
	capOpeningPlayouts = 96
)

// chooseCapital is hard's capital choice: the spots normal ranks best
// (capitalScores), each played out a few rounds with every seat as normal
// (the other seats' capitals chosen as normal chooses them) and scored by
// capScore.
func (h *hard) chooseCapital(ctx context.Context, s *state.State, seat int, deadline time.Time) engine.Command {
	spots := rollout.capitalScores(s, seat)
	if len(spots) == 0 {
		return capitalsFallback(s, seat)
	}
	slices.SortStableFunc(spots, byValue)
	spots = spots[:min(capOpeningSpots, len(spots))]
	play := capRollout(s.Options.Fog)
	score := func(i int, seed uint64) float64 {
		sim := determinizeCapitals(s, seat, newRand(seed, 9))
		if _, err := engine.Apply(sim, seat, engine.Capital{Territory: spots[i].t}); err != nil {
			return 0
		}
		for steps := 0; sim.Phase == state.PhaseSetup && steps < 2*len(sim.Seats); steps++ {
			if _, err := engine.Apply(sim, sim.Current, rollout.play(sim, sim.Current)); err != nil {
				return 0
			}
		}
		for range capOpeningRounds * len(sim.Seats) {
			if sim.Phase == state.PhaseOver || !sim.Seats[seat].Alive() {
				break
			}
			playCapTurn(sim, sim.Current, play)
		}
		return capScore(sim, seat)
	}
	best := h.halving(ctx, len(spots), capOpeningPlayouts, deadline, score)
	return engine.Capital{Territory: spots[best].t}
}

// halving compares n candidates by score on common samples (each round of
// samples draws one seed from hard's generator and scores every candidate
// still running with it), drops the worse half after 4, 8, 16, ... rounds
// (never below two), and returns the best mean once playouts scores are
// made, or at the deadline or the context's end (only whole rounds count).
func (h *hard) halving(ctx context.Context, n, playouts int, deadline time.Time, score func(i int, seed uint64) float64) int {
	if n == 1 {
		return 0
	}
	sum := make([]float64, n)
	round := make([]float64, n)
	active := make([]int, n)
	for i := range active {
		active[i] = i
	}
	nextCut, done, rounds := 4, 0, 0
	for done < playouts {
		seed := h.rng.Uint64()
		whole := true
		for _, i := range active {
			if ctx.Err() != nil || time.Now().After(deadline) {
				whole = false
				break
			}
			round[i] = score(i, seed)
			done++
		}
		if !whole {
			break
		}
		for _, k := range active {
			sum[k] += round[k]
		}
		rounds++
		if rounds == nextCut && len(active) > 2 {
			active = halve(active, sum)
			nextCut *= 2
		}
	}
	best := active[0]
	for _, i := range active {
		if sum[i] > sum[best] {
			best = i
		}
	}
	return best
}

// play returns the plan's command for seat in s.
func (pl capPlan) play(p capParams, s *state.State, seat int) engine.Command {
	switch s.Phase {
	case state.PhaseReinforce:
		if s.Seats[seat].Capitals.Item == state.ItemTwoTurns {
			return engine.UseItem{}
		}
		if t := pl.reinforce; t >= 0 && s.Terr[t].Owner == seat && s.Seats[seat].Reserve > 0 {
			return engine.Reinforce{Territory: t}
		}
	case state.PhaseAction:
		if s.Cap.NPlan > 0 || pl.action == actNormal {
			break
		}
		if pl.action == actNone {
			return pl.moveOrEnd(p, s, seat)
		}
		ch := p.actionChoices(s, seat)
		switch {
		case pl.action == actCapture && ch.capture != nil:
			return ch.capture
		case pl.action == actAttack && ch.attack != nil:
			return ch.attack
		case pl.action == actPort && ch.port != nil:
			return ch.port
		}
	case state.PhaseMove:
		if !s.Cap.Moved && (pl.move != 0 || pl.gather >= 0) {
			return pl.moveOrEnd(p, s, seat)
		}
	}
	return p.play(s, seat)
}

// moveOrEnd plays the plan's move, or ends the turn.
func (pl capPlan) moveOrEnd(p capParams, s *state.State, seat int) engine.Command {
	if pl.gather >= 0 && s.Terr[pl.gather].Owner == seat {
		if m, ok := gatherMove(s, seat, pl.gather); ok {
			return m
		}
	}
	if pl.move < 0 {
		return engine.EndTurn{}
	}
	if ms := p.topMoves(s, seat, pl.move+1); len(ms) > 0 {
		return ms[min(pl.move, len(ms)-1)]
	}
	if m, ok := handOver(s, seat); ok && !s.Cap.Moved {
		return m // troops stranded behind a teammate's land (teams)
	}
	return engine.EndTurn{}
}

// capCandidates lists the plans hard weighs for the turn at hand: in the
// reinforcement phase, the three targets normal ranks best and the
// capital, each with normal's action, and the best target with each other
// action there is; in the action phase, the actions. own is the rollout
// player as it plays hard's turn (with the fog's margins).
func (h *hard) capCandidates(own capParams, s *state.State, seat int) []capPlan {
	switch {
	case s.Phase == state.PhaseReinforce && s.Seats[seat].Reserve > 0:
	case s.Phase == state.PhaseAction && s.Cap.NPlan == 0 && !s.Cap.Ported:
		return actionVariants(own, s, seat, -1)
	default:
		return nil
	}
	scores := own.reinforceScores(s, seat, true)
	slices.SortStableFunc(scores, byValue)
	var out []capPlan
	for _, sc := range scores[:min(3, len(scores))] {
		out = append(out, capPlan{reinforce: sc.t, action: actNormal, gather: -1})
	}
	if c := s.Capital(seat); !slices.ContainsFunc(out, func(p capPlan) bool { return p.reinforce == c }) {
		out = append(out, capPlan{reinforce: c, action: actNormal, gather: -1})
	}
	out = append(out, actionVariants(own, s, seat, scores[0].t)...)
	// Gather on the capital; and, for each enemy capital in reach of one of
	// hard's territories, on the strongest of those.
	c := s.Capital(seat)
	out = append(out, capPlan{reinforce: c, action: actNormal, gather: c})
	for v := range s.Seats {
		y := s.Capital(v)
		if s.Sides().Same(v, seat) || y < 0 {
			continue
		}
		if x := strongestReaching(s, seat, y); x >= 0 {
			out = append(out, capPlan{reinforce: x, action: actNormal, gather: x})
		}
	}
	// Normal's second and third best moves, and none.
	for _, m := range []int{1, 2, -1} {
		out = append(out, capPlan{reinforce: scores[0].t, action: actNormal, move: m, gather: -1})
	}
	return out
}

// actionVariants lists the plans that reinforce r (-1: already done) and
// then take an action other than normal's, for each kind of action there
// is (after normal's own, when r is -1).
func actionVariants(own capParams, s *state.State, seat, r int) []capPlan {
	x := s
	if r >= 0 {
		x = s.Clone()
		x.Hidden = false // a view: only the seat's own reinforcement is played on it
		if _, err := engine.Apply(x, seat, engine.Reinforce{Territory: r}); err != nil {
			return nil
		}
	}
	var out []capPlan
	if r < 0 {
		out = append(out, capPlan{reinforce: -1, action: actNormal, gather: -1})
	}
	ch := own.actionChoices(x, seat)
	// Normal's action (own.action), on the same choices: no attack is
	// planned yet (capCandidates).
	normal := own.chosen(ch, x, seat)
	for _, v := range []struct {
		kind actionKind
		c    engine.Command
	}{{actCapture, ch.capture}, {actAttack, ch.attack}, {actPort, ch.port}} {
		if v.c != nil && v.c != normal {
			out = append(out, capPlan{reinforce: r, action: v.kind, gather: -1})
		}
	}
	if own.fog != nil {
		// The bold attacks, where they are not the safe ones.
		bp, _ := own.bestPlan(newCapBoard(x, seat, own.fog.bold()), nil)
		if len(bp) > 0 && !slices.Equal(bp, ch.plan) {
			out = append(out, capPlan{reinforce: r, action: actAttack, gather: -1, bold: true})
		}
	}
	if _, ok := normal.(engine.Move); !ok {
		if _, ok := normal.(engine.EndTurn); !ok {
			out = append(out, capPlan{reinforce: r, action: actNone, gather: -1})
		}
	}
	return out
}

// capSearch runs the search over cands until the budget (the deadline or
// the iterations) is spent and returns the plan with the best mean score. The
// plans are tried in rounds, every plan of a round on the same
// determinization and the same generator (common random numbers), so that
// their scores differ by the plans more than by the luck.
func (h *hard) capSearch(ctx context.Context, own capParams, s *state.State, seat int, cands []capPlan, boldDef []int, deadline time.Time) capPlan {
	if len(cands) == 1 {
		return cands[0]
	}
	sum := make([]float64, len(cands))
	round := make([]float64, len(cands))
	active := make([]int, len(cands))
	for i := range active {
		active[i] = i
	}
	nextCut := 4
	iter, rounds := 0, 0
	target := h.iterations
	if target <= 0 {
		target = capIterations
	}
	play := capRollout(s.Options.Fog)
	scratch := new(state.State)
	boldU := make(unseen, len(boldDef)) // boldOn's, one command at a time
search:
	for {
		seed := h.rng.Uint64()
		for ai, i := range active {
			late := func() bool { return ctx.Err() != nil || time.Now().After(deadline) }
			sim := determinizeCapitals(s, seat, newRand(seed, 9))
			bold := cands[i].bold
			if bold {
				// As in play, the engine accepts a plan that beats the
				// defence in sight and the launch meets the sample's.
				sim.Options.Fog = true
			}
			playCapTurn(sim, seat, func(x *state.State, seat int) engine.Command {
				p := own
				switch {
				case bold:
					p.fog = boldOn(boldU, x, boldDef)
				case p.fog != nil:
					// Checked against the worst case the view allows, on
					// the sample as on the guess in play.
					p.fog = sightMargins(x, seat, scratch)
				}
				return cands[i].play(p, x, seat)
			})
			sim.Options.Fog = false
			for range capRounds {
				if !playCapRound(sim, seat, late, play) {
					break
				}
			}
			if late() {
				break search // the round is not whole: it does not count
			}
			round[i] = capScore(sim, seat)
			iter++
			stop := iter >= target
			if ai == len(active)-1 {
				// Only whole rounds count: every plan on the same draws.
				for _, k := range active {
					sum[k] += round[k]
				}
				rounds++
			}
			if stop {
				break search
			}
		}
		if rounds == nextCut && len(active) > 2 {
			active = halve(active, sum)
			nextCut *= 2
		}
	}
	if rounds == 0 {
		return cands[0]
	}
	best := active[0]
	for _, i := range active {
		if sum[i] > sum[best] {
			best = i
		}
	}
	return cands[best]
}

// playCapTurn plays seat's turn in s with the player f, up to the next
// turn (a second turn of the same seat, after the two-turns item, is
// another turn).
func playCapTurn(s *state.State, seat int, f func(*state.State, int) engine.Command) {
	turn := s.Turn
	for steps := 0; steps < 200 && s.Phase != state.PhaseOver && s.Turn == turn && s.Current == seat; steps++ {
		if _, err := engine.Apply(s, seat, f(s, seat)); err != nil {
			if _, err := engine.Apply(s, seat, capitalsFallback(s, seat)); err != nil {
				return
			}
		}
	}
}

// playCapRound plays every other seat's turn with the rollout player f
// (capRollout) until seat's turn comes back, then seat's own with f; it
// reports whether the match goes on with seat in it. It stops between two
// turns, and reports false, when late says the time is up (nil: never).
func playCapRound(s *state.State, seat int, late func() bool, f func(*state.State, int) engine.Command) bool {
	for k := 0; k < 2*len(s.Seats) && s.Phase != state.PhaseOver && s.Seats[seat].Alive() && s.Current != seat; k++ {
		if late != nil && late() {
			return false
		}
		playCapTurn(s, s.Current, f)
	}
	if s.Phase == state.PhaseOver || !s.Seats[seat].Alive() || late != nil && late() {
		return false
	}
	playCapTurn(s, seat, f)
	return s.Phase != state.PhaseOver && s.Seats[seat].Alive()
}

// capRollout returns the player of hard's playouts: normal's heuristics
// (rollout). In a match with fog of war every seat of a playout, hard's
// later turns included, plans its attacks as the players of the match do,
// only where they are legal whatever its own view's fog may hide
// (sightMargins), though it reads the playout's board whole. Played
// without the margins, the playouts foresaw attacks that nobody in the
// match could plan (most of those next to the fog), the others' and
// hard's own (docs/ai.md, "Capitals with fog").
func capRollout(fog bool) func(*state.State, int) engine.Command {
	if !fog {
		return rollout.play
	}
	scratch := new(state.State)
	return func(s *state.State, seat int) engine.Command {
		p := rollout
		p.fog = sightMargins(s, seat, scratch)
		return p.play(s, seat)
	}
}

// capEvaluate scores a capitals position for seat in [0, 1], by hand: the
// score of hard's playouts before the learned one (capWinChance), kept as
// its yardstick (TestFitCapEval). 1 for a win,
// 0 when out, otherwise its share of the strength in play (troops, and
// territories at terrValue), raised by the chance of taking an enemy
// capital next turn (times the share it would bring), less a part of the
// chance that the strongest enemy attack of the next round takes its
// capital.
func capEvaluate(s *state.State, seat int) float64 {
	if v, ok := settled(s, seat); ok {
		return v
	}
	b := newCapBoard(s, seat, nil)
	var mine, all float64
	for p := range s.Seats {
		if !s.Seats[p].Alive() {
			continue
		}
		v := float64(b.troops[p]) + terrValue*float64(b.owned[p])
		all += v
		if p == seat {
			mine = v
		}
	}
	if all <= 0 {
		return 0.05
	}
	risk := b.loseChance(s.Capital(seat))
	share := mine / all
	// The chance of taking an enemy capital with the next reinforcements,
	// for the share it would bring.
	bonus := 0.0
	for v := range s.Seats {
		y := s.Capital(v)
		if s.Sides().Same(v, seat) || y < 0 {
			continue
		}
		theirs := (float64(b.troops[v]) + terrValue*float64(b.owned[v])) / all
		for _, xs := range [2][]int{s.Map.Territories[y].Adj, s.Map.Territories[y].Sea} {
			for _, x := range xs {
				if s.Terr[x].Owner != seat {
					continue
				}
				a := b.enemyAttack(seat, x, y, b.income[seat])
				if a > b.enemyDef[y] {
					bonus = max(bonus, fallChance(a, b.enemyDef[y], s.Terr[y].Armies)*theirs)
				}
			}
		}
	}
	share = min(1, share+0.3*bonus)
	return 0.05 + 0.9*share*(1-0.5*risk)
}

// halve is successive halving: it keeps the better half of active (two at
// least) by their sums, in index order, ties going to the lower index.
func halve(active []int, sum []float64) []int {
	slices.SortStableFunc(active, func(a, b int) int {
		switch {
		case sum[a] > sum[b]:
			return -1
		case sum[a] < sum[b]:
			return 1
		}
		return a - b
	})
	active = active[:max(2, (len(active)+1)/2)]
	slices.Sort(active)
	return active
}

// byValue orders scored territories best first, ties by territory.
func byValue(a, b scored) int {
	switch {
	case a.value > b.value:
		return -1
	case a.value < b.value:
		return 1
	}
	return a.t - b.t
}
