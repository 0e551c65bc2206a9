package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Imported maps for the tests, drawn here as a map maker would: a
// picture (sea with waves, land with a texture, dark borders between
// territories, a coast, a frame and a compass rose), its index and the
// markers. Nothing comes from engine/mapfile: these are made as states.

// artFixture describes a drawn map to make.
type artFixture struct {
	name     string
	w, h     int
	seed     uint64
	land     func(x, y float64) bool // x, y in [0, 1]
	cells    int                     // territories, as Voronoi cells of the land
	stripes  bool                    // territories as horizontal bands instead
	conts    []string                // continents, split by x (or by y for stripes)
	names    []string
	jpeg     bool // the picture as a JPEG, not a PNG
	noBorder bool // the index leaves the picture's lines between territories out
}

// The shades a map maker might paint each continent's land in.
var artLandColours = []color.RGBA{rgb(0x7fa650), rgb(0xc8a96a), rgb(0x9c8a5a), rgb(0x6f9a7a), rgb(0xb5915f), rgb(0x8fae6a)}

var artNames = []string{
	"Northmarch", "Greyhaven", "Eastwatch", "Saltmere", "Thornfield", "Highmoor", "Riverlands",
	"Old Kingdom of Varn", "Ashford", "Duskwood", "Coldharbour", "Fenwick", "Ironhill", "Westreach",
	"Brightwater", "Stormcape", "Mistvale", "Oakshade", "Redcliff", "Sunspire", "Wolfden",
	"Glimmerdeep", "Harrowgate", "Kingsbridge", "Lowfell", "Moonhollow", "Nettlebay", "Pinecrest",
	"Quarrytown", "Rookwood", "Silverlake", "Tidewater", "Umberlea", "Vinehall", "Windmere",
	"Yarrowby", "Zephyr Coast", "Amberly", "Blackmoor", "Cinderfall", "Dunmore", "Elmstead",
	"Frostholm", "Goldcrest", "Hollowmere", "Ivywater",
}

// twoIsles is land in two irregular islands, west and east.
func twoIsles(x, y float64) bool {
	wob := 0.035 * (math.Sin(x*23) + math.Cos(y*19) + math.Sin((x+y)*31))
	a := math.Hypot((x-0.31)/0.25, (y-0.5)/0.38) + wob
	b := math.Hypot((x-0.75)/0.19, (y-0.45)/0.33) + wob
	return a < 1 || b < 1
}

// tallIsle is one long island, its coast wavy.
func tallIsle(x, y float64) bool {
	wob := 0.05 * (math.Sin(y*29) + math.Cos(y*17+x*7))
	return math.Abs(x-0.5) < 0.36+wob && y > 0.06 && y < 0.94
}

// isles is the map of the goldens: 16 territories on two islands, three
// continents.
var isles = artFixture{name: "isles", w: 600, h: 400, seed: 1, land: twoIsles, cells: 16,
	conts: []string{"Westmark", "Midlands", "Eastreach"}}

// tallStripes is a portrait map of thin bands, as a JPEG: a map drawn
// narrower than the image, badges in territories a dozen pixels tall.
var tallStripes = artFixture{name: "stripes", w: 300, h: 560, seed: 2, land: tallIsle, stripes: true, cells: 14,
	conts: []string{"Upper", "Lower"}, jpeg: true, noBorder: true}

// wideIsles is the benchmark's map: 42 territories on a picture as wide
// as the classic board's map area at 1600 px (1600 x 789), so that both
// images have the same pixels.
var wideIsles = artFixture{name: "wide", w: 1600, h: 789, seed: 3, land: twoIsles, cells: 42,
	conts: []string{"Westmark", "Midlands", "Eastreach", "Farshore"}}

