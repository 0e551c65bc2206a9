package render

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"hash/fnv"
	"image"
	"image/color"
	"image/png"
	"math/bits"
	"slices"
	"sync"

	"github.com/riskbot/riskbot/state"
)

// A map's PNG is encoded by pngBands (issue 48): one PNG, decoding to the
// same pixels as image/png's, which costs much less when the previous
// frame encoded was much the same, as the moments of a match are.
//
// A PNG's image data is one zlib stream of its rows, each after a filter
// byte (0: none, as image/png writes paletted rows). pngBands cuts the
// rows into bands of bandRows rows, each one deflate block with its own
// Huffman codes, ended on a byte boundary by an empty stored block (a sync
// flush): a band's bytes do not depend on the bands before it, so that an
// unchanged band is laid again as it is. The stream's Adler-32 is summed
// from its tiles' (adler).
//
// A band keeps its Huffman codes, made for every symbol, from frame to
// frame while they take at most a keepSlack-th more bits than new ones
// (newCodes); its tiles keep their rows written with them, so that a
// changed band writes again only its changed tiles' tokens and lays the
// others' bits as they are.
//
// Within a band the rows are cut into tiles tileWidth pixels wide, and
// each tile is searched for matches on its own: a match copies bytes of
// the same tile only (to its left in the row, or in a row above within
// the band), so that a tile's tokens depend on its pixels only. A band
// whose pixels changed somewhere is written again, and only its changed
// tiles are searched again: between two turns of a match the badges,
// arrows, territories and panel cards that changed touch about a quarter
// of the tiles and three bands in five (classic board; capitals: an
// eighth of the tiles, two bands in five).

const (
	bandRows  = 16
	tileWidth = 200
	hashBits  = 12
	goodMatch = 32 // long enough not to look for a longer one
)

// frameKey tells the matches apart whose frames are encoded: the board,
// the players, and the seat a view with fog of war is for (-1 for the
// spectators' view). Two matches with the same key only share less.
type frameKey struct {
	b       *board
	players uint64 // a hash of the seats' IDs
	viewer  int
}

func frameKeyOf(b *board, s *state.State) frameKey {
	h := fnv.New64a()
	for i := range s.Seats {
		h.Write([]byte(s.Seats[i].ID))
		h.Write([]byte{0})
	}
	k := frameKey{b: b, players: h.Sum64(), viewer: -1}
	if s.Fogged() {
		k.viewer = s.Viewer
	}
	return k
}

// maxFrames bounds the frames a renderer keeps for the next moment of
// their match: each keeps the frame's indices, tokens and compressed bands
// (about 4 MB at the default width).
const maxFrames = 8

// frameCache keeps the encoders of the last frames encoded, each for the
// next moment of its match. An encoder is taken out while it encodes, so
// that two renders never share one.
type frameCache struct {
	mu   sync.Mutex
	keys []frameKey // least recently used first
	encs []*pngBands
}

// take returns the encoder of key's last frame, or, when there is none,
// one that encodes from scratch (the least recently used one when the
// cache is full: its buffers are reused, its frame is another match's).
func (c *frameCache) take(key frameKey) *pngBands {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.Index(c.keys, key)
	if i < 0 && len(c.keys) < maxFrames {
		return &pngBands{}
	}
	if i < 0 {
		i = 0
	}
	enc := c.encs[i]
	c.keys = slices.Delete(c.keys, i, i+1)
	c.encs = slices.Delete(c.encs, i, i+1)
	return enc
}

// forget makes every encoder kept encode its next frame from scratch.
func (c *frameCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.encs {
		e.valid = false
	}
}

// put keeps enc as key's, the most recently used.
func (c *frameCache) put(key frameKey, enc *pngBands) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.Index(c.keys, key); i >= 0 { // a render of the same match at once
		c.keys = slices.Delete(c.keys, i, i+1)
		c.encs = slices.Delete(c.encs, i, i+1)
	}
	if len(c.keys) >= maxFrames {
		c.keys, c.encs = slices.Delete(c.keys, 0, 1), slices.Delete(c.encs, 0, 1)
	}
	c.keys = append(c.keys, key)
	c.encs = append(c.encs, enc)
}

