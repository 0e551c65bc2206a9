package render

import (
	"bytes"
	"image"
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

// composeIndexed draws the frame of s as palette indices into wk.pal: the
// same image as compose followed by the quantizer (see the top of this
// file), without drawing or mapping every pixel. Given prev, the previous
// frame of the match, it draws only the tiles of the map
// whose drawing changed since that frame and keeps the others
// (incremental.go), and leaves the frame's signatures in prev for the
// next.
func (wk *worker) composeIndexed(s *state.State, prev *lastFrame) {
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
		// The last frame keeps the signatures for the next frame; its
		// spare slice is the next frame's.
		prev.sigNext, prev.sigNextBoard, d.sig = d.sig, b, prev.sigNext
		for t, tr := range s.Terr {
			prev.terrNext[t] = uint64(b.look.ramp(tr.Owner, s.Map.Territories[t].Terrain))<<8 | uint64(slot(tr.Owner))
		}
		partial = prev.enc.Valid() && prev.sigBoard == b && len(prev.sig) == len(prev.sigNext) && len(prev.enc.Prev()) == len(wk.pal.Pix)
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
			copy(wk.pal.Pix, prev.enc.Prev()) // the frame before: the worker's frame is another
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
	var only *dirty // a partial frame stamps only the tiles drawn again
	if partial {
		only = d
	}
	for _, st := range wk.stamps {
		st.sp.stamp(dst, b.w, b.h, st.at, only)
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
	drawn := wk.partialPanel && len(wk.drawn) > 0 && !hasBanner(s)
	wk.indexed, wk.partial, wk.frame, wk.partialPanel = false, false, nil, false
	d.runs(area, func(y, x0, x1 int) {
		i0, i1 := y*b.w+x0, y*b.w+x1
		wk.q.quantizePix(dst[i0:i1], pix[4*i0:4*i1])
	})
	wk.mapPanel(len(s.Seats), drawn)
	if partial {
		var parts []image.Rectangle // the panel's parts drawn, if listed
		if drawn {
			parts = wk.drawn
		}
		prev.hintTiles(&wk.dirty, wk.b.panel, parts)
	}
	wk.drawn = wk.drawn[:0]
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
