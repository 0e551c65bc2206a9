package render

import (
	"bytes"
	"image"
	"math/bits"
	"slices"

	"github.com/riskbot/riskbot/state"
)

// A frame is encoded as palette indices. compose draws it in RGBA and the
// quantizer maps every pixel; composeIndexed (used by Render and Zoom)
// writes most of the indices directly and gives the same image:
//
//   - what does not change from turn to turn (the sea, the lines and the
//     names over it) is kept by the board as indices, mapped once;
//   - a land pixel's index follows from its owner's shades and its level
//     (a table per shade ramp); a land pixel under a line or a name has
//     one index per possible owner, worked out once;
//   - what each frame draws over the map (pontoons, arrows, badges,
//     markers, the legend's holders, the banner) is drawn in RGBA as
//     before, on the pixels it draws on, whose ground is composed first;
//     only those pixels are mapped. Each of these steps, run "planning"
//     first, marks the pixels it will draw on instead of drawing. A badge
//     marks only its edges and shadow: its opaque pixels are written as
//     indices (sprite.stamp);
//   - the panel is drawn in RGBA on its ground, and only the pixels that
//     differ from the ground are mapped (the ground's indices are kept).
//
// Drawing in RGBA and mapping every pixel was most of a frame's cost
// besides the PNG (issue 33). TestIndexedFrame checks that both ways give
// the same indices.

// tileShift sets the side of the tiles by which the sparse layers are
// ordered (sparseFrom) and the marked pixels found: 8 px.
const (
	tileShift = 3
	tileSize  = 1 << tileShift
)

// tileGrid divides a w x h frame into tiles, row by row.
type tileGrid struct{ w, h, tw, th int }

func newTileGrid(w, h int) tileGrid {
	return tileGrid{w: w, h: h, tw: (w + tileSize - 1) >> tileShift, th: (h + tileSize - 1) >> tileShift}
}

func (g tileGrid) n() int { return g.tw * g.th }

// rect is the part of the frame that tile (tx, ty) covers.
func (g tileGrid) rect(tx, ty int) image.Rectangle {
	return image.Rect(tx<<tileShift, ty<<tileShift, min(g.w, (tx+1)<<tileShift), min(g.h, (ty+1)<<tileShift))
}

// dirty is the set of pixels that a frame's overlays draw on (a bit per
// pixel, row after row), and the tiles that hold any of them.
type dirty struct {
	g     tileGrid
	bits  []uint64
	tiles []bool
	// While planning, the signature of each tile (incremental.go), and
	// the key and box of the overlay being planned (inElem).
	sig    []uint64
	key    uint64
	box    image.Rectangle
	inElem bool
	// changed are the tiles drawn again, when a frame is drawn over the
	// previous one (partial).
	changed []bool
}

func (d *dirty) reset(g tileGrid) {
	d.g = g
	if n := (g.w*g.h + 63) / 64; len(d.bits) != n {
		d.bits = make([]uint64, n)
		d.tiles = make([]bool, g.n())
		d.changed = make([]bool, g.n())
	}
	// The signatures' slice goes to the encoder each frame (composeIndexed)
	// and comes back from it: any length.
	d.sig = slices.Grow(d.sig[:0], g.n())[:g.n()]
	clear(d.bits)
	clear(d.tiles)
	d.inElem = false
}

// markRow adds the pixels x0 to x1 (not included) of row y.
func (d *dirty) markRow(y, x0, x1 int) {
	x0, x1 = max(x0, 0), min(x1, d.g.w)
	if y < 0 || y >= d.g.h || x0 >= x1 {
		return
	}
	row := d.tiles[(y>>tileShift)*d.g.tw:]
	for tx := x0 >> tileShift; tx <= (x1-1)>>tileShift; tx++ {
		row[tx] = true
	}
	if d.inElem {
		d.sigRow(y, x0, x1)
	}
	i, j := y*d.g.w+x0, y*d.g.w+x1 // bits i to j
	for i < j {
		w, b := i>>6, uint(i&63)
		n := min(64-int(b), j-i)
		d.bits[w] |= (1<<uint(n) - 1) << b
		i += n
	}
}

// marked reports whether pixel i (y*w + x) is marked.
func (d *dirty) marked(i int) bool { return d.bits[i>>6]>>uint(i&63)&1 != 0 }