// pngBands encodes the frames of one board, one at a time, keeping what it
// needs to encode the next frame's unchanged parts again for free.
type pngBands struct {
	w, h   int
	prev   []uint8 // the indices of the frame last encoded, w*h
	valid  bool    // whether prev, tiles and bands are that frame's
	kept   int     // the tiles of the last frame kept from the frame before
	tiles  []tileCode
	bands  []bandCode
	perRow int // tiles across
	sym    *symbols

	table   [1 << hashBits]uint32 // generation << 16 | row << 12 | index in the tile
	gen     uint32
	buf     tileBuf // a tile's pixels, row after row
	changed []bool  // per tile of a band
	first   []int   // per changed tile of a band, its first row that changed
	bw      blockWriter
	lit     [numLit]uint32
	dist    [numDist]uint32
	newLit  huffman // codes for a changed band's tokens
	newDist huffman
	newHead []byte
	header  []byte
	// idatHead and parts are png's.
	idatHead []byte
	parts    [][]byte
	// sig are the signatures of the tiles of prev (incremental.go), for
	// the board sigBoard; sigNext, those of the frame composed to be
	// encoded next.
	sig, sigNext           []uint64
	sigBoard, sigNextBoard *board
	// terr are the land keys of the territories in prev, terrNext in the
	// frame composed to be encoded next (incremental.go).
	terr, terrNext [256]uint64
	seq            uint64 // the frames encoded
	// over is set when the frame last encoded was drawn over prev;
	// overNext for the frame composed (composeIndexed), which then marks
	// in hint the tiles it may have changed (band after band): the
	// others are prev's, and diff need not compare them.
	over, overNext bool
	hint           []bool
	// cards are the keys of the panel's cards in prev (0: not kept) for
	// seats players; cardsNext and seatsNext those of the frame composed
	// (keepCard).
	cards, cardsNext [state.MaxSeats]uint64
	seats, seatsNext int
	// drew, per card, let a card whose numbers alone changed draw only
	// them (keepCardTop); drewNext for the frame composed.
	drew, drewNext [state.MaxSeats]cardParts
}

// tileCode is a tile's tokens, row after row (rows[i] is where row i
// ends), the frequencies of their symbols, and two sums of its bytes for
// the Adler-32 (modulo adlerMod): of the bytes, and of each byte times its
// place in its band's raw rows. bits are its rows written with its band's
// codes, each from a byte boundary: row i's nbits[i] bits from byte
// at[i].
type tileCode struct {
	toks   []token
	from   int // the first row searched last, the rows before kept
	rows   [bandRows]int32
	lit    [numLit]uint16
	dist   [numDist]uint16
	sum    uint64
	placed uint64
	bits   []byte
	at     [bandRows]int32
	nbits  [bandRows]int32
}

// cardParts are what a card of the panel drew, for keepCardTop
// (panel.go): the key of all but its numbers, and the boxes of its
// numbers and of the rest (as drawn; none when not known).
type cardParts struct {
	top   uint64
	stats image.Rectangle
	rest  [6]image.Rectangle // at most six boxes, else none known
}

// bandCode is a band's deflate bytes, and the codes and header of its
// block. A band keeps its codes from frame to frame, so that its
// unchanged tiles' bits are laid again as they are, until codes made for
// its new tokens would take fewer bits, header included.
type bandCode struct {
	data      []byte
	lit, dist huffman
	codes     tokenCodes // lit and dist for writeTokens
	head      []byte
	headBits  int
	litFreq   [numLit]uint32 // the frequencies the codes were made for
	distFreq  [numDist]uint32
}

const adlerMod = 65521

// keepSlack: a band keeps its codes unless new ones would save more than
// a keepSlack-th of its bits.
const keepSlack = 16

const buildDiff = 2

// encode returns img as a PNG. An image that image/png would write with
// fewer bits per pixel (a palette of 16 colours or fewer) is left to it.
func (e *pngBands) encode(img *image.Paletted) ([]byte, error) {
	if len(img.Palette) <= 16 || len(img.Palette) > 256 {
		e.valid = false
		var buf bytes.Buffer
		err := (&png.Encoder{CompressionLevel: png.BestSpeed}).Encode(&buf, img)
		return buf.Bytes(), err
	}
	w, h := img.Rect.Dx(), img.Rect.Dy()
	fresh := !e.valid
	if e.w != w || e.h != h {
		e.reset(w, h)
		fresh = true
	}
	e.valid = false // until the frame is encoded whole
	e.kept = len(e.tiles)
	size := 0
	var hint []bool
	if e.overNext && !fresh && len(e.hint) == len(e.tiles) {
		hint = e.hint
	}
	for b := range e.bands {
		y0, y1 := b*bandRows, min(h, (b+1)*bandRows)
		var changed bool
		if hint != nil {
			changed = e.diffHinted(img, y0, y1, hint[b*e.perRow:(b+1)*e.perRow])
		} else {
			changed = e.diff(img, y0, y1, fresh)
		}
		if changed {
			for t, ch := range e.changed {
				if ch {
					e.kept--
					x0, x1 := t*tileWidth, min(w, (t+1)*tileWidth)
					e.parse(&e.tiles[b*e.perRow+t], img, y0, y1, x0, x1, e.first[t])
					for y := y0; y < y1; y++ {
						copy(e.prev[y*w+x0:y*w+x1], img.Pix[y*img.Stride+x0:])
					}
				}
			}
			e.writeBand(b, y0, y1)
		}
		size += len(e.bands[b].data)
	}
	e.valid = true
	e.sig, e.sigNext = e.sigNext, e.sig
	e.sigBoard, e.sigNextBoard = e.sigNextBoard, nil
	e.terr = e.terrNext
	e.cards, e.seats, e.drew = e.cardsNext, e.seatsNext, e.drewNext
	e.over, e.overNext = e.overNext, false
	e.seq++
	return e.png(img, size), nil
}

