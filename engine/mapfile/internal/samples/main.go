// Command samples draws the sample maps of examples/maps in the Domination
// format, as a map maker would: a picture with coasts, borders, a title and
// a legend, an index image, and the .map text. Each map is made from a
// fixed seed, so running it again writes the same files.
//
//	go run ./engine/mapfile/internal/samples -out examples/maps
package main

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"log"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goitalic"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"

	"github.com/riskbot/riskbot/engine/mapfile"
)

func main() {
	out := flag.String("out", "examples/maps", "the folder to write the maps into, one folder each")
	flag.Parse()
	for _, s := range samples() {
		if err := write(*out, s); err != nil {
			log.Fatal(err)
		}
	}
}

// style is how a map is coloured.
type style struct {
	sea, shallow, ink, coast, paper, frame color.RGBA
	lands                                  []color.RGBA // one per continent
	title                                  color.RGBA
}

// sample is the recipe of one map.
type sample struct {
	name, title, author string
	seed                uint64
	w, h                int
	territories         int
	continents          int
	// land returns the region of land a point is in, given the map's
	// noise, or -1 for the sea. Territories do not straddle regions.
	land func(n *noise, x, y float64) int
	// aniso squeezes distances along x (< 1: territories stretched
	// across), warp wobbles the borders, maxLen splits long land.
	aniso, warp, maxLen float64
	minArea             int
	names               []string
	contNames           []string
	style               style
}

// is is a region of land for a yes, the sea for a no.
func is(land bool) int {
	if land {
		return 0
	}
	return -1
}

func hex(s string) color.RGBA {
	var r, g, b uint8
	fmt.Sscanf(s, "#%02x%02x%02x", &r, &g, &b)
	return color.RGBA{r, g, b, 255}
}

func samples() []sample {
	return []sample{{
		name: "inkwell", title: "The Inkwell Isles", author: "riskbot samples", seed: 11,
		w: 1000, h: 700, territories: 13, continents: 3, aniso: 1, warp: 38, maxLen: 1e9, minArea: 900,
		land: func(n *noise, x, y float64) int {
			// One large island, hand-drawn wobbly, and a small one.
			dx, dy := (x-420)/320, (y-370)/245
			r := math.Hypot(dx, dy) + 0.35*(n.fbm(x/160, y/160, 4)-0.5)
			dx2, dy2 := (x-865)/80, (y-480)/115
			r2 := math.Hypot(dx2, dy2) + 0.4*(n.fbm(x/90+7, y/90, 3)-0.5)
			return is(r < 1 || r2 < 1)
		},
		names:     []string{"Quill Point", "Blotmoor", "Nib Heath", "Sepia Vale", "Foolscap", "Parchmont", "Vellum Downs", "Gallnut Wood", "Rag Hills", "Sandarac", "Inkhorn", "Penknife Bay", "Scriptoria", "Deckle Edge"},
		contNames: []string{"The Westmoor", "The Marches", "The Heath", "The Reach"},
		style: style{
			sea: hex("#c9d6cf"), shallow: hex("#dbe4da"), ink: hex("#4a3828"), coast: hex("#3a2a1c"),
			paper: hex("#efe4c8"), frame: hex("#5b4630"), title: hex("#3a2a1c"),
			lands: []color.RGBA{hex("#e6d2a2"), hex("#d4dca6"), hex("#e8c4a8"), hex("#cfd9c8")},
		},
	}, {
		name: "realms", title: "The Eight Realms", author: "riskbot samples", seed: 23,
		w: 1600, h: 1000, territories: 92, continents: 8, aniso: 1, warp: 14, maxLen: 1e9, minArea: 1500,
		land: func(n *noise, x, y float64) int {
			// Several landmasses from the noise, kept off the frame.
			e := n.fbm(x/300, y/300, 5)
			edge := math.Min(math.Min(x, 1600-x)/140, math.Min(y, 1000-y)/110)
			return is(e-0.5*math.Max(0, 1-edge) > 0.52)
		},
		contNames: []string{"Aurelia", "Borealis", "Corvania", "Dunmarch", "Estoria", "Falkreach", "Galdor", "Hesper", "Ithra"},
		style: style{
			sea: hex("#2f5f7f"), shallow: hex("#4d7f9c"), ink: hex("#2a2a2a"), coast: hex("#1b2a33"),
			paper: hex("#e9e2cf"), frame: hex("#1b2a33"), title: hex("#1b2a33"),
			lands: []color.RGBA{hex("#c9b26b"), hex("#8fb573"), hex("#c98f6b"), hex("#a3a0c9"), hex("#7fb0a8"),
				hex("#d1c48c"), hex("#b88fb0"), hex("#d98c8c"), hex("#c2a98a")},
		},
	}, {
		name: "fjords", title: "The Fjordlands", author: "riskbot samples", seed: 37,
		w: 1400, h: 900, territories: 42, continents: 5, aniso: 0.3, warp: 10, maxLen: 230, minArea: 300,
		land: func(n *noise, x, y float64) int {
			// A mainland to the west, long thin peninsulas reaching east
			// (3 to 12 pixels each side of their line), and islets off
			// their tips.
			if x < 40 || x > 1350 || y < 40 || y > 860 {
				return -1
			}
			wob := func(a, b float64) float64 { return 70 * (n.fbm(a, b, 4) - 0.5) }
			if x > 80+wob(y/110, 1) && x < 370+wob(y/120, 3) && y > 80+wob(x/100, 5) && y < 820+wob(x/100, 7) {
				return 0
			}
			for i := range 7 {
				fi := float64(i)
				y0 := 115 + fi*110
				x0, x1 := 330.0, 1000+float64((i*137)%260)
				if x < x0 || x > x1+90 {
					continue
				}
				cy := y0 + 24*math.Sin(x/(90+fi*9)+fi) + 9*math.Sin(x/23+fi*2)
				half := 3 + 9*(0.5+0.5*math.Sin(x/(61+fi*7)+2*fi))
				if x <= x1 && math.Abs(y-cy) < half*math.Min(1, (x1-x)/40+0.3) {
					return 1 + i
				}
				if math.Hypot(x-(x1+52), y-cy) < 24+10*n.fbm(x/30, y/30, 2) {
					return 8 + i
				}
			}
			return -1
		},
		contNames: []string{"Westmark", "Norrvik", "Saltspits", "The Long Reach", "Skerries", "Holmsund"},
		style: style{
			sea: hex("#3d4f5c"), shallow: hex("#57707f"), ink: hex("#1f2622"), coast: hex("#e8ecd8"),
			paper: hex("#dfe3cf"), frame: hex("#1f2622"), title: hex("#1f2622"),
			lands: []color.RGBA{hex("#9bb07a"), hex("#c7b27a"), hex("#b5c4a0"), hex("#a89a78"), hex("#c9c9a0"), hex("#8fa38f")},
		},
	}}
}

