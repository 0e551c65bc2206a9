package engine

import (
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// checkAttackPhase refuses attacks outside the attack phase, saying why.
func checkAttackPhase(s *state.State, seat int) *Error {
	switch s.Phase {
	case state.PhaseAttack:
		return nil
	case state.PhaseReinforce:
		if mustTrade(s, seat) {
			return fail(ErrMustTrade, "engine.trade.must-then-place", "Cards", cards(s.Seats[seat].Hand.Len()))
		}
		return fail(ErrWrongPhase, "engine.attack.place-first", "Armies", remaining(s.Seats[seat].Reserve))
	case state.PhaseOccupy:
		return fail(ErrWrongPhase, "engine.occupy.first", "Place", land(s, s.Occupy.To))
	case state.PhaseFortify:
		return fail(ErrWrongPhase, "engine.attack.fortified")
	}
	return fail(ErrWrongPhase, "engine.attack.wrong-phase", "Phase", phase(s.Phase))
}

// conquerSeat takes seat def, left with no territory by seat's conquest,
// out of the match: its cards go to seat.
func conquerSeat(s *state.State, def, seat int) []Event {
	victim := &s.Seats[def]
	taken := victim.Hand
	victim.Hand = state.CardSet{}
	victim.Status = state.Eliminated
	victim.Reserve = 0
	s.Seats[seat].Hand = s.Seats[seat].Hand.Union(taken)
	return append([]Event{Eliminated{Seat: def, By: seat, Cards: taken.Len()}}, missionTargetOut(s, def, seat)...)
}

// checkAttack validates an attack from one territory on another.
func checkAttack(s *state.State, seat, from, to int) *Error {
	if err := checkAttackPhase(s, seat); err != nil {
		return err
	}
	if err := checkRoute(s, seat, from, to, "engine.attack.not-yours"); err != nil {
		return err
	}
	if s.Terr[to].Owner == seat {
		return fail(ErrOwnTerritory, "engine.attack.own", "Place", land(s, to))
	}
	if err := checkNotTeammate(s, seat, to); err != nil {
		return err
	}
	if !s.Map.Adjacent(from, to) {
		return fail(ErrNotAdjacent, "engine.border.none", "From", land(s, from), "To", land(s, to))
	}
	if a := s.Terr[from].Armies; a < 2 {
		return fail(ErrNotEnoughArmies, "engine.attack.too-few", "From", land(s, from), "Armies", armies(a))
	}
	return nil
}

// MaxDice returns the most dice an attack from a territory with the given
// armies may roll.
func MaxDice(armies int) int { return min(3, armies-1) }

// DefenceDice returns the dice a territory with the given armies defends
// with: always the most it may, so no one waits for the defender.
func DefenceDice(armies int) int { return min(2, armies) }

func attack(s *state.State, seat int, c Attack, d *dice) ([]Event, error) {
	if err := checkAttack(s, seat, c.From, c.To); err != nil {
		return nil, err
	}
	most := MaxDice(s.Terr[c.From].Armies)
	n := c.Dice
	if n < 1 || n > 3 {
		return nil, fail(ErrTooManyDice, "engine.attack.dice-range", "Number", c.Dice)
	}
	if n > most {
		return nil, fail(ErrTooManyDice, "engine.attack.dice-most", "Armies", armies(s.Terr[c.From].Armies), "From", land(s, c.From), "Dice", lang.M("n.dice", "Count", most))
	}
	return roll(s, seat, c.From, c.To, n, d), nil
}

func blitz(s *state.State, seat int, c Blitz, d *dice) ([]Event, error) {
	if err := checkAttack(s, seat, c.From, c.To); err != nil {
		return nil, err
	}
	keep := c.Keep
	if keep < 1 {
		return nil, fail(ErrBadArmies, "engine.blitz.keep-one", "From", land(s, c.From), "Number", keep)
	}
	if a := s.Terr[c.From].Armies; keep >= a {
		return nil, fail(ErrBadArmies, "engine.blitz.keep-all", "From", land(s, c.From), "Armies", armies(a), "Number", keep)
	}
	var ev []Event
	for s.Phase == state.PhaseAttack && s.Terr[c.To].Owner != seat {
		n := blitzDice(s.Terr[c.From].Armies, s.Terr[c.To].Armies, keep)
		if n == 0 {
			break
		}
		ev = append(ev, roll(s, seat, c.From, c.To, n, d)...)
	}
	return ev, nil
}

// blitzDice is the number of dice a blitz rolls: as many as allowed, but not
// so many that one roll could take the source below keep.
func blitzDice(att, def, keep int) int {
	n := MaxDice(att)
	if att <= keep || n < 1 {
		return 0
	}
	if margin := att - keep; min(n, DefenceDice(def)) > margin {
		n = margin
	}
	return n
}

// roll throws one round of dice and resolves it: losses, conquest,
// elimination, victory.
func roll(s *state.State, seat, from, to, n int, d *dice) []Event {
	ev := []Event{throw(s, seat, from, to, n, d)}
	if s.Terr[to].Armies > 0 {
		s.This.Add(state.Arrow{From: int16(from), To: int16(to), Kind: state.ArrowAttack, Seat: int8(seat), Count: 1})
		return ev
	}
	return append(ev, conquer(s, seat, from, to, n)...)
}

// throw rolls n attacking dice from from against the most the defence of
// to may roll, and takes the losses off both territories.
func throw(s *state.State, seat, from, to, n int, d *dice) Rolled {
	r := Rolled{Seat: seat, Defender: s.Terr[to].Owner, From: from, To: to, NA: n, ND: DefenceDice(s.Terr[to].Armies)}
	for i := range r.NA {
		r.Attack[i] = d.die()
	}
	for i := range r.ND {
		r.Defend[i] = d.die()
	}
	sortDesc(r.Attack[:r.NA])
	sortDesc(r.Defend[:r.ND])
	for i := range min(r.NA, r.ND) {
		if r.Attack[i] > r.Defend[i] {
			r.DefenderLost++
		} else {
			r.AttackerLost++
		}
	}
	s.Terr[from].Armies -= r.AttackerLost
	s.Terr[to].Armies -= r.DefenderLost
	return r
}

func sortDesc(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] > a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}

