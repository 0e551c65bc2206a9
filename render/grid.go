package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"

	"github.com/riskbot/riskbot/state"
)

// Generated maps (state.Map.Grid set): the capitals rule set's 64×64
// cells, drawn as a square map with the players' panel beside it
// (gridpanel.go). Everything comes from the cells: the territories'
// outlines smoothed from them, badges where each territory is widest,
// markers around each badge (markers.go), pontoons on the coasts.

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

// gridKind is the kind of generated maps: their cells, and where the view
// of them lies in the image.
type gridKind struct {
	textured
	g      *state.Grid
	cell   float64 // pixels per cell
	ox, oy float64 // the cell at the map's top-left corner
	// classic is set on a map played with the classic rules: one with
	// lanes, borders across the water (lanes.go). cont is then each
	// territory's continent, and lanes the lanes' lines.
	classic bool
	cont    []int
	lanes   []lane
}

// frame makes the map a square on the left, 64 cells of gridCell at
// refWidth, with the panel in the rest of the width. The square shows the
// land's bounding box and a margin of sea for the pontoons, squared and
// centred: cutting away the open sea makes the cells (and everything on
// them) up to a third larger than the whole grid would.
func (k *gridKind) frame(b *board, width int) (style, error) {
	g, m := k.g, b.m
	if g.W < 1 || g.H < 1 || len(g.Cells) != g.W*g.H || m.Len() > 254 {
		return style{}, fmt.Errorf("render: map %q has a broken grid", m.Name)
	}
	side := int(math.Round(gridCell * b.s * 64))
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
	n := float64(max(bx1-bx0+1, by1-by0+1, minViewCells)) + 2*viewMargin
	k.cell = float64(side) / n
	k.ox = float64(bx0+bx1+1)/2 - n/2 // the view's top-left corner, in cells
	k.oy = float64(by0+by1+1)/2 - n/2
	b.w, b.h, b.mw, b.mh = width, side, side, side
	b.panel = image.Rect(side, 0, width, side)
	st := style{
		lines:    lineRules{class: gridLineClass, widen: widenBorders, colour: gridLineColour},
		contrast: 0.9,
		// Shallow along the coasts, deepest some 7 cells out.
		sea:       seaStyle{unit: k.cell, deep: 7, swell: 2},
		badge:     23,
		nameSizes: []float64{gridNameSize, 18, 14},
		nameHalo:  1.8,
		nearBadge: 8,
		numbered:  true,
		armies:    "render.n.troops",
	}
	if k.classic = len(laneBorders(m)) > 0; k.classic {
		// The classic rules' bonuses go by continent: their borders are
		// drawn thick, as on the classic board.
		k.cont = make([]int, m.Len())
		for t, tr := range m.Territories {
			k.cont[t] = tr.Continent
		}
		st.lines = lineRules{
			class: k.gridContinentClass,
			widen: func(cls, hi []uint8, hw, hh int) []uint8 {
				return thickContinents(widenBorders(cls, hi, hw, hh), hi, hw, hh)
			},
			colour: classicLineColour,
		}
		st.numbered, st.armies = false, "n.armies"
	}
	return st, nil
}

