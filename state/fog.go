package state

import "slices"

// Sight is a set of territories: those a seat sees in a match with fog of
// war (RULES.md section 3). Maps have at most 128 territories.
type Sight [2]uint64

// Has reports whether territory t is in sight.
func (v Sight) Has(t int) bool { return v[t>>6]&(1<<(t&63)) != 0 }

func (v *Sight) add(t int) { v[t>>6] |= 1 << (t & 63) }

// Sight returns what seat sees: its territories and every territory that
// borders one of them, by land or, from a port of the capitals rule set,
// by a sea link; with teams, what its living teammates see too (a seat
// out of the match owns nothing, so sees nothing of its own).
func (s *State) Sight(seat int) Sight {
	var v Sight
	for t := range s.Terr {
		if o := s.Terr[t].Owner; o < 0 || !s.Sides().Same(o, seat) {
			continue
		}
		v.add(t)
		for _, n := range s.Map.Territories[t].Adj {
			v.add(n)
		}
		if s.Terr[t].Port {
			for n := range s.Terr {
				if s.Map.SeaLinked(t, n) {
					v.add(n)
				}
			}
		}
	}
	return v
}

// PublicSight returns what every seat still playing sees: the only
// territories a public view (a spectator, the channel) may show. With
// teams every living seat sees what its team sees, so this is also the
// intersection over the teams still playing: a territory one team does
// not see stays hidden from the public, lest that team read it there.
func (s *State) PublicSight() Sight {
	v := Sight{^uint64(0), ^uint64(0)}
	for i := range s.Seats {
		if s.Seats[i].Alive() {
			w := s.Sight(i)
			v[0] &= w[0]
			v[1] &= w[1]
		}
	}
	return v
}

// Fogged reports whether s is a view with fog of war over some of its
// territories: their owner and armies are unknown (Terr.Fog).
func (s *State) Fogged() bool { return s.Hidden && s.HasFog() }

// HasFog reports whether views of s hide what lies out of sight: with the
// option, until the match is over, but for the choice of capitals, made in
// the open (each must keep away from the others, over a board of
// neutrals).
func (s *State) HasFog() bool {
	return s.Options.Fog && s.Phase != PhaseOver && (s.Phase != PhaseSetup || s.Options.Rules == Classic)
}

// fog hides from s, a view being made, what lies out of sight: a fogged
// territory shows no owner, no armies, no port and no item (Terr.Fog); its
// owner's counts go to the seat's HiddenTerritories and HiddenArmies, so
// that the totals stay known (docs/rules.md, "Fog of war"). Arrows and
// capitals out of sight go, and so do the reserves of the other seats,
// which would tell their continents.
func (s *State) fog(seat int, v Sight) {
	for t := range s.Terr {
		if v.Has(t) {
			continue
		}
		tr := &s.Terr[t]
		if o := tr.Owner; o >= 0 {
			s.Seats[o].HiddenTerritories++
			s.Seats[o].HiddenArmies += tr.Armies
		}
		*tr = Terr{Owner: Neutral, Fog: true}
	}
	for i := range s.Seats {
		if i == seat {
			continue
		}
		// Where the capitals are is known to all since they were chosen;
		// what stands on them is not.
		c := &s.Seats[i].Capitals
		if c.Hero > 0 && !v.Has(int(c.Hero)-1) {
			c.Hero = 0
		}
		if s.Phase != PhaseSetup {
			s.Seats[i].Reserve = 0
		}
	}
	// The cards traded are their traders' (docs/rules.md, "Fog of war"):
	// the pile shows as a number.
	s.HiddenDiscard += s.Discard.Len()
	s.Discard = CardSet{}
	unseen := func(a Arrow) bool { return !v.Has(int(a.From)) || !v.Has(int(a.To)) }
	s.Last.drop(unseen)
	s.This.drop(unseen)
	if o := s.Occupy; s.Phase == PhaseOccupy && (!v.Has(o.From) || !v.Has(o.To)) {
		s.Occupy = Occupy{}
	}
	if seat != s.Current {
		s.Cap.dropPlans(func(p Planned) bool { return !v.Has(int(p.From)) || !v.Has(int(p.To)) })
	}
}

// hideOrders hides from s, a view being made for seat during a
// simultaneous round, what the others have done in it: their orders go
// (State.OrdersOf), and so do what they have left to place, the cards
// they traded and the sets they made of them (RoundTrades), which would
// tell who has given orders before the round resolves (docs/rules.md,
// "Hidden orders"). Who has committed is public.
func (s *State) hideOrders(seat int) {
	if len(s.RoundTrades) > 0 {
		s.RoundTrades = slices.DeleteFunc(slices.Clone(s.RoundTrades), func(t Trade) bool { return t.Seat != seat })
	}
	for i := range s.Seats {
		st := &s.Seats[i]
		if i == seat {
			continue
		}
		st.Reserve = 0
		if n := st.Traded.Len(); n > 0 {
			st.HiddenCards += n
			s.Trades -= n / 3
			if s.HasFog() {
				s.HiddenDiscard -= n // the pile is a number
			} else {
				for _, c := range st.Traded.Cards() {
					s.Discard = s.Discard.Remove(c)
				}
			}
			st.Traded = CardSet{}
		}
	}
}
