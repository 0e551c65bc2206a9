package render

import (
	"image"
	"math"
	"slices"
)

// A frame of a match is mostly the frame before (issue 48): a few
// territories change owner, a few badges their count, the arrows move.
// composeIndexed, given the previous frame of the match and what drew it,
// draws again only the tiles of the map (8 x 8 px, tileGrid) whose
// drawing changed, and keeps the others' indices.
//
// What draws a tile is summed up in a signature: the territories whose
// land lies in it, each with the shade ramp of its owner; then, in the
// order they are drawn, a key of every overlay that marks or stamps a
// pixel of it (begin), a hash of everything that decides the overlay's
// pixels. A tile whose signature is the previous frame's has the same
// pixels: the same ground under the same overlays drawn the same way.
//
// The panel's header is drawn every frame; a player's card is kept when
// its key (what it shows: its strings, flags, seat and place) is the
// previous frame's (keepCard, panel.go).
//
// The previous frame's indices are the encoder's (pngBands.prev); the
// worker that encoded it still holds them in its frame (heldBy) and need
// not copy them. Everything kept for the next frame (signatures, land
// keys, card keys) is made while composing and kept by the encoder once
// the frame is encoded, so that an error between the two leaves the
// previous frame and what drew it together.

// elem is an overlay of the frame being drawn: its key, and the box of
// the pixels it marks or stamps, found while planning.
type elem struct {
	key uint64
	box image.Rectangle
}

// sigMix adds v to signature h.
func sigMix(h, v uint64) uint64 {
	h ^= v
	h *= 0x100000001b3 // FNV-1a's prime, on words
	return h ^ h>>29
}

// elemKey is the key of an overlay of the given kind drawn with args.
func elemKey(kind uint64, args ...uint64) uint64 {
	h := sigMix(0xcbf29ce484222325, kind)
	for _, a := range args {
		h = sigMix(h, a)
	}
	return h
}

// Kinds of overlay.
const (
	elemPort = iota + 1
	elemArrow
	elemBadge
	elemItem
	elemCrown
	elemHero
	elemHolder
	elemBanner
	elemCard
)

// flags packs booleans into a key's argument.
func flags(b ...bool) uint64 {
	var v uint64
	for i, x := range b {
		if x {
			v |= 1 << i
		}
	}
	return v
}

func f64(x float64) uint64 { return math.Float64bits(x) }

// stringKey hashes a string for an overlay's key.
func stringKey(t string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := range len(t) {
		h = (h ^ uint64(t[i])) * 0x100000001b3
	}
	return h
}

// begin starts the overlay of key k. Planning, what it then marks or
// stamps is its box and is added to the signatures of the tiles it
// touches; drawing, it reports whether the overlay is to be drawn: not
// when its box has no tile that is drawn again.
func (wk *worker) begin(k uint64) bool {
	d := &wk.dirty
	if wk.planning {
		wk.endElem()
		wk.elems = append(wk.elems, elem{key: k})
		d.key, d.box, d.inElem = k, image.Rectangle{}, true
		return true
	}
	if !wk.indexed || !wk.partial {
		return true
	}
	e := wk.elems[wk.elemAt]
	wk.elemAt++
	return d.anyChanged(e.box)
}

// endElem ends the overlay being planned.
func (wk *worker) endElem() {
	d := &wk.dirty
	if d.inElem {
		wk.elems[len(wk.elems)-1].box = d.box
		d.inElem = false
	}
}

// sigRow adds the key of the overlay being planned to the signatures of
// the tiles of row y from x0 to x1, and the row to its box.
func (d *dirty) sigRow(y, x0, x1 int) {
	d.box = d.box.Union(image.Rect(x0, y, x1, y+1))
	row := d.sig[(y>>tileShift)*d.g.tw:]
	for tx := x0 >> tileShift; tx <= (x1-1)>>tileShift; tx++ {
		row[tx] = sigMix(row[tx], d.key)
	}
}

// sigBox is sigRow for the rows of r, once per tile (a stamp's box).
func (d *dirty) sigBox(r image.Rectangle) {
	r = r.Intersect(image.Rect(0, 0, d.g.w, d.g.h))
	if !d.inElem || r.Empty() {
		return
	}
	d.box = d.box.Union(r)
	for ty := r.Min.Y >> tileShift; ty <= (r.Max.Y-1)>>tileShift; ty++ {
		row := d.sig[ty*d.g.tw:]
		for tx := r.Min.X >> tileShift; tx <= (r.Max.X-1)>>tileShift; tx++ {
			row[tx] = sigMix(row[tx], d.key)
		}
	}
}

