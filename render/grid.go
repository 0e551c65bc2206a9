package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"sync"

	"golang.org/x/image/font"

	"github.com/riskbot/riskbot/state"
)

// Boards of generated maps (state.Map.Grid set): the capitals rule set's
// 64×64 cells, drawn as a square map with the players' panel beside it.
// They share the classic board's layers (textured land tinted per owner,
// anti-aliased lines, names placed around the badges) but not its geometry:
// everything comes from the cells.

// gridCell is the side of a cell in pixels at refWidth: 64 cells make a
// 1152 px square map, and the panel takes the remaining 448 px.
const gridCell = 18

// gridNameSize is the size of territory names on generated maps: 5.7 px
// capitals at Discord's 550 px, 4.2 at a phone's 400 (the classic board's,
// with many more names, are 15). At 24 a large map of the tests already
// puts a name nearer another territory's badge than its own.
const gridNameSize = 23

// The view of a generated map: at least minViewCells cells across (so a
// small island does not get giant cells), plus viewMargin cells of sea on
// each side.
const (
	minViewCells = 40
	viewMargin   = 1.5
)

// maxGridBoards bounds the cache of generated maps' boards: unlike the
// classic board, every capitals match has its own map. A board at the
// default width takes about 20 MB. (A variable for tests.)
var maxGridBoards = 8

// gridKind is the kind of the boards of generated maps: where their view
// of the cells lies in the image.
type gridKind struct {
	cell   float64 // pixels per cell
	ox, oy float64 // the cell at the map's top-left corner
}

// markerSlots are the centres of a territory's markers.
type markerSlots struct {
	capital, fortress, hero, item [2]float64
}

// gridEntry is a cached board of a generated map.
type gridEntry struct {
	build sync.Once
	m     *state.Map
	b     *board
	err   error
	used  uint64 // for eviction: the render count when last used
}

// gridBoardFor returns the board of generated map m, building it on first
// use. Boards are cached by map name, at most maxGridBoards of them; a map
// whose name is cached but whose cells or names differ gets a board of its
// own.
func (r *Renderer) gridBoardFor(m *state.Map) (*board, error) {
	r.mu.Lock()
	r.gridUses++
	e, ok := r.grids[m.Name]
	if ok && e.m != m && !sameGrid(e.m, m) {
		ok = false
	}
	if !ok {
		if len(r.grids) >= maxGridBoards {
			// Evict the least recently used board.
			var oldest string
			first := true
			for name, o := range r.grids {
				if first || o.used < r.grids[oldest].used || (o.used == r.grids[oldest].used && name < oldest) {
					oldest, first = name, false
				}
			}
			delete(r.grids, oldest)
		}
		e = &gridEntry{m: m}
		r.grids[m.Name] = e
	}
	e.used = r.gridUses
	r.mu.Unlock()
	e.build.Do(func() {
		e.b, e.err = buildGridBoard(m, r.gridLook, r.tex, r.th, r.fonts, r.width)
	})
	return e.b, e.err
}

// sameGrid reports whether two maps draw the same: same cells, names and
// features.
func sameGrid(a, b *state.Map) bool {
	if a.Grid == nil || b.Grid == nil || a.Grid.W != b.Grid.W || a.Grid.H != b.Grid.H ||
		!slices.Equal(a.Grid.Cells, b.Grid.Cells) || a.Len() != b.Len() {
		return false
	}
	for i := range a.Territories {
		ta, tb := &a.Territories[i], &b.Territories[i]
		if ta.Name != tb.Name || ta.Terrain != tb.Terrain || ta.Fortress != tb.Fortress {
			return false
		}
	}
	return true
}

