package assets

import "embed"

// World holds the generated board geometry (world/NAME/mask.png and
// geometry.json) and the terrain textures (world/textures/*.png) the renderer
// draws with. render/internal/mapgen makes them; world/README.md says how and
// under which licences.
//
//go:embed world/classic/mask.png world/classic/geometry.json world/textures/*.png
var World embed.FS
