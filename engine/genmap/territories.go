package genmap

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/riskbot/riskbot/state"
)

// The size rule: every territory has at least MinCells cells and a Block×Block
// square of its own cells, where its troop badge sits whole. At the 14 px
// cells the renderer draws, that is a 42 px square for the badge and about
// 70×70 px of land to click. And territories are even: the largest has at
// most MaxSpreadTenths/10 times the cells of the smallest.
const (
	MinCells        = 24
	Block           = 3
	MaxSpreadTenths = 25
)

// lloydRounds is how many times seeds move to the centre of their cells;
// balanceRounds how many times the territories grow, with their start
// delays adjusted after each.
const (
	lloydRounds   = 4
	balanceRounds = 20
)

// territories cuts the land into n territories and returns the cells: each
// the id of its territory, or state.Water. Every island gets territories in
// proportion to its size; on each island the territories grow as waves from
// seeds spread by farthest-point sampling and moved to the centres of their
// cells a few times (Lloyd); then the waves of big territories start later
// and those of small ones earlier until all are near the average, and last
// border cells are traded from big territories to small neighbours.
func (g *land) territories(r *rng, n int) ([]int16, error) {
	islands := g.components(true)
	slices.SortStableFunc(islands, func(a, b []int) int { return len(b) - len(a) })
	if len(islands) > n {
		return nil, errTooManyIslands
	}
	if len(islands) == 0 {
		return nil, errors.New("genmap: no land")
	}
	quota := shareOut(islands, n)
	owner := make([]int16, Side*Side)
	for i := range owner {
		owner[i] = state.Water
	}
	next := 0
	sc := &scratch{}
	for k, island := range islands {
		ids := make([]int, quota[k])
		for i := range ids {
			ids[i] = next + i
		}
		next += quota[k]
		seeds := farthestSeeds(r, g, island, quota[k])
		delay := make([]int, len(ids))
		for round := 0; ; round++ {
			grow(g, owner, seeds, ids, delay, sc)
			if round < lloydRounds {
				seeds = centres(owner, island, ids, seeds)
			} else if !rebalance(owner, island, ids, delay) || round == balanceRounds {
				break
			}
		}
		even(owner, island, ids)
	}
	if err := checkCells(owner, n); err != nil {
		return nil, err
	}
	return owner, nil
}

// shareOut shares n territories among islands so that cells per territory
// are as even as possible, at least one each: the Sainte-Laguë method,
// which gives each island about its size over the average territory,
// rounded to the nearest (D'Hondt's favours big islands, leaving a lone
// island territory up to twice the others).
func shareOut(islands [][]int, n int) []int {
	q := make([]int, len(islands))
	for i := range q {
		q[i] = 1
	}
	for range n - len(islands) {
		best := 0
		for i := 1; i < len(q); i++ {
			// size_i/(2q_i+1) > size_best/(2q_best+1), in integers
			if len(islands[i])*(2*q[best]+1) > len(islands[best])*(2*q[i]+1) {
				best = i
			}
		}
		q[best]++
	}
	return q
}

// farthestSeeds picks k cells of an island spread as far apart as its
// shape allows: a random first cell, then each time the cell farthest (by
// steps over land) from those already picked.
func farthestSeeds(r *rng, g *land, island []int, k int) []int {
	dist := make([]int, Side*Side)
	for i := range dist {
		dist[i] = 1 << 30
	}
	seeds := []int{island[r.intn(len(island))]}
	var queue []int
	for {
		// Relax the distances from the newest seed.
		s := seeds[len(seeds)-1]
		dist[s] = 0
		queue = append(queue[:0], s)
		for q := 0; q < len(queue); q++ {
			p := queue[q]
			eachSide(p, func(j int) {
				if g.isLand[j] && dist[p]+1 < dist[j] {
					dist[j] = dist[p] + 1
					queue = append(queue, j)
				}
			})
		}
		if len(seeds) == k {
			return seeds
		}
		far := island[0]
		for _, c := range island {
			if dist[c] > dist[far] {
				far = c
			}
		}
		seeds = append(seeds, far)
	}
}

// Step costs of the waves: a chamfer metric (5 along an edge, 7 across a
// corner, about 5√2) grows rounder territories than counting edge steps,
// which makes diamonds.
const (
	costEdge   = 5
	costCorner = 7
)

// corners8 are the four diagonal neighbours of a cell.
var corners8 = [4][2]int{{1, 1}, {-1, 1}, {1, -1}, {-1, -1}}

