package render

import "github.com/riskbot/riskbot/state"

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
