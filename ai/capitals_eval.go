package ai

import (
	"github.com/riskbot/riskbot/state"
)

// numCapFeatures is the length of a capitals position's feature vector
// (capFeatures).
const numCapFeatures = 16

// capFeatures describes a capitals position from seat's point of view,
// just after one of its turns (where hard's playouts stop): what the
// learned capitals evaluation (capWinChance) reads. It reads only what a
// view shows (whether an item is held, not its kind).
func capFeatures(s *state.State, seat int) [numCapFeatures]float64 {
	var f [numCapFeatures]float64
	b := newCapBoard(s, seat, nil)
	n := float64(len(s.Terr))
	var allTroops float64
	alive, neutral := 0, 0
	for p := range s.Seats {
		if s.Seats[p].Alive() {
			alive++
			allTroops += float64(b.troops[p])
		}
	}
	for t := range s.Terr {
		if s.Terr[t].Owner == state.Neutral {
			neutral++
		}
	}
	allTroops = max(1, allTroops)
	var oppTroops, oppTerr, oppHeroes, bonus float64
	for v := range s.Seats {
		if s.Sides().Same(v, seat) || !s.Seats[v].Alive() {
			continue
		}
		oppTroops = max(oppTroops, float64(b.troops[v])/allTroops)
		oppTerr = max(oppTerr, float64(b.owned[v])/n)
		if s.Hero(v) >= 0 {
			oppHeroes++
		}
		// The chance of taking v's capital with the next reinforcements,
		// for the share of the troops it would bring.
		y := s.Capital(v)
		if y < 0 {
			continue
		}
		theirs := float64(b.troops[v]) / allTroops
		for _, xs := range [2][]int{s.Map.Territories[y].Adj, s.Map.Territories[y].Sea} {
			for _, x := range xs {
				if s.Terr[x].Owner != seat {
					continue
				}
				if a := b.enemyAttack(seat, x, y, b.income[seat]); a > b.enemyDef[y] {
					bonus = max(bonus, fallChance(a, b.enemyDef[y], s.Terr[y].Armies)*theirs)
				}
			}
		}
	}
	myTroops := float64(b.troops[seat]) / allTroops
	myTerr := float64(b.owned[seat]) / n
	ports := 0
	for t := range s.Terr {
		if s.Terr[t].Owner == seat && s.Terr[t].Port {
			ports++
		}
	}
	f[0] = 1
	f[1] = myTroops
	f[2] = myTerr
	f[3] = oppTroops
	f[4] = oppTerr
	f[5] = indicator(alive == 2)
	f[6] = indicator(alive == 3)
	c := s.Capital(seat)
	if c >= 0 {
		f[7] = b.loseChance(c)
		if b.threat[c] == 0 {
			f[14] = 1
		} else {
			f[14] = min(2, float64(s.DefenceTotal(c))/float64(b.threat[c])) / 2
		}
	}
	f[8] = bonus
	f[9] = indicator(s.Hero(seat) >= 0)
	if alive > 1 {
		f[10] = oppHeroes / float64(alive-1)
	}
	f[11] = float64(ports) / max(1, float64(b.owned[seat]))
	f[12] = float64(neutral) / n
	f[13] = myTroops * myTroops
	f[15] = indicator(s.Seats[seat].Capitals.Item != state.NoItem)
	return f
}

// capWinChance is the learned capitals evaluation: the chance that seat
// wins from a position just after one of its turns, by a logistic model
// over capFeatures fitted on games of four normal players
// (capEvalWeights, TestFitCapEval).
func capWinChance(s *state.State, seat int) float64 {
	if v, ok := settled(s, seat); ok {
		return v
	}
	f := capFeatures(s, seat)
	return logistic(capEvalWeights[:], f[:])
}
