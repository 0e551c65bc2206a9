package render

import (
	"slices"

	"github.com/riskbot/riskbot/state"
)

// index returns the board's frameIndex, making it on first use.
func (b *board) index() *frameIndex {
	b.indexOnce.Do(func() { b.indexed = newFrameIndex(b) })
	return b.indexed
}

func newFrameIndex(b *board) *frameIndex {
	q := b.look.quant
	fx := &frameIndex{static: make([]uint8, b.w*b.h)}
	for _, r := range b.look.ramps {
		var t [256]uint8
		for l, c := range r {
			t[l] = q.lut[key565(c.R, c.G, c.B)]
		}
		fx.ramps = append(fx.ramps, t)
	}
	frame := slices.Clone(b.base)
	b.lines.over(frame)
	b.labels.over(frame)
	q.quantizePix(fx.static, frame)

	// The lines and the names alone, to find the land pixels they cover.
	lines := frame
	clear(lines)
	b.lines.over(lines)
	names := make([]uint8, len(b.base))
	b.labels.over(names)
	for y := range b.mh {
		row := y * b.w
		for x := 0; x < b.mw; {
			v := b.terr[row+x]
			if v == 0 {
				x++
				continue
			}
			x0 := x
			for x < b.mw && b.terr[row+x] == v {
				i := row + x
				if lines[4*i+3] != 0 || names[4*i+3] != 0 {
					mp := mixPixel{off: int32(i), t: v - 1}
					terrain := b.m.Territories[v-1].Terrain
					for k := range mixSlots {
						owner := k
						if k == state.MaxSeats {
							owner = state.Neutral
						}
						c := b.look.land(owner, terrain)[b.lvl[i]]
						px := []uint8{c.R, c.G, c.B, 255}
						if lines[4*i+3] != 0 {
							overPixel(px, lines[4*i:4*i+4])
						}
						if names[4*i+3] != 0 {
							overPixel(px, names[4*i:4*i+4])
						}
						mp.idx[k] = q.lut[key565(px[0], px[1], px[2])]
					}
					fx.mixed = append(fx.mixed, mp)
				}
				x++
			}
			fx.runs = append(fx.runs, landRun{int32(row + x0), int32(row + x), int32(v - 1)})
		}
	}
	fx.terrAt, fx.terrTiles = territoryTiles(b.tiles, b.w, b.m.Len(), fx.runs)
	fx.tileRuns(b)
	return fx
}

// territoryTiles lists, per territory, the tiles of the frame its land
// lies in, from the land runs: those of territory t are at[t] to at[t+1]
// in tiles.
func territoryTiles(g tileGrid, w, n int, runs []landRun) (at, tiles []int32) {
	var pairs []uint64 // territory << 32 | tile
	for _, r := range runs {
		y, x0 := int(r.off)/w, int(r.off)%w
		x1 := x0 + int(r.end-r.off)
		for tx := x0 >> tileShift; tx <= (x1-1)>>tileShift; tx++ {
			pairs = append(pairs, uint64(r.t)<<32|uint64((y>>tileShift)*g.tw+tx))
		}
	}
	slices.Sort(pairs)
	pairs = slices.Compact(pairs)
	at = make([]int32, n+1)
	tiles = make([]int32, len(pairs))
	for i, p := range pairs {
		tiles[i] = int32(uint32(p))
		at[p>>32+1]++
	}
	for t := range n {
		at[t+1] += at[t]
	}
	return at, tiles
}

// tileRuns indexes the land runs by row (frameIndex.rowAt), and orders
// the land pixels under lines and names by tile.
func (fx *frameIndex) tileRuns(b *board) {
	g := b.tiles
	fx.rowAt = make([]int32, b.h+1)
	for _, r := range fx.runs {
		fx.rowAt[int(r.off)/b.w+1]++
	}
	for y := range b.h {
		fx.rowAt[y+1] += fx.rowAt[y]
	}
	tile := func(m mixPixel) int {
		x, y := int(m.off)%b.w, int(m.off)/b.w
		return (y>>tileShift)*g.tw + x>>tileShift
	}
	fx.mixAt = make([]int32, g.n()+1)
	for _, m := range fx.mixed {
		fx.mixAt[tile(m)+1]++
	}
	for k := range g.n() {
		fx.mixAt[k+1] += fx.mixAt[k]
	}
	byTile := make([]mixPixel, len(fx.mixed))
	next := slices.Clone(fx.mixAt[:g.n()])
	for _, m := range fx.mixed {
		t := tile(m)
		byTile[next[t]] = m
		next[t]++
	}
	fx.mixed = byTile
}
