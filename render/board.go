package render

import (
	"image"
	"image/color"
	"math"
	"sync"

	"golang.org/x/image/font"

	"github.com/riskbot/riskbot/state"
)

// The board, and the steps of its build (buildBoard, pipeline.go) that are
// the same for every kind of map.

// refWidth is the width every size is designed at; other widths scale.
const refWidth = DefaultWidth

// board is everything about one map at one width that does not change from
// turn to turn. It is built once and then only read, by any number of
// renders at once.
type board struct {
	m     *state.Map
	kind  kind  // what this kind of map draws its own way
	style style // the numbers it is drawn with
	look  *look // its colours and palette
	w, h  int   // the whole image
	// mw and mh are the map area, at the top left: the whole width above
	// the panel (classic), or a square beside it (generated maps).
	mw, mh int
	s      float64 // scale: 1 at refWidth
	terr   []uint8 // w*mh: territory id + 1, or 0 for sea (and off the map area)
	lvl    []uint8 // w*mh: land shade level
	base   []uint8 // w*h RGBA: sea, legend and panel ground
	lines  sparse  // borders, coasts, connectors
	labels sparse  // territory names, and fortresses
	// anchor is each territory's badge centre; badgeR the badge radius.
	anchor  [][2]float64
	badgeR  float64
	labelAt []labelPlacement
	// bannerAt is where the winner's banner is centred: where it hides
	// the fewest badges and names.
	bannerAt [2]float64
	// obstacles are static marks names must not cover.
	obstacles []frect
	panel     image.Rectangle

	// What some kinds of map carry and others do not: a step draws what
	// its board has.

	// legend is the continent legend (classic); empty on maps whose
	// panel holds the key.
	legend legendLayout
	// slots are where each territory's markers go around its badge; nil
	// on maps without markers (classic).
	slots []markerSlots
	// piers are the pontoons of the coastal territories, drawn when the
	// territory has a port (nil for inland ones, and on maps without
	// ports); pierAt is where each goes.
	piers  []*sparse
	pierAt []*pier

	// grounds are the panel's backgrounds with n player cards, made on
	// first use.
	grounds [state.MaxSeats + 1]struct {
		once sync.Once
		img  *image.RGBA
	}
}

// rule is the gold line along the panel's edge that faces the map: its
// top when it lies under the map, its left side when beside it.
func (b *board) rule() image.Rectangle {
	r, t := b.panel, max(1, int(2*b.s))
	if b.mw == b.w {
		r.Max.Y = r.Min.Y + t
	} else {
		r.Max.X = r.Min.X + t
	}
	return r
}

// halve returns the territory of each pixel of a w x h image from hi, its
// territories sampled at twice the resolution (2w x 2h): the most common
// of the pixel's four samples, the first of them on a tie.
func halve(hi []uint8, w, h int) []uint8 {
	hw := 2 * w
	terr := make([]uint8, w*h)
	for y := range h {
		for x := range w {
			i := 2*y*hw + 2*x
			p, q, r, t := hi[i], hi[i+1], hi[i+hw], hi[i+hw+1]
			v := p
			switch {
			case p == q || p == r || p == t:
			case q == r || q == t:
				v = q
			case r == t:
				v = r
			}
			terr[y*w+x] = v
		}
	}
	return terr
}

// The classes of line on a map, weakest first: where samples of two
// classes meet, the stronger wins.
const (
	lnNone = iota
	lnBorder
	lnCoast
	lnContinent
	lnKinds
)

// lineRules are how a kind of map draws its borders and coasts.
type lineRules struct {
	// class is the line between samples of two different territories, a
	// and c (0 for water).
	class func(a, c uint8) uint8
	// widen returns the classes of the 2mw x 2mh samples (hi their
	// territories) with some lines made thicker, or nil to leave them.
	widen func(cls, hi []uint8, hw, hh int) []uint8
	// colour is the colour and opacity of a pixel whose four samples are
	// on each class of line in the shares cov (at least one line).
	colour func(th *theme, cov *[lnKinds]float64) (color.RGBA, float64)
}