// conquer hands the emptied territory to the attacker, moves the dice of the
// last roll in, and settles elimination and victory.
func conquer(s *state.State, seat, from, to, n int) []Event {
	def := s.Terr[to].Owner
	s.Terr[to].Owner = seat
	s.Terr[to].Armies = n
	s.Terr[from].Armies -= n
	s.Conquered = true
	s.This.Add(state.Arrow{From: int16(from), To: int16(to), Kind: state.ArrowConquest, Seat: int8(seat), Count: 1})
	ev := []Event{Conquered{Seat: seat, Defender: def, From: from, To: to, Armies: n}}
	if def >= 0 && s.Owned(def) == 0 {
		ev = append(ev, conquerSeat(s, def, seat)...)
	}
	if won := checkVictory(s, seat); won != nil {
		return append(ev, won...)
	}
	if most := s.Terr[from].Armies - 1 + n; most > n {
		s.Phase = state.PhaseOccupy
		s.Occupy = state.Occupy{From: from, To: to, Min: n, Max: most}
		return ev
	}
	ev = append(ev, Occupied{Seat: seat, From: from, To: to, Armies: n})
	afterOccupy(s, seat)
	return ev
}

// afterOccupy returns to the attack, unless the cards taken from an
// eliminated player make the hand six or more: then the seat must trade
// down to four or fewer and place the armies before going on.
func afterOccupy(s *state.State, seat int) {
	s.Occupy = state.Occupy{}
	s.Phase = state.PhaseAttack
	if s.Seats[seat].Hand.Len() >= 6 {
		s.Phase = state.PhaseReinforce
	}
}

func occupy(s *state.State, seat int, c Occupy) ([]Event, error) {
	if s.Phase != state.PhaseOccupy {
		return nil, fail(ErrWrongPhase, "engine.occupy.none")
	}
	o := s.Occupy
	if c.Armies < o.Min || c.Armies > o.Max {
		return nil, fail(ErrBadArmies, "engine.occupy.range", "Min", o.Min, "Max", o.Max, "To", land(s, o.To), "Number", c.Armies)
	}
	extra := c.Armies - o.Min
	s.Terr[o.From].Armies -= extra
	s.Terr[o.To].Armies += extra
	afterOccupy(s, seat)
	return []Event{Occupied{Seat: seat, From: o.From, To: o.To, Armies: c.Armies}}, nil
}
