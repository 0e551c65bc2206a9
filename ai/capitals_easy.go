package ai

import (
	"context"
	"math"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// decideCapitals is easy in a capitals match: seat 000's minimal AI. It
// picks its capital at random, captures a neighbouring neutral territory
// (drawn at random) while there is one, and once none is left attacks an
// enemy territory wherever the strictly-greater rule allows, one attack a
// turn, drawn at random (among those on a capital, if any), and moves
// three quarters of the attacking troops into the conquest. Its reinforcements go to a front territory drawn
// at random while a neutral one is in reach, then to the front whose
// attack comes closest to the defence it meets. With nothing to capture
// or attack, it moves its largest stack where an attack would be legal
// from, or marches its largest stack behind the front one step toward
// it, or builds a port where it would reach a territory less defended
// than any in reach. It never uses an item. (random plays capitals with decide: a
// uniform legal move.)
//
// The last three rules keep matches of easy players from stalling: a
// defence counts the troops of the territories around the target too, so
// reserves spread at random, troops idle behind the front, or rivals
// that only the sea separates never made an attack legal, and a quarter
// of the two-seat games of easy ran to the turn cap.
//
// In fog it attacks only where the attack is legal whatever the fog hides
// (fog, fogMargins), and weighs its fronts with those defences.
func (e *easy) decideCapitals(_ context.Context, s *state.State, seat int, fog unseen) engine.Command {
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
		neutrals, closest, bestRatio := false, -1, -1.0
		r := s.Seats[seat].Reserve
		for t := range s.Terr {
			if s.Terr[t].Owner != seat {
				continue
			}
			front := false
			eachReach(s, t, func(x int, _ bool) {
				switch o := s.Terr[x].Owner; {
				case s.Sides().Same(o, seat):
					return
				case o == state.Neutral:
					neutrals = true
				}
				front = true
			})
			if ratio := attackRatio(s, fog, seat, t, s.Terr[t].Armies+r); ratio > bestRatio {
				closest, bestRatio = t, ratio
			}
			if front {
				fronts = append(fronts, engine.Reinforce{Territory: t})
			}
		}
		switch {
		case !neutrals && closest >= 0:
			return engine.Reinforce{Territory: closest}
		case len(fronts) > 0:
			return pick(fronts)
		}
		return capitalsFallback(s, seat)
	case state.PhaseAction:
		if s.Cap.NPlan > 0 {
			return engine.Launch{}
		}
		var captures, plans []engine.Command
		for _, c := range engine.Legal(s, seat) {
			switch x := c.(type) {
			case engine.Capture:
				captures = append(captures, c)
			case engine.Plan:
				if fog == nil || surePlan(s, fog, seat, x) {
					plans = append(plans, c)
				}
			}
		}
		if len(captures) > 0 {
			return pick(captures)
		}
		if len(plans) > 0 {
			var capitals []engine.Command
			for _, c := range plans {
				if s.IsCapital(c.(engine.Plan).To) {
					capitals = append(capitals, c)
				}
			}
			if len(capitals) > 0 {
				return pick(capitals)
			}
			return pick(plans)
		}
		if c, ok := march(s, fog, seat); ok {
			return c
		}
	case state.PhaseMove:
		// Into the conquest, as in classic: left empty, it was taken back
		// at once, turn after turn.
		if !s.Cap.Moved {
			for _, a := range s.This.Arrows() {
				from, to := int(a.From), int(a.To)
				if a.Kind == state.ArrowConquest && int(a.Seat) == seat && s.Terr[to].Owner == seat && s.Terr[from].Owner == seat &&
					s.Terr[to].Armies == 0 && state.MoveCount(s.Terr[from].Armies, 3) > 0 && s.Map.Reach(from, to, s.Terr[from].Port) != state.NoReach {
					return engine.Move{From: from, To: to, Quarters: 3}
				}
			}
		}
	}
	return engine.EndTurn{}
}

// eachReach calls f for every territory that territory t reaches: its
// neighbours, and by sea (sea true) the coasts its port reaches.
func eachReach(s *state.State, t int, f func(x int, sea bool)) {
	tm := &s.Map.Territories[t]
	for _, x := range tm.Adj {
		f(x, false)
	}
	if s.Terr[t].Port {
		for _, x := range tm.Sea {
			if !s.Map.Adjacent(t, x) {
				f(x, true)
			}
		}
	}
}