// grow gives every cell of the island to the territory whose wave reaches it
// first: waves start from the seeds, territory i's after delay[i], and
// spread over land in order of arrival (Dijkstra's algorithm with buckets;
// ties go to the wave queued first). A cell is taken across a corner only
// if the wave already holds one of the two cells beside that corner, so
// every territory stays connected through shared edges. Seeds are claimed
// at the start, so a late wave still has its seed.
func grow(g *land, owner []int16, seeds, ids []int, delay []int, sc *scratch) {
	for _, s := range seeds {
		clearFrom(g, owner, s)
	}
	for i, s := range seeds {
		owner[s] = int16(ids[i])
	}
	// A bucket entry packs the cell and the wave's index. The buckets'
	// storage is kept from call to call.
	buckets := sc.buckets[:0]
	defer func() { sc.buckets = buckets }()
	push := func(t, c, i int) {
		for len(buckets) <= t {
			if len(buckets) < cap(buckets) {
				buckets = buckets[:len(buckets)+1]
				buckets[len(buckets)-1] = buckets[len(buckets)-1][:0]
			} else {
				buckets = append(buckets, nil)
			}
		}
		buckets[t] = append(buckets[t], int32(c<<8|i))
	}
	spread := func(t, p, i int) {
		x, y := p%Side, p/Side
		for _, d := range offsets4 {
			nx, ny := x+d[0], y+d[1]
			if inside(nx, ny) && g.isLand[ny*Side+nx] && owner[ny*Side+nx] == unassigned {
				push(t+costEdge, ny*Side+nx, i)
			}
		}
		for _, d := range corners8 {
			nx, ny := x+d[0], y+d[1]
			if inside(nx, ny) && g.isLand[ny*Side+nx] && owner[ny*Side+nx] == unassigned {
				push(t+costCorner, ny*Side+nx, i)
			}
		}
	}
	for i, s := range seeds {
		push(delay[i], s, i)
	}
	for t := 0; t < len(buckets); t++ {
		for q := 0; q < len(buckets[t]); q++ {
			e := int(buckets[t][q])
			c, i := e>>8, e&0xff
			id := int16(ids[i])
			if c == seeds[i] && owner[c] == id {
				spread(t, c, i)
				continue
			}
			if owner[c] != unassigned || !touches(owner, c, id) {
				continue
			}
			owner[c] = id
			spread(t, c, i)
		}
	}
}

// scratch is memory reused by the growing rounds.
type scratch struct {
	buckets [][]int32
}

// touches reports whether cell c shares an edge with a cell of territory t.
func touches(owner []int16, c int, t int16) bool {
	x, y := c%Side, c/Side
	for _, d := range offsets4 {
		nx, ny := x+d[0], y+d[1]
		if inside(nx, ny) && owner[ny*Side+nx] == t {
			return true
		}
	}
	return false
}

// rebalance delays the waves of territories bigger than the island's
// average and hastens the smaller ones, in proportion to the difference.
// It reports false, changing nothing, when every territory is already
// within a tenth of the average.
func rebalance(owner []int16, island, ids []int, delay []int) bool {
	first := ids[0]
	size := make([]int, len(ids))
	for _, c := range island {
		size[int(owner[c])-first]++
	}
	avg := len(island) / len(ids)
	off := 0
	for _, sz := range size {
		off = max(off, sz-avg, avg-sz)
	}
	if off*10 <= avg {
		return false
	}
	lo := 1 << 30
	for i := range delay {
		// In proportion to how far from the average the territory is, at
		// most a cell of wave travel a round: a step moves the whole
		// border, so bigger steps overshoot.
		step := (size[i] - avg) * 2 * costEdge / avg
		delay[i] += max(-costEdge, min(costEdge, step))
		lo = min(lo, delay[i])
	}
	for i := range delay {
		delay[i] -= lo
	}
	return true
}

// unassigned marks land not yet given to a territory while growing.
const unassigned = -2

// clearFrom marks the island holding cell s as unassigned land.
func clearFrom(g *land, owner []int16, s int) {
	if owner[s] == unassigned {
		return
	}
	owner[s] = unassigned
	stack := []int{s}
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		eachSide(p, func(j int) {
			if g.isLand[j] && owner[j] != unassigned {
				owner[j] = unassigned
				stack = append(stack, j)
			}
		})
	}
}

// centres returns, for each territory of the island, its cell nearest to
// the centroid of its cells (a Lloyd step that stays on the territory).
func centres(owner []int16, island, ids []int, seeds []int) []int {
	first := ids[0]
	sx := make([]int64, len(ids))
	sy := make([]int64, len(ids))
	cnt := make([]int64, len(ids))
	for _, c := range island {
		t := int(owner[c]) - first
		sx[t] += int64(c % Side)
		sy[t] += int64(c / Side)
		cnt[t]++
	}
	out := slices.Clone(seeds)
	best := make([]int64, len(ids))
	for i := range best {
		best[i] = 1 << 62
	}
	for _, c := range island {
		t := int(owner[c]) - first
		// Distance to the centroid, scaled by the count to stay in integers.
		dx := int64(c%Side)*cnt[t] - sx[t]
		dy := int64(c/Side)*cnt[t] - sy[t]
		if d := dx*dx + dy*dy; d < best[t] {
			best[t], out[t] = d, c
		}
	}
	return out
}

