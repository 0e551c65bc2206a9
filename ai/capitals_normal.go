package ai

import (
	"context"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// decideCapitals is normal in a capitals match: capParams.play at the
// level's style.
func (n *normal) decideCapitals(_ context.Context, s *state.State, seat int, fog unseen) engine.Command {
	p := n.cp
	p.fog = fog
	return p.play(s, seat)
}

// capParams are the knobs of the capitals heuristic player; hard searches
// over turns built from them.
type capParams struct {
	// style runs from -1 (defensive) to +1 (aggressive), as Options.Style.
	style float64
	// fog is what the fog may hide around each territory of the board the
	// player decides on, a guess (fogMargins); nil on a whole board. The
	// player attacks only where the attack is legal whatever it hides.
	fog unseen
}

// Values, in troops, that the heuristics weigh against each other.
const (
	// terrValue is what one more territory is worth: 3 troops of
	// reinforcement a turn for the turns to come.
	terrValue = 9.0
	// killValue is what one enemy troop killed is worth, against one of
	// one's own troops: less than one, since the other seats gain too.
	killValue = 0.6
	// eliminationValue is the worth of putting a rival out, beyond its
	// territories and troops.
	eliminationValue = 40.0
)

// frontPull is what a troop loses in position value for each move
// between it and the front.
const frontPull = 0.02

// play returns the heuristic player's command for seat in s (a view or a
// full state; only what the view shows is read).
func (p capParams) play(s *state.State, seat int) engine.Command {
	switch s.Phase {
	case state.PhaseSetup:
		return p.chooseCapital(s, seat)
	case state.PhaseReinforce:
		if s.Seats[seat].Capitals.Item == state.ItemTwoTurns {
			return engine.UseItem{} // a whole turn more: never worth keeping
		}
		if s.Seats[seat].Reserve == 0 {
			return engine.EndTurn{}
		}
		return engine.Reinforce{Territory: p.reinforceTarget(s, seat)}
	case state.PhaseAction:
		return p.action(s, seat)
	case state.PhaseMove:
		if !s.Cap.Moved {
			return p.moveOrEnd(s, seat)
		}
	}
	return engine.EndTurn{}
}

// chooseCapital picks the capital spot with the most to capture around it
// (neutral troops come with the territory, each territory brings 3 troops a
// turn), a variety of terrains nearby (the hero), and far from the other
// capitals.
func (p capParams) chooseCapital(s *state.State, seat int) engine.Command {
	best, bestScore := -1, -1e18
	for _, c := range p.capitalScores(s, seat) {
		if c.value > bestScore {
			best, bestScore = c.t, c.value
		}
	}
	if best < 0 {
		return capitalsFallback(s, seat)
	}
	return engine.Capital{Territory: best}
}

// capitalScores scores every free capital spot as chooseCapital does, in
// the order engine.Legal lists them.
func (p capParams) capitalScores(s *state.State, seat int) []scored {
	var out []scored
	dist := capitalDistances(s)
	for _, c := range engine.Legal(s, seat) {
		c, ok := c.(engine.Capital)
		if !ok {
			continue
		}
		t := c.Territory
		var terrains uint32 = 1 << s.Map.Territories[t].Terrain
		score := 0.0
		for _, n := range s.Map.Territories[t].Adj {
			if s.Terr[n].Owner == state.Neutral {
				score += 4 + float64(s.Terr[n].Armies)
				terrains |= 1 << s.Map.Territories[n].Terrain
			}
			for _, n2 := range s.Map.Territories[n].Adj {
				if n2 != t && s.Terr[n2].Owner == state.Neutral {
					score += 0.5
					terrains |= 1 << s.Map.Territories[n2].Terrain
				}
			}
		}
		score += 3 * float64(popcount(terrains))
		if d := dist[t]; d >= 0 {
			score += 4 * float64(min(d, 4))
		}
		out = append(out, scored{t, score})
	}
	return out
}

func popcount(x uint32) int {
	n := 0
	for ; x != 0; x &= x - 1 {
		n++
	}
	return n
}

// capitalDistances returns each territory's distance in borders (sea links
// counted as borders) to the nearest chosen capital, or -1 with none.
func capitalDistances(s *state.State) []int {
	dist := make([]int, len(s.Terr))
	var queue []int
	for t := range dist {
		dist[t] = -1
		if s.Terr[t].Owner != state.Neutral && s.IsCapital(t) {
			dist[t] = 0
			queue = append(queue, t)
		}
	}
	for i := 0; i < len(queue); i++ {
		x := queue[i]
		tm := &s.Map.Territories[x]
		for _, ys := range [2][]int{tm.Adj, tm.Sea} {
			for _, y := range ys {
				if dist[y] < 0 {
					dist[y] = dist[x] + 1
					queue = append(queue, y)
				}
			}
		}
	}
	return dist
}

// safetyMargin is the troops the style adds to an enemy's attack when
// judging the capital's safety.
func (p capParams) safetyMargin(b *capBoard) int {
	if p.style >= 0 {
		return 0
	}
	return int(-p.style * float64(b.income[b.seat]) / 2)
}

// reinforceTarget picks the territory for the turn's reinforcements:
// the capital while it is not safe from the next round's strongest enemy
// attack; else where they are worth most (reinforceScores).
func (p capParams) reinforceTarget(s *state.State, seat int) int {
	best, bestV := s.Capital(seat), -1e18
	for _, c := range p.reinforceScores(s, seat, false) {
		if c.value > bestV {
			best, bestV = c.t, c.value
		}
	}
	return best
}

// scored is a territory and its worth for some purpose.
type scored struct {
	t     int
	value float64
}

// reinforceScores scores every territory of the seat as the target of the
// turn's reinforcements: the position they leave (posValue) plus the best
// attack they make possible from there. While the capital is not safe
// from the next round's strongest enemy attack, only the capital is
// listed, unless all.
func (p capParams) reinforceScores(s *state.State, seat int, all bool) []scored {
	x := s.Clone()
	r := x.Seats[seat].Reserve
	x.Seats[seat].Reserve = 0
	x.Phase = state.PhaseAction
	capital := x.Capital(seat)
	b := newCapBoard(x, seat, p.fog)
	if need := b.capitalNeed(p.safetyMargin(b)); need > 0 && !all {
		return []scored{{capital, 0}}
	}
	// The enemies' threats do not depend on where the reinforcements go:
	// one board serves every candidate.
	var out []scored
	margin := p.safetyMargin(b)
	b.troops[seat] += r
	for t := range x.Terr {
		if x.Terr[t].Owner != seat {
			continue
		}
		x.Terr[t].Armies += r
		v := p.posValue(b)
		if b.capitalNeed(margin) == 0 {
			if a, ok := p.bestSingleFrom(b, t); ok {
				v += a.value
			}
		}
		x.Terr[t].Armies -= r
		out = append(out, scored{t, v})
	}
	b.troops[seat] -= r
	return out
}

// attackOption is a candidate attack and its worth.
type attackOption struct {
	from, to int
	value    float64
}

// targetValue is what taking enemy territory t, of seat v, is worth to the
// seat: a capital brings every territory and troop of v; another territory
// one territory, taken from v, and its troops killed.
func targetValue(b *capBoard, t int) float64 {
	s := b.s
	v := s.Terr[t].Owner
	if s.Capital(v) == t {
		return (terrValue*float64(b.owned[v])+float64(b.troops[v]))*(1+killValue) + eliminationValue
	}
	return terrValue*(1+killValue)*0.6 + killValue*float64(s.Terr[t].Armies)
}

// singleValue is the expected worth of one attack from from on to with
// n attacks planned (exact over the luck draws for the fall).
func singleValue(b *capBoard, from, to, n int) (float64, bool) {
	s := b.s
	a := s.AttackTotal(from, to, n)
	if a.Reach == state.NoReach {
		return 0, false
	}
	if a.Total <= b.defence(to) {
		return 0, false // not legal whatever the fog hides
	}
	d := s.DefenceTotal(to)
	troops := s.Terr[to].Armies
	pf := fallChance(a.Total, d, troops)
	dmg := min(float64(troops), float64(a.Total-d)/float64(state.PowerUnit))
	k := killValue
	if c := s.Capital(b.seat); c >= 0 && b.m.Reach(to, c, s.Terr[to].Port) != state.NoReach {
		k *= 1.6 // it threatens the capital
	}
	return pf*targetValue(b, to) + (1-pf)*k*dmg, true
}

// bestSingleFrom is the best single attack from territory from.
func (p capParams) bestSingleFrom(b *capBoard, from int) (attackOption, bool) {
	s := b.s
	best, found := attackOption{}, false
	consider := func(to int) {
		if o := s.Terr[to].Owner; o < 0 || o == b.seat {
			return
		}
		if v, ok := singleValue(b, from, to, 1); ok && (!found || v > best.value) {
			best, found = attackOption{from, to, v}, true
		}
	}
	tm := &b.m.Territories[from]
	for _, to := range tm.Adj {
		consider(to)
	}
	if s.Terr[from].Port {
		for _, to := range tm.Sea {
			consider(to)
		}
	}
	return best, found
}

// captureValue is the worth of capturing the neutral territory t.
func (p capParams) captureValue(b *capBoard, t int) float64 {
	s := b.s
	v := terrValue + float64(s.Terr[t].Armies)
	seat := b.seat
	if !s.Seats[seat].Capitals.HeroWon {
		have := s.Terrains(seat)
		terr := s.Map.Territories[t].Terrain
		novel := true
		for x := range s.Terr {
			if s.Terr[x].Owner == seat && s.Map.Territories[x].Terrain == terr {
				novel = false
				break
			}
		}
		if novel {
			if have+1 >= state.HeroTerrains {
				v += 10 + 0.4*float64(b.troops[seat])
			} else {
				v += 3
			}
		}
	}
	switch it := s.Terr[t].Item; {
	case it == state.ItemFat:
		v += 30
	case it != state.NoItem:
		v += 4 // mostly bonuses
	}
	if s.Map.Territories[t].Fortress {
		v += 1.5 // items fall there twice as often
	}
	// Captured troops next to an enemy may be lost.
	for _, x := range s.Map.Territories[t].Adj {
		if o := s.Terr[x].Owner; o >= 0 && !s.Sides().Same(o, seat) {
			v -= 0.25 * float64(s.Terr[t].Armies)
			break
		}
	}
	return v
}

// portValue is the worth of a port on the seat's coastal territory t: the
// neutral territories it opens to capture when none is left by land, the
// enemy capitals it brings in reach, when the seat is stuck (no enemy in
// reach) any enemy territory, and in a siege (no attack nor capture this
// turn) any enemy territory its next reinforcements could attack from t.
func (p capParams) portValue(b *capBoard, t int, landNeutrals, stuck, siege bool) float64 {
	s := b.s
	v := 0.0
	for _, y := range b.m.Territories[t].Sea {
		switch o := s.Terr[y].Owner; {
		case stuck && o >= 0 && !s.Sides().Same(o, b.seat):
			// No enemy is in reach: the seat's troops can never fight
			// without a port.
			v = max(v, terrValue+killValue*float64(s.Terr[y].Armies)/4)
		case siege && o >= 0 && !s.Sides().Same(o, b.seat) && (s.Terr[t].Armies+movable(s, b.seat, t)+b.income[b.seat])*state.PowerUnit/2 > b.fog.ahead(s, y):
			// Nothing else to do this turn, and from here the next
			// reinforcements, with the stack the turn's move can bring,
			// could attack y: the fronts in reach may all face a rival's
			// large stack, and matches stalled.
			v = max(v, terrValue/2)
		case o == state.Neutral && !landNeutrals:
			if already := b.reachedBySea(y); !already {
				v = max(v, 0.5*(terrValue+float64(s.Terr[y].Armies)))
			}
		case o >= 0 && !s.Sides().Same(o, b.seat) && s.Capital(o) == y:
			a := s.Terr[t].Armies * state.PowerUnit / 2
			if s.Hero(b.seat) == t {
				a += s.HeroPower(b.seat)
			}
			v = max(v, 0.4*fallChance(a+b.income[b.seat]*state.PowerUnit/2, b.fog.ahead(s, y), s.Terr[y].Armies)*targetValue(b, y))
		}
	}
	return v
}

// enemyInReach reports whether some territory of the seat reaches an
// enemy territory (not a teammate's), by land or from one of its ports.
func (b *capBoard) enemyInReach() bool {
	s := b.s
	for t := range s.Terr {
		if s.Terr[t].Owner != b.seat {
			continue
		}
		tm := &b.m.Territories[t]
		for _, xs := range [2][]int{tm.Adj, tm.Sea} {
			for _, x := range xs {
				if o := s.Terr[x].Owner; o >= 0 && !s.Sides().Same(o, b.seat) && b.reach(t, x) != state.NoReach {
					return true
				}
			}
		}
	}
	return false
}

// reachedBySea reports whether a port of the seat already reaches t.
func (b *capBoard) reachedBySea(t int) bool {
	for _, x := range b.m.Territories[t].Sea {
		if b.s.Terr[x].Owner == b.seat && b.s.Terr[x].Port {
			return true
		}
	}
	return false
}

// actionChoices are the candidates of an action phase, each the command
// to play now and the worth of the action it begins (0 and nil: none).
type actionChoices struct {
	capture, port, attack engine.Command
	capV, portV, attackV  float64
	// useItem: put the kept item to use first, it makes the attacks
	// worth more.
	useItem bool
	// plan is the whole set of attacks attack begins (without the item):
	// hard's search compares it with bolder ones.
	plan []engine.Command
}

// actionChoices scores the action phase's candidates: the best capture,
// the best set of attacks (with an item put to use first if it makes them
// worth more), the best port.
func (p capParams) actionChoices(s *state.State, seat int) actionChoices {
	var ch actionChoices
	b := newCapBoard(s, seat, p.fog)
	landNeutrals := false
	for from := range s.Terr {
		if s.Terr[from].Owner != seat {
			continue
		}
		tm := &s.Map.Territories[from]
		for _, xs := range [2][]int{tm.Adj, tm.Sea} {
			for _, to := range xs {
				if s.Terr[to].Owner != state.Neutral || b.reach(from, to) == state.NoReach {
					continue
				}
				if b.reach(from, to) == state.ByLand {
					landNeutrals = true
				}
				if s.Cap.Ported {
					continue
				}
				if v := p.captureValue(b, to); ch.capture == nil || v > ch.capV {
					ch.capture, ch.capV = engine.Capture{From: from, To: to}, v
				}
			}
		}
	}
	plan, planV := p.bestPlan(b, nil)
	if len(plan) > 0 {
		ch.attack, ch.attackV, ch.plan = plan[0], planV, plan
	}
	item := s.Seats[seat].Capitals.Item
	if item == state.ItemFullPower || item == state.ItemDistant {
		x := s.Clone()
		x.Cap.Active |= 1 << item
		if xp, xv := p.bestPlan(newCapBoard(x, seat, p.fog), nil); len(xp) > 0 && xv > planV+3 {
			ch.attack, ch.attackV, ch.useItem = engine.UseItem{}, xv, true
		}
	}
	if !s.Cap.Ported {
		stuck := !b.enemyInReach()
		siege := ch.attack == nil && ch.capture == nil
		for t := range s.Terr {
			if s.Terr[t].Owner == seat && !s.Terr[t].Port && s.Map.Territories[t].Coast {
				if v := p.portValue(b, t, landNeutrals, stuck, siege); v > ch.portV {
					ch.port, ch.portV = engine.BuildPort{Territory: t}, v
				}
			}
		}
	}
	return ch
}

// action decides the action phase: the planned attacks go on or are
// launched; else the best of the action's candidates; else the move.
func (p capParams) action(s *state.State, seat int) engine.Command {
	if s.Cap.NPlan > 0 {
		return p.continuePlan(s, seat)
	}
	return p.chosen(p.actionChoices(s, seat), s, seat)
}

// chosen is action's choice among the action's candidates ch (of s, with
// no attack planned yet): the best of them, else the move.
func (p capParams) chosen(ch actionChoices, s *state.State, seat int) engine.Command {
	switch {
	case ch.attack != nil && ch.attackV >= ch.capV && ch.attackV >= ch.portV && ch.attackV > 0:
		return ch.attack
	case ch.capture != nil && ch.capV >= ch.portV:
		return ch.capture
	case ch.port != nil:
		return ch.port
	}
	return p.moveOrEnd(s, seat)
}

// continuePlan plans the next attack of the plan begun, or launches it.
func (p capParams) continuePlan(s *state.State, seat int) engine.Command {
	if next, ok := p.extendPlan(newCapBoard(s, seat, p.fog)); ok {
		return next
	}
	return engine.Launch{}
}

// moveOrEnd is the best move, or the end of the turn.
func (p capParams) moveOrEnd(s *state.State, seat int) engine.Command {
	if m, ok := p.bestMove(s, seat); ok {
		return m
	}
	if m, ok := handOver(s, seat); ok && !s.Cap.Moved {
		return m
	}
	return engine.EndTurn{}
}

// bestPlan returns the best set of attacks to plan after the ones already
// planned (prefix, which must be s.Cap's plan), greedily: the best single
// attack, then one more while the whole plan is worth more with it. It
// returns the commands still to play (Plans) and the whole plan's worth.
func (p capParams) bestPlan(b *capBoard, prefix []state.Planned) ([]engine.Command, float64) {
	s := b.s
	plan := append([]state.Planned(nil), prefix...)
	value := -1.0
	if len(plan) > 0 {
		value = p.planValue(b, plan)
	}
	var out []engine.Command
	for len(plan) < 3 {
		n := len(plan) + 1
		var bestAdd state.Planned
		bestV := value
		for from := range s.Terr {
			if s.Terr[from].Owner != b.seat || s.Terr[from].Armies == 0 && s.Hero(b.seat) != from {
				continue
			}
			for to := range s.Terr {
				if o := s.Terr[to].Owner; o < 0 || s.Sides().Same(o, b.seat) || planned(plan, from, to) {
					continue
				}
				a := s.AttackTotal(from, to, n)
				if a.Reach == state.NoReach || a.Total <= b.defence(to) {
					continue
				}
				cand := append(plan, state.Planned{From: int16(from), To: int16(to)})
				if !b.planLegal(cand) {
					continue
				}
				var v float64
				if n == 1 {
					v, _ = singleValue(b, from, to, 1)
				} else {
					v = p.planValue(b, cand)
				}
				if v > bestV+0.5 {
					bestAdd, bestV = state.Planned{From: int16(from), To: int16(to)}, v
				}
			}
		}
		if bestV <= value+0.5 {
			break
		}
		plan = append(plan, bestAdd)
		out = append(out, engine.Plan{From: int(bestAdd.From), To: int(bestAdd.To)})
		value = bestV
	}
	return out, value
}

// extendPlan returns the next attack to plan, or false to launch.
func (p capParams) extendPlan(b *capBoard) (engine.Command, bool) {
	out, _ := p.bestPlan(b, b.s.Cap.Planned())
	if len(out) == 0 {
		return nil, false
	}
	return out[0], true
}

func planned(plan []state.Planned, from, to int) bool {
	for _, p := range plan {
		if int(p.From) == from && int(p.To) == to {
			return true
		}
	}
	return false
}

// planLucks are the luck draws a plan of several attacks is tried with.
var planLucks = [...]int{860, 1000, 1140}

// planValue is the worth of launching plan, averaged over a few luck
// draws (every attack of a try with the same luck).
func (p capParams) planValue(b *capBoard, plan []state.Planned) float64 {
	total := 0.0
	for _, luck := range planLucks {
		x := b.s.Clone()
		total += simulateLaunch(b, x, plan, luck)
	}
	return total / float64(len(planLucks))
}

// simulateLaunch plays plan on x (a scratch copy) as the engine would with
// the given luck for every attack, and returns its worth to b's seat.
func simulateLaunch(b *capBoard, x *state.State, plan []state.Planned, luck int) float64 {
	seat := b.seat
	n := len(plan)
	v := 0.0
	for _, pl := range plan {
		from, to := int(pl.From), int(pl.To)
		def := x.Terr[to].Owner
		if x.Terr[from].Owner != seat || x.Sides().Same(def, seat) || def < 0 {
			continue
		}
		a := x.AttackTotal(from, to, n)
		d := x.DefenceTotal(to)
		if a.Reach == state.NoReach || a.Total <= d {
			continue
		}
		dmg := engine.Damage(a.Total, d, luck)
		troops := x.Terr[to].Armies
		if dmg < troops {
			x.Terr[to].Armies -= dmg
			v += killValue * float64(dmg)
			continue
		}
		v += targetValue(b, to)
		x.Terr[to].Armies = 0
		x.Terr[to].Owner = seat
		if x.Hero(def) == to {
			x.Seats[def].Capitals.Hero = 0
		}
		if x.Capital(def) == to {
			for t := range x.Terr {
				if x.Terr[t].Owner == def {
					x.Terr[t].Owner = seat
				}
			}
			x.Seats[def].Capitals.Capital = 0
		}
	}
	return v
}

// posValue scores the seat's position as it stands before the enemies
// play, in troops: its troops and territories, less what the strongest
// enemy attacks of the next round would take (the capital's fall costs
// everything), plus a share of the best attack the seat could make on its
// next turn.
func (p capParams) posValue(b *capBoard) float64 {
	s := b.s
	seat := b.seat
	v := float64(b.troops[seat]) + terrValue*float64(b.owned[seat])
	capital := s.Capital(seat)
	whole := v + 3*eliminationValue
	var loss float64
	for t := range s.Terr {
		if s.Terr[t].Owner != seat || b.threat[t] == 0 {
			continue
		}
		d := s.DefenceTotal(t)
		if b.threat[t] <= d {
			continue
		}
		pf := fallChance(b.threat[t], d, s.Terr[t].Armies)
		if t == capital {
			loss += pf * whole
			continue
		}
		dmg := min(float64(s.Terr[t].Armies), float64(b.threat[t]-d)/float64(state.PowerUnit))
		loss += 0.4 * (pf*terrValue + dmg)
	}
	v -= loss * (1 - 0.3*p.style)
	// Troops far from any enemy are worth a little less (the capital's
	// excepted: they guard it), so that idle stacks march to the front.
	for t := range s.Terr {
		if d := b.frontDist[t]; d > 0 && t != capital && s.Terr[t].Owner == seat {
			v -= frontPull * float64(s.Terr[t].Armies) * float64(min(d, 5))
		}
	}
	// The next turn's best attack.
	r := b.income[seat]
	best := 0.0
	// ratio is the best attack total over the defence it meets of the
	// next turn, and neutrals whether a neutral territory is in reach:
	// for the siege below.
	ratio, neutrals := 0.0, false
	for from := range s.Terr {
		if s.Terr[from].Owner != seat {
			continue
		}
		tm := &b.m.Territories[from]
		for _, xs := range [2][]int{tm.Adj, tm.Sea} {
			for _, to := range xs {
				o := s.Terr[to].Owner
				if o == state.Neutral && b.reach(from, to) != state.NoReach {
					neutrals = true
				}
				if o < 0 || s.Sides().Same(o, seat) || b.reach(from, to) == state.NoReach {
					continue
				}
				a := b.enemyAttack(seat, from, to, r)
				d := b.enemyDef[to]
				if d > 0 {
					ratio = max(ratio, float64(a)/float64(d))
				}
				if a <= d {
					continue
				}
				pf := fallChance(a, d, s.Terr[to].Armies+b.income[o]/2)
				if g := pf * targetValue(b, to); g > best {
					best = g
				}
			}
		}
	}
	switch {
	case best == 0 && !neutrals:
		v += p.siege(b, ratio)
	case !neutrals:
		// A legal attack is worth the siege term at its most: a move
		// that ends a siege must not score less than staying in it.
		v += siegeValue
	}
	return v + (0.35+0.15*p.style)*best
}

// siegeValue is what the siege term (capParams.siege) is worth at most,
// in troops, when the seat's best attack total reaches the defence.
const siegeValue = 6.0

// siege is the part of the position value that keeps a seat from
// stalling when it cannot take anything next turn, even with all its
// reinforcements (best attack 0) and no neutral territory is in reach:
// defences count the troops around the target, so troops spread out (or
// idle on the capital) may never make an attack legal, and matches ran
// to the turn cap. It pulls the troops together: it grows with the best
// ratio of attack total to defence (ratio), so that reinforcements and
// moves pile onto one front, and the capital's troops beyond a guard of
// two turns' reinforcements are pulled to the front as other idle troops
// are (posValue).
func (p capParams) siege(b *capBoard, ratio float64) float64 {
	s := b.s
	v := siegeValue * min(1, ratio)
	if c := s.Capital(b.seat); c >= 0 {
		if d := b.frontDist[c]; d > 0 {
			spare := s.Terr[c].Armies - 2*b.income[b.seat]
			v -= frontPull * float64(max(0, spare)) * float64(min(d, 5))
		}
	}
	return v
}

// movable is the most troops one move can bring to seat's territory t
// this turn: all of those of one of its territories that reaches it.
func movable(s *state.State, seat, t int) int {
	most := 0
	for x := range s.Terr {
		if x != t && s.Terr[x].Owner == seat && s.Map.Reach(x, t, s.Terr[x].Port) != state.NoReach {
			most = max(most, state.MoveCount(s.Terr[x].Armies, 4))
		}
	}
	return most
}

// bestMove picks the turn's move by posValue: every legal move is tried on
// a scratch copy. It returns false when no move beats staying put.
func (p capParams) bestMove(s *state.State, seat int) (engine.Command, bool) {
	ms := p.topMoves(s, seat, 1)
	if len(ms) == 0 {
		return nil, false
	}
	return ms[0], true
}

// topMoves returns up to k moves that beat staying put, best first by
// posValue.
func (p capParams) topMoves(s *state.State, seat, k int) []engine.Command {
	x := s.Clone()
	// A move changes neither the enemies' threats nor their defences: one
	// board serves every candidate.
	b := newCapBoard(x, seat, p.fog)
	base := p.posValue(b)
	type cand struct {
		c engine.Command
		v float64
	}
	top := make([]cand, 0, k+1)
	hero := x.Hero(seat)
	for from := range x.Terr {
		if x.Terr[from].Owner != seat {
			continue
		}
		armies := x.Terr[from].Armies
		for to := range x.Terr {
			if to == from || x.Terr[to].Owner != seat || x.Map.Reach(from, to, x.Terr[from].Port) == state.NoReach {
				continue
			}
			for q := 1; q <= 4; q++ {
				n := state.MoveCount(armies, q)
				for _, withHero := range [2]bool{false, true} {
					if withHero && hero != from || !withHero && n == 0 {
						continue
					}
					x.Terr[from].Armies -= n
					x.Terr[to].Armies += n
					if withHero {
						x.Seats[seat].Capitals.Hero = int16(to + 1)
					}
					v := p.posValue(b)
					x.Terr[from].Armies += n
					x.Terr[to].Armies -= n
					if withHero {
						x.Seats[seat].Capitals.Hero = int16(from + 1)
					}
					if v <= base+0.5 || len(top) == k && v <= top[k-1].v {
						continue
					}
					i := len(top)
					if i < k {
						top = append(top, cand{})
					} else {
						i = k - 1
					}
					for ; i > 0 && top[i-1].v < v; i-- {
						top[i] = top[i-1]
					}
					top[i] = cand{engine.Move{From: from, To: to, Quarters: q, Hero: withHero}, v}
				}
			}
		}
	}
	out := make([]engine.Command, len(top))
	for i, c := range top {
		out[i] = c.c
	}
	return out
}