// surePlan reports whether planning c in s, a board guessed from a view
// with fog, is legal whatever the fog hides: every attack planned, this
// one included, beats its target's defence with the margin fog adds.
func surePlan(s *state.State, fog unseen, seat int, c engine.Plan) bool {
	b := capBoard{s: s, m: s.Map, seat: seat, fog: fog}
	return b.planLegal(append(s.Cap.Planned(), state.Planned{From: int16(c.From), To: int16(c.To)}))
}

// attackRatio is the best ratio of attack total to defence total (with
// what the fog may hide) that seat's territory t would have with troops on
// it (0: no enemy in reach).
func attackRatio(s *state.State, fog unseen, seat, t, troops int) float64 {
	best := 0.0
	eachReach(s, t, func(x int, sea bool) {
		if o := s.Terr[x].Owner; s.Sides().Same(o, seat) || o == state.Neutral {
			return
		}
		a := troops * state.PowerUnit
		if sea {
			a /= 2
		}
		best = max(best, float64(a)/float64(max(1, fog.defence(s, x))))
	})
	return best
}

// march is easy's action when it has nothing to capture or attack: three
// quarters of its largest stack behind the front one step toward the
// front (territories that reach another seat's or a neutral one); with
// no front at all, a port on its largest coastal stack that sees
// another seat's coast.
func march(s *state.State, fog unseen, seat int) (engine.Command, bool) {
	dist := make([]int, len(s.Terr))
	var queue []int
	for t := range s.Terr {
		dist[t] = -1
		if s.Terr[t].Owner != seat {
			continue
		}
		eachReach(s, t, func(x int, _ bool) {
			if dist[t] < 0 && !s.Sides().Same(s.Terr[x].Owner, seat) {
				dist[t] = 0
				queue = append(queue, t)
			}
		})
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		eachReach(s, u, func(t int, _ bool) {
			// Moves go where the troops can go back: along the same link.
			if s.Terr[t].Owner == seat && dist[t] < 0 && s.Map.Reach(t, u, s.Terr[t].Port) != state.NoReach {
				dist[t] = dist[u] + 1
				queue = append(queue, t)
			}
		})
	}
	// The largest stack goes where an attack would be legal from, if it
	// is not legal where it stands (the defences near a rival's own large
	// stack may stay out of reach for ever).
	big := -1
	for t := range s.Terr {
		if s.Terr[t].Owner == seat && (big < 0 || s.Terr[t].Armies > s.Terr[big].Armies) {
			big = t
		}
	}
	if n := state.MoveCount(s.Terr[big].Armies, 3); n > 0 && attackRatio(s, fog, seat, big, s.Terr[big].Armies) <= 1 {
		to, best := -1, 1.0
		eachReach(s, big, func(t int, _ bool) {
			if s.Terr[t].Owner != seat {
				return
			}
			if r := attackRatio(s, fog, seat, t, s.Terr[t].Armies+n); r > best {
				to, best = t, r
			}
		})
		if to >= 0 {
			return engine.Move{From: big, To: to, Quarters: 3}, true
		}
	}
	// Troops behind the front march toward it: the largest stack, if it
	// is worth a turn's reinforcements.
	from := -1
	for t := range s.Terr {
		if dist[t] > 0 && (from < 0 || s.Terr[t].Armies > s.Terr[from].Armies) {
			from = t
		}
	}
	if from >= 0 && s.Terr[from].Armies >= 3*s.Owned(seat) {
		for t := range s.Terr {
			if s.Terr[t].Owner == seat && dist[t] == dist[from]-1 && s.Map.Reach(from, t, s.Terr[from].Port) != state.NoReach {
				return engine.Move{From: from, To: t, Quarters: 3}, true
			}
		}
	}
	// A port where it would reach a territory of another seat (or a
	// neutral one) less defended than any in reach now: the fronts may all
	// face a rival's large stack, by sea (halved) as much as by land.
	weakest := math.MaxInt
	for t := range s.Terr {
		if s.Terr[t].Owner == seat {
			eachReach(s, t, func(x int, _ bool) {
				if !s.Sides().Same(s.Terr[x].Owner, seat) {
					weakest = min(weakest, fog.defence(s, x))
				}
			})
		}
	}
	port, portDef := -1, weakest
	for t := range s.Terr {
		if s.Terr[t].Owner != seat || s.Terr[t].Port || !s.Map.Territories[t].Coast {
			continue
		}
		for _, x := range s.Map.Territories[t].Sea {
			if d := fog.ahead(s, x); !s.Sides().Same(s.Terr[x].Owner, seat) && d < portDef {
				port, portDef = t, d
			}
		}
	}
	if port >= 0 && !s.Cap.Ported {
		return engine.BuildPort{Territory: port}, true
	}
	return nil, false
}
