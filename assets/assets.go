// Package assets embeds the data files the program ships with: maps and the
// map geometry and textures the renderer draws. Generated files sit beside the
// tool that made them.
package assets

import "embed"

// Maps holds the board definitions, maps/NAME.json.
//
//go:embed maps/*.json
var Maps embed.FS