// drawLines draws the borders and coasts of the map area into dst: found
// between the fine samples hi (twice the map area's resolution) and
// averaged down, which anti-aliases them.
func drawLines(dst *image.RGBA, hi []uint8, b *board, th *theme) {
	rules := b.style.lines
	hw, hh := 2*b.mw, 2*b.mh
	cls := make([]uint8, hw*hh)
	mark := func(i, j int) {
		k := rules.class(hi[i], hi[j])
		cls[i], cls[j] = max(cls[i], k), max(cls[j], k)
	}
	for y := range hh {
		row := y * hw
		for x := range hw - 1 {
			if hi[row+x] != hi[row+x+1] {
				mark(row+x, row+x+1)
			}
		}
		if y+1 < hh {
			for x := range hw {
				if hi[row+x] != hi[row+hw+x] {
					mark(row+x, row+hw+x)
				}
			}
		}
	}
	if rules.widen != nil {
		cls = rules.widen(cls, hi, hw, hh)
	}
	for y := range b.mh {
		for x := range b.mw {
			i := 2*y*hw + 2*x
			if cls[i]|cls[i+1]|cls[i+hw]|cls[i+hw+1] == lnNone {
				continue
			}
			var cov [lnKinds]float64
			for _, o := range [4]int{0, 1, hw, hw + 1} {
				cov[cls[i+o]] += 0.25
			}
			col, a := rules.colour(th, &cov)
			setLine(dst, x, y, col, a)
		}
	}
}

// setLine writes a border or coast pixel of colour col at coverage a into
// the premultiplied lines layer.
func setLine(lines *image.RGBA, x, y int, col color.RGBA, a float64) {
	o := lines.PixOffset(x, y)
	lines.Pix[o] = uint8(float64(col.R)*a + 0.5)
	lines.Pix[o+1] = uint8(float64(col.G)*a + 0.5)
	lines.Pix[o+2] = uint8(float64(col.B)*a + 0.5)
	lines.Pix[o+3] = uint8(255*a + 0.5)
}

// shadeLand returns the shading levels of the land of terr (w x h
// territory ids, 0 for water) in rows stride wide: the terrain's texture,
// scaled by contrast, plus a light rim inside every border (inside is
// insideDistance of terr). s is the image's scale.
func shadeLand(m *state.Map, tex *textures, terr []uint8, inside []float32, w, h, stride int, s, contrast float64) []uint8 {
	lvl := make([]uint8, stride*h)
	for y := range h {
		ty := int(float64(y)/s) & (texSize - 1)
		for x := range w {
			v := terr[y*w+x]
			if v == 0 {
				continue
			}
			tile := tex.terrain[m.Territories[v-1].Terrain]
			tv := int(tile[ty*texSize+int(float64(x)/s)&(texSize-1)])
			l := midLevel + int(math.Round(float64(tv-128)/128*float64(midLevel)*contrast))
			switch d := float64(inside[y*w+x]) / s; {
			case d <= 1.5:
				l += 4
			case d <= 2.5:
				l += 3
			case d <= 3.5:
				l += 2
			case d <= 4.5:
				l++
			}
			lvl[y*stride+x] = uint8(max(0, min(levels-1, l)))
		}
	}
	return lvl
}

// seaStyle is how a kind of map's water darkens away from the coast.
type seaStyle struct {
	unit  float64 // the unit of the distances below, in pixels
	glow  float64 // the width of a glow of the nearest continent's colour along the coast; 0 for none
	deep  float64 // how far past the glow the sea takes to reach its deepest shade
	swell float64 // how many shades the sea texture moves it by
}

// paintSea paints the water of the map area (mt: its territories, mw
// wide) into base: shallow along the coasts and deeper away from them,
// with the sea texture's swell.
func paintSea(base *image.RGBA, mt []uint8, b *board, tex *textures, th *theme) {
	sea, s, mw, mh := b.style.sea, b.s, b.mw, b.mh
	label := make([]int16, mw*mh)
	for i, v := range mt {
		label[i] = -1
		if v != 0 {
			label[i] = int16(b.m.Territories[v-1].Continent)
		}
	}
	dist, near := chamferFrom(label, mw, mh)
	var seas [seaLevels]color.RGBA
	for i := range seas {
		seas[i] = th.seaColor(i)
	}
	for y := range mh {
		ty := int(float64(y)/s) & (texSize - 1)
		for x := range mw {
			i := y*mw + x
			if mt[i] != 0 {
				continue
			}
			d := float64(dist[i]) / sea.unit
			var c color.RGBA
			if d < sea.glow {
				c = th.haloColor(int(near[i]), int(d/sea.glow*haloSteps))
			} else {
				f := math.Min(1, (d-sea.glow)/sea.deep)
				tv := float64(tex.sea[ty*texSize+int(float64(x)/s)&(texSize-1)]) - 128
				l := int(math.Round(math.Sqrt(f)*float64(seaLevels-1) + tv/128*sea.swell))
				c = seas[max(0, min(seaLevels-1, l))]
			}
			o := base.PixOffset(x, y)
			base.Pix[o], base.Pix[o+1], base.Pix[o+2], base.Pix[o+3] = c.R, c.G, c.B, 255
		}
	}
}