// artMap draws f and returns its map, named as a library map is.
func artMap(tb testing.TB, f artFixture) *state.Map {
	tb.Helper()
	rng := rand.New(rand.NewPCG(f.seed, 99))
	w, h := f.w, f.h
	frame := 12 * w / 600
	isLand := func(x, y int) bool {
		return x >= frame+4 && y >= frame+4 && x < w-frame-4 && y < h-frame-4 && f.land(float64(x)/float64(w), float64(y)/float64(h))
	}
	index := make([]uint8, w*h)
	var markers [][2]int
	if f.stripes {
		// Bands with wavy edges, thinner toward the top.
		edges := []float64{0.06}
		total := 0.0
		for i := range f.cells {
			total += 0.4 + 0.9*float64(i)/float64(f.cells-1)
		}
		for i := range f.cells {
			edges = append(edges, edges[i]+0.88*(0.4+0.9*float64(i)/float64(f.cells-1))/total)
		}
		for y := range h {
			for x := range w {
				if !isLand(x, y) {
					continue
				}
				fy := float64(y)/float64(h) + 0.006*math.Sin(float64(x)*0.09)
				for t := range f.cells {
					if fy >= edges[t] && fy < edges[t+1] {
						index[y*w+x] = uint8(t + 1)
					}
				}
			}
		}
	} else {
		// Voronoi cells around seeds on the land, far enough apart.
		var seeds [][2]int
		minD := math.Sqrt(float64(w*h)/float64(f.cells)) * 0.55
		for tries := 0; len(seeds) < f.cells && tries < 100000; tries++ {
			x, y := rng.IntN(w), rng.IntN(h)
			if !isLand(x, y) {
				continue
			}
			ok := true
			for _, s := range seeds {
				if math.Hypot(float64(x-s[0]), float64(y-s[1])) < minD {
					ok = false
					break
				}
			}
			if ok {
				seeds = append(seeds, [2]int{x, y})
			}
		}
		if len(seeds) < f.cells {
			tb.Fatalf("%s: only %d seeds", f.name, len(seeds))
		}
		// West to east, so that continents split by x.
		for i := range seeds {
			for j := i + 1; j < len(seeds); j++ {
				if seeds[j][0] < seeds[i][0] {
					seeds[i], seeds[j] = seeds[j], seeds[i]
				}
			}
		}
		for y := range h {
			for x := range w {
				if !isLand(x, y) {
					continue
				}
				// A little wobble, so that borders are not ruler-straight.
				wx := float64(x) + 6*math.Sin(float64(y)*0.07)
				wy := float64(y) + 6*math.Cos(float64(x)*0.06)
				best, bd := 0, math.Inf(1)
				for i, s := range seeds {
					if d := math.Hypot(wx-float64(s[0]), wy-float64(s[1])); d < bd {
						best, bd = i, d
					}
				}
				index[y*w+x] = uint8(best + 1)
			}
		}
		markers = seeds
	}
	// The lines between territories, which the picture draws.
	full := slices.Clone(index)
	lines := make([]bool, w*h)
	for y := range h {
		for x := range w {
			v := full[y*w+x]
			for _, d := range [2][2]int{{1, 0}, {0, 1}} {
				u, v2 := x+d[0], y+d[1]
				if v != 0 && u < w && v2 < h && full[v2*w+u] != 0 && full[v2*w+u] != v {
					lines[y*w+x] = true
				}
			}
		}
	}
	if f.noBorder { // the lines are the picture's alone: no territory's
		for i, l := range lines {
			if l {
				index[i] = 0
			}
		}
	}
	// Keep each territory's largest piece only (a cell cut by a bay), and
	// put its marker at its pixel farthest from its edges, or on thin
	// bands, a little left or right of the middle in turn, as a map maker
	// would to keep them apart.
	keepLargest(index, w, h, f.cells)
	terr := slices.Clone(index)
	inside := insideDistance(terr, w, h)
	far := farthestPoints(terr, inside, w, h, f.cells)
	markers = markers[:0]
	for t, p := range far {
		x, y := int(p[0]), int(p[1])
		if f.stripes {
			x = w * (35 + 30*(t%2)) / 100
			for y0 := y; y0 < y+h; y0++ { // down from the farthest point, round
				if yy := y0 % h; index[yy*w+x] == uint8(t+1) {
					best := yy
					for yy < h && index[yy*w+x] == uint8(t+1) {
						yy++
					}
					y = (best + yy - 1) / 2
					break
				}
			}
		}
		markers = append(markers, [2]int{x, y})
	}

	// The picture.
	pic := image.NewRGBA(image.Rect(0, 0, w, h))
	cont := func(t int) int { // territory id to continent, by where its marker is
		p := markers[t]
		k := len(f.conts)
		if f.stripes {
			return min(k-1, p[1]*k/h)
		}
		return min(k-1, p[0]*k/w)
	}
	coast := func(x, y, r int) bool {
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				u, v := x+dx, y+dy
				if u >= 0 && v >= 0 && u < w && v < h && full[v*w+u] == 0 {
					return true
				}
			}
		}
		return false
	}
	noise := valueNoise(rng)
	for y := range h {
		for x := range w {
			var c color.RGBA
			fx, fy := float64(x), float64(y)
			switch v := full[y*w+x]; {
			case x < frame || y < frame || x >= w-frame || y >= h-frame:
				c = rgb(0x4a2f1b) // the frame: dark wood with a gold fillet
				if x == frame-3 || y == frame-3 || x == w-frame+2 || y == h-frame+2 {
					c = rgb(0xd8b04a)
				}
			case v == 0:
				// The sea: deeper away from the top left, in waves.
				d := 0.5*fy/float64(h) + 0.5*fx/float64(w)
				wave := 0.5 + 0.5*math.Sin(fx*0.11+math.Sin(fy*0.09)*2)*math.Sin(fy*0.23)
				c = mix(rgb(0x79b4d8), rgb(0x2d5f8e), d)
				if wave > 0.9 {
					c = mix(c, rgb(0xe6f2fa), 0.35)
				}
			case lines[y*w+x]:
				c = rgb(0x2a2118)
			case coast(x, y, 1):
				c = rgb(0x3b3024)
			default:
				base := artLandColours[cont(int(v)-1)%len(artLandColours)]
				n := noise(fx/18, fy/18)*0.6 + noise(fx/5, fy/5)*0.4
				c = shade(base, (n-0.5)*0.9)
				if int(fx+fy)%9 == 0 && n > 0.62 { // hatching on the hills
					c = shade(base, -0.45)
				}
			}
			pic.SetRGBA(x, y, c)
		}
	}
	// A compass rose in the sea's emptiest corner: bottom right.
	cx, cy, r := float64(w-frame)-0.09*float64(w), float64(h-frame)-0.1*float64(h), 0.05*float64(w)
	for y := int(cy - r); y <= int(cy+r); y++ {
		for x := int(cx - r); x <= int(cx+r); x++ {
			if x < 0 || y < 0 || x >= w || y >= h || index[y*w+x] != 0 {
				continue
			}
			dx, dy := float64(x)-cx, float64(y)-cy
			d := math.Hypot(dx, dy)
			switch {
			case math.Abs(d-r*0.8) < 1:
				pic.SetRGBA(x, y, rgb(0xf3e6c0))
			case (math.Abs(dx) < r*0.12*(1-math.Abs(dy)/r) || math.Abs(dy) < r*0.12*(1-math.Abs(dx)/r)) && d < r:
				pic.SetRGBA(x, y, rgb(0xb8342b))
			}
		}
	}
	var buf bytes.Buffer
	var err error
	if f.jpeg {
		err = jpeg.Encode(&buf, pic, &jpeg.Options{Quality: 88})
	} else {
		err = png.Encode(&buf, pic)
	}
	if err != nil {
		tb.Fatal(err)
	}
	art := &state.Art{W: w, H: h, Picture: buf.Bytes(), Index: index, Markers: markers}

	spec := state.MapSpec{Name: engine.LibraryName(fmt.Sprintf("%016x", f.seed*1000003+uint64(w))), Title: f.name, Art: art}
	names := artNames
	if f.names != nil {
		names = f.names
	}
	for t := range f.cells {
		spec.Territories = append(spec.Territories, state.TerritorySpec{Name: names[t]})
	}
	for c, n := range f.conts {
		cs := state.ContinentSpec{Name: n, Bonus: 2 + c}
		for t := range f.cells {
			if cont(t) == c {
				cs.Territories = append(cs.Territories, names[t])
			}
		}
		spec.Continents = append(spec.Continents, cs)
	}
	// Borders where territories touch (or meet across a picture's line),
	// and across the strait between the islands.
	touch := map[[2]int]bool{}
	for y := range h {
		for x := range w {
			a := int(index[y*w+x])
			if a == 0 {
				continue
			}
			for _, d := range [][2]int{{1, 0}, {0, 1}, {2, 0}, {0, 2}} {
				u, v := x+d[0], y+d[1]
				if u < w && v < h {
					if b := int(index[v*w+u]); b != 0 && b != a {
						touch[[2]int{min(a, b) - 1, max(a, b) - 1}] = true
					}
				}
			}
		}
	}
	linkIslands(touch, markers, f.cells)
	for p := range touch {
		spec.Borders = append(spec.Borders, [2]string{names[p[0]], names[p[1]]})
	}
	m, err := state.NewMap(spec)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// keepLargest keeps, of each territory of index, its largest 4-connected
