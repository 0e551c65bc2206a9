package render

import (
	"hash/fnv"
	"image"
	"slices"
	"sync"

	"github.com/riskbot/riskbot/render/internal/pngbands"
	"github.com/riskbot/riskbot/state"
)

// A frame is encoded by the encoder of the previous frame of its match
// (pngbands), which lays its unchanged parts again as they are; lastFrame
// keeps, beside that encoder, what drew the frame, so that the next frame
// of the match is drawn over it (incremental.go, composeIndexed).

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

// frameCache keeps the last frames encoded, each for the next moment of
// its match. A frame is taken out while the next one is drawn over it and
// encoded, so that two renders never share one.
type frameCache struct {
	mu     sync.Mutex
	keys   []frameKey // least recently used first
	frames []*lastFrame
}

// take returns key's last frame, or, when there is none, one whose encoder
// encodes from scratch (the least recently used one when the cache is
// full: its buffers are reused, its frame is another match's).
func (c *frameCache) take(key frameKey) *lastFrame {
	c.mu.Lock()
	defer c.mu.Unlock()
	i := slices.Index(c.keys, key)
	if i < 0 && len(c.keys) < maxFrames {
		return &lastFrame{}
	}
	if i < 0 {
		i = 0
	}
	f := c.frames[i]
	c.keys = slices.Delete(c.keys, i, i+1)
	c.frames = slices.Delete(c.frames, i, i+1)
	return f
}

// forget makes the encoder of every frame kept encode its next frame
// from scratch.
func (c *frameCache) forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.frames {
		e.enc.Forget()
	}
}

// put keeps f as key's, the most recently used.
func (c *frameCache) put(key frameKey, f *lastFrame) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if i := slices.Index(c.keys, key); i >= 0 { // a render of the same match at once
		c.keys = slices.Delete(c.keys, i, i+1)
		c.frames = slices.Delete(c.frames, i, i+1)
	}
	if len(c.keys) >= maxFrames {
		c.keys, c.frames = slices.Delete(c.keys, 0, 1), slices.Delete(c.frames, 0, 1)
	}
	c.keys = append(c.keys, key)
	c.frames = append(c.frames, f)
}

// cardParts are what a card of the panel drew, for keepCardTop
// (panel.go): the key of all but its numbers, and the boxes of its
// numbers and of the rest (as drawn; none when not known).
type cardParts struct {
	top   uint64
	stats image.Rectangle
	rest  [6]image.Rectangle // at most six boxes, else none known
}

// lastFrame is the last frame encoded of a match: its encoder, and what
// drew it.
type lastFrame struct {
	enc pngbands.Encoder
	seq uint64 // the frames encoded
	// sig are the signatures of the tiles of the frame (incremental.go),
	// for the board sigBoard; sigNext, those of the frame composed to be
	// encoded next.
	sig, sigNext           []uint64
	sigBoard, sigNextBoard *board
	// terr are the land keys of the territories in the frame, terrNext in
	// the frame composed to be encoded next (incremental.go).
	terr, terrNext [256]uint64
	// over is set when the frame was drawn over the one before; overNext
	// for the frame composed (composeIndexed), which then marks in hint
	// the encoder's tiles it may have changed (band after band): the
	// others are the frame's, and the encoder need not compare them.
	over, overNext bool
	hint           []bool
	// cards are the keys of the panel's cards in the frame (0: not kept)
	// for seats players; cardsNext and seatsNext those of the frame
	// composed (keepCard).
	cards, cardsNext [state.MaxSeats]uint64
	seats, seatsNext int
	// drew, per card, let a card whose numbers alone changed draw only
	// them (keepCardTop); drewNext for the frame composed.
	drew, drewNext [state.MaxSeats]cardParts
}

// encode returns img, the frame composed, as a PNG, and keeps what drew
// it when the encoder keeps the frame.
func (f *lastFrame) encode(img *image.Paletted) ([]byte, error) {
	var hint []bool
	if f.overNext {
		hint = f.hint
	}
	data, err := f.enc.Encode(img, hint)
	if !f.enc.Valid() {
		return data, err
	}
	f.sig, f.sigNext = f.sigNext, f.sig
	f.sigBoard, f.sigNextBoard = f.sigNextBoard, nil
	f.terr = f.terrNext
	f.cards, f.seats, f.drew = f.cardsNext, f.seatsNext, f.drewNext
	f.over, f.overNext = f.overNext, false
	f.seq++
	return data, err
}

// hintTiles marks in prev.hint the encoder's tiles (pngbands) that the
// frame just drawn over prev's may have changed: those of the map's tiles
// that d drew again, and the parts of the panel drawn (all of it, panel,
// when drawn is empty).
func (prev *lastFrame) hintTiles(d *dirty, panel image.Rectangle, drawn []image.Rectangle) {
	bands, perRow := prev.enc.Tiles()
	n := bands * perRow
	prev.hint = slices.Grow(prev.hint[:0], n)[:n]
	clear(prev.hint)
	mark := func(r image.Rectangle) {
		for band := r.Min.Y / pngbands.BandRows; band <= (r.Max.Y-1)/pngbands.BandRows; band++ {
			row := prev.hint[band*perRow:]
			for t := r.Min.X / pngbands.TileWidth; t <= (r.Max.X-1)/pngbands.TileWidth; t++ {
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
		hint := prev.hint[(ty<<tileShift)/pngbands.BandRows*perRow:]
		for tx, ch := range row {
			if ch {
				hint[(tx<<tileShift)/pngbands.TileWidth] = true
			}
		}
	}
	if len(drawn) == 0 {
		mark(panel)
		return
	}
	for _, r := range drawn {
		if !r.Empty() {
			mark(r)
		}
	}
}
