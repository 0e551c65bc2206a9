package render

import (
	"image"
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
// The previous frame's indices are its encoder's (pngbands.Encoder.Prev);
// the worker that drew it still holds them (heldBy) and need not copy
// them. Everything kept for the next frame (signatures, land keys, card
// keys) is made while composing and kept by the last frame (lastFrame)
// once the frame is encoded, so that an error between the two leaves the
// previous frame and what drew it together.

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