// mark adds the pixels of r.
func (d *dirty) mark(r image.Rectangle) {
	for y := max(r.Min.Y, 0); y < min(r.Max.Y, d.g.h); y++ {
		d.markRow(y, r.Min.X, r.Max.X)
	}
}

// runs calls f for each run of marked pixels of each row of clip: row y,
// from x0 to x1 (not included).
func (d *dirty) runs(clip image.Rectangle, f func(y, x0, x1 int)) {
	clip = clip.Intersect(image.Rect(0, 0, d.g.w, d.g.h))
	ty, marked := -1, false // the row of tiles last looked at, and whether any of them is marked
	for y := clip.Min.Y; y < clip.Max.Y; y++ {
		if y>>tileShift != ty {
			ty = y >> tileShift
			marked = slices.Contains(d.tiles[ty*d.g.tw:][clip.Min.X>>tileShift:((clip.Max.X-1)>>tileShift)+1], true)
		}
		if !marked {
			continue
		}
		base := y * d.g.w
		i, end := base+clip.Min.X, base+clip.Max.X
		for i < end {
			i = d.next(i, end, false)
			if i >= end {
				break
			}
			j := d.next(i, end, true)
			f(y, i-base, j-base)
			i = j
		}
	}
}

// next returns the first bit from i (before end) that is set, or unset
// when unset is true; end when there is none.
func (d *dirty) next(i, end int, unset bool) int {
	for i < end {
		w := d.bits[i>>6]
		if unset {
			w = ^w
		}
		w >>= uint(i & 63)
		if w != 0 {
			return min(end, i+bits.TrailingZeros64(w))
		}
		i = (i | 63) + 1
	}
	return end
}

// over composites the pixels of sp that are marked onto pix, tile by
// marked tile.
func (d *dirty) over(sp *sparse, pix []uint8) {
	for t, on := range d.tiles {
		if !on {
			continue
		}
		for k := sp.tile[t]; k < sp.tile[t+1]; k++ {
			o := sp.off[k]
			if d.marked(int(o >> 2)) {
				overPixel(pix[o:o+4:o+4], sp.pix[4*k:4*k+4:4*k+4])
			}
		}
	}
}

// frameIndex is what a board keeps to write its frames' indices directly:
// made on the first such frame, then only read.
type frameIndex struct {
	// static is every pixel's index as the sea, the lines and the names
	// leave it (w*h); land pixels are written over.
	static []uint8
	// runs are the land pixels, row by row, a run per territory.
	runs []landRun
	// mixed are the land pixels under a line or a name, tile after
	// tile: those of tile k are mixed[mixAt[k]:mixAt[k+1]].
	mixed []mixPixel
	mixAt []int32
	// ramps are the look's shade ramps as indices (256 entries, so that
	// a level needs no bounds check).
	ramps [][256]uint8
	// terrAt and terrTiles list the tiles of each territory's land
	// (territoryTiles).
	terrAt    []int32
	terrTiles []int32
	// rowAt[y] to rowAt[y+1] are the land runs of row y.
	rowAt []int32
}

// mixPixel is a land pixel under a line or a name: its offset, its
// territory, and its index when owned by each seat, then by nobody.
type mixPixel struct {
	off int32
	t   uint8
	idx [mixSlots]uint8
}

// landRun is a run of pixels of territory t, from offset off to end (not
// included).
type landRun struct{ off, end, t int32 }

// mixSlots are the owners a land pixel's colour can have: each seat, and
// nobody.
const mixSlots = state.MaxSeats + 1

// slot is an owner's slot among mixSlots.
func slot(owner int) int {
	if owner < 0 {
		return state.MaxSeats
	}
	return owner
}

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

