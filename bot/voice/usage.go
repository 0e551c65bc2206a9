package voice

import (
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// CapitalsUsage words what a capitals command that left out a required
// option takes, with an example in the match's own names: the commands'
// usage speaks of Alaska and Kamchatka, which a generated map does not
// have. The example is one the rules allow now if seat may play one
// (seat -1: someone without a seat), else one of the seat's territories and
// a neighbour. ok is false for a command it has no example for.
func (st Status) CapitalsUsage(s *state.State, seat int, command, option string) (text string, ok bool) {
	n := func(t int) lang.Text { return lang.Text(s.Map.TerritoryName(t)) }
	opt := lang.Text(option)
	switch command {
	case "attack":
		from, to := capitalsPair(s, seat, func(c engine.Command) (int, int, bool) {
			switch c := c.(type) {
			case engine.Capture:
				return c.From, c.To, true
			case engine.Plan:
				return c.From, c.To, true
			}
			return 0, 0, false
		}, func(o int) bool { return o != seat })
		return st.v.p.T("help.usage.capitals.attack", "Option", opt, "From", n(from), "To", n(to)), true
	case "fortify":
		if held := hosted.HeldBy(s, seat); seat >= 0 && len(held) == 1 {
			return st.v.p.T("help.usage.capitals.fortify.alone", "Option", opt, "Territory", lang.Place(s.Map.TerritoryName(held[0]))), true
		}
		from, to := capitalsPair(s, seat, func(c engine.Command) (int, int, bool) {
			if c, ok := c.(engine.Move); ok {
				return c.From, c.To, true
			}
			return 0, 0, false
		}, func(o int) bool { return o == seat })
		return st.v.p.T("help.usage.capitals.fortify", "Option", opt, "From", n(from), "To", n(to)), true
	case "port":
		if t, ok := portExample(s, seat); ok {
			return st.v.p.T("help.usage.capitals.port", "Option", opt, "Territory", n(t)), true
		}
		return st.v.p.T("help.usage.capitals.port.none", "Option", opt), true
	}
	return "", false
}

// ClassicUsage words what a classic attack or fortify that left out a
// required option takes, with an example from seat's own territories (the
// command's usage names Alaska and Kamchatka, which another player may
// hold): from the territory typed (typedFrom) if it is seat's, else one the
// rules let attack or move now, else seat's largest stack. ok is false for
// a command it has no example for, or someone without a territory.
func (st Status) ClassicUsage(s *state.State, seat int, command, option, typedFrom string) (text string, ok bool) {
	if seat < 0 || seat >= len(s.Seats) || s.Owned(seat) == 0 {
		return "", false
	}
	n := func(t int) lang.Text { return lang.Text(s.Map.TerritoryName(t)) }
	opt := lang.Text(option)
	typed := -1
	if t, err := s.Map.Lookup(typedFrom); err == nil && s.Terr[t].Owner == seat {
		typed = t
	}
	switch command {
	case "attack":
		enemy := func(o int) bool { return !s.Sides().Same(o, seat) }
		from, to, ok := ownPair(s, seat, typed, enemy, func(c engine.Command) (int, int, bool) {
			switch c := c.(type) {
			case engine.Attack:
				return c.From, c.To, true
			case engine.Assault:
				return c.From, c.To, true
			}
			return 0, 0, false
		})
		if !ok {
			return st.v.p.T("help.usage.classic.attack.none", "Option", opt), true
		}
		if IsSimultaneous(s) {
			return st.v.p.T("help.usage.classic.attack.rounds", "Option", opt, "From", n(from), "To", n(to),
				"Armies", max(1, min(3, s.Terr[from].Armies-1))), true
		}
		return st.v.p.T("help.usage.classic.attack", "Option", opt, "From", n(from), "To", n(to)), true
	case "fortify":
		friend := func(o int) bool { return o == seat || s.Sides().Teammates(seat, o) }
		from, to, ok := ownPair(s, seat, typed, friend, func(c engine.Command) (int, int, bool) {
			if c, ok := c.(engine.Fortify); ok {
				return c.From, c.To, true
			}
			return 0, 0, false
		})
		if !ok {
			return st.v.p.T("help.usage.classic.fortify.none", "Option", opt), true
		}
		// How far a fortification goes under the match's rule.
		if s.Options.Fortify == state.Adjacent || IsSimultaneous(s) {
			return st.v.p.T("help.usage.classic.fortify.adjacent", "Option", opt, "From", n(from), "To", n(to)), true
		}
		return st.v.p.T("help.usage.classic.fortify.connected", "Option", opt, "From", n(from), "To", n(to)), true
	}
	return "", false
}

// ownPair picks an example's two territories for seat: from the territory
// typed (if seat's) to a neighbour whose owner wants says fits; else the
// first pair of a command the rules allow now (legal picks them out);
// else seat's territory with the most armies and such a neighbour.
func ownPair(s *state.State, seat, typed int, wants func(owner int) bool, legal func(engine.Command) (from, to int, ok bool)) (from, to int, ok bool) {
	if typed >= 0 {
		for _, a := range s.Map.Territories[typed].Adj {
			if wants(s.Terr[a].Owner) {
				return typed, a, true
			}
		}
	}
	for _, c := range engine.Legal(s, seat) {
		if from, to, ok := legal(c); ok && (typed < 0 || from == typed) {
			return from, to, true
		}
	}
	best := -1
	for t := range s.Terr {
		if s.Terr[t].Owner != seat || (best >= 0 && s.Terr[t].Armies <= s.Terr[best].Armies) {
			continue
		}
		for _, a := range s.Map.Territories[t].Adj {
			if wants(s.Terr[a].Owner) {
				best, to = t, a
				break
			}
		}
	}
	return best, to, best >= 0
}

// capitalsPair picks an example's two territories: the first pair of a
// command the rules allow seat now (legal picks them out), else the
// seat's territory with the most troops and a neighbour whose owner wants
// says fits, else any two neighbours.
func capitalsPair(s *state.State, seat int, legal func(engine.Command) (from, to int, ok bool), wants func(owner int) bool) (from, to int) {
	for _, c := range engine.Legal(s, seat) {
		if from, to, ok := legal(c); ok {
			return from, to
		}
	}
	best := -1
	for t := range s.Terr {
		if seat < 0 || s.Terr[t].Owner != seat {
			continue
		}
		for _, a := range s.Map.Territories[t].Adj {
			if wants(s.Terr[a].Owner) && (best < 0 || s.Terr[t].Armies > s.Terr[best].Armies) {
				best, to = t, a
			}
		}
	}
	if best >= 0 {
		return best, to
	}
	for t, tr := range s.Map.Territories {
		if len(tr.Adj) > 0 {
			return t, tr.Adj[0]
		}
	}
	return 0, 0
}

// portExample picks the territory of a port's example: one the rules
// allow seat now, else one of its territories by the water without a
// port; ok is false if it has none.
func portExample(s *state.State, seat int) (t int, ok bool) {
	for _, c := range engine.Legal(s, seat) {
		if c, ok := c.(engine.BuildPort); ok {
			return c.Territory, true
		}
	}
	for t, tr := range s.Map.Territories {
		if tr.Coast && !s.Terr[t].Port && seat >= 0 && s.Terr[t].Owner == seat {
			return t, true
		}
	}
	return -1, false
}