// piece; the others become sea.
func keepLargest(index []uint8, w, h, n int) {
	comp := make([]int32, len(index))
	for i := range comp {
		comp[i] = -1
	}
	var sizes []int
	var owner []uint8
	for i, v := range index {
		if v == 0 || comp[i] >= 0 {
			continue
		}
		id := int32(len(sizes))
		stack := []int{i}
		comp[i] = id
		size := 0
		for len(stack) > 0 {
			j := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			x, y := j%w, j/w
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				u, v2 := x+d[0], y+d[1]
				if u >= 0 && v2 >= 0 && u < w && v2 < h {
					k := v2*w + u
					if index[k] == v && comp[k] < 0 {
						comp[k] = id
						stack = append(stack, k)
					}
				}
			}
		}
		sizes = append(sizes, size)
		owner = append(owner, v)
	}
	best := make([]int32, n+1)
	for i := range best {
		best[i] = -1
	}
	for c, v := range owner {
		if best[v] < 0 || sizes[c] > sizes[best[v]] {
			best[v] = int32(c)
		}
	}
	for i, v := range index {
		if v != 0 && comp[i] != best[v] {
			index[i] = 0
		}
	}
}

// linkIslands adds a border between the nearest territories of the parts
// of the board that touch leaves apart, until it is connected.
func linkIslands(touch map[[2]int]bool, markers [][2]int, n int) {
	for {
		part := make([]int, n)
		for i := range part {
			part[i] = i
		}
		find := func(i int) int {
			for part[i] != i {
				i = part[i]
			}
			return i
		}
		for p := range touch {
			part[find(p[0])] = find(p[1])
		}
		best, bd := [2]int{-1, -1}, math.Inf(1)
		for a := range n {
			for b := range n {
				if find(a) == find(0) && find(b) != find(0) {
					if d := math.Hypot(float64(markers[a][0]-markers[b][0]), float64(markers[a][1]-markers[b][1])); d < bd {
						best, bd = [2]int{min(a, b), max(a, b)}, d
					}
				}
			}
		}
		if best[0] < 0 {
			return
		}
		touch[best] = true
	}
}

