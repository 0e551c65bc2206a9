// Package world defines the generated board geometry shared by the map
// generator (render/internal/mapgen) and the renderer: a territory-index
// mask and its metadata.
package world

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
)

// Sea is the mask value of water; territory i is stored as i+1.
const Sea = 0

// Geometry is the metadata written beside a board's mask.
type Geometry struct {
	// Map is the name of the board (state.Map.Name) this geometry draws.
	Map string `json:"map"`
	// Width and Height are the mask's size in pixels.
	Width  int `json:"width"`
	Height int `json:"height"`
	// Territories are in the map's order; names must match it.
	Territories []Territory `json:"territories"`
	// Contacts are the pairs of territories whose land touches (lower id
	// first); every one is a border of the map.
	Contacts [][2]int `json:"contacts"`
	// Connectors are the borders without a land contact, drawn as lines.
	Connectors []Connector `json:"connectors"`
	// Projection documents how the mask was made.
	Projection Projection `json:"projection"`
	Source     string     `json:"source"`
}

// Territory is where a territory sits on the mask.
type Territory struct {
	Name string `json:"name"`
	// Anchor is the point of the territory farthest from its edges (mask
	// pixels); Room is that distance.
	Anchor [2]float64 `json:"anchor"`
	Room   float64    `json:"room"`
	// Pixels is the territory's area on the mask.
	Pixels int `json:"pixels"`
}

// Connector is a border with no land contact: a line from a point of A to a
// point of B. When Wrap is set the line leaves the map at one side and comes
// back at the other (To then lies outside the mask, shifted by its width).
type Connector struct {
	A    int        `json:"a"`
	B    int        `json:"b"`
	From [2]float64 `json:"from"`
	To   [2]float64 `json:"to"`
	Wrap bool       `json:"wrap,omitempty"`
}

// Projection records the parameters of the board's projection.
type Projection struct {
	Name      string  `json:"name"`
	Lon0      float64 `json:"lon0"`
	LatMin    float64 `json:"lat_min"`
	LatMax    float64 `json:"lat_max"`
	MagLon    float64 `json:"magnify_lon"`
	MagLat    float64 `json:"magnify_lat"`
	Magnify   float64 `json:"magnify"`
	MagRadius float64 `json:"magnify_radius"`
}

// Decode reads a geometry and its mask (an 8-bit grey PNG) and checks that
// they agree.
func Decode(meta, mask []byte) (*Geometry, []uint8, error) {
	var g Geometry
	if err := json.Unmarshal(meta, &g); err != nil {
		return nil, nil, fmt.Errorf("world: decode geometry: %w", err)
	}
	img, err := png.Decode(bytes.NewReader(mask))
	if err != nil {
		return nil, nil, fmt.Errorf("world: decode mask: %w", err)
	}
	gray, ok := img.(*image.Gray)
	if !ok {
		return nil, nil, fmt.Errorf("world: mask is %T, want 8-bit grey", img)
	}
	b := gray.Bounds()
	if b.Dx() != g.Width || b.Dy() != g.Height {
		return nil, nil, fmt.Errorf("world: mask is %dx%d, geometry says %dx%d", b.Dx(), b.Dy(), g.Width, g.Height)
	}
	pix := gray.Pix
	if gray.Stride != g.Width {
		pix = make([]uint8, g.Width*g.Height)
		for y := range g.Height {
			copy(pix[y*g.Width:], gray.Pix[y*gray.Stride:y*gray.Stride+g.Width])
		}
	}
	n := len(g.Territories)
	for _, v := range pix {
		if int(v) > n {
			return nil, nil, fmt.Errorf("world: mask names territory %d of %d", v, n)
		}
	}
	return &g, pix, nil
}
