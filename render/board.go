package render

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"sync"

	"github.com/fogleman/gg"
	"github.com/riskbot/riskbot/render/internal/world"
	"github.com/riskbot/riskbot/state"
	"golang.org/x/image/font"
)

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
	conns     []connector

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

// classicKind is the kind of the classic world board.
type classicKind struct{}

// connector is a sea border drawn as a dashed line, in image pixels.
type connector struct {
	a, b     int
	from, to [2]float64
	wrap     bool
}

// layerWidths are the limits on Options.Width.
const (
	minWidth = 800
	maxWidth = 3200
)

// buildBoard makes the static layers of map m drawn with geometry geo at
// the given image width, in colours lk.
func buildBoard(m *state.Map, geo *world.Geometry, mask []uint8, lk *look, tex *textures, th *theme, fs *fonts, width int) (*board, error) {
	if err := matchGeometry(geo, m); err != nil {
		return nil, err
	}
	s := float64(width) / refWidth
	w := width
	mh := int(math.Round(float64(w) * float64(geo.Height) / float64(geo.Width)))
	ph := int(math.Round(classicPanelHeight * s))
	b := &board{m: m, kind: classicKind{}, look: lk, w: w, h: mh + ph, mw: w, mh: mh, s: s}
	b.style = style{nearBadge: 2, wraps: true, army: "army", armies: "armies"}
	b.panel = image.Rect(0, mh, w, mh+ph)
	k := float64(w) / float64(geo.Width) // mask pixels to image pixels

	// A grid at twice the image resolution, sampled from the mask: lines are
	// found there and averaged down, which anti-aliases them.
	hw, hh := 2*w, 2*mh
	hi := make([]uint8, hw*hh)
	for y := range hh {
		my := min(geo.Height-1, int((float64(y)+0.5)/(2*k)))
		for x := range hw {
			mx := min(geo.Width-1, int((float64(x)+0.5)/(2*k)))
			hi[y*hw+x] = mask[my*geo.Width+mx]
		}
	}
	cont := func(v uint8) int { return m.Territories[v-1].Continent }

	// Territories per image pixel.
	b.terr = halve(hi, w, mh)

	// Lines: coasts, territory borders, and thicker continent borders.
	const (
		lnNone = iota
		lnBorder
		lnCoast
		lnContinent
	)
	cls := make([]uint8, hw*hh)
	edge := func(i, j int) {
		a, c := hi[i], hi[j]
		if a == c {
			return
		}
		kind := uint8(lnBorder)
		switch {
		case a == 0 || c == 0:
			kind = lnCoast
		case cont(a) != cont(c):
			kind = lnContinent
		}
		cls[i] = max(cls[i], kind)
		cls[j] = max(cls[j], kind)
	}
	for y := range hh {
		row := y * hw
		for x := range hw - 1 {
			if hi[row+x] != hi[row+x+1] {
				edge(row+x, row+x+1)
			}
		}
		if y+1 < hh {
			for x := range hw {
				if hi[row+x] != hi[row+hw+x] {
					edge(row+x, row+hw+x)
				}
			}
		}
	}
	// Continent borders on land get wider.
	thick := make([]bool, hw*hh)
	for y := 1; y < hh-1; y++ {
		for x := 1; x < hw-1; x++ {
			if cls[y*hw+x] == lnContinent {
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						thick[(y+dy)*hw+x+dx] = true
					}
				}
			}
		}
	}
	lines := image.NewRGBA(image.Rect(0, 0, w, b.h))
	for y := range mh {
		for x := range w {
			var cov [4]float64
			for _, o := range [4]int{0, 1, hw, hw + 1} {
				i := 2*y*hw + 2*x + o
				c := cls[i]
				if thick[i] && hi[i] != 0 {
					c = lnContinent
				}
				cov[c] += 0.25
			}
			var col color.RGBA
			var a float64
			switch {
			case cov[lnContinent] > 0:
				col, a = th.continentBorder, math.Min(1, cov[lnContinent]*1.1+cov[lnCoast])
			case cov[lnCoast] > 0:
				col, a = th.coast, math.Min(1, cov[lnCoast]*1.6)
			case cov[lnBorder] > 0:
				col, a = th.border, math.Min(0.9, cov[lnBorder]*1.5)
			default:
				continue
			}
			setLine(lines, x, y, col, a)
		}
	}

	// Land shading: texture by terrain plus a light rim inside every border.
	b.lvl = shadeLand(m, tex, b.terr, insideDistance(b.terr, w, mh), w, mh, w, s, 0.8)

	// Sea: deeper away from the coast, with a glow in the colour of the
	// nearest continent along it.
	label := make([]int16, w*mh)
	for i, v := range b.terr {
		label[i] = -1
		if v != 0 {
			label[i] = int16(cont(v))
		}
	}
	dist, near := chamferFrom(label, w, mh)
	b.base = make([]uint8, w*b.h*4)
	baseImg := &image.RGBA{Pix: b.base, Stride: 4 * w, Rect: image.Rect(0, 0, w, b.h)}
	haloW := 9 * s
	for y := range mh {
		ty := int(float64(y)/s) & (texSize - 1)
		for x := range w {
			i := y*w + x
			if b.terr[i] != 0 {
				continue
			}
			d := float64(dist[i])
			var c color.RGBA
			if d < haloW {
				c = th.haloColor(int(near[i]), int(d/haloW*haloSteps))
			} else {
				f := math.Min(1, (d-haloW)/(110*s))
				tv := float64(tex.sea[ty*texSize+int(float64(x)/s)&(texSize-1)]) - 128
				l := int(math.Round(math.Sqrt(f)*float64(seaLevels-1) + tv/128*2.5))
				c = th.seaColor(max(0, min(seaLevels-1, l)))
			}
			copy(b.base[4*i:], []uint8{c.R, c.G, c.B, 255})
		}
	}
	fillRect(baseImg, b.panel, th.panelBg)
	fillRect(baseImg, b.rule(), th.gold)

	// Badges sit on the anchors, large enough for digits that read when a
	// phone shows the image 400 px wide (see newFaces).
	b.badgeR = 25 * s
	b.anchor = make([][2]float64, m.Len())
	for i, t := range geo.Territories {
		b.anchor[i] = [2]float64{t.Anchor[0] * k, t.Anchor[1] * k}
	}
	separateBadges(b.anchor, b.badgeR*2+6*s, w, mh)

	// Connectors for sea borders.
	for _, c := range geo.Connectors {
		b.conns = append(b.conns, connector{a: c.A, b: c.B, wrap: c.Wrap,
			from: [2]float64{c.From[0] * k, c.From[1] * k}, to: [2]float64{c.To[0] * k, c.To[1] * k}})
	}
	small, err := face(fs.medium, 13*s)
	if err != nil {
		return nil, err
	}
	drawConnectors(lines, b, th, small)
	b.lines = sparseFrom(lines)

	// The continent legend, in the emptiest corner of the sea.
	legendFaces, err := newLegendFaces(fs, s)
	if err != nil {
		return nil, err
	}
	b.legend = layoutLegend(b, legendFaces)
	drawLegendGround(baseImg, b, th, legendFaces)

	// Names.
	nameFace, err := face(fs.bold, 15*s)
	if err != nil {
		return nil, err
	}
	b.labelAt, err = layoutLabels(b, nameFace)
	if err != nil {
		return nil, err
	}
	names := image.NewRGBA(image.Rect(0, 0, w, b.h))
	for _, l := range b.labelAt {
		for j, line := range l.lines {
			cy := l.cy - l.lineH*float64(len(l.lines)-1)/2 + l.lineH*float64(j)
			drawTextHalo(names, nameFace, line, l.cx, cy, 1.6*s, th.labelFg, th.labelHalo)
		}
	}
	b.labels = sparseFrom(names)
	b.bannerAt = placeBanner(b)
	return b, nil
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

