package engine

import "github.com/riskbot/riskbot/state"

// legalCapitals is Legal for the capitals rule set: every command is
// listed in full (Move with each quarter, with and without the hero), and
// Plan only where the whole plan would still pass the strictly-greater rule
// (with fog of war, as the seat sees the defences: plan).
func legalCapitals(s *state.State, seat int) []Command {
	var out []Command
	add := func(c Command) { out = append(out, c) }
	if seat != s.Current {
		return []Command{Surrender{}}
	}
	if s.Phase == state.PhaseSetup {
		for t := range s.Terr {
			if capitalSpot(s, seat, t) == nil {
				add(Capital{Territory: t})
			}
		}
		return append(out, Surrender{})
	}
	mine := func(yield func(int)) {
		for t := range s.Terr {
			if s.Terr[t].Owner == seat {
				yield(t)
			}
		}
	}
	c := &s.Cap
	ports := func() {
		mine(func(t int) {
			if !s.Terr[t].Port && s.Map.Territories[t].Coast {
				add(BuildPort{Territory: t})
			}
		})
	}
	switch s.Phase {
	case state.PhaseReinforce:
		mine(func(t int) { add(Reinforce{Territory: t}) })
	case state.PhaseAction:
		if c.NPlan == 0 && !c.Ported {
			mine(func(from int) {
				for t := range s.Terr {
					if s.Terr[t].Owner == state.Neutral && s.Map.Reach(from, t, s.Terr[from].Port) != state.NoReach {
						add(Capture{From: from, To: t})
					}
				}
			})
		}
		if !c.Ported && (c.NPlan == 0 || c.Has(state.ItemAttackPort)) {
			ports()
		}
		legalPlans(s, seat, add)
		if c.NPlan > 0 {
			add(Launch{})
		} else {
			legalMoves(s, seat, add)
		}
	case state.PhaseMove:
		if !c.Moved {
			legalMoves(s, seat, add)
			if c.Has(state.ItemAttackPort) && !c.Ported {
				ports()
			}
		}
	}
	if s.Seats[seat].Capitals.Item.Kept() {
		add(UseItem{})
	}
	return append(out, EndTurn{}, Surrender{})
}

// legalPlans lists the attacks seat may add to its plan: those that beat
// the defence it sees (PlanningView).
func legalPlans(s *state.State, seat int, add func(Command)) {
	c := &s.Cap
	if int(c.NPlan) >= state.MaxPlan {
		return
	}
	v := PlanningView(s, seat)
	n := int(c.NPlan) + 1
	planned := c.Planned()
	for _, p := range planned {
		if v.AttackTotal(int(p.From), int(p.To), n).Total <= v.DefenceTotal(int(p.To)) {
			return // one more attack would weaken the plan below the rule
		}
	}
	def := make([]int, len(s.Terr))
	for t := range s.Terr {
		switch o := v.Terr[t].Owner; {
		case v.Terr[t].Fog:
			def[t] = 0 // the distant attack strikes into the fog at no defence seen
		case o != seat && o != state.Neutral && !s.Sides().Teammates(seat, o):
			def[t] = v.DefenceTotal(t)
		default:
			def[t] = -1
		}
	}
	for from := range s.Terr {
		if s.Terr[from].Owner != seat {
			continue
		}
	targets:
		for to := range s.Terr {
			if def[to] < 0 {
				continue
			}
			for _, p := range planned {
				if int(p.From) == from && int(p.To) == to {
					continue targets
				}
			}
			if a := v.AttackTotal(from, to, n); a.Reach != state.NoReach && a.Total > def[to] {
				add(Plan{From: from, To: to})
			}
		}
	}
}

// legalMoves lists the turn's possible moves.
func legalMoves(s *state.State, seat int, add func(Command)) {
	hero := s.Hero(seat)
	for from := range s.Terr {
		if s.Terr[from].Owner != seat {
			continue
		}
		port := s.Terr[from].Port
		for to := range s.Terr {
			mate := s.Sides().Teammates(seat, s.Terr[to].Owner)
			if to == from || s.Terr[to].Owner != seat && !mate || s.Map.Reach(from, to, port) == state.NoReach {
				continue
			}
			for q := 1; q <= 4; q++ {
				n := state.MoveCount(s.Terr[from].Armies, q)
				if n > 0 {
					add(Move{From: from, To: to, Quarters: q})
				}
				if hero == from && !mate {
					add(Move{From: from, To: to, Quarters: q, Hero: true})
				}
			}
		}
	}
}
