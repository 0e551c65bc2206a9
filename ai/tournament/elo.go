package tournament

import (
	"math"
	"sort"
)

// Rating is the Elo-style rating of one kind of player (a level; entries
// of the same level pooled).
type Rating struct {
	Name string  `json:"name"`
	Elo  float64 `json:"elo"`
	// Score is its share of the pairwise results counted for the rating
	// (wins plus half the draws), against other kinds only.
	Score float64 `json:"score"`
}

// eloMean is the mean rating: ratings are relative, so they are centred.
const eloMean = 1500

// Ratings fits Elo-style ratings to the games when more than two kinds of
// player took part (with two, the win rates say it all); otherwise it
// returns nil.
//
// A game of several seats is read as pairs: its winner beat every seat of
// another kind at the table, a draw (the turn cap) is a draw between every
// two seats of different kinds, and two losers are not compared. Seats of
// the same kind are never compared with each other. The ratings are the
// maximum-likelihood fit of the Bradley–Terry model to those pairs (the
// model behind Elo: P(i beats j) = 1 / (1 + 10^((Rj - Ri)/400))), found by
// the minorization–maximization iteration (Hunter 2004), so that they do
// not depend on the order of the games, as running Elo updates would. One
// virtual draw between every two kinds keeps a kind that never won at a
// finite rating.
func Ratings(players []string, games []game) []Rating {
	var kinds []string
	kindOf := make([]int, len(players))
	index := map[string]int{}
	for i, p := range players {
		k, ok := index[p]
		if !ok {
			k = len(kinds)
			index[p] = k
			kinds = append(kinds, p)
		}
		kindOf[i] = k
	}
	k := len(kinds)
	if k <= 2 {
		return nil
	}
	// w[a][b] is a's score against b.
	w := make([][]float64, k)
	for a := range w {
		w[a] = make([]float64, k)
		for b := range w[a] {
			if a != b {
				w[a][b] = 0.5 // the virtual draw
			}
		}
	}
	for _, g := range games {
		for i := range players {
			for j := range players {
				a, b := kindOf[i], kindOf[j]
				switch {
				case a == b:
				case g.winner < 0 && i < j:
					w[a][b] += 0.5
					w[b][a] += 0.5
				case g.winner == i:
					w[a][b]++
				}
			}
		}
	}
	gamma := make([]float64, k)
	for a := range gamma {
		gamma[a] = 1
	}
	next := make([]float64, k)
	for range 10000 {
		change := 0.0
		for a := range k {
			won, den := 0.0, 0.0
			for b := range k {
				if a != b {
					won += w[a][b]
					den += (w[a][b] + w[b][a]) / (gamma[a] + gamma[b])
				}
			}
			next[a] = won / den
		}
		// Centre on a geometric mean of 1 (a mean rating of eloMean).
		logMean := 0.0
		for a := range k {
			logMean += math.Log(next[a]) / float64(k)
		}
		for a := range k {
			x := next[a] / math.Exp(logMean)
			change = max(change, math.Abs(math.Log(x/gamma[a])))
			gamma[a] = x
		}
		if change < 1e-10 {
			break
		}
	}
	out := make([]Rating, k)
	for a := range k {
		won, all := 0.0, 0.0
		for b := range k {
			if a != b {
				won += w[a][b] - 0.5
				all += w[a][b] + w[b][a] - 1
			}
		}
		out[a] = Rating{Name: kinds[a], Elo: eloMean + 400*math.Log10(gamma[a])}
		if all > 0 {
			out[a].Score = won / all
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Elo > out[j].Elo })
	return out
}