// even trades border cells from big territories to smaller neighbours until
// no two neighbours differ by more than two cells or no trade keeps the
// giver in one piece. Each trade takes the cell that most belongs to the
// receiver (most edges shared with it, fewest with the giver), so borders
// stay smooth.
func even(owner []int16, island, ids []int) {
	if len(ids) < 2 {
		return
	}
	first := ids[0]
	k := len(ids)
	size := make([]int, k)
	for _, c := range island {
		size[int(owner[c])-first]++
	}
	blocked := make([]bool, k*k)
	type move struct {
		cell, score int
	}
	var moves []move
	for range len(island) {
		// The neighbours that differ most.
		adj := make([]bool, k*k)
		for _, c := range island {
			a := int(owner[c]) - first
			x, y := c%Side, c/Side
			if x+1 < Side && owner[c+1] >= 0 && int(owner[c+1]) != a+first {
				b := int(owner[c+1]) - first
				adj[a*k+b], adj[b*k+a] = true, true
			}
			if y+1 < Side && owner[c+Side] >= 0 && int(owner[c+Side]) != a+first {
				b := int(owner[c+Side]) - first
				adj[a*k+b], adj[b*k+a] = true, true
			}
		}
		ga, gb, diff := -1, -1, 2
		for a := range k {
			for b := range k {
				if adj[a*k+b] && !blocked[a*k+b] && size[a]-size[b] > diff {
					ga, gb, diff = a, b, size[a]-size[b]
				}
			}
		}
		if ga < 0 {
			return
		}
		moves = moves[:0]
		for _, c := range island {
			if int(owner[c]) != ga+first {
				continue
			}
			na, nb := 0, 0
			eachSide(c, func(j int) {
				switch int(owner[j]) {
				case ga + first:
					na++
				case gb + first:
					nb++
				}
			})
			// Only cells that share as many edges with the receiver as
			// with the giver: taking others grows tendrils.
			if nb > 0 && nb >= na {
				moves = append(moves, move{c, 4*nb - 3*na})
			}
		}
		slices.SortStableFunc(moves, func(p, q move) int { return cmp.Compare(q.score, p.score) })
		done := false
		for _, mv := range moves {
			owner[mv.cell] = int16(gb + first)
			if connected(owner, island, ga+first, size[ga]-1) {
				size[ga]--
				size[gb]++
				done = true
				break
			}
			owner[mv.cell] = int16(ga + first)
		}
		if !done {
			blocked[ga*k+gb] = true
		}
	}
}

// connected reports whether the n cells of territory t on the island form
// one group.
func connected(owner []int16, island []int, t, n int) bool {
	start := -1
	for _, c := range island {
		if int(owner[c]) == t {
			start = c
			break
		}
	}
	if start < 0 {
		return n == 0
	}
	seen := make([]bool, Side*Side)
	seen[start] = true
	stack := []int{start}
	count := 1
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		eachSide(p, func(j int) {
			if int(owner[j]) == t && !seen[j] {
				seen[j] = true
				count++
				stack = append(stack, j)
			}
		})
	}
	return count == n
}

// checkCells applies the size rule to every territory.
func checkCells(owner []int16, n int) error {
	counts := cellCounts(owner, n)
	for t, c := range counts {
		if c < MinCells {
			return fmt.Errorf("genmap: territory %d has %d cells, want at least %d", t, c, MinCells)
		}
	}
	if lo, hi := slices.Min(counts), slices.Max(counts); hi*10 > lo*MaxSpreadTenths {
		return fmt.Errorf("genmap: territories of %d to %d cells, want the largest at most %d.%d times the smallest",
			lo, hi, MaxSpreadTenths/10, MaxSpreadTenths%10)
	}
	blocks := blocks(owner, n)
	for t := range n {
		if blocks[t] < 0 {
			return fmt.Errorf("genmap: territory %d has no %d×%d block of its own cells", t, Block, Block)
		}
	}
	return nil
}

func cellCounts(owner []int16, n int) []int {
	out := make([]int, n)
	for _, c := range owner {
		if c >= 0 && int(c) < n {
			out[c]++
		}
	}
	return out
}

// blocks returns, for each of the n territories, the top-left cell of a
// Block×Block square of its own cells, or -1 if it has none. Of several
// squares it picks the one nearest the territory's centroid.
func blocks(owner []int16, n int) []int {
	// int64: squared distances pass 2^31, and int is 32 bits on some
	// platforms.
	sx, sy, cnt := make([]int64, n), make([]int64, n), make([]int64, n)
	for i, c := range owner {
		if c >= 0 && int(c) < n {
			sx[c] += int64(i % Side)
			sy[c] += int64(i / Side)
			cnt[c]++
		}
	}
	best := make([]int, n)
	bestD := make([]int64, n)
	for t := range best {
		best[t], bestD[t] = -1, 1<<62
	}
	for y := 0; y+Block <= Side; y++ {
	next:
		for x := 0; x+Block <= Side; x++ {
			t := owner[y*Side+x]
			if t < 0 || int(t) >= n {
				continue
			}
			for dy := range Block {
				for dx := range Block {
					if owner[(y+dy)*Side+x+dx] != t {
						continue next
					}
				}
			}
			// The square's centre against the centroid, scaled by the count.
			cx := int64(2*x+Block)*cnt[t] - 2*sx[t]
			cy := int64(2*y+Block)*cnt[t] - 2*sy[t]
			if d := cx*cx + cy*cy; d < bestD[t] {
				best[t], bestD[t] = y*Side+x, d
			}
		}
	}
	return best
}
