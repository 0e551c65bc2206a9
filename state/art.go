package state

import "fmt"

// Art is how a drawn map looks: the picture players see and an index of
// which territory each of its pixels belongs to, with the point where each
// territory's army marker goes. Maps imported from a map maker's files
// carry it (engine/mapfile); the classic board and generated maps do not.
//
// The picture stays encoded (PNG, JPEG or GIF, as imported): the renderer
// decodes it once per board it builds, and a map that is only played, not
// drawn, pays nothing for it.
type Art struct {
	W, H int
	// Picture is the encoded picture, W x H.
	Picture []byte
	// Index is W*H bytes, row by row: the id of the territory under each
	// pixel + 1, or 0 where there is none (sea, decoration, frame).
	Index []uint8
	// Markers is each territory's army marker, in picture pixels.
	Markers [][2]int
}

// At returns the territory under pixel (x, y), or -1 for none or a point
// off the picture.
func (a *Art) At(x, y int) int {
	if x < 0 || y < 0 || x >= a.W || y >= a.H {
		return -1
	}
	return int(a.Index[y*a.W+x]) - 1
}

// check reports what makes the art unusable with a map of n territories.
// The map file's own checks (engine/mapfile) name lines and pixels; these
// only keep a Map consistent however it was built.
func (a *Art) check(n int) error {
	switch {
	case a.W <= 0 || a.H <= 0:
		return fmt.Errorf("map art is %dx%d", a.W, a.H)
	case len(a.Index) != a.W*a.H:
		return fmt.Errorf("map art index has %d pixels, want %d", len(a.Index), a.W*a.H)
	case len(a.Markers) != n:
		return fmt.Errorf("map art has %d markers for %d territories", len(a.Markers), n)
	}
	for t, p := range a.Markers {
		if a.At(p[0], p[1]) != t {
			return fmt.Errorf("map art: the marker of territory #%d at %d,%d is not on it", t+1, p[0], p[1])
		}
	}
	return nil
}
