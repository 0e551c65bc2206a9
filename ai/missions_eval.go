package ai

import (
	"math"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// numMissionFeatures is the length of a missions position's feature
// vector (missionFeatures): the classic features and the mission's.
const numMissionFeatures = numFeatures + 19

// The kinds of mission the missions features tell apart: the cards of a
// kind are pursued alike, and a kind's progress is worth its own.
const (
	kindTerritories = iota // 24 territories, and a destroy card gone
	kindContinents
	kindHeld // 18 territories with two armies each
	kindHunt
	numKinds
)

// missionKind returns the kind of mission m.
func missionKind(m state.Mission) int {
	switch {
	case m.Hunting():
		return kindHunt
	case m == state.MissionTerritories18:
		return kindHeld
	case m.Territories() > 0:
		return kindTerritories
	}
	return kindContinents
}

// missionFeatures describes a missions position from seat's point of
// view, at the start of one of its turns: the classic features (features)
// and its mission's (its kind, its progress by kind, what it still
// lacks) and the others' threat as the board shows it (their missions are
// hidden: the territories and continents of the strongest). It returns
// false when the seat has no mission in s (or the view hides it).
func missionFeatures(s *state.State, seat int) ([numMissionFeatures]float64, bool) {
	var f [numMissionFeatures]float64
	m := mission(s, seat)
	share, ok := missionShare(s, seat)
	if !ok {
		return f, false
	}
	classic := features(s, seat)
	copy(f[:], classic[:])
	n := float64(len(s.Terr))
	kind := missionKind(m)
	i := numFeatures
	if kind != kindTerritories {
		f[i+kind-1] = 1
	}
	i += numKinds - 1
	f[i+kind] = share
	i += numKinds
	f[i+kind] = share * share
	i += numKinds

	// What the mission still lacks, in territories, and against the
	// armies the seat can bring to it this turn.
	owned := float64(s.Owned(seat))
	lack, missing := 0.0, 0
	switch kind {
	case kindHunt:
		c, _ := m.Target()
		lack = float64(s.Owned(c))
	case kindHeld:
		lack = math.Max(0, float64(state.MissionHeld-engine.HeldWithArmies(s, seat, state.MissionHeldArmies)))
	case kindTerritories:
		lack = math.Max(0, float64(m.Territories())-owned)
	default:
		for _, c := range missionContinents(s, seat, m) {
			if s.ContinentOwner(c) != seat {
				missing++
			}
			for _, t := range s.Map.Continents[c].Territories {
				if s.Terr[t].Owner != seat {
					lack++
				}
			}
		}
	}
	power := float64(s.Armies(seat)) - owned + float64(s.Income(seat).Total)
	f[i] = lack / n
	f[i+1] = math.Min(3, lack/math.Max(1, power))
	f[i+2] = float64(missing) / 3
	i += 3

	// The others: the nearest to 24 territories, the largest bonus, the
	// most continents held (two or three win a continent card).
	allBonus := 0
	var bonus, conts [state.MaxSeats]int
	for c := range s.Map.Continents {
		allBonus += s.Map.Continents[c].Bonus
		if o := s.ContinentOwner(c); o >= 0 {
			bonus[o] += s.Map.Continents[c].Bonus
			conts[o]++
		}
	}
	var near, oppBonus, oppConts float64
	for p := range s.Seats {
		if p == seat || !s.Seats[p].Alive() {
			continue
		}
		near = math.Max(near, math.Max(0, float64(s.Owned(p)-16))/8)
		oppBonus = math.Max(oppBonus, float64(bonus[p])/float64(max(1, allBonus)))
		oppConts = math.Max(oppConts, float64(conts[p])/3)
	}
	f[i] = near
	f[i+1] = oppBonus
	f[i+2] = oppConts
	f[i+3], f[i+4] = othersProgress(s, seat)
	return f, true
}

// othersProgress returns the progress toward their missions
// (missionShare) of the seat nearest to fulfilling its own among the
// others of s, and its square: 0 where their missions are hidden. Hard
// reads it on its samples, where each other seat holds a mission dealt at
// random from the cards it cannot see (guessMissions), so that the mean
// over the samples weighs every mission the others may hold.
func othersProgress(s *state.State, seat int) (share, squared float64) {
	for p := range s.Seats {
		if p == seat || !s.Seats[p].Alive() {
			continue
		}
		if x, ok := missionShare(s, p); ok {
			share = math.Max(share, x)
		}
	}
	return share, share * share
}

// missionWinChance is the learned evaluation of a missions match: the
// chance that seat wins from a position at the start of one of its turns,
// by a logistic model over missionFeatures fitted on missions games
// (missionWeights, TestFitMissionEval). It returns false when the seat
// has no mission in s.
func missionWinChance(s *state.State, seat int) (float64, bool) {
	f, ok := missionFeatures(s, seat)
	if !ok {
		return 0, false
	}
	return logistic(missionWeights[:], f[:]), true
}
