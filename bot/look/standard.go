package look

import (
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/render"
)

// StandardPalettes returns the palettes of package render, each with its
// own renderer (which builds its layers on first use), and one per other
// language made when a match first needs it.
func StandardPalettes() map[string]Palette {
	return map[string]Palette{
		command.PaletteStandard:   standard(render.Default),
		command.PaletteColorBlind: standard(render.ColorBlind),
	}
}

// standard is palette p of package render.
func standard(p render.Palette) Palette {
	return Palette{
		Colors: colorNames(p), RGB: colorValues(p),
		Render: render.New(render.Options{Palette: p}),
		In: func(t lang.Tag) Renderer {
			return render.New(render.Options{Palette: p, Lang: t})
		},
	}
}

func colorNames(p render.Palette) []string {
	var names []string
	for _, c := range render.PlayerColors(p) {
		names = append(names, c.Name)
	}
	return names
}

// colorValues are the colours of a palette as 0xRRGGBB, for embeds.
func colorValues(p render.Palette) []int {
	var rgb []int
	for _, c := range render.PlayerColors(p) {
		rgb = append(rgb, int(c.RGBA.R)<<16|int(c.RGBA.G)<<8|int(c.RGBA.B))
	}
	return rgb
}

// PaletteColors are the names and the 0xRRGGBB values of a palette's player
// colours, in turn order.
func PaletteColors(p render.Palette) ([]string, []int) { return colorNames(p), colorValues(p) }
