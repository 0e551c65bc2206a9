package ai

import (
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// handOver is a capitals move for a seat whose troops are stranded behind
// a teammate's land: its biggest stack (not its capital's) that cannot
// march to any enemy through its own territories goes, whole, into the
// adjacent teammate's territory nearest an enemy over the team's ground,
// for the teammate to fight with. Without it such a stack waits for ever
// and a match of teams can reach the turn cap.
func handOver(s *state.State, seat int) (engine.Command, bool) {
	if s.Options.Teams == 0 {
		return nil, false
	}
	b := newCapBoard(s, seat, nil)
	// dist: steps to a territory that reaches an enemy, over the team's
	// ground (the seat's and its teammates' territories).
	dist := make([]int, len(s.Terr))
	var queue []int
	for t := range s.Terr {
		dist[t] = -1
		o := s.Terr[t].Owner
		if o < 0 || !s.Sides().Same(o, seat) {
			continue
		}
		tm := &s.Map.Territories[t]
		for _, xs := range [2][]int{tm.Adj, tm.Sea} {
			for _, x := range xs {
				if xo := s.Terr[x].Owner; xo >= 0 && !s.Sides().Same(xo, seat) && s.Map.Reach(t, x, s.Terr[t].Port) != state.NoReach {
					dist[t] = 0
				}
			}
		}
		if dist[t] == 0 {
			queue = append(queue, t)
		}
	}
	for i := 0; i < len(queue); i++ {
		u := queue[i]
		for _, t := range s.Map.Territories[u].Adj {
			if o := s.Terr[t].Owner; o >= 0 && s.Sides().Same(o, seat) && dist[t] < 0 {
				dist[t] = dist[u] + 1
				queue = append(queue, t)
			}
		}
	}
	from, to := -1, -1
	for t := range s.Terr {
		if s.Terr[t].Owner != seat || b.frontDist[t] >= 0 || t == s.Capital(seat) || s.Terr[t].Armies == 0 {
			continue
		}
		if from >= 0 && s.Terr[t].Armies <= s.Terr[from].Armies {
			continue
		}
		best := -1
		for _, x := range s.Map.Territories[t].Adj {
			if s.Sides().Teammates(seat, s.Terr[x].Owner) && dist[x] >= 0 && (dist[t] < 0 || dist[x] < dist[t]) && (best < 0 || dist[x] < dist[best]) {
				best = x
			}
		}
		if best >= 0 {
			from, to = t, best
		}
	}
	if from < 0 {
		return nil, false
	}
	return engine.Move{From: from, To: to, Quarters: 4}, true
}