// noise is seeded value noise.
type noise struct{ perm [512]uint8 }

func newNoise(r *rand.Rand) *noise {
	n := &noise{}
	p := r.Perm(256)
	for i := range 512 {
		n.perm[i] = uint8(p[i%256])
	}
	return n
}

func (n *noise) at(x, y float64) float64 {
	xi, yi := math.Floor(x), math.Floor(y)
	fx, fy := x-xi, y-yi
	ix, iy := int(xi)&255, int(yi)&255
	v := func(a, b int) float64 { return float64(n.perm[int(n.perm[a&255])+b&255]) / 255 }
	s := func(t float64) float64 { return t * t * (3 - 2*t) }
	a, b := v(ix, iy), v(ix+1, iy)
	c, d := v(ix, iy+1), v(ix+1, iy+1)
	u, w := s(fx), s(fy)
	return (a*(1-u)+b*u)*(1-w) + (c*(1-u)+d*u)*w
}

func (n *noise) fbm(x, y float64, octaves int) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	for range octaves {
		sum += amp * n.at(x, y)
		norm += amp
		amp /= 2
		x, y = x*2+17.3, y*2+9.1
	}
	return sum / norm
}

// board is a drawn map in the making.
type board struct {
	s      sample
	w, h   int
	label  []int // territory per pixel, -1 for sea
	comp   []int // land component per pixel, -1 for sea
	seeds  [][2]float64
	adj    [][]bool
	links  [][4]int // sea links: x1 y1 x2 y2
	cont   []int    // continent per territory
	marker [][2]int
	boxes  []image.Rectangle // title and legend, over the sea
	names  []string
}

