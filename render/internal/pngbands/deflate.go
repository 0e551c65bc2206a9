package pngbands

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// A deflate writer of our own (RFC 1951), for the bands of Encoder: it
// writes blocks from tokens found elsewhere (tile by tile), so that tokens
// kept from the previous frame are written again without being searched
// again. Only what a band needs: one block with dynamic Huffman codes,
// then an empty stored block that ends it on a byte boundary (a "sync
// flush"), so that bands can be laid one after the other as they are.

// token is a literal byte (below 256) or, with matchBit set, a match,
// its symbols worked out: its length's code (0 to 28, less 257) in bits 26
// to 30 and its distance's (0 to 29) in bits 21 to 25, the value of the
// length's extra bits in bits 13 to 17 and of the distance's in bits 0 to
// 12.
type token uint32

const matchBit token = 1 << 31

func literal(b uint8) token { return token(b) }

func match(length, dist int) token {
	lc, _, le := lengthCode(uint32(length - 3))
	dc, _, de := distCode(uint32(dist - 1))
	return matchBit | token(lc)<<26 | token(dc)<<21 | token(le)<<13 | token(de)
}

// symbols make tokens by table, without branches (and small enough to be
// inlined): lengths[l] is the token of a match of length l+3 with its
// distance left out; distances[d] is the code of distance d+1 to 258, and
// distances[256+d>>7] above (the codes of distances from 257 on change
// every 128 at most, as zlib's table has them), with its number of extra
// bits from bit 8.
type symbols struct {
	lengths   [256]token
	distances [512]uint16
	lengthOf  [32]uint16 // the least length of each length code
}

func newSymbols() *symbols {
	var s symbols
	for l := range s.lengths {
		c, _, x := lengthCode(uint32(l))
		s.lengths[l] = matchBit | token(c)<<26 | token(x)<<13
	}
	for d := range 256 {
		c, n, _ := distCode(uint32(d))
		s.distances[d] = uint16(c | n<<8)
	}
	for d := 256; d < maxDist; d += 128 {
		c, n, _ := distCode(uint32(d))
		s.distances[256+d>>7] = uint16(c | n<<8)
	}
	// min(d, 256+d>>7) is d to 257: the codes of 256 and 257.
	s.distances[256], s.distances[257] = s.distances[258], s.distances[258]
	for l := 255; l >= 0; l-- {
		s.lengthOf[s.lengths[l]>>26&31] = uint16(l + 3)
	}
	return &s
}

// length is the length of match token t.
func (s *symbols) length(t token) int {
	return int(s.lengthOf[t>>26&31]) + int(t>>13&31)
}

// match is the token of a match of length (3 to 258) at dist (1 to
// 32768): the same as the function match.
func (s *symbols) match(length, dist int) token {
	d := uint32(dist - 1)
	dc := uint32(s.distances[min(d, 256+d>>7)&511])
	return s.lengths[uint8(length-3)] | token(dc&0xff)<<21 | token(d&(1<<(dc>>8)-1))
}

// The number of extra bits of each length code and distance code.
const (
	lengthExtra = "\x00\x00\x00\x00\x00\x00\x00\x00\x01\x01\x01\x01\x02\x02\x02\x02\x03\x03\x03\x03\x04\x04\x04\x04\x05\x05\x05\x05\x00"
	distExtra   = "\x00\x00\x00\x00\x01\x01\x02\x02\x03\x03\x04\x04\x05\x05\x06\x06\x07\x07\x08\x08\x09\x09\x0a\x0a\x0b\x0b\x0c\x0c\x0d\x0d"
)

// The alphabets: literals, end of block and lengths (286 symbols);
// distances (30); code lengths (19).
const (
	numLit     = 286
	numDist    = 30
	numCL      = 19
	endOfBlock = 256
	maxBits    = 15 // longest literal or distance code
	maxCLBits  = 7  // longest code length code
	maxMatch   = 258
	maxDist    = 32768
)

// lengthCode returns the symbol of length l+3 (l from 0 to 255, less 257)
// and its extra bits: their number and value.
func lengthCode(l uint32) (code, n, extra uint32) {
	switch {
	case l < 8:
		return l, 0, 0
	case l == 255:
		return 28, 0, 0
	}
	n = uint32(bits.Len32(l)) - 3
	return 4*n + 4 + (l>>n)&3, n, l & (1<<n - 1)
}

