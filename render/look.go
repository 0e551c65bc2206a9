package render

import (
	"image/color"

	"github.com/riskbot/riskbot/state"
)

// look is the colours one kind of map is drawn and encoded with: the land
// shades of each seat and of neutral land, and the palette of at most 256
// colours the frame is mapped to. Each kind of map has its own look (the
// classic palette is full, and changing it would change classic images);
// a renderer makes each once, and a worker switches palettes with the
// board it draws.
type look struct {
	// ramps are the land shades per seat (neutralBase of them), then those
	// of neutral land: one ramp, or one per terrain.
	ramps [][levels]color.RGBA
	quant *quantizer
}

// neutralBase is the index of the first neutral ramp in look.ramps.
const neutralBase = state.MaxSeats

// land returns the shades of a territory of terrain t owned by owner
// (state.Neutral when nobody does). With one neutral ramp, every terrain
// shares it.
func (l *look) land(owner int, t state.Terrain) *[levels]color.RGBA {
	return &l.ramps[l.ramp(owner, t)]
}

// ramp is the index in l.ramps of the shades land returns.
func (l *look) ramp(owner int, t state.Terrain) int {
	if owner >= 0 && owner < neutralBase {
		return owner
	}
	return neutralBase + int(t)%(len(l.ramps)-neutralBase)
}

// seatRamps returns the land shades of every seat, padded with neutral
// ones up to neutralBase so that the neutral ramps always start there.
func seatRamps(th *theme, seats []Color) [][levels]color.RGBA {
	var out [][levels]color.RGBA
	for _, c := range seats {
		out = append(out, ramp(c.RGBA))
	}
	for len(out) < neutralBase {
		out = append(out, ramp(th.neutral))
	}
	return out
}

// newClassicLook is the classic board's look: one neutral parchment, and a
// palette of the board's colours (every owner's land shades, the sea, the
// continents' glows, the panel's colours).
func newClassicLook(th *theme, seats []Color) *look {
	l := &look{ramps: append(seatRamps(th, seats), ramp(th.neutral))}
	q := &quantizer{}
	addExact(q, []color.RGBA{th.ink, rgb(0xffffff), th.text, th.dim, th.gold, th.panelBg, th.card, th.cardNow,
		th.connector, th.labelHalo, th.coast, th.border, th.continentBorder, th.neutral}, seats, l.ramps)
	for i := range seaLevels {
		q.add(th.seaColor(i))
	}
	for c := range th.continents {
		q.add(th.continentColor(c))
		for k := range haloSteps {
			q.add(th.haloColor(c, k))
		}
	}
	// Greys for anti-aliased text and lines, and the legend's ground.
	addGreys(q)
	for i := 0; i < seaLevels; i += 3 {
		q.add(mix(th.seaColor(i), color.RGBA{8, 14, 24, 255}, 200.0/255))
	}
	addPanelEdges(q, th, seats)
	q.finish()
	l.quant = q
	return l
}

// gridNeutral is the neutral land of generated maps, by terrain: white, as
// the rule book wants, with a hint of each terrain's colour so that the
// terrains read before anyone owns them (the hero needs four kinds).
var gridNeutral = [...]color.RGBA{
	state.Plain:    rgb(0xedf0cf),
	state.Forest:   rgb(0xcfe6c4),
	state.Mountain: rgb(0xdcd5cf),
	state.Desert:   rgb(0xf7e2b2),
	state.Coastal:  rgb(0xcde7f0),
}

// The colours of generated maps' markers (markers.go).
var (
	pierColor   = rgb(0x3b2a1e) // pontoons: dark wood
	pierLight   = rgb(0x8a6a4c)
	towerColor  = rgb(0x4a4f58) // fortress towers: grey stone
	towerLight  = rgb(0x9aa1ab)
	itemColor   = rgb(0x7b4bd0) // an item nobody has identified
	heroColor   = rgb(0xfff3c4)
	crownColor  = rgb(0xf6c945)
	crownShadow = rgb(0x9a6b0c)
)

// newGridLook is the look of generated maps: neutral land tinted by
// terrain, and a palette with the markers' colours, made on the first
// render of such a map.
func newGridLook(th *theme, seats []Color) *look {
	l := &look{ramps: seatRamps(th, seats)}
	for _, c := range gridNeutral {
		l.ramps = append(l.ramps, ramp(c))
	}
	q := &quantizer{}
	addExact(q, []color.RGBA{th.ink, rgb(0xffffff), th.text, th.dim, th.gold, th.panelBg, th.card, th.cardNow,
		th.labelHalo, th.coast, th.border, th.shadow, pierColor, pierLight, towerColor, towerLight, itemColor,
		heroColor, crownColor, crownShadow}, seats, l.ramps[:len(seats)])
	// Neutral land: every other shade is enough (the nearest stands in).
	for _, r := range l.ramps[neutralBase:] {
		for i := 0; i < levels; i += 2 {
			q.add(r[i])
		}
	}
	for i := range seaLevels {
		q.add(th.seaColor(i))
	}
	addGreys(q)
	for _, t := range []float64{0.25, 0.5, 0.75} {
		q.add(mix(th.panelBg, th.text, t))
		q.add(mix(th.card, th.text, t))
		q.add(mix(th.panelBg, th.gold, t))
		q.add(mix(th.card, th.dim, t))
		q.add(mix(th.seaColor(0), th.labelHalo, t))
	}
	addSeatEdges(q, th, seats)
	q.finish()
	l.quant = q
	return l
}

// addExact adds the colours that must come out exactly: flat ones, the
// seats' colours, and every shade of ramps.
func addExact(q *quantizer, flat []color.RGBA, seats []Color, ramps [][levels]color.RGBA) {
	for _, c := range flat {
		q.add(c)
	}
	for _, c := range seats {
		q.add(c.RGBA)
	}
	for _, r := range ramps {
		for _, c := range r {
			q.add(c)
		}
	}
}

// addGreys adds 16 greys, black to white: the edges of anti-aliased text
// and lines come out near them.
func addGreys(q *quantizer) {
	for i := range 16 {
		v := uint8(i * 17)
		q.add(color.RGBA{v, v, v, 255})
	}
}

// addPanelEdges adds the anti-aliased edges of the card and panel text
// and of the banner, and the seats' colours' edges (addSeatEdges).
func addPanelEdges(q *quantizer, th *theme, seats []Color) {
	for _, t := range []float64{0.25, 0.5, 0.75} {
		q.add(mix(th.panelBg, th.text, t))
		q.add(mix(th.card, th.text, t))
		q.add(mix(th.panelBg, th.gold, t))
		q.add(mix(color.RGBA{16, 22, 32, 255}, th.gold, t))
		q.add(mix(th.card, th.dim, t))
	}
	addSeatEdges(q, th, seats)
}

// addSeatEdges adds each seat's colour halfway to ink and halfway to
// white: the anti-aliased edges of badges and swatches.
func addSeatEdges(q *quantizer, th *theme, seats []Color) {
	for _, c := range seats {
		q.add(mix(c.RGBA, th.ink, 0.5))
		q.add(mix(c.RGBA, rgb(0xffffff), 0.5))
	}
}