func (e *pngBands) reset(w, h int) {
	e.w, e.h = w, h
	e.prev = make([]uint8, w*h)
	e.perRow = (w + tileWidth - 1) / tileWidth
	nb := (h + bandRows - 1) / bandRows
	e.tiles = make([]tileCode, nb*e.perRow)
	e.bands = make([]bandCode, nb)
	e.changed = make([]bool, e.perRow)
	e.first = make([]int, e.perRow)
	e.sym = newSymbols()
}

// diff sets e.changed to the tiles of rows y0 to y1 whose pixels in img
// differ from the frame before (all of them when fresh), and reports
// whether any does.
func (e *pngBands) diff(img *image.Paletted, y0, y1 int, fresh bool) bool {
	for t := range e.changed {
		e.changed[t], e.first[t] = fresh, 0
	}
	if fresh {
		return true
	}
	any := false
	for y := y0; y < y1; y++ {
		row, prev := img.Pix[y*img.Stride:y*img.Stride+e.w], e.prev[y*e.w:(y+1)*e.w]
		if bytes.Equal(row, prev) {
			continue
		}
		for t := range e.changed {
			x0, x1 := t*tileWidth, min(e.w, (t+1)*tileWidth)
			if !e.changed[t] && !bytes.Equal(row[x0:x1], prev[x0:x1]) {
				e.changed[t], e.first[t], any = true, y-y0, true
			}
		}
	}
	return any
}

// diffHinted is diff for a frame drawn over the one before, which left
// alone the tiles of rows y0 to y1 not marked in hint.
func (e *pngBands) diffHinted(img *image.Paletted, y0, y1 int, hint []bool) bool {
	any := false
	for t := range e.changed {
		e.changed[t] = false
		if !hint[t] {
			continue
		}
		x0, x1 := t*tileWidth, min(e.w, (t+1)*tileWidth)
		for y := y0; y < y1; y++ {
			if !bytes.Equal(img.Pix[y*img.Stride+x0:y*img.Stride+x1], e.prev[y*e.w+x0:y*e.w+x1]) {
				e.changed[t], e.first[t], any = true, y-y0, true
				break
			}
		}
	}
	return any
}

