package render

import "math"

// chamferFrom returns, for every cell of a w x h grid, the distance in
// cells (3-4 chamfer, about 5% off Euclidean) to the nearest source cell,
// and which source label is nearest. Sources have label >= 0; other cells
// pass -1.
func chamferFrom(label []int16, w, h int) ([]float32, []int16) {
	const inf = 1 << 29
	d := make([]int32, len(label))
	near := make([]int16, len(label))
	for i, l := range label {
		near[i] = l
		if l < 0 {
			d[i] = inf
		}
	}
	relax := func(i, j int, cost int32) {
		if v := d[j] + cost; v < d[i] {
			d[i] = v
			near[i] = near[j]
		}
	}
	for y := range h {
		for x := range w {
			i := y*w + x
			if d[i] == 0 {
				continue
			}
			if x > 0 {
				relax(i, i-1, 3)
			}
			if y > 0 {
				relax(i, i-w, 3)
				if x > 0 {
					relax(i, i-w-1, 4)
				}
				if x < w-1 {
					relax(i, i-w+1, 4)
				}
			}
		}
	}
	for y := h - 1; y >= 0; y-- {
		for x := w - 1; x >= 0; x-- {
			i := y*w + x
			if d[i] == 0 {
				continue
			}
			if x < w-1 {
				relax(i, i+1, 3)
			}
			if y < h-1 {
				relax(i, i+w, 3)
				if x < w-1 {
					relax(i, i+w+1, 4)
				}
				if x > 0 {
					relax(i, i+w-1, 4)
				}
			}
		}
	}
	out := make([]float32, len(d))
	for i, v := range d {
		out[i] = float32(v) / 3
	}
	return out, near
}

// insideDistance returns, for every land cell, its distance in cells to the
// nearest cell of another value (another territory or the sea); water cells
// get 0.
func insideDistance(terr []uint8, w, h int) []float32 {
	label := make([]int16, len(terr))
	for i := range label {
		label[i] = -1
		x, y := i%w, i/w
		v := terr[i]
		if v == 0 || x == 0 || y == 0 || x == w-1 || y == h-1 ||
			terr[i-1] != v || terr[i+1] != v || terr[i-w] != v || terr[i+w] != v {
			label[i] = 0
		}
	}
	d, _ := chamferFrom(label, w, h)
	for i, v := range terr {
		if v == 0 {
			d[i] = 0
		} else if label[i] == 0 {
			d[i] = 1 // an edge cell is one cell from the other side
		} else {
			d[i]++
		}
	}
	return d
}

// farthestPoints returns, for each of n territories of the side×h pixel
// mask terr, its pixel farthest from its edges (the centre of the largest
// disc inside it), a little biased toward the territory's centroid.
func farthestPoints(terr []uint8, inside []float32, side, h, n int) [][2]float64 {
	sx, sy, cnt := make([]float64, n), make([]float64, n), make([]float64, n)
	for y := range h {
		for x := range side {
			if v := terr[y*side+x]; v != 0 {
				sx[v-1] += float64(x)
				sy[v-1] += float64(y)
				cnt[v-1]++
			}
		}
	}
	best := make([]float64, n)
	bestD := make([]float64, n)
	out := make([][2]float64, n)
	for t := range best {
		best[t] = -1
		if cnt[t] > 0 {
			out[t] = [2]float64{sx[t] / cnt[t], sy[t] / cnt[t]}
		}
	}
	for y := range h {
		for x := range side {
			v := terr[y*side+x]
			if v == 0 {
				continue
			}
			t := int(v) - 1
			d := float64(inside[y*side+x])
			cd := math.Hypot(float64(x)-sx[t]/cnt[t], float64(y)-sy[t]/cnt[t])
			// Half a pixel of clearance is worth less than being central.
			score := d - cd*0.05
			if score > best[t] || (score == best[t] && cd < bestD[t]) {
				best[t], bestD[t] = score, cd
				out[t] = [2]float64{float64(x) + 0.5, float64(y) + 0.5}
			}
		}
	}
	return out
}
