package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"math"

	"github.com/riskbot/riskbot/state"
)

// Regions is where the territories of a map lie in the images a Renderer
// draws of it, at the images' own scale: what a client needs to make the
// map clickable. It is the board's (where territories are is public, and
// the same every turn): it says nothing of owners or armies. Zoom's crops
// are not covered: their pixels are the full image's, offset by the crop.
type Regions struct {
	// Width and Height are the size of the rendered image.
	Width, Height int
	// Map is the map area; the rest of the image is the players' panel.
	Map image.Rectangle
	// Index is an 8-bit grayscale PNG as large as the image: the value of
	// each pixel is the id + 1 of the territory drawn there, 0 for the
	// sea, the legend, the panel. Lines, names and badges drawn over a
	// territory do not change it. It is shared by every call for the
	// board: read only.
	Index []byte
	// Territories are the map's, by id.
	Territories []Region
}

// Region is where one territory lies in the image.
type Region struct {
	ID   int
	Name string
	// Anchor is the pixel at the centre of the territory's badge, where
	// its armies are drawn (after the badges were pushed apart).
	Anchor image.Point
	// Label is where the territory's name is drawn; nil on maps that
	// leave out names that have no room.
	Label *Label
	// Box bounds the territory's pixels in Index (empty if it has none).
	Box image.Rectangle
}

// Label is where a territory's name is drawn.
type Label struct {
	// At is the pixel at the centre of the name's lines.
	At image.Point
	// Box is the room the lines take, halo included.
	Box image.Rectangle
	// Lines are the name as drawn: one or two lines, perhaps abbreviated.
	Lines []string
}

// Regions returns where the territories of s's map lie in the images this
// renderer draws of s: the same for every state of the map, since only the
// map matters. The index is made on the first call for a board and kept
// with it. Bad input is what Render refuses.
func (r *Renderer) Regions(ctx context.Context, s *state.State) (*Regions, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	if err := validate(s); err != nil {
		return nil, err
	}
	if err := r.init(); err != nil {
		return nil, err
	}
	b, err := r.board(s.Map)
	if err != nil {
		return nil, err
	}
	b.hitOnce.Do(func() { b.hitPNG, b.hitBox, b.hitErr = hitIndex(b) })
	if b.hitErr != nil {
		return nil, b.hitErr
	}
	out := &Regions{Width: b.w, Height: b.h, Map: image.Rect(0, 0, b.mw, b.mh), Index: b.hitPNG,
		Territories: make([]Region, b.m.Len())}
	for t := range out.Territories {
		out.Territories[t] = Region{ID: t, Name: s.Map.Territories[t].Name, Anchor: pixel(b.anchor[t][0], b.anchor[t][1]), Box: b.hitBox[t]}
	}
	for _, l := range b.labelAt {
		out.Territories[l.t].Label = &Label{At: pixel(l.cx, l.cy), Lines: l.lines,
			Box: image.Rect(int(math.Floor(l.box.x0)), int(math.Floor(l.box.y0)), int(math.Ceil(l.box.x1)), int(math.Ceil(l.box.y1)))}
	}
	return out, nil
}

// pixel is the pixel that holds the point (x, y).
func pixel(x, y float64) image.Point {
	return image.Pt(int(math.Floor(x)), int(math.Floor(y)))
}

// hitIndex encodes b's territories as Regions.Index and returns each
// territory's bounding box in it.
func hitIndex(b *board) ([]byte, []image.Rectangle, error) {
	img := image.NewGray(image.Rect(0, 0, b.w, b.h))
	copy(img.Pix, b.terr) // b.terr is w*mh, the image's rows above the panel
	boxes := make([]image.Rectangle, b.m.Len())
	for y := range b.mh {
		row := b.terr[y*b.w : y*b.w+b.mw]
		for x := 0; x < len(row); x++ {
			v := int(row[x])
			if v == 0 || v > len(boxes) {
				continue
			}
			// A run of one territory grows its box once.
			end := x + 1
			for end < len(row) && int(row[end]) == v {
				end++
			}
			boxes[v-1] = boxes[v-1].Union(image.Rect(x, y, end, y+1))
			x = end - 1
		}
	}
	// Made once per board: the default level (33 KB in about 35 ms for
	// the classic board at 1600 px) against 30 KB in 400 ms for the best
	// (docs/performance.md, "Hit regions").
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.DefaultCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, nil, fmt.Errorf("render: encode the regions' index: %w", err)
	}
	return buf.Bytes(), boxes, nil
}
