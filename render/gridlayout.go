package render

import "github.com/riskbot/riskbot/state"

// gridCardRects lays out n player cards down the panel, under its header.
func (b *board) gridCardRects(n int) []frect {
	s := b.s
	p := b.panel
	x0, x1 := float64(p.Min.X)+16*s, float64(p.Max.X)-14*s
	top := float64(p.Min.Y) + 134*s
	h, gap := 84*s, 9*s
	out := make([]frect, n)
	for i := range out {
		y := top + float64(i)*(h+gap)
		out[i] = frect{x0, y, x1, y + h}
	}
	return out
}

// gridKeyTop is where the key starts, under the sixth card's place.
func (b *board) gridKeyTop() float64 {
	r := b.gridCardRects(state.MaxSeats)
	return r[len(r)-1].y1 + 22*b.s
}

// gridKeyRow is the height of a row of the key.
func (b *board) gridKeyRow() float64 { return 34 * b.s }
