// Package rating rates players from the placings of multiplayer matches:
// a multiplayer Elo. A match of N seats counts as the N(N-1)/2 duels of
// every pair of seats, each won by the better placed (a tie is half a win
// each), against the Elo expectation of the pair's ratings; each duel moves
// ratings by K/(N-1), so that a match moves a seat by at most K whatever
// its size, and every seat's place among all the others counts. Computer
// seats are rated by their level ("bot:hard"), so a newcomer can see how
// strong each level is. It is pure: results in, ratings out.
package rating

import (
	"math"
	"strings"
)

// Start is a new player's rating; K the most one match can move it.
const (
	Start = 1500.0
	K     = 32.0
)

// Seat is one seat of a finished match: who is rated for it, and its place
// (1 for the winner; seats with the same place tied).
type Seat struct {
	Key   string
	Place int
}

// Key returns who is rated for a seat: a person by their id; a computer
// seat by its level, "bot:LEVEL", taken from level or else from a seat id
// of the form "bot:LEVEL:N".
func Key(id, level string) string {
	if level != "" {
		return "bot:" + level
	}
	if rest, ok := strings.CutPrefix(id, "bot:"); ok {
		if lvl, _, ok := strings.Cut(rest, ":"); ok && lvl != "" {
			return "bot:" + lvl
		}
	}
	return id
}

// Expected is the Elo expectation of a duel of ratings a and b for a.
func Expected(a, b float64) float64 {
	return 1 / (1 + math.Pow(10, (b-a)/400))
}

// Changes returns what one match does to each seat's rating, given the
// ratings before it (a key missing from before is rated Start). Two seats
// rated under one key (two computers of one level) do not duel each other.
func Changes(before map[string]float64, seats []Seat) []float64 {
	d := make([]float64, len(seats))
	if len(seats) < 2 {
		return d
	}
	k := K / float64(len(seats)-1)
	rate := func(key string) float64 {
		if r, ok := before[key]; ok {
			return r
		}
		return Start
	}
	for i := range seats {
		for j := i + 1; j < len(seats); j++ {
			a, b := seats[i], seats[j]
			if a.Key == b.Key {
				continue
			}
			score := 0.5
			switch {
			case a.Place < b.Place:
				score = 1
			case a.Place > b.Place:
				score = 0
			}
			delta := k * (score - Expected(rate(a.Key), rate(b.Key)))
			d[i] += delta
			d[j] -= delta
		}
	}
	return d
}

// Apply rates one match: it adds each seat's change to ratings (starting
// new keys at Start).
func Apply(ratings map[string]float64, seats []Seat) {
	d := Changes(ratings, seats)
	for i, s := range seats {
		if _, ok := ratings[s.Key]; !ok {
			ratings[s.Key] = Start
		}
		ratings[s.Key] += d[i]
	}
}