// outline makes the territories from the cells with their corners
// rounded: each sample takes the label with the most weight among the four
// nearest cell centres (bilinear weights), so stairs of cells become
// slopes and curves while every cell's centre, and the line between two
// cells of one territory, keeps its label.
func (k *gridKind) outline(b *board) []uint8 {
	g, cell, ox, oy := k.g, k.cell, k.ox, k.oy
	hw, hh := 2*b.mw, 2*b.mh
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
				for j, l2 := range ls {
					if l2 == l {
						sum += ws[j]
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
	return hi
}

// gridLineClass tells borders from coasts.
func gridLineClass(a, c uint8) uint8 {
	if a == 0 || c == 0 {
		return lnCoast
	}
	return lnBorder
}

// widenBorders gives every line a second fine pixel on the land side: at
// 18 px cells a one-pixel border disappears when chat shrinks the image.
func widenBorders(cls, hi []uint8, hw, hh int) []uint8 {
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
	return wide
}

// gridLineColour draws coasts darker than borders.
func gridLineColour(th *theme, cov [lnKinds]float64) (color.RGBA, float64) {
	switch {
	case cov[lnCoast] > 0:
		return th.coast, math.Min(1, cov[lnCoast]*1.5+cov[lnBorder])
	case cov[lnBorder] > 0:
		return th.border, math.Min(0.92, cov[lnBorder]*1.4)
	}
	return color.RGBA{}, 0
}

// anchors puts each badge on its territory's point farthest from its
// edges: generated territories have no hand-placed anchors.
func (k *gridKind) anchors(b *board, terr []uint8, inside []float32) [][2]float64 {
	return farthestPoints(terr, inside, b.mw, b.mh, b.m.Len())
}

// features places each territory's markers around its badge (they ring
// its top, so that the name can sit right under it and read as its
// territory's), keeps the names clear of them and of the panel, and draws
// the fortresses' towers: fortresses are part of the map, so their towers
// go in the static layer with the names.
func (k *gridKind) features(b *board, ly layers) error {
	R := b.badgeR
	if k.classic {
		// No markers: the classic rules have none. The lanes go on the
		// lines, under the names.
		for _, a := range b.anchor {
			b.obstacles = append(b.obstacles, frect{a[0] - 1.2*R, a[1] - 1.2*R, a[0] + 1.2*R, a[1] + 1.2*R})
		}
		b.obstacles = append(b.obstacles, rectOf(b.panel))
		k.lanes = findLanes(k.lanes[:0], b.m, k.g, k.cell, k.ox, k.oy)
		drawLanes(ly.lines, k.lanes, b.s, ly.th)
		return nil
	}
	b.slots = make([]markerSlots, b.m.Len())
	for t, a := range b.anchor {
		x, y := a[0], a[1]
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
	for t, tr := range b.m.Territories {
		if tr.Fortress {
			drawTower(ly.names, b.slots[t].fortress, R, ly.th)
		}
	}
	return nil
}

// finish places the pontoons, after the names so that they keep clear of
// them: from the coast near the badge, out into the water. Each is kept as
// a sparse layer of its own, drawn when its territory has a port.
func (k *gridKind) finish(b *board, ly layers) {
	m := b.m
	b.piers = make([]*sparse, m.Len())
	b.pierAt = make([]*pier, m.Len())
	scratch := image.NewRGBA(image.Rect(0, 0, b.w, b.h))
	avoid := slices.Clone(b.obstacles)
	for _, l := range b.labelAt {
		avoid = append(avoid, l.box)
	}
	for t := range m.Territories {
		if !m.Territories[t].Coast {
			continue
		}
		p, ok := pierFor(k.g, t, b.anchor[t], k.cell, k.ox, k.oy, avoid)
		if !ok {
			continue
		}
		drawPier(scratch, p, k.cell, ly.th)
		box := p.box(k.cell)
		r := image.Rect(int(box.x0)-2, int(box.y0)-2, int(box.x1)+3, int(box.y1)+3).Intersect(scratch.Rect)
		sp := sparseFromRect(scratch, r)
		b.piers[t], b.pierAt[t] = &sp, &p
		fillRect(scratch, r, color.RGBA{})
		avoid = append(avoid, box)
	}
}

// betterTie orders labels that tie for a fine sample: land before water,
// then the lower id.
func betterTie(l, than uint8) bool {
	if (l == 0) != (than == 0) {
		return than == 0
	}
	return l < than
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

// gridContinentClass tells borders from coasts and, on a classic board,
// continent borders: the classic rules' bonuses go by continent.
func (k *gridKind) gridContinentClass(a, c uint8) uint8 {
	switch {
	case a == 0 || c == 0:
		return lnCoast
	case k.cont[a-1] != k.cont[c-1]:
		return lnContinent
	}
	return lnBorder
}