// parse finds the tokens of the tile of img in rows y0 to y1 and columns
// x0 to x1, greedily: at each byte the longest of three candidates, the
// byte before (a run), the byte above, and the last place in the tile
// that began with the same four bytes. The first tile of a row begins
// each row with its filter byte.
//
// The tile's bytes are copied into a fixed array (tileBuf) and read at
// indices masked to its size, which the compiler then needs not check:
// the checks were a third of the search's instructions.
func (e *pngBands) parse(tc *tileCode, img *image.Paletted, y0, y1, x0, x1, from int) {
	e.gen++
	if e.gen == 1<<16 {
		clear(e.table[:])
		e.gen = 1
	}
	gen := e.gen << 16
	tw := x1 - x0
	stride := e.w + 1 // of the raw rows, filter bytes included
	skip := stride - tw
	buf := &e.buf
	n := 0
	var sum, placed uint64
	for y := y0; y < y1; y++ {
		seg := img.Pix[y*img.Stride+x0 : y*img.Stride+x1]
		n += copy(buf[n:], seg)
		s, p := byteSums(seg)
		sum += s
		placed += uint64((y-y0)*stride+1+x0)*s + p
	}
	tc.sum, tc.placed = sum%adlerMod, placed%adlerMod
	clear(buf[n : n+8]) // what 8-byte loads read past the end
	lit, dst := &tc.lit, &tc.dist
	clear(lit[:])
	clear(dst[:])
	table := &e.table
	// The rows before from are the same as when the tile was searched
	// last: their tokens are kept, counted again, and their places put in
	// the table, as the search would have.
	keep := 0
	if from > 0 {
		keep = int(tc.rows[from-1])
	}
	tc.from = from
	toks := slices.Grow(tc.toks[:keep], n+y1-y0)
	start := 0
	for r := range from {
		row := toks[start:tc.rows[r]]
		start = int(tc.rows[r])
		if x0 == 0 { // the row's filter byte
			lit[0]++
			row = row[1:]
		}
		for i, t := r*tw, 0; t < len(row); t++ {
			k := buf.load32(i) * 2654435761 >> (32 - hashBits)
			table[k] = gen | uint32(r)<<12 | uint32(i)
			if tok := row[t]; tok&matchBit == 0 {
				lit[tok]++
				i++
			} else {
				lit[257+tok>>26&31]++
				dst[tok>>21&31]++
				i += e.sym.length(tok)
			}
		}
	}
	for r := from; r < y1-y0; r++ {
		if x0 == 0 {
			toks = append(toks, literal(0))
			lit[0]++
		}
		rowStart, rowEnd := r*tw, (r+1)*tw
		for i := rowStart; i < rowEnd; {
			cur := buf.load32(i)
			best, dist := 0, 0
			if i > rowStart && (buf.load32(i-1)^cur)&0xffffff == 0 {
				best, dist = buf.matchLen(i-1, i, rowEnd-i), 1
			}
			if best < goodMatch {
				if r > 0 && (buf.load32(i-tw)^cur)&0xffffff == 0 {
					if l := buf.matchLen(i-tw, i, rowEnd-i); l > best {
						best, dist = l, stride
					}
				}
				k := cur * 2654435761 >> (32 - hashBits)
				c := table[k]
				table[k] = gen | uint32(r)<<12 | uint32(i)
				if c&^0xffff == gen && best < goodMatch {
					cr, ci := int(c>>12&15), int(c&0xfff)
					if buf.load32(ci) == cur {
						l := buf.matchLen(ci, i, min(rowEnd-i, (cr+1)*tw-ci))
						if d := (r-cr)*skip + i - ci; l > best && d <= maxDist {
							best, dist = l, d
						}
					}
				}
			}
			if best < 3 || (best == 3 && dist > 4096) {
				v := buf[i&tileMask]
				toks = append(toks, literal(v))
				lit[v]++
				i++
				continue
			}
			t := e.sym.match(best, dist)
			toks = append(toks, t)
			lit[257+t>>26&31]++
			dst[t>>21&31]++
			i += best
		}
		tc.rows[r] = int32(len(toks))
	}
	tc.toks = toks
}

// tileBuf holds a tile's bytes, row after row (at most tileMask+1 of
// them), and room for loads of eight bytes past the last.
type tileBuf [tileMask + 1 + 8]uint8

// tileMask masks an index into a tileBuf: a tile has at most
// tileWidth*bandRows bytes (and the hash table keeps 12 bits of an index).
const tileMask = 1<<12 - 1

// load32 returns the four bytes from i.
func (b *tileBuf) load32(i int) uint32 {
	i &= tileMask
	return binary.LittleEndian.Uint32(b[i : i+4])
}

// load64 returns the eight bytes from i.
func (b *tileBuf) load64(i int) uint64 {
	i &= tileMask
	return binary.LittleEndian.Uint64(b[i : i+8])
}

// matchLen returns how many bytes from src and dst are the same, at most
// limit (and maxMatch). src is before dst and may overlap it (a run): the
// bytes compared are the image's, which are what a decoder's copy makes.
func (b *tileBuf) matchLen(src, dst, limit int) int {
	n := min(limit, maxMatch)
	i := 0
	for i+8 <= n {
		if x := b.load64(src+i) ^ b.load64(dst+i); x != 0 {
			return i + bits.TrailingZeros64(x)>>3
		}
		i += 8
	}
	if i < n {
		// The last bytes, eight loaded, those past n masked out.
		x := (b.load64(src+i) ^ b.load64(dst+i)) | ^uint64(0)<<(8*(n-i))
		return i + bits.TrailingZeros64(x)>>3
	}
	return i
}