// composeIndexed draws the frame of s as palette indices into wk.pal: the
// same image as compose followed by the quantizer (see the top of this
// file), without drawing or mapping every pixel. Given prev, the encoder of
// the previous frame of the match, it draws only the tiles of the map
// whose drawing changed since that frame and keeps the others
// (incremental.go), and leaves the frame's signatures in prev for the
// next.
func (wk *worker) composeIndexed(s *state.State, prev *pngBands) {
	b := wk.b
	fx := b.index()
	tags := wk.nameSeats(s)
	d := &wk.dirty
	d.reset(b.tiles)
	wk.stamps = wk.stamps[:0]
	wk.elems = wk.elems[:0]
	if prev != nil {
		clear(d.sig)
	}
	wk.planning = true
	wk.drawUnder(s)
	wk.drawOver(s, tags)
	wk.endElem()
	wk.planning = false

	partial := false
	holds := prev != nil && wk.heldBy == prev && wk.heldSeq == prev.seq
	wk.heldBy = nil
	if prev != nil {
		// The encoder keeps the signatures for the next frame; its spare
		// slice is the next frame's.
		prev.sigNext, prev.sigNextBoard, d.sig = d.sig, b, prev.sigNext
		for t, tr := range s.Terr {
			prev.terrNext[t] = uint64(b.look.ramp(tr.Owner, s.Map.Territories[t].Terrain))<<8 | uint64(slot(tr.Owner))
		}
		partial = prev.valid && prev.sigBoard == b && len(prev.sig) == len(prev.sigNext) && len(prev.prev) == len(wk.pal.Pix)
		clear(prev.cardsNext[:])
		clear(prev.drewNext[:])
		prev.seatsNext = len(s.Seats)
		if partial {
			for k, v := range prev.sigNext {
				d.changed[k] = v != prev.sig[k]
			}
			for t := range s.Terr {
				if prev.terrNext[t] != prev.terr[t] {
					for _, k := range fx.terrTiles[fx.terrAt[t]:fx.terrAt[t+1]] {
						d.changed[k] = true
					}
				}
			}
			d.keepUnchanged()
		}
	}
	wk.partial, wk.elemAt = partial, 0
	if prev != nil {
		prev.overNext = partial
	}
	wk.frame, wk.kept = prev, wk.kept[:0]
	wk.partialPanel = partial && prev.seats == len(s.Seats)

	// The indices of everything the overlays leave alone.
	dst := wk.pal.Pix
	var ramps [256]*[256]uint8 // per territory
	var slots [256]uint8
	for t, tr := range s.Terr {
		ramps[t] = &fx.ramps[b.look.ramp(tr.Owner, s.Map.Territories[t].Terrain)]
		slots[t] = uint8(slot(tr.Owner))
	}
	if partial {
		if !holds {
			copy(wk.pal.Pix, prev.prev) // the frame before: the worker's frame is another
		}
		wk.groundChanged(&ramps, &slots)
	} else {
		if b.mw == b.w {
			copy(dst[:b.w*b.mh], fx.static)
		} else {
			for y := range b.mh {
				copy(dst[y*b.w:y*b.w+b.mw], fx.static[y*b.w:])
			}
		}
		for _, r := range fx.runs {
			tbl := ramps[r.t]
			out := dst[r.off:r.end]
			for i, l := range b.lvl[r.off:r.end] {
				out[i] = tbl[l]
			}
		}
		for _, m := range fx.mixed {
			dst[m.off] = m.idx[slots[m.t]%mixSlots]
		}
	}

	// The badges' opaque pixels.
	for _, st := range wk.stamps {
		if partial {
			st.sp.stampChanged(dst, b.w, b.h, st.at, d)
			continue
		}
		st.sp.stamp(dst, b.w, b.h, st.at)
	}

	// The overlays, in RGBA on the pixels they draw on: the ground first.
	pix := wk.canvas.Pix
	area := image.Rect(0, 0, b.mw, b.mh)
	rows := wk.landRows(s)
	d.runs(area, func(y, x0, x1 int) {
		i0, i1 := y*b.w+x0, y*b.w+x1
		out := pix[4*i0 : 4*i1]
		lvl, terr := b.lvl[i0:i1], b.terr[i0:i1]
		lvl = lvl[:len(terr)]
		for i := 0; i < len(terr); {
			if v := terr[i]; v != 0 {
				c := rows[v-1][lvl[i]]
				o := out[4*i : 4*i+4 : 4*i+4]
				o[0], o[1], o[2], o[3] = c.R, c.G, c.B, 255
				i++
				continue
			}
			// Off the land: the base (sea, glows), a stretch at once.
			j := i + 1
			for j < len(terr) && terr[j] == 0 {
				j++
			}
			copy(out[4*i:4*j], b.base[4*(i0+i):4*(i0+j)])
			i = j
		}
	})
	d.over(&b.lines, pix)
	wk.indexed = true
	wk.drawUnder(s)
	d.over(&b.labels, pix)
	wk.drawn, wk.grounds, wk.touched = wk.drawn[:0], wk.grounds[:0], wk.touched[:0]
	wk.drawOver(s, tags)
	// Over the panel of the frame before, only the parts the panel drew
	// are mapped; not under a banner (placed on the map, but drawn after
	// the panel: rare frames, mapped whole).
	drawn := wk.partialPanel && len(wk.drawn) > 0 && !(s.Phase == state.PhaseOver && s.Winner >= 0)
	wk.indexed, wk.partial, wk.frame, wk.partialPanel = false, false, nil, false
	d.runs(area, func(y, x0, x1 int) {
		i0, i1 := y*b.w+x0, y*b.w+x1
		wk.q.quantizePix(dst[i0:i1], pix[4*i0:4*i1])
	})
	wk.mapPanel(len(s.Seats), drawn)
	if partial {
		wk.hintTiles(prev, drawn)
	}
	wk.drawn = wk.drawn[:0]
}

