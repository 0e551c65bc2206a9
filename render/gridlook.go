package render

import (
	"image/color"

	"github.com/riskbot/riskbot/state"
)

// gridLook is what the boards of generated maps add to the theme: neutral
// land tinted by terrain, the markers' colours, and a palette of their own
// (the classic palette is full, and must not change).
type gridLook struct {
	// ramps are the land shades per seat, then per terrain for neutral
	// land (indexed neutralBase + terrain).
	ramps [][levels]color.RGBA
	quant *quantizer
}

// neutralBase is the index of the first neutral ramp in gridLook.ramps.
const neutralBase = state.MaxSeats

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

// The markers' colours.
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

func newGridLook(th *theme, seats []Color) *gridLook {
	l := &gridLook{}
	for _, c := range seats {
		l.ramps = append(l.ramps, ramp(c.RGBA))
	}
	for len(l.ramps) < neutralBase {
		l.ramps = append(l.ramps, ramp(th.neutral))
	}
	for _, c := range gridNeutral {
		l.ramps = append(l.ramps, ramp(c))
	}
	q := &quantizer{}
	for _, c := range []color.RGBA{th.ink, rgb(0xffffff), th.text, th.dim, th.gold, th.panelBg, th.card, th.cardNow,
		th.labelHalo, th.coast, th.border, th.shadow, pierColor, pierLight, towerColor, towerLight, itemColor,
		heroColor, crownColor, crownShadow} {
		q.add(c)
	}
	for _, c := range seats {
		q.add(c.RGBA)
	}
	for _, r := range l.ramps[:len(seats)] {
		for _, c := range r {
			q.add(c)
		}
	}
	// Neutral land: every other shade is enough (the nearest stands in).
	for _, r := range l.ramps[neutralBase:] {
		for i := 0; i < levels; i += 2 {
			q.add(r[i])
		}
	}
	for i := range seaLevels {
		q.add(th.seaColor(i))
	}
	for i := range 16 {
		v := uint8(i * 17)
		q.add(color.RGBA{v, v, v, 255})
	}
	for _, t := range []float64{0.25, 0.5, 0.75} {
		q.add(mix(th.panelBg, th.text, t))
		q.add(mix(th.card, th.text, t))
		q.add(mix(th.panelBg, th.gold, t))
		q.add(mix(th.card, th.dim, t))
		q.add(mix(th.seaColor(0), th.labelHalo, t))
	}
	for _, c := range seats {
		q.add(mix(c.RGBA, th.ink, 0.5))
		q.add(mix(c.RGBA, rgb(0xffffff), 0.5))
	}
	q.finish()
	l.quant = q
	return l
}