// distCode returns the symbol of distance d+1 (d from 0 to 32767) and its
// extra bits: their number and value.
func distCode(d uint32) (code, n, extra uint32) {
	if d < 4 {
		return d, 0, 0
	}
	n = uint32(bits.Len32(d)) - 2
	return 2*n + 2 + (d>>n)&1, n, d & (1<<n - 1)
}

// clOrder is the order in which a block's header gives the code lengths
// of the code length alphabet.
const clOrder = "\x10\x11\x12\x00\x08\x07\x09\x06\x0a\x05\x0b\x04\x0c\x03\x0d\x02\x0e\x01\x0f"

// huffman is a code: each symbol's length and its bits, reversed (deflate
// writes a code's first bit first, into the low bits of the stream).
type huffman struct {
	lens  []uint8
	codes []uint16
}

// huffScratch is what building codes needs, kept to build the next.
type huffScratch struct {
	keys  []uint64 // frequency << 16 | symbol, sorted
	depth []int32
}

// build makes the code of least total length for freq with codes of at
// most limit bits, every symbol of nonzero frequency coded, and every
// other symbol too when every is set (the longest codes: so that the code
// can code tokens to come). The code is complete (Kraft's sum is exactly
// 1): when fewer than two symbols occur, the first unused ones are given a
// code too.
func (h *huffman) build(freq []uint32, limit int, sc *huffScratch, every bool) {
	n := len(freq)
	if cap(h.lens) < n {
		h.lens, h.codes = make([]uint8, n), make([]uint16, n)
	}
	h.lens, h.codes = h.lens[:n], h.codes[:n]
	clear(h.lens)
	keys := sc.keys[:0]
	for s, f := range freq {
		if f != 0 || every {
			keys = append(keys, uint64(f)<<16|uint64(s))
		}
	}
	for s := 0; len(keys) < 2; s++ {
		if freq[s] == 0 {
			keys = append(keys, uint64(s)) // frequency 0, sorts first
		}
	}
	slices.Sort(keys)
	sc.keys = keys
	m := len(keys)
	depth := slices.Grow(sc.depth[:0], m)[:m]
	for i, k := range keys {
		depth[i] = int32(k >> 16)
	}
	minRedundancy(depth)
	sc.depth = depth

	// depth[i] is the length of keys[i]'s symbol, longest first. Bring the
	// longest within limit (as JPEG's Annex K.3 does, without its
	// reserved code): each step moves two codes of the longest length up
	// one and splits a shorter one, which keeps the code complete.
	var count [64]int32
	longest := 0
	for _, d := range depth {
		count[d]++
		longest = max(longest, int(d))
	}
	if longest > limit {
		for i := longest; i > limit; i-- {
			for count[i] > 0 {
				j := i - 2
				for count[j] == 0 {
					j--
				}
				count[i] -= 2
				count[i-1]++
				count[j+1] += 2
				count[j]--
			}
		}
		// The least frequent symbols take the longest codes.
		k := 0
		for l := limit; l > 0; l-- {
			for range count[l] {
				depth[k] = int32(l)
				k++
			}
		}
	}
	for i, k := range keys {
		h.lens[k&0xffff] = uint8(depth[i])
	}

	// Canonical codes, by length then symbol.
	var next [maxBits + 2]uint32
	var lc [maxBits + 2]uint32
	for _, l := range h.lens {
		lc[l]++
	}
	lc[0] = 0
	code := uint32(0)
	for l := 1; l <= maxBits+1; l++ {
		code = (code + lc[l-1]) << 1
		next[l] = code
	}
	for s, l := range h.lens {
		if l == 0 {
			h.codes[s] = 0
			continue
		}
		h.codes[s] = uint16(bits.Reverse32(next[l]) >> (32 - l))
		next[l]++
	}
}

