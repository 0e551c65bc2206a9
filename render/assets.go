package render

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"io/fs"

	"github.com/riskbot/riskbot/assets"
	"github.com/riskbot/riskbot/render/internal/world"
	"github.com/riskbot/riskbot/state"
)

// texSize is the side of the terrain tiles, a power of two.
const texSize = 256

// textures are the grey shading tiles of each terrain and of the sea.
type textures struct {
	terrain [state.NumTerrains][]uint8
	sea     []uint8
}

func loadTextures(fsys fs.FS) (*textures, error) {
	var t textures
	read := func(name string) ([]uint8, error) {
		data, err := fs.ReadFile(fsys, "world/textures/"+name+".png")
		if err != nil {
			return nil, fmt.Errorf("render: texture %s: %w", name, err)
		}
		img, err := png.Decode(bytes.NewReader(data))
		if err != nil {
			return nil, fmt.Errorf("render: texture %s: %w", name, err)
		}
		g, ok := img.(*image.Gray)
		if !ok || g.Rect.Dx() != texSize || g.Rect.Dy() != texSize || g.Stride != texSize {
			return nil, fmt.Errorf("render: texture %s is not a %dx%d grey image", name, texSize, texSize)
		}
		return g.Pix, nil
	}
	for i := range state.NumTerrains {
		pix, err := read(state.Terrain(i).String())
		if err != nil {
			return nil, err
		}
		t.terrain[i] = pix
	}
	sea, err := read("sea")
	if err != nil {
		return nil, err
	}
	t.sea = sea
	return &t, nil
}

// loadGeometry returns the geometry drawn for the map named name, or an
// error if the map has none.
func loadGeometry(fsys fs.FS, name string) (*world.Geometry, []uint8, error) {
	meta, err := fs.ReadFile(fsys, "world/"+name+"/geometry.json")
	if err != nil {
		return nil, nil, fmt.Errorf("render: map %q has no geometry to draw (only the classic board has one)", name)
	}
	mask, err := fs.ReadFile(fsys, "world/"+name+"/mask.png")
	if err != nil {
		return nil, nil, fmt.Errorf("render: map %q has no mask: %w", name, err)
	}
	g, pix, err := world.Decode(meta, mask)
	if err != nil {
		return nil, nil, fmt.Errorf("render: map %q: %w", name, err)
	}
	return g, pix, nil
}

// worldFS is the embedded geometry and textures.
func worldFS() fs.FS { return assets.World }
