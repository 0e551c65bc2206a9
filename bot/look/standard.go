package look

import (
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/render"
)

// StandardPalettes returns the palettes of package render, each with its
// own renderer (which builds its layers on first use).
func StandardPalettes() map[string]Palette {
	return map[string]Palette{
		command.PaletteStandard:   {Colors: colorNames(render.Default), RGB: colorValues(render.Default), Render: render.New(render.Options{Palette: render.Default})},
		command.PaletteColorBlind: {Colors: colorNames(render.ColorBlind), RGB: colorValues(render.ColorBlind), Render: render.New(render.Options{Palette: render.ColorBlind})},
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

// Colors are the names and the 0xRRGGBB values of a palette's player
// colours, in turn order.
func Colors(p render.Palette) ([]string, []int) { return colorNames(p), colorValues(p) }
