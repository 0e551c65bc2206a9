package render

import (
	"image"
	"math"
)

// elem is an overlay of the frame being drawn: its key, and the box of
// the pixels it marks or stamps, found while planning.
type elem struct {
	key uint64
	box image.Rectangle
}

// sigMix adds v to signature h.
func sigMix(h, v uint64) uint64 {
	h ^= v
	h *= 0x100000001b3 // FNV-1a's prime, on words
	return h ^ h>>29
}

// elemKey is the key of an overlay of the given kind drawn with args.
func elemKey(kind uint64, args ...uint64) uint64 {
	h := sigMix(0xcbf29ce484222325, kind)
	for _, a := range args {
		h = sigMix(h, a)
	}
	return h
}

// Kinds of overlay.
const (
	elemPort = iota + 1
	elemArrow
	elemBadge
	elemItem
	elemCrown
	elemHero
	elemHolder
	elemBanner
	elemCard
)

// flags packs booleans into a key's argument.
func flags(b ...bool) uint64 {
	var v uint64
	for i, x := range b {
		if x {
			v |= 1 << i
		}
	}
	return v
}

func f64(x float64) uint64 { return math.Float64bits(x) }

// stringKey hashes a string for an overlay's key.
func stringKey(t string) uint64 {
	h := uint64(0xcbf29ce484222325)
	for i := range len(t) {
		h = (h ^ uint64(t[i])) * 0x100000001b3
	}
	return h
}