func write(out string, s sample) error {
	b := makeBoard(s)
	pic := b.picture()
	idx := image.NewGray(image.Rect(0, 0, b.w, b.h))
	for i, l := range b.label {
		idx.Pix[i] = 255
		if l >= 0 {
			idx.Pix[i] = uint8(l + 1)
		}
	}
	dir := filepath.Join(out, s.name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	files := mapfile.Files{Map: []byte(b.text())}
	var buf bytes.Buffer
	if err := png.Encode(&buf, pic); err != nil {
		return err
	}
	files.Picture = slices.Clone(buf.Bytes())
	buf.Reset()
	if err := png.Encode(&buf, idx); err != nil {
		return err
	}
	files.Index = buf.Bytes()
	bd, err := mapfile.Read(files, mapfile.Options{})
	if err != nil {
		return fmt.Errorf("samples: %s does not read back: %w", s.name, err)
	}
	for name, data := range map[string][]byte{s.name + ".map": files.Map, s.name + "-pic.png": files.Picture, s.name + "-map.png": files.Index} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			return err
		}
	}
	log.Printf("%s: %d territories, %d continents, %d borders, picture %d KB, index %d KB, hash %s",
		s.name, bd.Map.Len(), len(bd.Map.Continents), len(bd.Map.Borders()), len(files.Picture)>>10, len(files.Index)>>10, bd.Hash[:16])
	return nil
}

func makeBoard(s sample) *board {
	r := rand.New(rand.NewPCG(s.seed, 0x5eed))
	n := newNoise(r)
	b := &board{s: s, w: s.w, h: s.h}
	W, H := s.w, s.h
	region := make([]int, W*H)
	land := make([]bool, W*H)
	for y := range H {
		for x := range W {
			region[y*W+x] = s.land(n, float64(x), float64(y))
			land[y*W+x] = region[y*W+x] >= 0
		}
	}
	b.placeBoxes(land)
	for _, box := range b.boxes {
		for y := box.Min.Y - 8; y < box.Max.Y+8; y++ {
			for x := box.Min.X - 8; x < box.Max.X+8; x++ {
				if x >= 0 && y >= 0 && x < W && y < H {
					land[y*W+x] = false
				}
			}
		}
	}
	// Land components, the small ones sunk.
	comps := components(W, H, func(i int) bool { return land[i] }, func(i int) int { return region[i] })
	b.comp = make([]int, W*H)
	for i := range b.comp {
		b.comp[i] = -1
	}
	var kept [][]int
	total := 0
	for _, c := range comps {
		if len(c) < s.minArea {
			continue
		}
		for _, p := range c {
			b.comp[p] = len(kept)
		}
		kept = append(kept, c)
		total += len(c)
	}
	// Seeds per component: by area, and by length for long thin land.
	counts := make([]int, len(kept))
	sum := 0
	for i, c := range kept {
		x0, y0, x1, y1 := W, H, 0, 0
		for _, p := range c {
			x, y := p%W, p/W
			x0, y0, x1, y1 = min(x0, x), min(y0, y), max(x1, x), max(y1, y)
		}
		byArea := int(math.Round(float64(s.territories) * float64(len(c)) / float64(total)))
		byLen := int(math.Round(float64(max(x1-x0, y1-y0)) / s.maxLen))
		counts[i] = max(1, byArea, byLen)
		sum += counts[i]
	}
	for sum != s.territories { // adjust the largest components
		big := 0
		for i := range kept {
			if len(kept[i]) > len(kept[big]) && (sum < s.territories || counts[i] > 1) {
				big = i
			}
		}
		if sum < s.territories {
			counts[big]++
			sum++
		} else {
			counts[big]--
			sum--
		}
	}
	// Best-candidate seeds, far apart in the map's metric.
	dist := func(ax, ay, bx, by float64) float64 { return math.Hypot((ax-bx)*s.aniso, ay-by) }
	compOf := []int{}
	for ci, c := range kept {
		var mine [][2]float64
		for range counts[ci] {
			best, bestD := [2]float64{}, -1.0
			for range 40 {
				p := c[r.IntN(len(c))]
				q := [2]float64{float64(p % W), float64(p / W)}
				d := 1e18
				for _, o := range mine {
					d = math.Min(d, dist(q[0], q[1], o[0], o[1]))
				}
				// Away from the coast too: a seed on the shore makes a sliver.
				if d > bestD {
					best, bestD = q, d
				}
			}
			mine = append(mine, best)
			b.seeds = append(b.seeds, best)
			compOf = append(compOf, ci)
		}
	}
	// Each land pixel to the nearest seed of its component, through a
	// warped plane: borders that wobble like a hand's.
	b.label = make([]int, W*H)
	byComp := make([][]int, len(kept))
	for t, c := range compOf {
		byComp[c] = append(byComp[c], t)
	}
	for y := range H {
		for x := range W {
			i := y*W + x
			b.label[i] = -1
			c := b.comp[i]
			if c < 0 {
				continue
			}
			fx := float64(x) + s.warp*(n.fbm(float64(x)/70, float64(y)/70+40, 3)-0.5)*2
			fy := float64(y) + s.warp*(n.fbm(float64(x)/70+40, float64(y)/70, 3)-0.5)*2
			best, bestD := -1, 1e18
			for _, t := range byComp[c] {
				if d := dist(fx, fy, b.seeds[t][0], b.seeds[t][1]); d < bestD {
					best, bestD = t, d
				}
			}
			b.label[i] = best
		}
	}
	b.mendFragments()
	b.findBorders()
	b.linkIslands()
	b.makeContinents(r)
	b.placeMarkers()
	b.makeNames()
	return b
}