// byteSums returns the sum of b's bytes, and of each byte times its index,
// eight bytes at a time. Byte k of each word is summed in a 16-bit lane
// (its even bytes in one word of lanes, its odd in another: no lane
// carries for 256 words), and weighted by k only when the lanes are
// emptied; each word's sum, at once by a multiplication whose top lane
// collects it, is added to a running total, and the running totals are
// summed, which weighs each word by its place: the words' places times
// their sums are m times the total less the sum of the running totals.
func byteSums(b []uint8) (sum, placed uint64) {
	const (
		lanes = 0x00ff00ff00ff00ff
		ones  = 0x0001000100010001
	)
	var total, running uint64
	m := uint64(len(b) / 8)
	for len(b) >= 8 {
		var even, odd uint64
		for k := 0; k < 256 && len(b) >= 8; k++ {
			x := binary.LittleEndian.Uint64(b)
			b = b[8:]
			e, o := x&lanes, x>>8&lanes
			even += e
			odd += o
			total += (e + o) * ones >> 48
			running += total
		}
		for l := range uint64(4) {
			placed += 2*l*(even>>(16*l)&0xffff) + (2*l+1)*(odd>>(16*l)&0xffff)
		}
	}
	placed += 8 * (m*total - running)
	sum = total
	for i, v := range b {
		sum += uint64(v)
		placed += (8*m + uint64(i)) * uint64(v)
	}
	return sum, placed
}

// writeBand writes band b (rows y0 to y1) from its tiles' bits, those of
// the tiles in e.changed written again from their tokens; or all of them,
// with new codes, when those take fewer bits.
func (e *pngBands) writeBand(b, y0, y1 int) {
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
func (e *pngBands) newCodes(bc *bandCode) bool {
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

// adler returns the Adler-32 of the raw rows (filter bytes and pixels):
// with n bytes d[0] to d[n-1], a = 1 + the sum of the d[i] and b = n +
// the sum of (n-i) d[i], modulo 65521, which the tiles' sums give.
func (e *pngBands) adler() uint32 {
	stride := uint64(e.w + 1)
	var sum, placed uint64
	for k := range e.tiles {
		tc := &e.tiles[k]
		off := uint64(k/e.perRow) * bandRows * stride
		sum += tc.sum
		placed += tc.placed + off%adlerMod*tc.sum
		placed %= adlerMod
	}
	sum %= adlerMod
	n := uint64(e.h) * stride % adlerMod
	a := (1 + sum) % adlerMod
	b := (n + n*sum%adlerMod + adlerMod - placed) % adlerMod
	return uint32(b<<16 | a)
}

// png lays out the PNG: the header and palette as image/png writes them,
// one IDAT chunk of the bands (size bytes), and the end.
func (e *pngBands) png(img *image.Paletted, size int) []byte {
	hdr := e.pngHeader(img)
	// zlib: its header (as compress/zlib writes it at BestSpeed), the
	// bands, an empty last block, the Adler-32 of the raw rows. The parts
	// are joined by bytes.Join, which does not clear what it fills.
	idat := 2 + size + 2 + 4
	head := binary.BigEndian.AppendUint32(e.idatHead[:0], uint32(idat))
	head = append(head, "IDAT\x78\x01"...)
	e.idatHead = head
	parts := append(e.parts[:0], hdr, head)
	crc := crc32.ChecksumIEEE(head[4:])
	for i := range e.bands {
		parts = append(parts, e.bands[i].data)
		crc = crc32.Update(crc, crc32.IEEETable, e.bands[i].data)
	}
	var tail [24]byte
	tail[0], tail[1] = 0x03, 0x00 // the last block: fixed codes, empty
	binary.BigEndian.PutUint32(tail[2:], e.adler())
	crc = crc32.Update(crc, crc32.IEEETable, tail[:6])
	binary.BigEndian.PutUint32(tail[6:], crc)
	copy(tail[10:], "\x00\x00\x00\x00IEND\xae\x42\x60\x82")
	parts = append(parts, tail[:22])
	e.parts = parts
	return bytes.Join(parts, nil)
}

// pngHeader returns the signature and the IHDR, PLTE and tRNS chunks of
// img, as image/png writes them for an 8-bit paletted image.
func (e *pngBands) pngHeader(img *image.Paletted) []byte {
	out := append(e.header[:0], "\x89PNG\r\n\x1a\n"...)
	chunk := func(name string, data []byte) {
		out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
		start := len(out)
		out = append(out, name...)
		out = append(out, data...)
		out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
	}
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(img.Rect.Dx()))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(img.Rect.Dy()))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits, paletted
	chunk("IHDR", ihdr[:])
	var plte, trns [3 * 256]byte
	last := -1
	for i, c := range img.Palette {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		plte[3*i], plte[3*i+1], plte[3*i+2] = n.R, n.G, n.B
		trns[i] = n.A
		if n.A != 0xff {
			last = i
		}
	}
	chunk("PLTE", plte[:3*len(img.Palette)])
	if last >= 0 {
		chunk("tRNS", trns[:last+1])
	}
	e.header = out
	return out
}