// buildGridBoard makes the static layers of generated map m at the given
// image width, in colours lk.
func buildGridBoard(m *state.Map, lk *look, tex *textures, th *theme, fs *fonts, width int) (*board, error) {
	g := m.Grid
	if g.W < 1 || g.H < 1 || len(g.Cells) != g.W*g.H || m.Len() > 254 {
		return nil, fmt.Errorf("render: map %q has a broken grid", m.Name)
	}
	s := float64(width) / refWidth
	side := int(math.Round(gridCell * s * 64))
	// The view: the land's bounding box and a margin for the pontoons,
	// squared and centred. Cutting away the open sea makes the cells (and
	// everything on them) up to a third larger than the whole board would.
	bx0, by0, bx1, by1 := g.W, g.H, -1, -1
	for y := range g.H {
		for x := range g.W {
			if g.At(x, y) != state.Water {
				bx0, by0, bx1, by1 = min(bx0, x), min(by0, y), max(bx1, x), max(by1, y)
			}
		}
	}
	if bx1 < 0 {
		bx0, by0, bx1, by1 = 0, 0, g.W-1, g.H-1
	}
	k := float64(max(bx1-bx0+1, by1-by0+1, minViewCells)) + 2*viewMargin
	cell := float64(side) / k
	ox := float64(bx0+bx1+1)/2 - k/2 // the view's top-left corner, in cells
	oy := float64(by0+by1+1)/2 - k/2
	w, h := width, side
	gb := &gridKind{cell: cell, ox: ox, oy: oy}
	b := &board{m: m, kind: gb, look: lk, w: w, h: h, mw: side, mh: h, s: s}
	b.style = style{nearBadge: 8, numbered: true, army: "troop", armies: "troops"}
	b.panel = image.Rect(side, 0, w, h)

	// Territories at twice the image's resolution, from the cells with
	// their corners rounded: each sample takes the label with the most
	// weight among the four nearest cell centres (bilinear weights), so
	// stairs of cells become slopes and curves while every cell's centre,
	// and the line between two cells of one territory, keeps its label.
	hw, hh := 2*side, 2*h
	hi := make([]uint8, hw*hh)
	label := func(x, y int) uint8 { return uint8(g.At(x, y) + 1) } // 0 is water
	// Each column's cell and the fraction across it, computed once.
	colCell := make([]int, hw)
	colFrac := make([]float64, hw)
	for x := range hw {
		u := ox + (float64(x)+0.5)/(2*cell) - 0.5
		colCell[x] = int(math.Floor(u))
		colFrac[x] = u - float64(colCell[x])
	}
	for y := range hh {
		v := oy + (float64(y)+0.5)/(2*cell) - 0.5
		j0 := int(math.Floor(v))
		fv := v - float64(j0)
		for x := range hw {
			i0 := colCell[x]
			ls := [4]uint8{label(i0, j0), label(i0+1, j0), label(i0, j0+1), label(i0+1, j0+1)}
			if ls[0] == ls[1] && ls[0] == ls[2] && ls[0] == ls[3] {
				hi[y*hw+x] = ls[0] // inside a block of one label: most samples
				continue
			}
			fu := colFrac[x]
			ws := [4]float64{(1 - fu) * (1 - fv), fu * (1 - fv), (1 - fu) * fv, fu * fv}
			best, bestW := ls[0], -1.0
			for _, l := range ls {
				sum := 0.0
				for k, l2 := range ls {
					if l2 == l {
						sum += ws[k]
					}
				}
				// Ties go to land, then to the lower id, so that a
				// diagonal of water does not cut a territory in two.
				if sum > bestW+1e-9 || (math.Abs(sum-bestW) <= 1e-9 && betterTie(l, best)) {
					best, bestW = l, sum
				}
			}
			hi[y*hw+x] = best
		}
	}

	// Territories per image pixel (mt: the map square only, side wide):
	// the most common of its four samples.
	mt := halve(hi, side, h)
	b.terr = make([]uint8, w*h)
	for y := range h {
		copy(b.terr[y*w:y*w+side], mt[y*side:(y+1)*side])
	}

	// Lines: territory borders and coasts, anti-aliased from the fine grid.
	lines := image.NewRGBA(image.Rect(0, 0, w, h))
	const (
		lnNone = iota
		lnBorder
		lnCoast
	)
	cls := make([]uint8, hw*hh)
	mark := func(i, j int) {
		if hi[i] == hi[j] {
			return
		}
		k := uint8(lnBorder)
		if hi[i] == 0 || hi[j] == 0 {
			k = lnCoast
		}
		cls[i], cls[j] = max(cls[i], k), max(cls[j], k)
	}
	for y := range hh {
		row := y * hw
		for x := range hw - 1 {
			mark(row+x, row+x+1)
		}
		if y+1 < hh {
			for x := range hw {
				mark(row+x, row+hw+x)
			}
		}
	}
	// Borders get a second fine pixel on the land side of each: at 18 px
	// cells a one-pixel border disappears when chat shrinks the image.
	wide := slices.Clone(cls)
	for y := 1; y < hh-1; y++ {
		for x := 1; x < hw-1; x++ {
			i := y*hw + x
			if cls[i] != lnNone || hi[i] == 0 {
				continue
			}
			for _, j := range [4]int{i - 1, i + 1, i - hw, i + hw} {
				if cls[j] != lnNone && hi[j] != 0 {
					wide[i] = max(wide[i], cls[j])
				}
			}
		}
	}
	cls = wide
	for y := range h {
		for x := range side {
			i := 2*y*hw + 2*x
			if cls[i]|cls[i+1]|cls[i+hw]|cls[i+hw+1] == lnNone {
				continue
			}
			var cov [3]float64
			for _, o := range [4]int{0, 1, hw, hw + 1} {
				cov[cls[i+o]] += 0.25
			}
			var col color.RGBA
			var a float64
			switch {
			case cov[lnCoast] > 0:
				col, a = th.coast, math.Min(1, cov[lnCoast]*1.5+cov[lnBorder])
			case cov[lnBorder] > 0:
				col, a = th.border, math.Min(0.92, cov[lnBorder]*1.4)
			default:
				continue
			}
			setLine(lines, x, y, col, a)
		}
	}
	b.lines = sparseFrom(lines)

	// Land shading: the terrain's texture and a light rim inside borders;
	// the panel beside the map square has none.
	inside := insideDistance(mt, side, h)
	b.lvl = shadeLand(m, tex, mt, inside, side, h, w, s, 0.9)

	// Water: shallow along the coasts, deeper away from them; the panel's
	// ground beside.
	water := make([]int16, side*h)
	for i, v := range mt {
		water[i] = -1
		if v != 0 {
			water[i] = 0
		}
	}
	dist, _ := chamferFrom(water, side, h)
	var seas [seaLevels]color.RGBA
	for i := range seas {
		seas[i] = th.seaColor(i)
	}
	b.base = make([]uint8, w*h*4)
	baseImg := &image.RGBA{Pix: b.base, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	for y := range h {
		ty := int(float64(y)/s) & (texSize - 1)
		for x := range side {
			if mt[y*side+x] != 0 {
				continue
			}
			d := float64(dist[y*side+x]) / cell // in cells
			f := math.Min(1, d/7)
			tv := float64(tex.sea[ty*texSize+int(float64(x)/s)&(texSize-1)]) - 128
			l := int(math.Round(math.Sqrt(f)*float64(seaLevels-1) + tv/128*2))
			c := seas[max(0, min(seaLevels-1, l))]
			o := 4 * (y*w + x)
			b.base[o], b.base[o+1], b.base[o+2], b.base[o+3] = c.R, c.G, c.B, 255
		}
	}
	fillRect(baseImg, b.panel, th.panelBg)
	fillRect(baseImg, b.rule(), th.gold)

	// Badges on the point of each territory farthest from its edges, kept
	// apart from each other; large enough for digits that read at 400 px
	// wide (see newFaces).
	b.badgeR = 23 * s
	b.anchor = farthestPoints(mt, inside, side, h, m.Len())
	separateBadges(b.anchor, b.badgeR*2+6*s, side, h)
	b.slots = make([]markerSlots, m.Len())
	R := b.badgeR
	for t, a := range b.anchor {
		x, y := a[0], a[1]
		// The markers ring the top of the badge, so that the name can sit
		// right under it and read as its territory's.
		b.slots[t] = markerSlots{
			capital:  [2]float64{x, y - 1.38*R},
			fortress: [2]float64{x - 1.45*R, y - 0.95*R},
			hero:     [2]float64{x + 1.5*R, y - 0.8*R},
			item:     [2]float64{x - 1.62*R, y + 0.45*R},
		}
		// Names keep clear of every marker a territory may get.
		b.obstacles = append(b.obstacles, frect{x - 2.3*R, y - 1.95*R, x + 2.25*R, y + 1.12*R})
	}
	b.obstacles = append(b.obstacles, rectOf(b.panel))

	// Fortresses are part of the map: their towers go in the static layer
	// with the names.
	names := image.NewRGBA(image.Rect(0, 0, w, h))
	for t, tr := range m.Territories {
		if tr.Fortress {
			drawTower(names, b.slots[t].fortress, R, th)
		}
	}
	// Names: smaller if a map is too crowded for them (none of hundreds of
	// maps tried was, but a map that cannot be drawn is a match nobody can
	// follow).
	var nameFace font.Face
	var err error
	for _, size := range []float64{gridNameSize, 18, 14} {
		if nameFace, err = face(fs.bold, size*s); err != nil {
			return nil, err
		}
		if b.labelAt, err = layoutLabels(b, nameFace); err == nil {
			break
		}
	}
	if err != nil {
		return nil, err
	}
	for _, l := range b.labelAt {
		for j, line := range l.lines {
			cy := l.cy - l.lineH*float64(len(l.lines)-1)/2 + l.lineH*float64(j)
			drawTextHalo(names, nameFace, line, l.cx, cy, 1.8*s, th.labelFg, th.labelHalo)
		}
	}
	b.labels = sparseFrom(names)

	// Pontoons, placed after the names so that they keep clear of them:
	// from the coast near the badge, out into the water.
	b.piers = make([]*sparse, m.Len())
	b.pierAt = make([]*pier, m.Len())
	scratch := image.NewRGBA(image.Rect(0, 0, w, h))
	avoid := slices.Clone(b.obstacles)
	for _, l := range b.labelAt {
		avoid = append(avoid, l.box)
	}
	for t := range m.Territories {
		if !m.Territories[t].Coast {
			continue
		}
		p, ok := pierFor(g, t, b.anchor[t], cell, ox, oy, avoid)
		if !ok {
			continue
		}
		drawPier(scratch, p, cell, th)
		box := p.box(cell)
		r := image.Rect(int(box.x0)-2, int(box.y0)-2, int(box.x1)+3, int(box.y1)+3).Intersect(scratch.Rect)
		sp := sparseFromRect(scratch, r)
		b.piers[t], b.pierAt[t] = &sp, &p
		fillRect(scratch, r, color.RGBA{})
		avoid = append(avoid, box)
	}

	b.bannerAt = placeBanner(b)
	return b, nil
}

// betterTie orders labels that tie for a fine sample: land before water,
// then the lower id.
func betterTie(l, than uint8) bool {
	if (l == 0) != (than == 0) {
		return than == 0
	}
	return l < than
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

// pier is a pontoon: from the middle of a coast edge of its territory,
// one cell out into the water.
type pier struct {
	x, y   float64 // on the coast, in pixels
	dx, dy float64 // the unit direction out to sea
}

func (p pier) box(cell float64) frect {
	x1, y1 := p.x+p.dx*cell*0.95, p.y+p.dy*cell*0.95
	pad := cell * 0.35
	return frect{math.Min(p.x, x1) - pad, math.Min(p.y, y1) - pad, math.Max(p.x, x1) + pad, math.Max(p.y, y1) + pad}
}

// pierFor finds where territory t's pontoon goes: on the edge between one of
// its cells and a water cell, where it covers none of the avoid rectangles
// (names, markers, other pontoons) if it can, preferring water that opens
// onto more water (a pontoon in a one-cell inlet looks lost), then the edge
// nearest the badge.
func pierFor(g *state.Grid, t int, anchor [2]float64, cell, ox, oy float64, avoid []frect) (pier, bool) {
	best, bestScore := pier{}, math.Inf(1)
	found := false
	for y := range g.H {
		for x := range g.W {
			if g.At(x, y) != t {
				continue
			}
			for _, d := range [4][2]int{{0, 1}, {1, 0}, {0, -1}, {-1, 0}} {
				wx, wy := x+d[0], y+d[1]
				if wx < 0 || wy < 0 || wx >= g.W || wy >= g.H || g.At(wx, wy) != state.Water {
					continue
				}
				// Open water straight ahead, up to three cells.
				open := 0
				for k := 1; k <= 3; k++ {
					if g.At(x+d[0]*k, y+d[1]*k) == state.Water {
						open++
					} else {
						break
					}
				}
				px := (float64(x) - ox + 0.5 + float64(d[0])*0.5) * cell
				py := (float64(y) - oy + 0.5 + float64(d[1])*0.5) * cell
				p := pier{px, py, float64(d[0]), float64(d[1])}
				score := math.Hypot(px-anchor[0], py-anchor[1])/cell + float64(3-open)*2
				if overlapsAny(p.box(cell), avoid) {
					score += 100
				}
				if score < bestScore {
					best, bestScore, found = p, score, true
				}
			}
		}
	}
	return best, found
}