// separateBadges pushes apart badge centres closer than gap, a little at a
// time, keeping them on the map.
func separateBadges(p [][2]float64, gap float64, w, h int) {
	for range 50 {
		moved := false
		for i := range p {
			for j := i + 1; j < len(p); j++ {
				dx, dy := p[j][0]-p[i][0], p[j][1]-p[i][1]
				d := math.Hypot(dx, dy)
				if d >= gap {
					continue
				}
				if d < 1e-6 {
					dx, dy, d = 1, 0, 1
				}
				push := (gap - d) / 2 * 1.05
				p[i][0] -= dx / d * push
				p[i][1] -= dy / d * push
				p[j][0] += dx / d * push
				p[j][1] += dy / d * push
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	for i := range p {
		p[i][0] = math.Max(gap/2, math.Min(float64(w)-gap/2, p[i][0]))
		p[i][1] = math.Max(gap/2, math.Min(float64(h)-gap/2, p[i][1]))
	}
}

// placeNames lays out the territories' names at the first of the style's
// sizes where every name has room (a map too crowded for the first still
// gets drawn: a map that cannot be drawn is a match nobody can follow),
// and draws them with their halos on the names layer.
func placeNames(b *board, ly layers) error {
	var fc font.Face
	var err error
	for _, size := range b.style.nameSizes {
		if fc, err = face(ly.fs.bold, size*b.s); err != nil {
			return err
		}
		if b.labelAt, err = layoutLabels(b, fc); err == nil {
			break
		}
	}
	if err != nil {
		return err
	}
	for _, l := range b.labelAt {
		for j, line := range l.lines {
			cy := l.cy - l.lineH*float64(len(l.lines)-1)/2 + l.lineH*float64(j)
			drawTextHalo(ly.names, fc, line, l.cx, cy, b.style.nameHalo*b.s, ly.th.labelFg, ly.th.labelHalo)
		}
	}
	return nil
}

// placeBanner finds the centre for a banner of nominal size on the map
// area that covers the fewest badges and names (and never the legend),
// nearest the middle of the map on ties.
func placeBanner(b *board) [2]float64 {
	s := b.s
	mw, mh := float64(b.mw), float64(b.mh)
	bw, bh := 560*s, 116*s
	legend := rectOf(b.legend.box)
	best, bestScore := [2]float64{mw / 2, mh / 2}, math.Inf(1)
	for cy := bh/2 + 10*s; cy <= mh-bh/2-10*s; cy += 10 * s {
		for cx := bw/2 + 10*s; cx <= mw-bw/2-10*s; cx += 10 * s {
			r := frect{cx - bw/2, cy - bh/2, cx + bw/2, cy + bh/2}
			score := 0.0
			for t := range b.anchor {
				if r.overlaps(b.badgeBox(t)) {
					score += 10
				}
			}
			for _, l := range b.labelAt {
				if r.overlaps(l.box) {
					score += 6
				}
			}
			if r.overlaps(legend) {
				score += 100
			}
			score += math.Hypot(cx-mw/2, (cy-mh/2)*1.5) / (40 * s)
			if score < bestScore {
				best, bestScore = [2]float64{cx, cy}, score
			}
		}
	}
	return best
}

// landIn returns the fraction of r over land.
func (b *board) landIn(r frect) float64 {
	var land, n float64
	for y := r.y0; y < r.y1; y += 2 {
		for x := r.x0; x < r.x1; x += 2 {
			n++
			xi, yi := int(x), int(y)
			if xi >= 0 && yi >= 0 && xi < b.w && yi < b.mh && b.terr[yi*b.w+xi] != 0 {
				land++
			}
		}
	}
	if n == 0 {
		return 0
	}
	return land / n
}
