package pngbands

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestTileSize checks what the tiles are cut for: a tile fits its search's
// buffer and the 12 bits the hash table keeps of an index.
func TestTileSize(t *testing.T) {
	if n := TileWidth * BandRows; n > tileMask+1 {
		t.Errorf("a tile has %d bytes, more than the %d of its buffer", n, tileMask+1)
	}
}

// TestHuffmanLimits builds codes for frequencies that would make codes
// longer than deflate allows (a Fibonacci series), and others, and
// requires every code within its limit, complete, and every symbol that
// occurs coded.
func TestHuffmanLimits(t *testing.T) {
	fib := make([]uint32, numLit)
	fib[0], fib[1] = 1, 1
	for i := 2; i < 40; i++ {
		fib[i] = fib[i-1] + fib[i-2]
	}
	one := make([]uint32, numDist)
	one[5] = 9
	rng := rand.New(rand.NewPCG(4, 8))
	random := make([]uint32, numLit)
	for i := range random {
		random[i] = uint32(rng.IntN(3)) * uint32(rng.IntN(5000))
	}
	for _, c := range []struct {
		name  string
		freq  []uint32
		limit int
	}{
		{"fibonacci", fib, maxBits},
		{"fibonacci, code lengths", fib[:numCL], maxCLBits},
		{"one distance", one, maxBits},
		{"none", make([]uint32, numDist), maxBits},
		{"random", random, maxBits},
	} {
		t.Run(c.name, func(t *testing.T) {
			var h huffman
			h.build(c.freq, c.limit, &huffScratch{}, false)
			kraft, coded := 0.0, 0
			for s, l := range h.lens {
				if int(l) > c.limit {
					t.Errorf("symbol %d has %d bits, want at most %d", s, l, c.limit)
				}
				if c.freq[s] != 0 && l == 0 {
					t.Errorf("symbol %d occurs %d times and has no code", s, c.freq[s])
				}
				if l > 0 {
					kraft += 1 / float64(uint(1)<<l)
					coded++
				}
			}
			if kraft != 1 || coded < 2 {
				t.Errorf("Kraft's sum %v over %d codes, want 1 over at least 2", kraft, coded)
			}
		})
	}
}

// TestByteSums checks the sums of byteSums, eight bytes at a time, against
// a byte at a time, on every length to 40, lengths around the 256 words
// its lanes hold, and bytes up to 255.
func TestByteSums(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	lengths := []int{2047, 2048, 2049, 2055, 2056, 4096, 6403}
	for n := range 41 {
		lengths = append(lengths, n)
	}
	for _, n := range lengths {
		for round := range 20 {
			b := make([]uint8, n)
			for i := range b {
				b[i] = uint8(rng.IntN(256))
				if round == 0 {
					b[i] = 255
				}
			}
			var sum, placed uint64
			for i, v := range b {
				sum += uint64(v)
				placed += uint64(i) * uint64(v)
			}
			if s, p := byteSums(b); s != sum || p != placed {
				t.Fatalf("byteSums(%v) = %d, %d, want %d, %d", b, s, p, sum, placed)
			}
		}
	}
}

// TestBitString writes strings of bits of every length to 200 after
// every number of bits to 40 already written, and requires what bits
// writes a bit at a time.
func TestBitString(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	src := make([]byte, 40)
	for i := range src {
		src[i] = uint8(rng.IntN(256))
	}
	bit := func(b []byte, i int) uint32 { return uint32(b[i/8]>>(i%8)) & 1 }
	for before := range 41 {
		for n := range 201 {
			var got, want bitWriter
			for i := range before {
				v := bit(src[5:], i)
				got.bits(v, 1)
				want.bits(v, 1)
			}
			got.bitString(src, n)
			for i := range n {
				want.bits(bit(src, i), 1)
			}
			if got.bitLen() != want.bitLen() {
				t.Fatalf("after %d bits, %d more: %d bits written, want %d", before, n, got.bitLen(), want.bitLen())
			}
			got.align()
			want.align()
			if !bytes.Equal(got.out, want.out) {
				t.Fatalf("after %d bits, %d more: wrote %x, want %x", before, n, got.out, want.out)
			}
		}
	}
}

// TestSymbols requires the tokens that the tables make to be those that
// match works out, and to give back their length, for every length and
// distance.
func TestSymbols(t *testing.T) {
	s := newSymbols()
	for length := 3; length <= maxMatch; length++ {
		for dist := 1; dist <= maxDist; dist++ {
			if got, want := s.match(length, dist), match(length, dist); got != want {
				t.Fatalf("length %d, distance %d: token %#x, want %#x", length, dist, got, want)
			}
			if got := s.length(s.match(length, dist)); got != length {
				t.Fatalf("length %d, distance %d: the token's length is %d", length, dist, got)
			}
		}
	}
}

// TestLayRows lays the rows of tiles of random bits, of every length to
// 200, after every number of bits to 31 already written, and requires what
// bitString writes a row of a tile at a time.
func TestLayRows(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 8))
	tiles := make([]tileCode, 3)
	for before := range 32 {
		for round := range 20 {
			for i := range tiles {
				var w bitWriter
				tc := &tiles[i]
				for r := range 4 {
					tc.at[r] = int32(len(w.out))
					n := rng.IntN(201)
					if round == 0 {
						n = 64 * r // whole words, and none
					}
					for range n {
						w.bits(uint32(rng.IntN(2)), 1)
					}
					tc.nbits[r] = int32(w.bitLen()) - 8*tc.at[r]
					w.align()
				}
				tc.bits = append(w.out, make([]byte, 8)...)
			}
			var got, want bitWriter
			for range before {
				got.bits(1, 1)
				want.bits(1, 1)
			}
			got.layRows(tiles, 4)
			for r := range 4 {
				for i := range tiles {
					want.bitString(tiles[i].bits[tiles[i].at[r]:], int(tiles[i].nbits[r]))
				}
			}
			if got.bitLen() != want.bitLen() {
				t.Fatalf("after %d bits: %d bits laid, want %d", before, got.bitLen(), want.bitLen())
			}
			got.align()
			want.align()
			if !bytes.Equal(got.out, want.out) {
				t.Fatalf("after %d bits, round %d: laid %x, want %x", before, round, got.out, want.out)
			}
		}
	}
}
