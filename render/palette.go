package render

import (
	"fmt"
	"image/color"
)

// Palette selects the set of player colours.
type Palette int

// The palettes. Default follows the rule book's seat colours (seed 000):
// red, cyan, yellow, violet, black, pink. ColorBlind uses the Okabe–Ito
// colours, which stay apart for the common forms of colour blindness.
// Either way every seat also has its own badge shape, so colour is never the
// only cue.
const (
	Default Palette = iota
	ColorBlind
)

func (p Palette) String() string {
	switch p {
	case Default:
		return "standard"
	case ColorBlind:
		return "colorblind"
	}
	return fmt.Sprintf("palette(%d)", int(p))
}

// ParsePalette reads a palette name: "standard" or "colorblind", the
// names the bot's /risk options and every command's --palette use. It
// also takes "default", the name risk render and risk replay once
// documented, and the spellings "colourblind" and "color-blind".
func ParsePalette(s string) (Palette, error) {
	switch s {
	case "standard", "default", "":
		return Default, nil
	case "colorblind", "colourblind", "color-blind":
		return ColorBlind, nil
	}
	return 0, fmt.Errorf("render: unknown palette %q (want standard or colorblind)", s)
}

// Color is a player's colour: a name for chat ("Ann (red)") and its value.
type Color struct {
	Name string
	Hex  string // "#rrggbb"
	RGBA color.RGBA
}

func hexColor(name, hex string) Color {
	var r, g, b uint8
	fmt.Sscanf(hex, "#%02x%02x%02x", &r, &g, &b)
	return Color{Name: name, Hex: hex, RGBA: color.RGBA{r, g, b, 255}}
}

// PlayerColors returns the colour of each seat index (up to six seats) in
// palette p. Unknown palettes give the default one.
func PlayerColors(p Palette) []Color {
	if p == ColorBlind {
		return []Color{
			hexColor("vermillion", "#d55e00"),
			hexColor("sky blue", "#56b4e9"),
			hexColor("yellow", "#f0e442"),
			hexColor("green", "#009e73"),
			hexColor("black", "#222222"),
			hexColor("purple", "#cc79a7"),
		}
	}
	return []Color{
		hexColor("red", "#ff0000"),
		hexColor("cyan", "#00ffff"),
		hexColor("yellow", "#ffff00"),
		hexColor("violet", "#8000ff"),
		hexColor("black", "#222222"),
		hexColor("pink", "#ff00ff"),
	}
}

// Shape is a badge outline; each seat has its own, so owners can be told
// apart without colour.
type Shape int

// The badge shapes, by seat index; neutral territories get NeutralShape.
const (
	Circle Shape = iota
	Square
	Diamond
	Hexagon
	Shield
	House
	NeutralShape
)

// SeatShape returns the badge shape of a seat index, or NeutralShape for
// state.Neutral and out-of-range seats.
func SeatShape(seat int) Shape {
	if seat < 0 || seat > int(House) {
		return NeutralShape
	}
	return Shape(seat)
}

var shapeNames = [...]string{"circle", "square", "diamond", "hexagon", "shield", "house", "dot"}

func (s Shape) String() string {
	if s >= 0 && int(s) < len(shapeNames) {
		return shapeNames[s]
	}
	return fmt.Sprintf("shape(%d)", int(s))
}