// valueNoise returns smooth noise in [0, 1] over the plane.
func valueNoise(rng *rand.Rand) func(x, y float64) float64 {
	var lattice [64 * 64]float64
	for i := range lattice {
		lattice[i] = rng.Float64()
	}
	at := func(i, j int) float64 { return lattice[(j&63)*64+i&63] }
	return func(x, y float64) float64 {
		i, j := int(math.Floor(x)), int(math.Floor(y))
		fx, fy := x-math.Floor(x), y-math.Floor(y)
		fx, fy = fx*fx*(3-2*fx), fy*fy*(3-2*fy)
		a := at(i, j) + (at(i+1, j)-at(i, j))*fx
		b := at(i, j+1) + (at(i+1, j+1)-at(i, j+1))*fx
		return a + (b-a)*fy
	}
}

// artName returns the name of m's territory t, for arrows.
func artName(m *state.Map, t int) string { return m.Territories[t].Name }

// artPlayed is a six-seat middle game on f: each seat a block of
// territories, a neutral one, stacks up to 124, and the last turn's
// conquest, attack and fortification.
func artPlayed(tb testing.TB, f artFixture) *state.State {
	tb.Helper()
	m := artMap(tb, f)
	s := newState(m, "Ann", "Bob", "Chloé", "Dmitri", "Eve", "Farouk al-Rashid the Magnificent")
	rng := rand.New(rand.NewPCG(f.seed, 5))
	// Blocks: territories in west-to-east order, dealt out in runs.
	n := m.Len()
	for t := range n {
		s.Terr[t] = state.Terr{Owner: min(5, t*6/n), Armies: 1 + rng.IntN(18)}
	}
	s.Terr[n/2].Owner = state.Neutral
	s.Terr[n/3].Armies = 124
	s.Seats[4].Status = state.Surrendered
	s.Turn, s.Current, s.Phase = 23, 1, state.PhaseReinforce
	// The last turn's moves, by the seat before: along its borders.
	var conquest, attack, fortify [2]int
	found := 0
	for _, bd := range m.Borders() {
		a, b := bd[0], bd[1]
		oa, ob := s.Terr[a].Owner, s.Terr[b].Owner
		switch {
		case found&1 == 0 && oa >= 0 && ob >= 0 && oa != ob:
			conquest, found = [2]int{a, b}, found|1
		case found&2 == 0 && oa >= 0 && ob >= 0 && oa != ob && a != conquest[0] && b != conquest[1]:
			attack, found = [2]int{b, a}, found|2
		case found&4 == 0 && oa >= 0 && oa == ob && a != conquest[0] && a != attack[0]:
			fortify, found = [2]int{a, b}, found|4
		}
	}
	if found != 7 {
		tb.Fatalf("%s: no room for the three arrows (%b)", f.name, found)
	}
	s.Terr[conquest[1]].Owner = s.Terr[conquest[0]].Owner
	arrow(tb, s, &s.Last, artName(m, conquest[0]), artName(m, conquest[1]), state.ArrowConquest, 4)
	arrow(tb, s, &s.Last, artName(m, attack[0]), artName(m, attack[1]), state.ArrowAttack, 3)
	arrow(tb, s, &s.Last, artName(m, fortify[0]), artName(m, fortify[1]), state.ArrowFortify, 6)
	return s
}

// artMid is the middle game on the two islands.
func artMid(tb testing.TB) *state.State { return artPlayed(tb, isles) }

// artTallOver is a finished match on the tall map of thin bands.
func artTallOver(tb testing.TB) *state.State {
	s := artPlayed(tb, tallStripes)
	s.Seats = s.Seats[:3]
	for t := range s.Terr {
		s.Terr[t].Owner = 1
	}
	s.Terr[2].Owner, s.Terr[9].Owner = state.Neutral, state.Neutral
	s.Seats[0].Status, s.Seats[2].Status = state.Eliminated, state.Eliminated
	s.Phase, s.Winner, s.Current, s.Turn = state.PhaseOver, 1, 1, 40
	s.Last = state.Trail{}
	return s
}