// hintTiles marks in prev.hint the encoder's tiles (bands.go) that the
// frame just drawn over prev's may have changed: those of the map's tiles
// drawn again, and the panel's parts drawn (all of it unless drawn).
func (wk *worker) hintTiles(prev *pngBands, drawn bool) {
	b, d := wk.b, &wk.dirty
	n := len(prev.bands) * prev.perRow
	prev.hint = slices.Grow(prev.hint[:0], n)[:n]
	clear(prev.hint)
	mark := func(r image.Rectangle) {
		for band := r.Min.Y / bandRows; band <= (r.Max.Y-1)/bandRows; band++ {
			row := prev.hint[band*prev.perRow:]
			for t := r.Min.X / tileWidth; t <= (r.Max.X-1)/tileWidth; t++ {
				row[t] = true
			}
		}
	}
	for ty := range d.g.th {
		row := d.changed[ty*d.g.tw : (ty+1)*d.g.tw]
		if !slices.Contains(row, true) {
			continue
		}
		// A map tile lies in one encoder tile (TestTileGeometry).
		hint := prev.hint[(ty<<tileShift)/bandRows*prev.perRow:]
		for tx, ch := range row {
			if ch {
				hint[(tx<<tileShift)/tileWidth] = true
			}
		}
	}
	if !drawn {
		mark(b.panel)
		return
	}
	for _, r := range wk.drawn {
		if !r.Empty() {
			mark(r)
		}
	}
}

