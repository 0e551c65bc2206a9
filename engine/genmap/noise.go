package genmap

// Integer value noise. Floating point is avoided on purpose: Go may fuse a
// multiply and an add into one instruction on some architectures and not on
// others, which would move a coastline by a cell and change a match's map
// when it is regenerated on another machine.

// one is 1.0 in the 16.16 fixed point the noise uses.
const one = 1 << 16

// lattice returns the value, in [0, one), of lattice point (x, y) of the
// noise layer seeded by seed.
func lattice(seed uint64, x, y int) int64 {
	h := mix64(seed ^ uint64(x)*0x9e3779b97f4a7c15 ^ uint64(y)*0xc2b2ae3d27d4eb4f)
	return int64(h >> 48)
}

// smooth is the smoothstep 3t² − 2t³ of t in [0, one].
func smooth(t int64) int64 {
	return t * t / one * (3*one - 2*t) / one
}

// valueNoise samples, at the centre of cell (x, y), noise whose lattice
// points are period cells apart: values in [0, one).
func valueNoise(seed uint64, x, y, period int) int64 {
	gx, gy := x/period, y/period
	// The cell's centre, as a fraction of the period in 16.16.
	tx := smooth(int64(2*(x%period)+1) * one / int64(2*period))
	ty := smooth(int64(2*(y%period)+1) * one / int64(2*period))
	a := lattice(seed, gx, gy)
	b := lattice(seed, gx+1, gy)
	c := lattice(seed, gx, gy+1)
	d := lattice(seed, gx+1, gy+1)
	top := a + (b-a)*tx/one
	bottom := c + (d-c)*tx/one
	return top + (bottom-top)*ty/one
}

// fbm sums four octaves of value noise (periods 32, 16, 8, 4 cells, each
// half the weight of the one before) over a w×h grid: values in [0, one).
func fbm(seed uint64, w, h int) []int64 {
	out := make([]int64, w*h)
	periods := [...]int{32, 16, 8, 4}
	weights := [...]int64{8, 4, 2, 1}
	const total = 15
	for o, p := range periods {
		s := mix64(seed + uint64(o+1))
		for y := range h {
			for x := range w {
				out[y*w+x] += weights[o] * valueNoise(s, x, y, p)
			}
		}
	}
	for i := range out {
		out[i] /= total
	}
	return out
}
