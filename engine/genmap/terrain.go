package genmap

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/riskbot/riskbot/state"
)

// The five terrains of the capitals rule set, in the order they are
// handed out.
var terrains = [...]state.Terrain{state.Mountain, state.Coastal, state.Desert, state.Forest, state.Plain}

// MinPerTerrain is the fewest territories of each terrain on a map: with
// two or more of each, owning four kinds (the hero) is a goal to work for,
// never a gift of the starting capital's surroundings alone.
const MinPerTerrain = 2

// chooseTerrains gives each territory a terrain from the mean elevation
// and moisture of its cells. Each terrain gets about a fifth of the
// territories: the highest become mountains; the lowest shore territories
// coastal; of the rest the driest are desert, the wettest forest, and the
// middle plains. Handing out by rank rather than by fixed thresholds keeps
// all five on every map.
func chooseTerrains(r *rng, g *land, owner []int16, m *state.Map) ([]state.Terrain, error) {
	n := m.Len()
	elev := make([]int64, n)
	moist := make([]int64, n)
	cnt := make([]int64, n)
	for i, t := range owner {
		if t >= 0 {
			elev[t] += g.elevation[i]
			moist[t] += g.moisture[i]
			cnt[t]++
		}
	}
	for t := range n {
		elev[t] /= cnt[t]
		moist[t] /= cnt[t]
	}
	// Quotas: a fifth each, the remainder to random terrains, and one
	// random territory moved from one terrain to another half the time,
	// so maps differ in their mix.
	quota := make([]int, len(terrains))
	for k := range quota {
		quota[k] = n / len(terrains)
	}
	extra := []int{0, 1, 2, 3, 4}
	shuffle(r, extra)
	for _, k := range extra[:n%len(terrains)] {
		quota[k]++
	}
	if r.intn(2) == 0 {
		from, to := r.intn(len(quota)), r.intn(len(quota))
		if from != to && quota[from] > MinPerTerrain+1 {
			quota[from]--
			quota[to]++
		}
	}
	out := make([]state.Terrain, n)
	done := make([]bool, n)
	take := func(k int, eligible func(t int) bool, key func(t int) int64) {
		var cand []int
		for t := range n {
			if !done[t] && eligible(t) {
				cand = append(cand, t)
			}
		}
		slices.SortStableFunc(cand, func(a, b int) int { return cmp.Compare(key(a), key(b)) })
		for _, t := range cand[:min(quota[k], len(cand))] {
			out[t], done[t] = terrains[k], true
		}
	}
	all := func(int) bool { return true }
	take(0, all, func(t int) int64 { return -elev[t] })
	take(1, func(t int) bool { return m.Territories[t].Coast }, func(t int) int64 { return elev[t] })
	take(2, all, func(t int) int64 { return moist[t] })
	take(3, all, func(t int) int64 { return -moist[t] })
	for t := range n {
		if !done[t] {
			out[t] = state.Plain
		}
	}
	var count [state.NumTerrains]int
	for _, t := range out {
		count[t]++
	}
	for _, k := range terrains {
		if count[k] < MinPerTerrain {
			return nil, fmt.Errorf("genmap: %d %s territories, want at least %d", count[k], k, MinPerTerrain)
		}
	}
	return out, nil
}

// chooseFortresses puts a fortress on about one territory in eight, never
// on two neighbours, mountains first (the high ground).
func chooseFortresses(r *rng, m *state.Map, ter []state.Terrain) []bool {
	n := m.Len()
	want := (n + 4) / 8
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	shuffle(r, order)
	// Half the fortresses go to mountains when there are enough.
	slices.SortStableFunc(order[:n/2], func(a, b int) int {
		return cmp.Compare(rankOf(ter[a]), rankOf(ter[b]))
	})
	out := make([]bool, n)
	got := 0
	for _, t := range order {
		if got == want {
			break
		}
		ok := true
		for _, a := range m.Territories[t].Adj {
			if out[a] {
				ok = false
			}
		}
		if ok {
			out[t] = true
			got++
		}
	}
	return out
}

func rankOf(t state.Terrain) int {
	if t == state.Mountain {
		return 0
	}
	return 1
}
