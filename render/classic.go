package render

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/render/internal/world"
	"github.com/riskbot/riskbot/state"
)

// The classic world board: territories from a mask of Natural Earth's
// countries (made by render/internal/mapgen, committed in assets/world),
// borders between continents thicker and their coasts glowing in the
// continent's colour, sea borders as dashed connectors, the continent
// legend in the emptiest corner of the sea (legend.go), and the players'
// panel under the map (classicpanel.go).

// classicPanelHeight is the height of the panel under the classic map at
// refWidth: the first line, then three rows of two-line player cards.
const classicPanelHeight = 336

// classicKind is the kind of maps drawn from a geometry: the classic board.
type classicKind struct {
	textured
	geo  *world.Geometry
	mask []uint8 // geo.Width x geo.Height: territory id + 1, or 0 for sea
}

// frame gives the map the whole width, as tall as the geometry's
// projection, and puts the panel under it.
func (k *classicKind) frame(b *board, width int) (style, error) {
	geo, s := k.geo, b.s
	b.w, b.mw = width, width
	b.mh = int(math.Round(float64(width) * float64(geo.Height) / float64(geo.Width)))
	b.h = b.mh + int(math.Round(classicPanelHeight*s))
	b.panel = image.Rect(0, b.mh, b.w, b.h)
	return style{
		lines:    continentLines(b.m),
		contrast: 0.8,
		// A glow in the colour of the nearest continent along the coast,
		// then deeper over 110 px.
		sea:       seaStyle{unit: 1, glow: 9 * s, deep: 110 * s, swell: 2.5},
		badge:     25,
		nameSizes: []float64{15},
		nameHalo:  1.6,
		// Europe leaves no choice but names between badges.
		nearBadge: 2,
		wraps:     true,
		armies:    "n.armies",
	}, nil
}

// scale is the size of a mask pixel in the image.
func (k *classicKind) scale(b *board) float64 { return float64(b.w) / float64(k.geo.Width) }

// outline samples the mask.
func (k *classicKind) outline(b *board) []uint8 {
	geo, sc := k.geo, k.scale(b)
	hw, hh := 2*b.mw, 2*b.mh
	hi := make([]uint8, hw*hh)
	for y := range hh {
		my := min(geo.Height-1, int((float64(y)+0.5)/(2*sc)))
		for x := range hw {
			mx := min(geo.Width-1, int((float64(x)+0.5)/(2*sc)))
			hi[y*hw+x] = k.mask[my*geo.Width+mx]
		}
	}
	return hi
}

// thickContinents widens continent borders on land, so that the
// continents read at a glance.
func thickContinents(cls, hi []uint8, hw, hh int) []uint8 {
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
	for i, t := range thick {
		if t && hi[i] != 0 {
			cls[i] = lnContinent
		}
	}
	return cls
}

// classicLineColour draws continent borders darkest, then coasts, then
// the borders within a continent, lightest.
func classicLineColour(th *theme, cov [lnKinds]float64) (color.RGBA, float64) {
	switch {
	case cov[lnContinent] > 0:
		return th.continentBorder, math.Min(1, cov[lnContinent]*1.1+cov[lnCoast])
	case cov[lnCoast] > 0:
		return th.coast, math.Min(1, cov[lnCoast]*1.6)
	case cov[lnBorder] > 0:
		return th.border, math.Min(0.9, cov[lnBorder]*1.5)
	}
	return color.RGBA{}, 0
}

// anchors are the geometry's: placed by hand, to fit Europe.
func (k *classicKind) anchors(b *board, _ []uint8, _ []float32) [][2]float64 {
	sc := k.scale(b)
	out := make([][2]float64, b.m.Len())
	for i, t := range k.geo.Territories {
		out[i] = [2]float64{t.Anchor[0] * sc, t.Anchor[1] * sc}
	}
	return out
}

// features draws the sea borders as connectors on the lines, their notes
// kept clear of names, and the continent legend's ground.
func (k *classicKind) features(b *board, ly layers) error {
	sc := k.scale(b)
	var conns []connector
	for _, c := range k.geo.Connectors {
		conns = append(conns, connector{a: c.A, b: c.B, wrap: c.Wrap,
			from: [2]float64{c.From[0] * sc, c.From[1] * sc}, to: [2]float64{c.To[0] * sc, c.To[1] * sc}})
	}
	small, err := face(ly.fs.medium, 13*b.s)
	if err != nil {
		return err
	}
	drawConnectors(ly.lines, b, conns, ly.th, small)
	// The continent legend, in the emptiest corner of the sea.
	legendFaces, err := newLegendFaces(ly.fs, b.s)
	if err != nil {
		return err
	}
	b.legend = layoutLegend(b, legendFaces, nil)
	drawLegendGround(ly.base, b, ly.th, legendFaces)
	return nil
}

// finish has nothing to add: nothing on the classic board keeps clear of
// the names.
func (k *classicKind) finish(*board, layers) {}

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

// connector is a sea border drawn as a dashed line, in image pixels.
type connector struct {
	a, b     int
	from, to [2]float64
	wrap     bool
}

// drawConnectors draws the sea borders as dashed lines with a dot at each
// end. Short ones are lengthened so they show; the Alaska–Kamchatka kind,
// which crosses the map's edge, is drawn leaving one side and arriving at
// the other, each end labelled with where it leads.
func drawConnectors(dst *image.RGBA, b *board, conns []connector, th *theme, small font.Face) {
	dc := gg.NewContextForRGBA(dst)
	s := b.s
	minLen := 30 * s
	for _, c := range conns {
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
				connectorDot(dc, sg[0], sg[1], s, th)
			}
			// Say where each end leads, on the side of the line with less land.
			na, nb := b.m.Territories[c.a].Name, b.m.Territories[c.b].Name // worded with their article
			for _, e := range []struct {
				x, y float64
				name string
			}{{fx, fy, nb}, {tx + shift, ty, na}} {
				text := b.p.T("render.lane.to", "Place", lang.Place(e.name))
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
		connectorDot(dc, fx, fy, s, th)
		connectorDot(dc, tx, ty, s, th)
	}
}

// dashedLine draws a connector's line, dashed over a halo.
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

// connectorDot marks where a connector meets a coast (laneDot, bolder,
// on generated maps).
func connectorDot(dc *gg.Context, x, y, s float64, th *theme) {
	dc.DrawCircle(x, y, 3.6*s)
	dc.SetColor(th.labelHalo)
	dc.Fill()
	dc.DrawCircle(x, y, 2.4*s)
	dc.SetColor(th.connector)
	dc.Fill()
}

// continentLines are the line rules of a drawn board: coasts, borders, and
// thick borders between continents.
func continentLines(m *state.Map) lineRules {
	cont := func(v uint8) int { return m.Territories[v-1].Continent }
	return lineRules{
		class: func(a, c uint8) uint8 {
			switch {
			case a == 0 || c == 0:
				return lnCoast
			case cont(a) != cont(c):
				return lnContinent
			}
			return lnBorder
		},
		widen:  thickContinents,
		colour: classicLineColour,
	}
}
