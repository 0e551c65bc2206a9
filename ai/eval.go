package ai

import (
	"math"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// numFeatures is the length of a position's feature vector (features).
const numFeatures = 16

// features describes a classic position from seat's point of view, at the
// start of one of its turns: what the learned evaluation (winChance) reads.
// It reads only what a view shows (hand sizes, not cards).
func features(s *state.State, seat int) [numFeatures]float64 {
	var f [numFeatures]float64
	n := len(s.Terr)
	need := n
	if s.Options.Victory == state.TwoThirds {
		need = (2*n + 2) / 3
	}
	k := tallySeats(s)
	next, terr, arm, inc, hand, bonus := k.next, &k.terr, &k.arm, &k.inc, &k.hand, &k.bonus
	allArm, allInc, alive := k.allArm, k.allInc, k.alive
	cardArmies := func(p int) float64 { return hand[p] / 3 * next / max(1, allArm) }
	var oppTerr, oppArm, oppCards, prize float64
	for p := range s.Seats {
		if p == seat || !s.Seats[p].Alive() {
			continue
		}
		oppTerr = max(oppTerr, terr[p]/float64(n))
		oppArm = max(oppArm, arm[p]/max(1, allArm))
		oppCards = max(oppCards, cardArmies(p))
		if terr[p] <= 4 {
			prize = max(prize, hand[p]/5/terr[p])
		}
	}
	myTerr, myArm := terr[seat]/float64(n), arm[seat]/max(1, allArm)
	f[0] = 1
	f[1] = myTerr
	f[2] = myArm
	f[3] = inc[seat] / max(1, allInc)
	f[4] = cardArmies(seat)
	f[5] = oppTerr
	f[6] = oppArm
	f[7] = oppCards
	f[8] = indicator(alive == 2)
	f[9] = indicator(alive == 3)
	f[10] = float64(max(0, need-int(terr[seat]))) / float64(n)
	f[11] = prize
	f[12] = myArm * myArm
	f[13] = myTerr * myTerr
	f[14] = float64(bonus[seat]) / float64(max(1, k.allBonus))
	f[15] = math.Min(1, float64(s.Trades)/10)
	return f
}

// seatTally is what both learned evaluations (features, teamFeatures)
// read of each seat: its territories, armies, income (continents
// included, cards not), hand size and continent bonus, with the totals
// over the seats in play, and what the next set of cards is worth.
type seatTally struct {
	next                 float64
	terr, arm, inc, hand [state.MaxSeats]float64
	bonus                [state.MaxSeats]int
	allArm, allInc       float64
	allBonus, alive      int
}

// tallySeats reads s's seats for the learned evaluations (seatTally).
func tallySeats(s *state.State) seatTally {
	var k seatTally
	k.next = float64(engine.EscalatingValue(s.Trades))
	if s.Options.Cards == state.Fixed {
		k.next = 7 // the mean of the fixed sets' values, 4 to 10
	}
	for c := range s.Map.Continents {
		k.allBonus += s.Map.Continents[c].Bonus
		if o := s.ContinentOwner(c); o >= 0 {
			k.bonus[o] += s.Map.Continents[c].Bonus
		}
	}
	for t := range s.Terr {
		if o := s.Terr[t].Owner; o >= 0 {
			k.terr[o]++
			k.arm[o] += float64(s.Terr[t].Armies)
		}
	}
	for p := range s.Seats {
		if !s.Seats[p].Alive() {
			continue
		}
		k.alive++
		k.inc[p] = float64(max(3, int(k.terr[p])/3) + k.bonus[p])
		k.hand[p] = float64(s.HandSize(p))
		k.allArm += k.arm[p]
		k.allInc += k.inc[p]
	}
	return k
}

// hardEvaluate scores a position for seat in [0, 1], as hard's search
// does: 1 for a win, 0 when out, otherwise the learned chance to win (with
// a secret mission, the one fitted on missions games: missionWinChance).
func hardEvaluate(s *state.State, seat int) float64 {
	if teamEvaluated(s) {
		// The side wins together: a teammate's win is seat's, and seat
		// out is not yet the side's loss.
		if s.Phase == state.PhaseOver {
			return indicator(s.Won(seat))
		}
		return teamChance(s, seat)
	}
	if v, ok := settled(s, seat); ok {
		return v
	}
	if v, ok := missionWinChance(s, seat); ok {
		return v
	}
	return winChance(s, seat)
}

// winChance is the learned evaluation: the chance that seat wins from a
// classic position at the start of one of its turns, by a logistic model
// over features fitted on games of the normal player (evalWeights,
// TestFitEval).
func winChance(s *state.State, seat int) float64 {
	f := features(s, seat)
	return logistic(evalWeights[:], f[:])
}

// logistic is the chance a logistic model with weights w gives a
// position of features f: the learned evaluations' last step.
func logistic(w, f []float64) float64 {
	z := 0.0
	for i, x := range w {
		z += x * f[i]
	}
	return 1 / (1 + math.Exp(-z))
}

// indicator is a yes-or-no feature's value: 1 for yes, 0 for no.
func indicator(yes bool) float64 {
	if yes {
		return 1
	}
	return 0
}
