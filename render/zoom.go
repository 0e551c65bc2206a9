package render

import (
	"context"
	"errors"
	"fmt"
	"image"
	"math"

	"github.com/riskbot/riskbot/state"
)

// Zoom draws s as Render does and returns, as a PNG, the part of the map
// around the given territories (typically both ends of each of the turn's
// arrows: where the fighting happened), at the full image's scale: a
// second image that a phone shows large enough to read the names as well
// as the numbers. The part is 4:3, at least zoomMinWidth wide at the
// default width, larger when the territories are far apart (up to the whole
// map, which the part never leaves: the panel is not in it).
func (r *Renderer) Zoom(ctx context.Context, s *state.State, territories []int) ([]byte, error) {
	if len(territories) == 0 {
		return nil, errors.New("render: zoom on no territory")
	}
	if s != nil && s.Map != nil {
		for _, t := range territories {
			if t < 0 || t >= s.Map.Len() {
				return nil, fmt.Errorf("render: zoom on unknown territory %d", t)
			}
		}
	}
	return r.render(ctx, s, func(b *board) (image.Rectangle, error) {
		return b.zoomRect(territories), nil
	})
}

// zoomMinWidth is the narrowest zoomed part at refWidth: shown 400 px wide
// on a phone, the classic board's names are then 6 px tall or more as long
// as the part stays under 720 px.
const zoomMinWidth = 560

// zoomRect returns the part of the map that Zoom shows for territories:
// their badges with room for names and markers, widened to 4:3 around
// their middle and kept on the map.
func (b *board) zoomRect(territories []int) image.Rectangle {
	s, R := b.s, b.badgeR
	x0, y0, x1, y1 := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	add := func(r frect) {
		x0, y0 = math.Min(x0, r.x0), math.Min(y0, r.y0)
		x1, y1 = math.Max(x1, r.x1), math.Max(y1, r.y1)
	}
	for _, t := range territories {
		x, y := b.anchor[t][0], b.anchor[t][1]
		add(frect{x - 2.5*R, y - 2.5*R, x + 2.5*R, y + 2.5*R}) // badge, markers
		for _, l := range b.labelAt {
			if l.t == t {
				add(l.box)
			}
		}
	}
	margin := 24 * s
	x0, y0, x1, y1 = x0-margin, y0-margin, x1+margin, y1+margin
	mapW, mapH := float64(b.mw), float64(b.mh)
	w := math.Max(zoomMinWidth*s, math.Max(x1-x0, (y1-y0)*4/3))
	w = math.Min(w, mapW)
	h := math.Min(w*3/4, mapH)
	if h < y1-y0 { // the map is too flat for 4:3 around them
		h = math.Min(y1-y0, mapH)
	}
	cx, cy := (x0+x1)/2, (y0+y1)/2
	left := math.Max(0, math.Min(mapW-w, cx-w/2))
	top := math.Max(0, math.Min(mapH-h, cy-h/2))
	return image.Rect(int(math.Round(left)), int(math.Round(top)), int(math.Round(left+w)), int(math.Round(top+h)))
}

// ZoomOn returns the territories at either end of the arrows the map shows
// (the current turn's moves, or the last turn's when the current one has
// none yet), each once, for Zoom; nil when there are none.
func ZoomOn(s *state.State) []int {
	trail := &s.This
	if trail.Len() == 0 {
		trail = &s.Last
	}
	var out []int
	seen := map[int]bool{}
	for _, a := range trail.Arrows() {
		for _, t := range []int{int(a.From), int(a.To)} {
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out
}
