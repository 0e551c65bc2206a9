package pngbands

import (
	"encoding/binary"
	"image"
	"math/bits"
	"slices"
)

// parse finds the tokens of the tile of img in rows y0 to y1 and columns
// x0 to x1, greedily: at each byte the longest of three candidates, the
// byte before (a run), the byte above, and the last place in the tile
// that began with the same four bytes. The first tile of a row begins
// each row with its filter byte.
//
// The tile's bytes are copied into a fixed array (tileBuf) and read at
// indices masked to its size, which the compiler then needs not check:
// the checks were a third of the search's instructions.
func (e *Encoder) parse(tc *tileCode, img *image.Paletted, y0, y1, x0, x1, from int) {
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
// TileWidth*BandRows bytes (and the hash table keeps 12 bits of an index).
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