// placeBoxes puts the title and the legend in the corners with the least
// land.
func (b *board) placeBoxes(land []bool) {
	titleW, titleH := int(float64(b.w)*0.32), 58
	legW, legH := 230, 44+22*b.s.continents
	corners := func(w, h int) []image.Rectangle {
		m := 26
		return []image.Rectangle{
			image.Rect(m, m, m+w, m+h), image.Rect(b.w-m-w, m, b.w-m, m+h),
			image.Rect(m, b.h-m-h, m+w, b.h-m), image.Rect(b.w-m-w, b.h-m-h, b.w-m, b.h-m),
		}
	}
	landIn := func(r image.Rectangle) int {
		n := 0
		for y := r.Min.Y; y < r.Max.Y; y += 3 {
			for x := r.Min.X; x < r.Max.X; x += 3 {
				if land[y*b.w+x] {
					n++
				}
			}
		}
		return n
	}
	pick := func(rs []image.Rectangle, not int) int {
		best, bestN := 0, 1<<30
		for i, r := range rs {
			if n := landIn(r); i != not && n < bestN {
				best, bestN = i, n
			}
		}
		return best
	}
	t := pick(corners(titleW, titleH), -1)
	l := pick(corners(legW, legH), t)
	b.boxes = []image.Rectangle{corners(titleW, titleH)[t], corners(legW, legH)[l]}
}

// components returns the 4-connected parts of the pixels in, or of those
// with the same key if key is not nil.
func components(W, H int, in func(int) bool, key func(int) int) [][]int {
	seen := make([]bool, W*H)
	var out [][]int
	for s := range W * H {
		if seen[s] || !in(s) {
			continue
		}
		part := []int{s}
		seen[s] = true
		for i := 0; i < len(part); i++ {
			p := part[i]
			x, y := p%W, p/W
			for _, q := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
				if q[0] < 0 || q[1] < 0 || q[0] >= W || q[1] >= H {
					continue
				}
				j := q[1]*W + q[0]
				if seen[j] || !in(j) || key != nil && key(j) != key(p) {
					continue
				}
				seen[j] = true
				part = append(part, j)
			}
		}
		out = append(out, part)
	}
	return out
}

// pieces are the connected pieces of the territories' land, and for each
// territory the index of its largest piece.
func (b *board) pieces() (parts [][]int, largest map[int]int) {
	parts = components(b.w, b.h, func(i int) bool { return b.label[i] >= 0 }, func(i int) int { return b.label[i] })
	largest = map[int]int{}
	for i, p := range parts {
		l := b.label[p[0]]
		if j, ok := largest[l]; !ok || len(parts[j]) < len(p) {
			largest[l] = i
		}
	}
	return parts, largest
}

// mendFragments keeps each territory's largest piece and gives the other
// pieces to a neighbour: a territory is one piece of land.
func (b *board) mendFragments() {
	for range 6 {
		parts, largest := b.pieces()
		changed := false
		for i, p := range parts {
			l := b.label[p[0]]
			if largest[l] == i {
				continue
			}
			votes := map[int]int{}
			for _, q := range p {
				x, y := q%b.w, q/b.w
				for _, o := range [4][2]int{{x - 1, y}, {x + 1, y}, {x, y - 1}, {x, y + 1}} {
					if o[0] >= 0 && o[1] >= 0 && o[0] < b.w && o[1] < b.h {
						if v := b.label[o[1]*b.w+o[0]]; v >= 0 && v != l {
							votes[v]++
						}
					}
				}
			}
			best, bestN := -1, 0
			for v, c := range votes {
				if c > bestN || c == bestN && v < best {
					best, bestN = v, c
				}
			}
			if best < 0 {
				continue // an islet of its own territory: sink it
			}
			for _, q := range p {
				b.label[q] = best
			}
			changed = true
		}
		if !changed {
			break
		}
	}
	// Sink what is left apart (an islet cut from its territory).
	parts, largest := b.pieces()
	for i, p := range parts {
		if largest[b.label[p[0]]] != i {
			for _, q := range p {
				b.label[q] = -1
				b.comp[q] = -1
			}
		}
	}
}