// mapPanel writes the panel's indices: those of its ground where the
// panel as drawn is still the ground, the quantizer's elsewhere. It puts
// the ground back where the panel was drawn, so that the next frame of the
// same board and seats need not copy it (see drawGround). When drawn is
// set, the panel was drawn over the frame before, whose indices it holds,
// and only the parts listed in wk.drawn were drawn on its ground: the
// others keep their indices (the ground's, or a card kept).
func (wk *worker) mapPanel(seats int, drawn bool) {
	b := wk.b
	p := b.panel
	g := &b.grounds[seats]
	pw := p.Dx()
	const chunk = 16 // pixels compared at once: most of the panel is its ground
	// The pixels j0 to j1 of the panel's row y, whose indices are the
	// ground's already.
	span := func(y, j0, j1 int) {
		i0 := y*b.w + p.Min.X
		cv := wk.canvas.Pix[4*i0 : 4*(i0+pw)]
		gy := y - p.Min.Y
		gr := g.img.Pix[gy*g.img.Stride : gy*g.img.Stride+4*pw]
		out := wk.pal.Pix[i0 : i0+pw]
		// An element over the ground in this row (a card's highlight),
		// from pixel at of the row: where it lies, the pixels are more
		// likely its than the ground's.
		var over, overIdx []uint8
		at := 0
		for _, m := range wk.grounds {
			if y >= m.r.Min.Y && y < m.r.Max.Y && m.r.Min.X < p.Min.X+j1 && m.r.Max.X > p.Min.X+j0 {
				mw, my := m.r.Dx(), y-m.r.Min.Y
				over, overIdx = m.after[4*my*mw:4*(my+1)*mw], memoIndices(m, wk.q, &wk.memoBytes)[my*mw:(my+1)*mw]
				at = m.r.Min.X - p.Min.X
				break
			}
		}
		if over == nil && bytes.Equal(cv[4*j0:4*j1], gr[4*j0:4*j1]) {
			return
		}
		for j := j0; j < j1; j += chunk {
			k := min(j1, j+chunk)
			c, o := cv[4*j:4*k], gr[4*j:4*k]
			switch {
			case j >= at && k-at <= len(overIdx) && bytes.Equal(c, over[4*(j-at):4*(k-at)]):
				copy(out[j:k], overIdx[j-at:k-at])
			case bytes.Equal(c, o):
				continue
			default:
				wk.q.quantizePix(out[j:k], c)
			}
			copy(c, o)
		}
	}
	// ground gives the pixels j0 to j1 of row y the ground's indices.
	ground := func(y, j0, j1 int) {
		i0, gy := y*b.w+p.Min.X, y-p.Min.Y
		copy(wk.pal.Pix[i0+j0:i0+j1], g.idx[gy*pw+j0:gy*pw+j1])
	}
	if drawn {
		// The parts drawn get the ground's indices, a highlight's its own
		// (its memo's: it is all drawn over the ground), and only where
		// something was drawn on them are they compared with it: in
		// each row, the stretches of the boxes touched, merged.
		for _, r := range wk.drawn {
			for y := r.Min.Y; y < r.Max.Y; y++ {
				ground(y, r.Min.X-p.Min.X, r.Max.X-p.Min.X)
			}
			for _, m := range wk.grounds {
				c := m.r.Intersect(r)
				idx := memoIndices(m, wk.q, &wk.memoBytes)
				for y := c.Min.Y; y < c.Max.Y; y++ {
					at := (y-m.r.Min.Y)*m.r.Dx() + c.Min.X - m.r.Min.X
					copy(wk.pal.Pix[y*b.w+c.Min.X:y*b.w+c.Max.X], idx[at:at+c.Dx()])
				}
			}
		}
		for _, r := range wk.drawn {
			for y := r.Min.Y; y < r.Max.Y; y++ {
				row := wk.spans[:0]
				for _, t := range wk.touched {
					if t = t.Intersect(r); y >= t.Min.Y && y < t.Max.Y && !t.Empty() {
						row = append(row, [2]int{t.Min.X - p.Min.X, t.Max.X - p.Min.X})
					}
				}
				slices.SortFunc(row, func(a, b [2]int) int { return a[0] - b[0] })
				for i := 0; i < len(row); {
					j0, j1 := row[i][0], row[i][1]
					for i++; i < len(row) && row[i][0] <= j1; i++ {
						j1 = max(j1, row[i][1])
					}
					span(y, j0, j1)
				}
				wk.spans = row
			}
		}
		// The highlights' pixels, not compared, are put back to the
		// ground (mapPanel leaves the canvas's panel its ground).
		for _, m := range wk.grounds {
			c := m.r.Intersect(p)
			for y := c.Min.Y; y < c.Max.Y; y++ {
				gy := y - p.Min.Y
				copy(wk.canvas.Pix[wk.canvas.PixOffset(c.Min.X, y):wk.canvas.PixOffset(c.Max.X, y)],
					g.img.Pix[gy*g.img.Stride+4*(c.Min.X-p.Min.X):gy*g.img.Stride+4*(c.Max.X-p.Min.X)])
			}
		}
	} else {
		for y := p.Min.Y; y < p.Max.Y; y++ {
			j := 0
			for _, r := range wk.kept {
				if y < r.Min.Y || y >= r.Max.Y {
					continue
				}
				if a := r.Min.X - p.Min.X; a > j {
					ground(y, j, a)
					span(y, j, a)
				}
				j = max(j, r.Max.X-p.Min.X)
			}
			if j < pw {
				ground(y, j, pw)
				span(y, j, pw)
			}
		}
	}
	wk.kept, wk.grounds, wk.touched = wk.kept[:0], wk.grounds[:0], wk.touched[:0]
	wk.ground = g.img
}

// memoIndices returns the indices of m's after pixels by quantizer q,
// mapped on first use; held counts the memos' bytes.
func memoIndices(m *memo, q *quantizer, held *int) []uint8 {
	if m.mappedBy != q || len(m.idx) == 0 {
		n := len(m.after) / 4
		*held += n - len(m.idx)
		m.idx = slices.Grow(m.idx[:0], n)[:n]
		q.quantizePix(m.idx, m.after)
		m.mappedBy = q
	}
	return m.idx
}
