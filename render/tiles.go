package render

import "image"

// tileShift sets the side of the tiles by which the sparse layers are
// ordered (sparseFrom) and the marked pixels found: 8 px.
const (
	tileShift = 3
	tileSize  = 1 << tileShift
)

// tileGrid divides a w x h frame into tiles, row by row.
type tileGrid struct{ w, h, tw, th int }

func newTileGrid(w, h int) tileGrid {
	return tileGrid{w: w, h: h, tw: (w + tileSize - 1) >> tileShift, th: (h + tileSize - 1) >> tileShift}
}

func (g tileGrid) n() int { return g.tw * g.th }

// rect is the part of the frame that tile (tx, ty) covers.
func (g tileGrid) rect(tx, ty int) image.Rectangle {
	return image.Rect(tx<<tileShift, ty<<tileShift, min(g.w, (tx+1)<<tileShift), min(g.h, (ty+1)<<tileShift))
}