// findBorders makes territories that share a stretch of border neighbours.
func (b *board) findBorders() {
	n := len(b.seeds)
	count := make([][]int, n)
	for i := range count {
		count[i] = make([]int, n)
	}
	for y := range b.h {
		for x := range b.w {
			a := b.label[y*b.w+x]
			if a < 0 {
				continue
			}
			if x+1 < b.w {
				if c := b.label[y*b.w+x+1]; c >= 0 && c != a {
					count[a][c]++
					count[c][a]++
				}
			}
			if y+1 < b.h {
				if c := b.label[(y+1)*b.w+x]; c >= 0 && c != a {
					count[a][c]++
					count[c][a]++
				}
			}
		}
	}
	b.adj = make([][]bool, n)
	for a := range n {
		b.adj[a] = make([]bool, n)
		for c := range n {
			b.adj[a][c] = count[a][c] >= 6
		}
	}
}

// linkIslands joins the pieces of land by sea, the shortest crossings
// first, until every territory can reach every other.
func (b *board) linkIslands() {
	n := len(b.seeds)
	group := make([]int, n)
	for i := range group {
		group[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		if group[i] != i {
			group[i] = find(group[i])
		}
		return group[i]
	}
	for a := range n {
		for c := range n {
			if b.adj[a][c] {
				group[find(a)] = find(c)
			}
		}
	}
	// Coast pixels of each territory, thinned.
	coast := make([][][2]int, n)
	for y := 1; y < b.h-1; y++ {
		for x := 1; x < b.w-1; x++ {
			l := b.label[y*b.w+x]
			if l < 0 || (x+y)%3 != 0 {
				continue
			}
			if b.label[y*b.w+x-1] < 0 || b.label[y*b.w+x+1] < 0 || b.label[(y-1)*b.w+x] < 0 || b.label[(y+1)*b.w+x] < 0 {
				coast[l] = append(coast[l], [2]int{x, y})
			}
		}
	}
	compOf := make([]int, n)
	for i, l := range b.label {
		if l >= 0 {
			compOf[l] = b.comp[i]
		}
	}
	type cand struct {
		d    float64
		a, c int
		p, q [2]int
	}
	var cands []cand
	for a := range n {
		for c := a + 1; c < n; c++ {
			if b.adj[a][c] || compOf[a] == compOf[c] || len(coast[a]) == 0 || len(coast[c]) == 0 {
				continue
			}
			best := cand{d: 1e18, a: a, c: c}
			for _, p := range coast[a] {
				for _, q := range coast[c] {
					if d := math.Hypot(float64(p[0]-q[0]), float64(p[1]-q[1])); d < best.d {
						best.d, best.p, best.q = d, p, q
					}
				}
			}
			cands = append(cands, best)
		}
	}
	sort.Slice(cands, func(i, j int) bool { return cands[i].d < cands[j].d })
	for _, k := range cands {
		if find(k.a) == find(k.c) {
			continue
		}
		group[find(k.a)] = find(k.c)
		b.adj[k.a][k.c], b.adj[k.c][k.a] = true, true
		b.links = append(b.links, [4]int{k.p[0], k.p[1], k.q[0], k.q[1]})
	}
}

// makeContinents grows the continents from seeds far apart, the smallest
// growing first, so they are whole and about the same size.
func (b *board) makeContinents(r *rand.Rand) {
	n := len(b.seeds)
	k := b.s.continents
	b.cont = make([]int, n)
	for i := range b.cont {
		b.cont[i] = -1
	}
	first := 0
	for t := range n {
		if b.seeds[t][0] < b.seeds[first][0] {
			first = t
		}
	}
	heads := []int{first}
	for len(heads) < k {
		best, bestD := -1, -1.0
		for t := range n {
			d := 1e18
			for _, h := range heads {
				d = math.Min(d, math.Hypot(b.seeds[t][0]-b.seeds[h][0], b.seeds[t][1]-b.seeds[h][1]))
			}
			if d > bestD {
				best, bestD = t, d
			}
		}
		heads = append(heads, best)
	}
	size := make([]int, k)
	for c, h := range heads {
		b.cont[h] = c
		size[c] = 1
	}
	for left := n - k; left > 0; {
		order := make([]int, k)
		for i := range order {
			order[i] = i
		}
		sort.SliceStable(order, func(i, j int) bool { return size[order[i]] < size[order[j]] })
		grew := false
		for _, c := range order {
			best, bestD := -1, 1e18
			for t := range n {
				if b.cont[t] != c {
					continue
				}
				for u := range n {
					if b.adj[t][u] && b.cont[u] < 0 {
						d := math.Hypot(b.seeds[u][0]-b.seeds[heads[c]][0], b.seeds[u][1]-b.seeds[heads[c]][1]) + r.Float64()
						if d < bestD {
							best, bestD = u, d
						}
					}
				}
			}
			if best >= 0 {
				b.cont[best] = c
				size[c]++
				left--
				grew = true
				break
			}
		}
		if !grew {
			break
		}
	}
}

// placeMarkers puts each army marker at the point of its territory
// farthest from its border.
func (b *board) placeMarkers() {
	W, H := b.w, b.h
	const inf = 1 << 30
	d := make([]int, W*H)
	for i := range d {
		d[i] = inf
		if b.label[i] < 0 {
			d[i] = 0
		}
	}
	edge := func(x, y, l int) bool {
		return x < 0 || y < 0 || x >= W || y >= H || b.label[y*W+x] != l
	}
	for y := range H {
		for x := range W {
			l := b.label[y*W+x]
			if l >= 0 && (edge(x-1, y, l) || edge(x+1, y, l) || edge(x, y-1, l) || edge(x, y+1, l)) {
				d[y*W+x] = 1
			}
		}
	}
	// Two-pass chamfer distance, within each territory.
	for pass := range 2 {
		for k := range W * H {
			i := k
			if pass == 1 {
				i = W*H - 1 - k
			}
			if d[i] == 0 {
				continue
			}
			x, y := i%W, i/W
			step := -1
			if pass == 1 {
				step = 1
			}
			for _, o := range [][3]int{{step, 0, 3}, {0, step, 3}, {step, step, 4}, {-step, step, 4}} {
				nx, ny := x+o[0], y+o[1]
				if nx < 0 || ny < 0 || nx >= W || ny >= H || b.label[ny*W+nx] != b.label[i] {
					continue
				}
				d[i] = min(d[i], d[ny*W+nx]+o[2])
			}
		}
	}
	b.marker = make([][2]int, len(b.seeds))
	best := make([]int, len(b.seeds))
	for i, l := range b.label {
		if l >= 0 && d[i] > best[l] {
			best[l] = d[i]
			b.marker[l] = [2]int{i % W, i / W}
		}
	}
}

// text writes the .map file, as a map maker would.
func (b *board) text() string {
	s := b.s
	var sb strings.Builder
	fmt.Fprintf(&sb, "; %s\n; drawn by riskbot's sample generator (engine/mapfile/internal/samples), seed %d\n; %dx%d pixels, %d territories\n\n", s.title, s.seed, b.w, b.h, len(b.seeds))
	fmt.Fprintf(&sb, "name %s\nauthor %s\nver 1\n\n[files]\npic %s-pic.png\nmap %s-map.png\n\n[continents]\n", s.title, s.author, s.name, s.name)
	for c := range s.continents {
		fmt.Fprintf(&sb, "%s %d %s\n", strings.ReplaceAll(s.contNames[c], " ", "_"), b.bonus(c), colourHex(s.style.lands[c]))
	}
	sb.WriteString("\n[countries]\n")
	for t := range b.seeds {
		fmt.Fprintf(&sb, "%d %s %d %d %d\n", t+1, strings.ReplaceAll(b.name(t), " ", "_"), b.cont[t]+1, b.marker[t][0], b.marker[t][1])
	}
	sb.WriteString("\n[borders]\n")
	for t := range b.seeds {
		fmt.Fprintf(&sb, "%d", t+1)
		for u := range b.seeds {
			if b.adj[t][u] {
				fmt.Fprintf(&sb, " %d", u+1)
			}
		}
		sb.WriteString("\n")
	}
	return sb.String()
}

func colourHex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// bonus is a continent's worth: its territories that border another
// continent, and its size.
func (b *board) bonus(c int) int {
	size, gates := 0, 0
	for t := range b.seeds {
		if b.cont[t] != c {
			continue
		}
		size++
		for u := range b.seeds {
			if b.adj[t][u] && b.cont[u] != c {
				gates++
				break
			}
		}
	}
	return max(1, int(math.Round(float64(size)/3+float64(gates)/2-1)))
}

// name is a territory's name: the sample's own, or one made of syllables.
func (b *board) name(t int) string { return b.names[t] }

// makeNames names the territories: the sample's names, then made-up ones,
// each once.
func (b *board) makeNames() {
	first := []string{"Ash", "Bel", "Cor", "Dun", "El", "Fen", "Gal", "Har", "Ist", "Kel", "Lor", "Mar", "Nor", "Os", "Pel", "Quen", "Ros", "Sal", "Tor", "Ul", "Vel", "Wyn"}
	second := []string{"ford", "mere", "holm", "wick", "dale", "moor", "by", "stead", "vik", "ness", "gard", "mark"}
	seen := map[string]bool{}
	for t := range b.seeds {
		name := ""
		if t < len(b.s.names) {
			name = b.s.names[t]
		}
		for h := uint64(t)*0x9e3779b97f4a7c15 + b.s.seed; name == "" || seen[name]; h = h*6364136223846793005 + 1442695040888963407 {
			name = first[(h>>7)%uint64(len(first))] + second[(h>>19)%uint64(len(second))]
		}
		seen[name] = true
		b.names = append(b.names, name)
	}
}

// picture draws the map: the sea, shallows along the coasts, each
// continent's land in its colour, borders in ink, dashed crossings, a
// frame, the title and the legend.
func (b *board) picture() *image.Paletted {
	W, H := b.w, b.h
	st := b.s.style
	r := rand.New(rand.NewPCG(b.s.seed, 0xc0100))
	n := newNoise(r)
	img := image.NewRGBA(image.Rect(0, 0, W, H))
	shade := func(c color.RGBA, f float64) color.RGBA {
		m := func(v uint8) uint8 { return uint8(math.Max(0, math.Min(255, float64(v)*f))) }
		return color.RGBA{m(c.R), m(c.G), m(c.B), 255}
	}
	// Distance to land, for the shallows.
	near := make([]int, W*H)
	for i := range near {
		near[i] = 99
		if b.label[i] >= 0 {
			near[i] = 0
		}
	}
	for range 14 {
		for y := 1; y < H-1; y++ {
			for x := 1; x < W-1; x++ {
				i := y*W + x
				near[i] = min(near[i], near[i-1]+1, near[i+1]+1, near[i-W]+1, near[i+W]+1)
			}
		}
	}
	for y := range H {
		for x := range W {
			i := y*W + x
			// A texture of three levels: flat patches, as a print's.
			tex := n.fbm(float64(x)/90, float64(y)/90, 3)
			lvl := 0.97
			if tex > 0.58 {
				lvl = 1.03
			} else if tex < 0.42 {
				lvl = 0.93
			}
			var c color.RGBA
			switch l := b.label[i]; {
			case l >= 0:
				c = shade(st.lands[b.cont[l]], lvl)
			case near[i] <= 9 && near[i] > 0 && (near[i] < 5 || (x+y)%4 == 0):
				c = st.shallow
			default:
				c = shade(st.sea, lvl)
				if (y+int(6*math.Sin(float64(x)/40)))%28 == 0 && tex > 0.5 {
					c = st.shallow // a wave
				}
			}
			img.SetRGBA(x, y, c)
		}
	}
	// Borders: ink between territories, heavier between continents and
	// along the coast.
	for y := range H {
		for x := range W {
			l := b.label[y*W+x]
			if l < 0 {
				continue
			}
			coast, cont, terr := false, false, false
			for _, o := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
				nx, ny := x+o[0], y+o[1]
				if nx < 0 || ny < 0 || nx >= W || ny >= H {
					continue
				}
				m := b.label[ny*W+nx]
				switch {
				case m < 0:
					coast = true
				case m != l && b.cont[m] != b.cont[l]:
					cont = true
				case m != l:
					terr = true
				}
			}
			switch {
			case coast:
				img.SetRGBA(x, y, st.coast)
			case cont:
				img.SetRGBA(x, y, st.ink)
			case terr && (x+y)%2 == 0 || terr && b.s.name != "realms":
				img.SetRGBA(x, y, shade(st.ink, 1.6))
			}
		}
	}
	// Crossings by sea, dashed.
	for _, l := range b.links {
		dx, dy := float64(l[2]-l[0]), float64(l[3]-l[1])
		steps := int(math.Hypot(dx, dy))
		for s := 0; s <= steps; s++ {
			if (s/6)%2 == 1 {
				continue
			}
			x := l[0] + int(dx*float64(s)/float64(max(1, steps)))
			y := l[1] + int(dy*float64(s)/float64(max(1, steps)))
			for _, o := range [][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				if p := image.Pt(x+o[0], y+o[1]); p.In(img.Rect) && b.label[p.Y*W+p.X] < 0 {
					img.SetRGBA(p.X, p.Y, st.ink)
				}
			}
		}
	}
	// The frame: a double line.
	for y := range H {
		for x := range W {
			e := min(x, y, W-1-x, H-1-y)
			switch {
			case e < 6:
				img.SetRGBA(x, y, st.frame)
			case e < 10:
				img.SetRGBA(x, y, st.paper)
			case e < 12:
				img.SetRGBA(x, y, st.frame)
			}
		}
	}
	b.drawBoxes(img)
	return quantize(img)
}

