package render

import (
	"image"
	"image/color"
	"math"

	"github.com/riskbot/riskbot/state"
)

// The steps of buildBoard (pipeline.go) that are the same for every kind of
// map, in the order it runs them (the names' layout, between the badges
// and the banner, is in labels.go); each kind's own steps are in its file,
// classic.go or grid.go.

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
			col, a := rules.colour(th, cov)
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

// textured is the ground of the maps drawn from nothing but their
// territories (the classic board, generated maps): the terrains' textures
// shade the land, and the sea deepens away from the coasts.
type textured struct{}

// ground shades the land by terrain, scaled by the style's contrast, and
// paints the sea.
func (textured) ground(b *board, ly layers, terr []uint8, inside []float32) {
	b.lvl = shadeLand(b.m, ly.tex, terr, inside, b.mw, b.mh, b.w, b.s, b.style.contrast)
	paintSea(ly.base, terr, b, ly.tex, ly.th)
}

// rimLift is how many shades lighter land is d pixels (at refWidth)
// inside its border: a light rim, fading out over four and a half.
func rimLift(d float64) int {
	switch {
	case d <= 1.5:
		return 4
	case d <= 2.5:
		return 3
	case d <= 3.5:
		return 2
	case d <= 4.5:
		return 1
	}
	return 0
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
			l += rimLift(float64(inside[y*w+x]) / s)
			lvl[y*stride+x] = uint8(max(0, min(levels-1, l)))
		}
	}
	return lvl
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