// anyChanged reports whether a tile of r is drawn again.
func (d *dirty) anyChanged(r image.Rectangle) bool {
	r = r.Intersect(image.Rect(0, 0, d.g.w, d.g.h))
	if r.Empty() {
		return false
	}
	for ty := r.Min.Y >> tileShift; ty <= (r.Max.Y-1)>>tileShift; ty++ {
		if slices.Contains(d.changed[ty*d.g.tw+r.Min.X>>tileShift:ty*d.g.tw+(r.Max.X-1)>>tileShift+1], true) {
			return true
		}
	}
	return false
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

// keepUnchanged leaves in the dirty set only the pixels of tiles drawn
// again.
func (d *dirty) keepUnchanged() {
	for t, on := range d.tiles {
		if !on || d.changed[t] {
			continue
		}
		d.tiles[t] = false
		r := d.g.rect(t%d.g.tw, t/d.g.tw)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			i, j := y*d.g.w+r.Min.X, y*d.g.w+r.Max.X
			for i < j {
				w, b := i>>6, uint(i&63)
				n := min(64-int(b), j-i)
				d.bits[w] &^= (1<<uint(n) - 1) << b
				i += n
			}
		}
	}
}

// groundChanged writes, in the tiles drawn again, the indices of the sea,
// lines and names and of the land (as composeIndexed does for a whole
// frame).
func (wk *worker) groundChanged(ramps *[256]*[256]uint8, slots *[256]uint8) {
	b, d, fx := wk.b, &wk.dirty, wk.b.index()
	dst := wk.pal.Pix
	across := (b.mw + tileSize - 1) >> tileShift
	for ty := 0; ty<<tileShift < b.mh; ty++ {
		changed := d.changed[ty*d.g.tw : ty*d.g.tw+across]
		if !slices.Contains(changed, true) {
			continue
		}
		// The runs of tiles drawn again in this row of tiles, as pixels
		// x0 to x1, then the sea, lines and names of their rows.
		runs := wk.runs[:0]
		for tx := 0; tx < len(changed); tx++ {
			if changed[tx] {
				t0 := tx
				for tx < len(changed) && changed[tx] {
					tx++
				}
				runs = append(runs, [2]int{t0 << tileShift, min(b.mw, tx<<tileShift)})
			}
		}
		wk.runs = runs
		for y := ty << tileShift; y < min(b.mh, (ty+1)<<tileShift); y++ {
			row := y * b.w
			land := fx.runs[fx.rowAt[y]:fx.rowAt[y+1]]
			for _, r := range runs {
				a, e := row+r[0], row+r[1]
				copy(dst[a:e], fx.static[a:e])
				// The land runs of the row that meet the stretch, cut to it.
				for len(land) > 0 && int(land[0].end) <= a {
					land = land[1:]
				}
				for _, lr := range land {
					if int(lr.off) >= e {
						break
					}
					o0, o1 := max(a, int(lr.off)), min(e, int(lr.end))
					tbl, lvl := ramps[lr.t], b.lvl[o0:o1]
					out := dst[o0:o1]
					out = out[:len(lvl)]
					for i, l := range lvl {
						out[i] = tbl[l]
					}
				}
			}
		}
		for tx, ch := range changed {
			if !ch {
				continue
			}
			k := ty*d.g.tw + tx
			for _, m := range fx.mixed[fx.mixAt[k]:fx.mixAt[k+1]] {
				dst[m.off] = m.idx[slots[m.t]%mixSlots]
			}
		}
	}
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

// stampChanged is stamp for the pixels of the tiles d draws again.
func (sp *sprite) stampChanged(dst []uint8, w, h int, at image.Point, d *dirty) {
	if !d.anyChanged(sp.img.Rect.Add(at)) {
		return
	}
	n := 0
	for _, r := range sp.solid {
		y, x0, x1 := int(r.y)+at.Y, int(r.x0)+at.X, int(r.x1)+at.X
		idx := sp.idx[n : n+x1-x0]
		n += x1 - x0
		if y < 0 || y >= h {
			continue
		}
		changed := d.changed[(y>>tileShift)*d.g.tw:]
		for x := max(x0, 0); x < min(x1, w); {
			e := min(x1, w, (x>>tileShift+1)<<tileShift)
			if changed[x>>tileShift] {
				copy(dst[y*w+x:y*w+e], idx[x-x0:e-x0])
			}
			x = e
		}
	}
}
