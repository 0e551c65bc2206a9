// Package pngbands encodes paletted images as PNGs, one frame after
// another, each costing much less when the frame before was much the same,
// as the moments of a match are (issue 48): one PNG, decoding to the same
// pixels as image/png's.
//
// A PNG's image data is one zlib stream of its rows, each after a filter
// byte (0: none, as image/png writes paletted rows). Encoder cuts the
// rows into bands of BandRows rows, each one deflate block with its own
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
// Within a band the rows are cut into tiles TileWidth pixels wide, and
// each tile is searched for matches on its own: a match copies bytes of
// the same tile only (to its left in the row, or in a row above within
// the band), so that a tile's tokens depend on its pixels only. A band
// whose pixels changed somewhere is written again, and only its changed
// tiles are searched again: between two turns of a match the badges,
// arrows, territories and panel cards that changed touch about a quarter
// of the tiles and three bands in five (classic board; capitals: an
// eighth of the tiles, two bands in five).
package pngbands

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
)

// The tiles: BandRows rows of TileWidth pixels (the last of a row or a
// band may be smaller).
const (
	BandRows  = 16
	TileWidth = 200
)

const (
	hashBits  = 12
	goodMatch = 32 // long enough not to look for a longer one
)

// Encoder encodes the frames of one board, one at a time, keeping what it
// needs to encode the next frame's unchanged parts again for free. Its
// zero value encodes its first frame from scratch.
type Encoder struct {
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
}

// Valid reports whether the encoder holds the frame it encoded last (not
// when that frame was left to image/png, or was never encoded whole).
func (e *Encoder) Valid() bool { return e.valid }

// Forget makes the encoder encode its next frame from scratch.
func (e *Encoder) Forget() { e.valid = false }

// Prev returns the palette indices of the frame last encoded, row after
// row: the encoder's own, to be read only, and only while Valid.
func (e *Encoder) Prev() []uint8 { return e.prev }

// Tiles returns the bands of the frame last encoded and the tiles across
// each: a hint to Encode has bands*perRow entries.
func (e *Encoder) Tiles() (bands, perRow int) { return len(e.bands), e.perRow }

// Kept returns how many tiles of the frame last encoded were kept from the
// frame before, of how many.
func (e *Encoder) Kept() (kept, tiles int) { return e.kept, len(e.tiles) }

// tileCode is a tile's tokens, row after row (rows[i] is where row i
// ends), the frequencies of their symbols, and two sums of its bytes for
// the Adler-32 (modulo adlerMod): of the bytes, and of each byte times its
// place in its band's raw rows. bits are its rows written with its band's
// codes, each from a byte boundary: row i's nbits[i] bits from byte
// at[i].
type tileCode struct {
	toks   []token
	from   int // the first row searched last, the rows before kept
	rows   [BandRows]int32
	lit    [numLit]uint16
	dist   [numDist]uint16
	sum    uint64
	placed uint64
	bits   []byte
	at     [BandRows]int32
	nbits  [BandRows]int32
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

// Encode returns img as a PNG. An image that image/png would write with
// fewer bits per pixel (a palette of 16 colours or fewer) is left to it,
// and the encoder then holds no frame (Valid).
//
// hint, when not nil and the encoder holds a frame of img's size with
// hint's number of tiles (Tiles), marks the tiles, band after band, that
// may differ from that frame: the others are taken as they were, and not
// compared.
func (e *Encoder) Encode(img *image.Paletted, hint []bool) ([]byte, error) {
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
	if fresh || len(hint) != len(e.tiles) {
		hint = nil
	}
	for b := range e.bands {
		y0, y1 := b*BandRows, min(h, (b+1)*BandRows)
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
					x0, x1 := t*TileWidth, min(w, (t+1)*TileWidth)
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
	return e.png(img, size), nil
}

func (e *Encoder) reset(w, h int) {
	e.w, e.h = w, h
	e.prev = make([]uint8, w*h)
	e.perRow = (w + TileWidth - 1) / TileWidth
	nb := (h + BandRows - 1) / BandRows
	e.tiles = make([]tileCode, nb*e.perRow)
	e.bands = make([]bandCode, nb)
	e.changed = make([]bool, e.perRow)
	e.first = make([]int, e.perRow)
	e.sym = newSymbols()
}

// diff sets e.changed to the tiles of rows y0 to y1 whose pixels in img
// differ from the frame before (all of them when fresh), and reports
// whether any does.
func (e *Encoder) diff(img *image.Paletted, y0, y1 int, fresh bool) bool {
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
			x0, x1 := t*TileWidth, min(e.w, (t+1)*TileWidth)
			if !e.changed[t] && !bytes.Equal(row[x0:x1], prev[x0:x1]) {
				e.changed[t], e.first[t], any = true, y-y0, true
			}
		}
	}
	return any
}

// diffHinted is diff for a frame drawn over the one before, which left
// alone the tiles of rows y0 to y1 not marked in hint.
func (e *Encoder) diffHinted(img *image.Paletted, y0, y1 int, hint []bool) bool {
	any := false
	for t := range e.changed {
		e.changed[t] = false
		if !hint[t] {
			continue
		}
		x0, x1 := t*TileWidth, min(e.w, (t+1)*TileWidth)
		for y := y0; y < y1; y++ {
			if !bytes.Equal(img.Pix[y*img.Stride+x0:y*img.Stride+x1], e.prev[y*e.w+x0:y*e.w+x1]) {
				e.changed[t], e.first[t], any = true, y-y0, true
				break
			}
		}
	}
	return any
}

// adler returns the Adler-32 of the raw rows (filter bytes and pixels):
// with n bytes d[0] to d[n-1], a = 1 + the sum of the d[i] and b = n +
// the sum of (n-i) d[i], modulo 65521, which the tiles' sums give.
func (e *Encoder) adler() uint32 {
	stride := uint64(e.w + 1)
	var sum, placed uint64
	for k := range e.tiles {
		tc := &e.tiles[k]
		off := uint64(k/e.perRow) * BandRows * stride
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
func (e *Encoder) png(img *image.Paletted, size int) []byte {
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
func (e *Encoder) pngHeader(img *image.Paletted) []byte {
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