// minRedundancy turns a's frequencies, in increasing order, into the
// lengths of a code of least total length, longest first (Moffat and
// Katajainen's in-place method, 1995). len(a) is at least 2.
func minRedundancy(a []int32) {
	n := len(a)
	// Pair the two smallest, leaves or internal nodes, setting parents.
	a[0] += a[1]
	root, leaf := 0, 2
	for next := 1; next < n-1; next++ {
		if leaf >= n || a[root] < a[leaf] {
			a[next] = a[root]
			a[root] = int32(next)
			root++
		} else {
			a[next] = a[leaf]
			leaf++
		}
		if leaf >= n || (root < next && a[root] < a[leaf]) {
			a[next] += a[root]
			a[root] = int32(next)
			root++
		} else {
			a[next] += a[leaf]
			leaf++
		}
	}
	// Internal nodes' depths, from the root.
	a[n-2] = 0
	for next := n - 3; next >= 0; next-- {
		a[next] = a[a[next]] + 1
	}
	// Leaves' depths.
	avail, used, depth := 1, 0, int32(0)
	root, next := n-2, n-1
	for avail > 0 {
		for root >= 0 && a[root] == depth {
			used++
			root--
		}
		for avail > used {
			a[next] = depth
			next--
			avail--
		}
		avail, depth, used = 2*used, depth+1, 0
	}
}

// bitWriter appends bits to a byte slice, first bit lowest.
type bitWriter struct {
	out []byte
	acc uint64
	n   uint
}

// bits writes the low n bits of v (n at most 32).
func (w *bitWriter) bits(v uint32, n uint) {
	w.acc |= uint64(v) << w.n
	w.n += n
	if w.n >= 32 {
		w.out = append(w.out, byte(w.acc), byte(w.acc>>8), byte(w.acc>>16), byte(w.acc>>24))
		w.acc >>= 32
		w.n -= 32
	}
}

// align writes the bits left, padded with zeros to a byte.
func (w *bitWriter) align() {
	for w.n > 0 {
		w.out = append(w.out, byte(w.acc))
		w.acc >>= 8
		w.n -= min(w.n, 8)
	}
	w.acc = 0
}

// bitLen returns how many bits were written.
func (w *bitWriter) bitLen() int { return 8*len(w.out) + int(w.n) }

// bitString writes the first n bits of b, a string of bits written by
// another bitWriter: eight bytes at a time, the bits left in the
// accumulator (fewer than 32) carried over from one word to the next.
func (w *bitWriter) bitString(b []byte, n int) {
	out := slices.Grow(w.out, n/8+8)
	acc, k := w.acc, w.n
	for n >= 64 {
		v := binary.LittleEndian.Uint64(b)
		out = binary.LittleEndian.AppendUint64(out, acc|v<<k)
		acc = v >> (64 - k) // 0 when k is 0
		b, n = b[8:], n-64
	}
	w.out, w.acc = out, acc
	if n >= 32 {
		w.bits(binary.LittleEndian.Uint32(b), 32)
		b, n = b[4:], n-32
	}
	var v uint32
	for i := 0; 8*i < n; i++ {
		v |= uint32(b[i]) << (8 * i)
	}
	w.bits(v&(1<<n-1), uint(n))
}

// blockWriter builds the codes of blocks and writes their headers: the
// scratch is kept from one to the next.
type blockWriter struct {
	cl     huffman
	sc     huffScratch
	clFreq [numCL]uint32
	rle    []uint16 // code length symbols: symbol | extra << 5
	lens   []uint8
}

// codes builds the codes for a block's frequencies.
func (bw *blockWriter) codes(lit, dist *huffman, litFreq *[numLit]uint32, distFreq *[numDist]uint32) {
	lit.build(litFreq[:], maxBits, &bw.sc, true)
	dist.build(distFreq[:], maxBits, &bw.sc, true)
}

// cost returns the bits that the symbols of freq take with code h (their
// extra bits left out), and false when h has no code for one of them.
func (h *huffman) cost(freq []uint32) (int, bool) {
	bits := 0
	for s, f := range freq {
		if f != 0 {
			if h.lens[s] == 0 {
				return 0, false
			}
			bits += int(f) * int(h.lens[s])
		}
	}
	return bits, true
}

