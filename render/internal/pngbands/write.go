package pngbands

import (
	"encoding/binary"
	"slices"
)

// writeBand writes band b (rows y0 to y1) from its tiles' bits, those of
// the tiles in e.changed written again from their tokens; or all of them,
// with new codes, when those take fewer bits.
func (e *Encoder) writeBand(b, y0, y1 int) {
	tiles := e.tiles[b*e.perRow : (b+1)*e.perRow]
	clear(e.lit[:])
	clear(e.dist[:])
	for i := range tiles {
		for s, n := range tiles[i].lit {
			e.lit[s] += uint32(n)
		}
		for s, n := range tiles[i].dist {
			e.dist[s] += uint32(n)
		}
	}
	e.lit[endOfBlock] = 1
	bc := &e.bands[b]
	all := e.newCodes(bc)
	for i := range tiles {
		switch {
		case all:
			tiles[i].write(&bc.codes, 0, y1-y0)
		case e.changed[i]:
			// Its rows before those searched again keep their bits.
			tiles[i].write(&bc.codes, tiles[i].from, y1-y0)
		}
	}
	w := bitWriter{out: bc.data[:0]}
	w.bitString(bc.head, bc.headBits)
	w.layRows(tiles, y1-y0)
	endBlock(&w, &bc.lit)
	bc.data = w.out
}

// layRows writes the rows of tiles, a row of each tile after the other,
// each its bits as the tile wrote them (its rows' strings of bits are
// followed by eight bytes at least): a loop of its own rather than a call
// of bitString a row of a tile, 128 of them a band.
func (w *bitWriter) layRows(tiles []tileCode, rows int) {
	total := 0
	for i := range tiles {
		total += len(tiles[i].bits)
	}
	out := slices.Grow(w.out, total+16)
	acc, k := w.acc, w.n // fewer than 32 bits pending
	for r := range rows {
		for i := range tiles {
			tc := &tiles[i]
			b, n := tc.bits[tc.at[r]:], uint(tc.nbits[r])
			for n >= 64 {
				v := binary.LittleEndian.Uint64(b)
				out = binary.LittleEndian.AppendUint64(out, acc|v<<k)
				acc = v >> (64 - k) // 0 when k is 0
				b, n = b[8:], n-64
			}
			v := binary.LittleEndian.Uint64(b) & (1<<n - 1)
			if k+n >= 64 {
				out = binary.LittleEndian.AppendUint64(out, acc|v<<k)
				acc, k = v>>(64-k), k+n-64 // k is not 0: n is below 64
			} else {
				acc |= v << k
				k += n
			}
			if k >= 32 {
				out = binary.LittleEndian.AppendUint32(out, uint32(acc))
				acc >>= 32
				k -= 32
			}
		}
	}
	w.out, w.acc, w.n = out, acc, k
}

// newCodes gives band bc new codes for the frequencies e.lit and e.dist,
// and reports whether it did: when it has none, or when new ones would
// save more than a keepSlack-th of the bits. Codes are made for every
// symbol, so that a band can keep them for whatever tokens come; when the
// frequencies differ from those the codes were made for by less than an
// eighth of the tokens, the band keeps them without making others.
func (e *Encoder) newCodes(bc *bandCode) bool {
	if bc.lit.lens != nil {
		var diff, total uint32
		for s, n := range e.lit {
			diff += max(n, bc.litFreq[s]) - min(n, bc.litFreq[s])
			total += n
		}
		for s, n := range e.dist {
			diff += max(n, bc.distFreq[s]) - min(n, bc.distFreq[s])
		}
		if diff <= total/buildDiff {
			return false
		}
	}
	e.bw.codes(&e.newLit, &e.newDist, &e.lit, &e.dist)
	hw := bitWriter{out: e.newHead[:0]}
	e.bw.header(&hw, &e.newLit, &e.newDist)
	headBits := hw.bitLen()
	hw.align()
	e.newHead = hw.out
	if bc.lit.lens != nil {
		keep, _ := bc.lit.cost(e.lit[:])
		d, _ := bc.dist.cost(e.dist[:])
		keep += bc.headBits + d
		l, _ := e.newLit.cost(e.lit[:])
		d, _ = e.newDist.cost(e.dist[:])
		if headBits+l+d >= keep-keep/keepSlack {
			return false
		}
	}
	bc.lit, e.newLit = e.newLit, bc.lit
	bc.dist, e.newDist = e.newDist, bc.dist
	bc.head, e.newHead = e.newHead, bc.head
	bc.headBits = headBits
	bc.codes.set(&bc.lit, &bc.dist)
	bc.litFreq, bc.distFreq = e.lit, e.dist
	return true
}

// write writes the tile's rows from row from on (rows of them) with codes
// c, keeping the bits of the rows before.
func (tc *tileCode) write(c *tokenCodes, from, rows int) {
	w := bitWriter{out: tc.bits[:0]}
	start := int32(0)
	if from > 0 {
		w.out = tc.bits[:tc.at[from-1]+(tc.nbits[from-1]+7)/8]
		start = tc.rows[from-1]
	}
	for r := from; r < rows; r++ {
		tc.at[r] = int32(len(w.out))
		writeTokens(&w, tc.toks[start:tc.rows[r]], c)
		tc.nbits[r] = int32(w.bitLen()) - 8*tc.at[r]
		w.align()
		start = tc.rows[r]
	}
	// Room for layRows's 8-byte loads.
	tc.bits = append(w.out, make([]byte, 8)...)
}
