package genmap

import (
	"errors"
	"slices"

	"github.com/riskbot/riskbot/state"
)

// Regions (the map's continents) have MinRegion to MaxRegion territories,
// as the classic board's do (4 to 12 there; fewer here, for smaller maps).
const (
	MinRegion = 3
	MaxRegion = 7
)

// regionTries is how many seedings the partition tries before the attempt
// fails.
const regionTries = 8

var errRegions = errors.New("genmap: no partition into regions of 3 to 7 territories")

// chooseRegions groups the territories into connected regions of MinRegion
// to MaxRegion, about five each: seeds spread by farthest-point sampling
// over the map's graph (a sea link counts three steps, so islands tend to
// be regions of their own), then the smallest region takes a free
// neighbour, by land before by sea, until all are taken; regions left too
// small take territories from neighbours that can spare one.
func chooseRegions(r *rng, m *state.Map) ([][]int, error) {
	n := m.Len()
	k := max(2, (n+2)/5)
	for range regionTries {
		if reg, ok := partition(r, m, k); ok {
			return reg, nil
		}
	}
	return nil, errRegions
}

// steps returns the graph distance from t to every territory: a border
// counts one step, a sea link three.
func steps(m *state.Map, t int) []int {
	n := m.Len()
	d := make([]int, n)
	for i := range d {
		d[i] = 1 << 30
	}
	d[t] = 0
	done := make([]bool, n)
	for {
		u := -1
		for i := range n {
			if !done[i] && d[i] < 1<<30 && (u < 0 || d[i] < d[u]) {
				u = i
			}
		}
		if u < 0 {
			return d
		}
		done[u] = true
		for _, v := range m.Territories[u].Adj {
			d[v] = min(d[v], d[u]+1)
		}
		for _, v := range m.Territories[u].Sea {
			d[v] = min(d[v], d[u]+3)
		}
	}
}

func partition(r *rng, m *state.Map, k int) ([][]int, bool) {
	n := m.Len()
	dist := make([][]int, 0, k)
	seeds := []int{r.intn(n)}
	dist = append(dist, steps(m, seeds[0]))
	for len(seeds) < k {
		far, farD := -1, -1
		for t := range n {
			d := 1 << 30
			for _, ds := range dist {
				d = min(d, ds[t])
			}
			if d > farD {
				far, farD = t, d
			}
		}
		seeds = append(seeds, far)
		dist = append(dist, steps(m, far))
	}
	region := make([]int, n)
	for i := range region {
		region[i] = -1
	}
	size := make([]int, k)
	for i, s := range seeds {
		region[s] = i
		size[i] = 1
	}
	links := func(t, reg int, sea bool) int {
		c := 0
		ns := m.Territories[t].Adj
		if sea {
			ns = m.Territories[t].Sea
		}
		for _, u := range ns {
			if region[u] == reg {
				c++
			}
		}
		return c
	}
	// Grow: the smallest region that can grow takes the free neighbour
	// most linked to it, by land if it can.
	for left := n - k; left > 0; left-- {
		grew := false
		order := make([]int, k)
		for i := range order {
			order[i] = i
		}
		slices.SortStableFunc(order, func(a, b int) int { return size[a] - size[b] })
		for _, sea := range []bool{false, true} {
			for _, reg := range order {
				if size[reg] >= MaxRegion {
					continue
				}
				best, bestL := -1, 0
				for t := range n {
					if region[t] >= 0 {
						continue
					}
					l := links(t, reg, sea)
					if l > bestL || (l == bestL && l > 0 && dist[reg][t] < dist[reg][best]) {
						best, bestL = t, l
					}
				}
				if best >= 0 {
					region[best] = reg
					size[reg]++
					grew = true
					break
				}
			}
			if grew {
				break
			}
		}
		if !grew {
			return nil, false
		}
	}
	// Fix regions that are too small by taking a territory from a
	// neighbouring region that stays connected and big enough without it.
	for range n {
		small := -1
		for reg := range k {
			if size[reg] < MinRegion {
				small = reg
				break
			}
		}
		if small < 0 {
			break
		}
		moved := false
		for _, sea := range []bool{false, true} {
			for t := 0; t < n && !moved; t++ {
				from := region[t]
				if from == small || size[from] <= MinRegion || links(t, small, sea) == 0 {
					continue
				}
				region[t] = small
				if regionConnected(m, region, from) {
					size[from]--
					size[small]++
					moved = true
				} else {
					region[t] = from
				}
			}
			if moved {
				break
			}
		}
		if !moved {
			return nil, false
		}
	}
	out := make([][]int, k)
	for t, reg := range region {
		out[reg] = append(out[reg], t)
	}
	for _, reg := range out {
		if len(reg) < MinRegion || len(reg) > MaxRegion {
			return nil, false
		}
	}
	return out, true
}

// regionConnected reports whether the territories of region reg are
// connected by borders and sea links among themselves.
func regionConnected(m *state.Map, region []int, reg int) bool {
	var members []int
	for t, r := range region {
		if r == reg {
			members = append(members, t)
		}
	}
	if len(members) == 0 {
		return false
	}
	seen := make([]bool, len(region))
	seen[members[0]] = true
	queue := []int{members[0]}
	for q := 0; q < len(queue); q++ {
		t := queue[q]
		for _, u := range slices.Concat(m.Territories[t].Adj, m.Territories[t].Sea) {
			if region[u] == reg && !seen[u] {
				seen[u] = true
				queue = append(queue, u)
			}
		}
	}
	return len(queue) == len(members)
}

// regionBonus is the classic board's rule of thumb: bigger regions with more
// ways in are worth more. (size + 2 × entries) / 3, at least 1, where
// entries counts the region's territories with a border or a sea link
// leaving it. On the classic board this gives 5, 2, 5, 4, 7, 2 for the
// printed 5, 2, 5, 3, 7, 2.
func regionBonus(m *state.Map, reg []int) int {
	in := make([]bool, m.Len())
	for _, t := range reg {
		in[t] = true
	}
	entries := 0
	for _, t := range reg {
		for _, u := range slices.Concat(m.Territories[t].Adj, m.Territories[t].Sea) {
			if !in[u] {
				entries++
				break
			}
		}
	}
	return max(1, (len(reg)+2*entries)/3)
}