// header writes a dynamic block's header (not the last block) for codes
// lit and dist.
func (bw *blockWriter) header(w *bitWriter, lit, dist *huffman) {
	nlit := numLit
	for nlit > 257 && lit.lens[nlit-1] == 0 {
		nlit--
	}
	ndist := numDist
	for ndist > 1 && dist.lens[ndist-1] == 0 {
		ndist--
	}
	// The code lengths of both codes, as one sequence, run-length coded.
	lens := append(append(bw.lens[:0], lit.lens[:nlit]...), dist.lens[:ndist]...)
	bw.lens = lens
	rle := bw.rle[:0]
	clear(bw.clFreq[:])
	for i := 0; i < len(lens); {
		l := lens[i]
		j := i + 1
		for j < len(lens) && lens[j] == l {
			j++
		}
		run := j - i
		i = j
		if l == 0 {
			for run >= 11 {
				k := min(run, 138)
				rle = append(rle, 18|uint16(k-11)<<5)
				bw.clFreq[18]++
				run -= k
			}
			if run >= 3 {
				rle = append(rle, 17|uint16(run-3)<<5)
				bw.clFreq[17]++
				run = 0
			}
		} else {
			rle = append(rle, uint16(l))
			bw.clFreq[l]++
			run--
			for run >= 3 {
				k := min(run, 6)
				rle = append(rle, 16|uint16(k-3)<<5)
				bw.clFreq[16]++
				run -= k
			}
		}
		for range run {
			rle = append(rle, uint16(l))
			bw.clFreq[l]++
		}
	}
	bw.rle = rle
	bw.cl.build(bw.clFreq[:], maxCLBits, &bw.sc, false)
	ncl := numCL
	for ncl > 4 && bw.cl.lens[clOrder[ncl-1]] == 0 {
		ncl--
	}

	w.bits(2<<1, 3) // not the last block; dynamic codes
	w.bits(uint32(nlit-257)|uint32(ndist-1)<<5|uint32(ncl-4)<<10, 14)
	for i := range ncl {
		w.bits(uint32(bw.cl.lens[clOrder[i]]), 3)
	}
	for _, r := range rle {
		s := r & 31
		w.bits(uint32(bw.cl.codes[s]), uint(bw.cl.lens[s]))
		switch s {
		case 16:
			w.bits(uint32(r>>5), 2)
		case 17:
			w.bits(uint32(r>>5), 3)
		case 18:
			w.bits(uint32(r>>5), 7)
		}
	}
}

// tokenCodes are a block's codes as writeTokens reads them, in arrays it
// indexes without checks: for each literal and length symbol (lit) and
// distance symbol (dist), its code's bits, their number from bit 16, and
// the number of extra bits that follow from bit 24.
type tokenCodes struct {
	lit  [512]uint32
	dist [32]uint32
}

// set makes tc the codes lit and dist.
func (tc *tokenCodes) set(lit, dist *huffman) {
	for s := range numLit {
		tc.lit[s] = uint32(lit.codes[s]) | uint32(lit.lens[s])<<16
		if s > endOfBlock {
			tc.lit[s] |= uint32(lengthExtra[s-endOfBlock-1]) << 24
		}
	}
	for s := range numDist {
		tc.dist[s] = uint32(dist.codes[s]) | uint32(dist.lens[s])<<16 | uint32(distExtra[s])<<24
	}
}

// writeTokens writes toks with codes c.
func writeTokens(w *bitWriter, toks []token, c *tokenCodes) {
	// The writer's state in locals: a literal is a load and a shift.
	// Fewer than 32 bits are pending between tokens: shifts by n&63 are
	// shifts by n, which the compiler need not guard.
	acc, n := w.acc, w.n
	out := slices.Grow(w.out, 6*len(toks)+8) // at most 48 bits a token
	for _, t := range toks {
		if t&matchBit == 0 {
			e := c.lit[t&0xff]
			acc |= uint64(e&0xffff) << (n & 63)
			n += uint(e >> 16)
		} else {
			l := c.lit[(257+t>>26&31)&511]
			ln := uint(l >> 16 & 31)
			acc |= uint64(l&0xffff|uint32(t>>13&31)<<ln) << (n & 63)
			n += ln + uint(l>>24)
			if n >= 32 {
				out = binary.LittleEndian.AppendUint32(out, uint32(acc))
				acc >>= 32
				n -= 32
			}
			d := c.dist[t>>21&31]
			dn := uint(d >> 16 & 31)
			acc |= uint64(d&0xffff|uint32(t&0x1fff)<<dn) << (n & 63)
			n += dn + uint(d>>24)
		}
		if n >= 32 {
			out = binary.LittleEndian.AppendUint32(out, uint32(acc))
			acc >>= 32
			n -= 32
		}
	}
	w.acc, w.n, w.out = acc, n, out
}

// endBlock writes the end of a block of code lit and an empty stored
// block, which ends the band on a byte boundary.
func endBlock(w *bitWriter, lit *huffman) {
	w.bits(uint32(lit.codes[endOfBlock]), uint(lit.lens[endOfBlock]))
	w.bits(0, 3) // not the last block; stored
	w.align()
	w.out = append(w.out, 0, 0, 0xff, 0xff)
}
