package ai

import (
	"math"

	"github.com/riskbot/riskbot/state"
)

// numTeamFeatures is the length of a team position's feature vector
// (teamFeatures).
const numTeamFeatures = 18

// teamEvaluated reports whether hard scores s with the learned team
// evaluation (teamChance): two teams of two in classic domination or two
// thirds, the games its weights were fitted on (TestFitTeamEval).
func teamEvaluated(s *state.State) bool {
	return s.Options.Teams == 2 && len(s.Seats) == 4 && s.Options.Rules == state.Classic &&
		(s.Options.Victory == state.Domination || s.Options.Victory == state.TwoThirds)
}

// teamFeatures describes a position of a match with teams from seat's
// side (seat and its teammates) at the start of one of seat's turns: what
// the learned team evaluation (teamChance) reads. Both sides are read by
// their totals and by their weakest member, whom the enemies' common-enemy
// rule goes for: the side of the first player out nearly always loses. It
// reads only what a view shows.
func teamFeatures(s *state.State, seat int) [numTeamFeatures]float64 {
	var f [numTeamFeatures]float64
	n := float64(len(s.Terr))
	k := tallySeats(s)
	next, terr, arm, inc, hand, bonus, allBonus := k.next, &k.terr, &k.arm, &k.inc, &k.hand, &k.bonus, k.allBonus
	allArm, allInc := k.allArm, k.allInc
	allArm, allInc = max(1, allArm), max(1, allInc)
	// side sums a side's territories, armies, income, cards and bonus, and
	// finds its weakest member (the fewest territories; out counts as 0).
	type side struct {
		terr, arm, inc, cards, bonus float64
		weakTerr, weakArm            float64
		alive                        int
		prize                        float64
	}
	sides := s.Sides()
	read := func(mine bool) side {
		var sd side
		sd.weakTerr, sd.weakArm = math.Inf(1), math.Inf(1)
		for p := range s.Seats {
			if sides.Same(seat, p) != mine {
				continue
			}
			sd.terr += terr[p] / n
			sd.arm += arm[p] / allArm
			sd.inc += inc[p] / allInc
			sd.cards += hand[p] / 3 * next / allArm
			sd.bonus += float64(bonus[p]) / float64(max(1, allBonus))
			if terr[p]/n < sd.weakTerr {
				sd.weakTerr, sd.weakArm = terr[p]/n, arm[p]/allArm
			}
			if s.Seats[p].Alive() {
				sd.alive++
				if terr[p] <= 4 {
					sd.prize = max(sd.prize, hand[p]/5/terr[p])
				}
			}
		}
		return sd
	}
	me, them := read(true), read(false)
	f[0] = 1
	f[1] = me.terr
	f[2] = me.arm
	f[3] = me.inc
	f[4] = me.cards
	f[5] = them.cards
	f[6] = me.weakTerr
	f[7] = me.weakArm
	f[8] = them.weakTerr
	f[9] = them.weakArm
	f[10] = indicator(me.alive == 1)
	f[11] = indicator(them.alive == 1)
	f[12] = me.arm * me.arm
	f[13] = me.bonus - them.bonus
	f[14] = math.Min(1, float64(s.Trades)/10)
	f[15] = inc[seat] / allInc
	f[16] = them.prize
	f[17] = me.weakTerr * me.weakTerr
	return f
}

// teamChance is the learned team evaluation: the chance that seat's side
// wins from a position at the start of one of seat's turns, by a logistic
// model over teamFeatures fitted on team games of the normal player
// (TestFitTeamEval): teamTwoThirdsWeights in two thirds, where a side
// needs 7 conquests from the deal, teamEvalWeights otherwise.
func teamChance(s *state.State, seat int) float64 {
	f := teamFeatures(s, seat)
	return logistic(teamWeights(s.Options.Victory)[:], f[:])
}

// teamWeights is teamChance's weights for a match won by victory.
func teamWeights(victory state.Victory) *[numTeamFeatures]float64 {
	if victory == state.TwoThirds {
		return &teamTwoThirdsWeights
	}
	return &teamEvalWeights
}