// matchGeometry checks that geo draws map m: same territories, in order.
func matchGeometry(geo *world.Geometry, m *state.Map) error {
	if len(geo.Territories) != m.Len() {
		return fmt.Errorf("render: geometry %q has %d territories, map has %d", geo.Map, len(geo.Territories), m.Len())
	}
	for i, t := range geo.Territories {
		if t.Name != m.Territories[i].Name {
			return fmt.Errorf("render: geometry %q territory %d is %q, map has %q", geo.Map, i, t.Name, m.Territories[i].Name)
		}
	}
	return nil
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

// drawConnectors draws the sea borders as dashed lines with a dot at each
// end. Short ones are lengthened so they show; the Alaska–Kamchatka kind,
// which crosses the map's edge, is drawn leaving one side and arriving at
// the other, each end labelled with where it leads.
func drawConnectors(dst *image.RGBA, b *board, th *theme, small font.Face) {
	dc := gg.NewContextForRGBA(dst)
	s := b.s
	minLen := 30 * s
	for _, c := range b.conns {
		fx, fy, tx, ty := c.from[0], c.from[1], c.to[0], c.to[1]
		dx, dy := tx-fx, ty-fy
		l := math.Hypot(dx, dy)
		if l < 1e-6 {
			ax, ay := b.anchor[c.a][0], b.anchor[c.a][1]
			bx, by := b.anchor[c.b][0], b.anchor[c.b][1]
			dx, dy, l = bx-ax, by-ay, math.Hypot(bx-ax, by-ay)
		}
		ux, uy := dx/l, dy/l
		if c.wrap {
			// Run each end 50 px past its edge.
			ext := 50 * s
			segs := [][4]float64{{fx, fy, fx + ux*(l+ext), fy + uy*(l+ext)}}
			w := float64(b.w)
			shift := w
			if tx > fx {
				shift = -w
			}
			segs = append(segs, [4]float64{tx + shift, ty, tx + shift - ux*(l+ext), ty - uy*(l+ext)})
			for _, sg := range segs {
				dashedLine(dc, sg[0], sg[1], sg[2], sg[3], s, th)
				dot(dc, sg[0], sg[1], s, th)
			}
			// Say where each end leads, on the side of the line with less land.
			na, nb := b.m.Territories[c.a].Name, b.m.Territories[c.b].Name
			for _, e := range []struct {
				x, y float64
				name string
			}{{fx, fy, nb}, {tx + shift, ty, na}} {
				text := "to " + e.name
				tw := textWidth(small, text)
				th2 := capHeight(small)
				x := math.Max(5*s+tw/2, math.Min(w-5*s-tw/2, e.x))
				best, bestLand := frect{}, math.Inf(1)
				var by float64
				for _, dy := range []float64{-15 * s, 15 * s, -30 * s, 30 * s} {
					r := frect{x - tw/2 - 3*s, e.y + dy - th2/2 - 3*s, x + tw/2 + 3*s, e.y + dy + th2/2 + 3*s}
					if land := b.landIn(r); land < bestLand {
						best, bestLand, by = r, land, e.y+dy
					}
				}
				drawTextHalo(dst, small, text, x, by, 1.2*s, th.connector, th.labelHalo)
				b.obstacles = append(b.obstacles, best)
			}
			continue
		}
		if l < minLen {
			mx, my := (fx+tx)/2, (fy+ty)/2
			fx, fy = mx-ux*minLen/2, my-uy*minLen/2
			tx, ty = mx+ux*minLen/2, my+uy*minLen/2
		}
		dashedLine(dc, fx, fy, tx, ty, s, th)
		dot(dc, fx, fy, s, th)
		dot(dc, tx, ty, s, th)
	}
}

func dashedLine(dc *gg.Context, x0, y0, x1, y1, s float64, th *theme) {
	dc.SetLineCapRound()
	dc.SetDash()
	dc.SetLineWidth(4.2 * s)
	dc.SetColor(color.RGBA{th.labelHalo.R, th.labelHalo.G, th.labelHalo.B, 150})
	dc.SetDash(7*s, 5*s)
	dc.DrawLine(x0, y0, x1, y1)
	dc.Stroke()
	dc.SetLineWidth(2.2 * s)
	dc.SetColor(th.connector)
	dc.DrawLine(x0, y0, x1, y1)
	dc.Stroke()
	dc.SetDash()
}

func dot(dc *gg.Context, x, y, s float64, th *theme) {
	dc.DrawCircle(x, y, 3.6*s)
	dc.SetColor(th.labelHalo)
	dc.Fill()
	dc.DrawCircle(x, y, 2.4*s)
	dc.SetColor(th.connector)
	dc.Fill()
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