// drawBoxes draws the title cartouche and the legend of continents.
func (b *board) drawBoxes(img *image.RGBA) {
	st := b.s.style
	bold, _ := opentype.Parse(gobold.TTF)
	italic, _ := opentype.Parse(goitalic.TTF)
	face := func(f *opentype.Font, size float64) font.Face {
		fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
		if err != nil {
			log.Fatal(err)
		}
		return fc
	}
	box := func(r image.Rectangle) {
		draw.Draw(img, r, image.NewUniform(st.frame), image.Point{}, draw.Src)
		draw.Draw(img, r.Inset(2), image.NewUniform(st.paper), image.Point{}, draw.Src)
		in := r.Inset(5)
		draw.Draw(img, in, image.NewUniform(st.frame), image.Point{}, draw.Src)
		draw.Draw(img, in.Inset(1), image.NewUniform(st.paper), image.Point{}, draw.Src)
	}
	text := func(f font.Face, x, y int, c color.RGBA, s string) {
		d := font.Drawer{Dst: img, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, y)}
		d.DrawString(s)
	}
	t := b.boxes[0]
	box(t)
	tf := face(bold, 30)
	adv := font.MeasureString(tf, b.s.title).Ceil()
	text(tf, t.Min.X+(t.Dx()-adv)/2, t.Min.Y+40, st.title, b.s.title)
	l := b.boxes[1]
	box(l)
	text(face(bold, 16), l.Min.X+14, l.Min.Y+26, st.title, "Continents")
	small := face(italic, 14)
	for c := range b.s.continents {
		y := l.Min.Y + 34 + 22*c
		sw := image.Rect(l.Min.X+14, y+3, l.Min.X+32, y+19)
		draw.Draw(img, sw, image.NewUniform(st.ink), image.Point{}, draw.Src)
		draw.Draw(img, sw.Inset(1), image.NewUniform(st.lands[c]), image.Point{}, draw.Src)
		text(small, l.Min.X+40, y+16, st.title, fmt.Sprintf("%s  +%d", b.s.contNames[c], b.bonus(c)))
	}
}

// quantize maps the picture onto the few colours it uses (the text's
// edges to the nearest), so that its PNG is small.
func quantize(img *image.RGBA) *image.Paletted {
	count := map[color.RGBA]int{}
	for i := 0; i < len(img.Pix); i += 4 {
		count[color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], 255}]++
	}
	cols := make([]color.RGBA, 0, len(count))
	for c := range count {
		cols = append(cols, c)
	}
	sort.Slice(cols, func(i, j int) bool {
		if count[cols[i]] != count[cols[j]] {
			return count[cols[i]] > count[cols[j]]
		}
		return colourHex(cols[i]) < colourHex(cols[j])
	})
	pal := color.Palette{}
	for _, c := range cols[:min(len(cols), 64)] {
		pal = append(pal, c)
	}
	out := image.NewPaletted(img.Rect, pal)
	memo := map[color.RGBA]uint8{}
	for i := 0; i < len(img.Pix); i += 4 {
		c := color.RGBA{img.Pix[i], img.Pix[i+1], img.Pix[i+2], 255}
		k, ok := memo[c]
		if !ok {
			k = uint8(pal.Index(c))
			memo[c] = k
		}
		out.Pix[i/4] = k
	}
	return out
}
