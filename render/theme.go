package render

import (
	"image/color"
	"math"
)

// levels is the number of shades of each owner colour on land: texture and
// relief pick one. The middle level is the owner's colour itself.
const (
	levels   = 17
	midLevel = levels / 2
)

// seaLevels is the number of sea shades, shallow to deep.
const seaLevels = 20

// haloSteps is the number of shades of a continent's coastal glow.
const haloSteps = 5

// theme is the fixed look of the board. It is a value made by newTheme, so
// the package holds no mutable state.
type theme struct {
	neutral                        color.RGBA
	seaShallow, seaDeep            color.RGBA
	coast, border, continentBorder color.RGBA
	continents                     []color.RGBA
	labelFg, labelHalo             color.RGBA
	connector                      color.RGBA
	panelBg, card, cardNow         color.RGBA
	text, dim, gold, shadow        color.RGBA
	ink                            color.RGBA
}

func rgb(hex uint32) color.RGBA {
	return color.RGBA{uint8(hex >> 16), uint8(hex >> 8), uint8(hex), 255}
}

func newTheme() *theme {
	return &theme{
		neutral:         rgb(0xece8de),
		seaShallow:      rgb(0x3d7297),
		seaDeep:         rgb(0x0f2238),
		coast:           rgb(0x0a1420),
		border:          rgb(0x141a22),
		continentBorder: rgb(0x05080c),
		continents: []color.RGBA{
			rgb(0xf4bc52), // North America: amber
			rgb(0xf2825f), // South America: coral
			rgb(0x9cc0ff), // Europe: light blue
			rgb(0xdcaa6e), // Africa: tan
			rgb(0x92d68e), // Asia: green
			rgb(0xd99ae6), // Australia: orchid
		},
		labelFg:   rgb(0xffffff),
		labelHalo: rgb(0x10161e),
		connector: rgb(0xe8eef5),
		panelBg:   rgb(0x141a23),
		card:      rgb(0x212a37),
		cardNow:   rgb(0x34445a),
		text:      rgb(0xf3f5f8),
		dim:       rgb(0xa3aebd),
		gold:      rgb(0xf6c945),
		shadow:    color.RGBA{0, 0, 0, 110},
		ink:       rgb(0x0c1118),
	}
}

// continentColor returns the glow colour of continent c.
func (t *theme) continentColor(c int) color.RGBA {
	return t.continents[c%len(t.continents)]
}

// ramp returns the land shades of an owner colour: darker below the middle
// level, lighter above, so a texture shows through any owner's colour.
func ramp(c color.RGBA) [levels]color.RGBA {
	var out [levels]color.RGBA
	for i := range out {
		t := float64(i-midLevel) / float64(midLevel) // -1 .. 1
		out[i] = shade(c, t)
	}
	return out
}

// shade darkens (t < 0) or lightens (t > 0) c; t in [-1, 1].
func shade(c color.RGBA, t float64) color.RGBA {
	f := func(v uint8) uint8 {
		x := float64(v)
		if t < 0 {
			x *= 1 + 0.5*t
		} else {
			x += (255 - x) * 0.42 * t
		}
		return uint8(x + 0.5)
	}
	return color.RGBA{f(c.R), f(c.G), f(c.B), 255}
}

// mix blends a toward b by t in [0, 1].
func mix(a, b color.RGBA, t float64) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8(float64(x) + (float64(y)-float64(x))*t + 0.5) }
	return color.RGBA{f(a.R, b.R), f(a.G, b.G), f(a.B, b.B), 255}
}

// inkOn returns black or white, whichever contrasts more with c (by the
// WCAG contrast ratio).
func (t *theme) inkOn(c color.RGBA) color.RGBA {
	l := relLuminance(c)
	if (l+0.05)/(relLuminance(t.ink)+0.05) >= 1.05/(l+0.05) {
		return t.ink
	}
	return rgb(0xffffff)
}

// cardText is the colour of a player's card's words: dimmed once the
// player is out.
func (t *theme) cardText(out bool) color.RGBA {
	if out {
		return t.dim
	}
	return t.text
}

// relLuminance is the WCAG relative luminance of c.
func relLuminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// seaColor returns sea shade i of seaLevels.
func (t *theme) seaColor(i int) color.RGBA {
	return mix(t.seaShallow, t.seaDeep, float64(i)/float64(seaLevels-1))
}

// haloColor returns step k (0 nearest the coast) of continent c's glow.
func (t *theme) haloColor(c, k int) color.RGBA {
	a := 0.62 * (1 - float64(k)/float64(haloSteps))
	return mix(t.seaColor(0), t.continentColor(c), a)
}
