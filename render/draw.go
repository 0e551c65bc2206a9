package render

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"

	"github.com/riskbot/riskbot/state"
)

// fogBadge is the army count of a badge that shows a "?": a territory
// out of sight, in a view with fog of war.
const fogBadge = -1

// drawBadge draws a territory's army count in its owner's shape and colour.
// Badges are drawn once per worker into small sprites and then copied:
// counts and owners repeat from render to render.
func (wk *worker) drawBadge(x, y float64, owner int, armies int) {
	k := badgeKey{owner: int8(owner), armies: int32(armies)}
	sp, ok := wk.badges[k]
	if !ok {
		if len(wk.badges) >= maxSprites {
			clear(wk.badges)
		}
		sp = newSprite(wk.badgeSprite(owner, armies), wk.q)
		wk.badges[k] = sp
	}
	at := image.Pt(int(math.Round(x))-sp.img.Rect.Dx()/2, int(math.Round(y))-sp.img.Rect.Dy()/2)
	if wk.planning {
		// Its opaque pixels are written as indices (stamp); the others
		// are blended with what lies under them.
		for _, r := range sp.edge {
			wk.dirty.markRow(int(r.y)+at.Y, int(r.x0)+at.X, int(r.x1)+at.X)
		}
		wk.stamps = append(wk.stamps, stamp{sp, at})
		wk.dirty.sigBox(sp.img.Rect.Add(at))
		return
	}
	if wk.indexed {
		sp.drawMarked(wk.canvas, at, &wk.dirty)
		return
	}
	drawSprite(wk.canvas, sp.img.Rect.Add(at), sp.img)
}

// badgeSprite draws a badge centred in a small transparent image.
func (wk *worker) badgeSprite(owner, armies int) *image.RGBA {
	s, th := wk.s, wk.th
	r := wk.b.badgeR
	text := fmt.Sprint(armies)
	if armies == fogBadge {
		text = "?"
	}
	fc := wk.f.badge
	if len(text) >= 3 {
		fc = wk.f.badgeSmall
	}
	tw := textWidth(fc, text)
	sx := math.Max(1, (tw+8*s)/(1.8*r))
	half := int(math.Ceil(1.3*r*sx + 6*s))
	halfY := int(math.Ceil(1.3*r + 6*s))
	img := image.NewRGBA(image.Rect(0, 0, 2*half, 2*halfY))
	dc := gg.NewContextForRGBA(img)
	x, y := float64(half), float64(halfY)
	fill, sh := th.neutral, NeutralShape
	if owner >= 0 {
		fill, sh = wk.colors[owner].RGBA, SeatShape(owner)
	}
	shapePath(dc, sh, x+1.6*s, y+2.2*s, r, sx)
	dc.SetColor(th.shadow)
	dc.Fill()
	shapePath(dc, sh, x, y, r, sx)
	dc.SetLineJoinRound()
	fillOutline(dc, fill, th.ink, 3.2*s)
	// Bolder than Go Bold: the digits drawn twice, a little apart, so
	// their strokes survive a phone's shrinking to a quarter.
	ink := th.inkOn(fill)
	drawTextCentered(img, fc, text, x-0.4*s, y, ink)
	drawTextCentered(img, fc, text, x+0.4*s, y, ink)
	return img
}

// drawSwatch draws a seat's shape in its colour with its tag inside: the
// key between the panel and the badges.
func (wk *worker) drawSwatch(x, y, r float64, seat int, tag string) {
	at := disc(x, y, 1.25*r+wk.s) // the largest shape, and its outline
	if wk.planning {
		wk.dirty.mark(at)
		return
	}
	wk.memoized(memoKey{kind: memoSwatch, x: x, y: y, r: r, a: seat, tag: tag}, at, nil, func() { wk.swatch(x, y, r, seat, tag) })
}

func (wk *worker) swatch(x, y, r float64, seat int, tag string) {
	dc, s, th := wk.dc, wk.s, wk.th
	fill := wk.colors[seat].RGBA
	shapePath(dc, SeatShape(seat), x, y, r, 1)
	dc.SetLineJoinRound()
	fillOutline(dc, fill, th.ink, 2*s)
	if tag != "" {
		fc := wk.f.tag
		switch {
		case r > 20*s:
			fc = wk.f.tagBig
		case r >= 14*s:
			fc = wk.f.tagMid
		}
		drawTextCentered(wk.canvas, fc, tag, x, y, th.inkOn(fill))
	}
}

// arrowAt draws arrow a from (x0, y0) to (x1, y1), bent a little so that
// opposite moves do not cover each other. Conquests are solid and thick,
// failed attacks dashed, fortifications dotted. A number other than 0 is
// written in a disc halfway along: the launch order of attacks, in the
// mover's colour once launched (number > 0), white while only planned
// (number < 0, for -order).
func (wk *worker) arrowAt(a state.Arrow, x0, y0, x1, y1 float64, number int) {
	if !wk.begin(elemKey(elemArrow, uint64(a.Kind), uint64(a.Seat)+1, f64(x0), f64(y0), f64(x1), f64(y1), uint64(number))) {
		return
	}
	dc, s, th := wk.dc, wk.s, wk.th
	dx, dy := x1-x0, y1-y0
	l := math.Hypot(dx, dy)
	if l < 1 {
		return
	}
	ux, uy := dx/l, dy/l
	gap := wk.b.badgeR + 3*s
	if l < 2*gap+14*s {
		gap = math.Max(0, (l-14*s)/2)
	}
	sx, sy := x0+ux*gap, y0+uy*gap
	ex, ey := x1-ux*gap, y1-uy*gap
	bend := 0.16 * (l - 2*gap)
	cx, cy := (sx+ex)/2-uy*bend, (sy+ey)/2+ux*bend
	col := th.neutral
	if a.Seat >= 0 && int(a.Seat) < len(wk.colors) {
		col = wk.colors[a.Seat].RGBA
	}
	width := 4.6 * s
	var dash []float64
	switch a.Kind {
	case state.ArrowConquest:
		width = 7 * s
	case state.ArrowAttack:
		dash = []float64{11 * s, 7 * s}
	case state.ArrowFortify:
		dash = []float64{1.5 * s, 9 * s}
		width = 5.4 * s
	}
	// The head: a triangle along the curve's last tangent.
	tx, ty := ex-cx, ey-cy
	tl := math.Hypot(tx, ty)
	tx, ty = tx/tl, ty/tl
	hl, hw := 15*s+width, 8*s+width*0.6
	bx, by := ex-tx*hl, ey-ty*hl
	// Shorten the shaft so it ends inside the head.
	stroke := func(c color.Color, lw float64, d []float64) {
		dc.SetLineCapRound()
		dc.SetDash(d...)
		dc.SetLineWidth(lw)
		dc.SetColor(c)
		dc.MoveTo(sx, sy)
		quadTo(dc, sx, sy, cx, cy, bx+tx*2*s, by+ty*2*s)
		dc.Stroke()
		dc.SetDash()
	}
	head := func() {
		dc.MoveTo(ex, ey)
		dc.LineTo(bx-ty*hw, by+tx*hw)
		dc.LineTo(bx+ty*hw, by-tx*hw)
		dc.ClosePath()
	}
	if wk.planning {
		wk.dirty.markArrow(sx, sy, cx, cy, bx+tx*2*s, by+ty*2*s, width+6*s)
		// The head and its outline.
		wk.dirty.mark(box(min(ex, bx-hw, bx+hw)-3*s, min(ey, by-hw, by+hw)-3*s, max(ex, bx-hw, bx+hw)+3*s, max(ey, by-hw, by+hw)+3*s))
		if number != 0 {
			mx, my := 0.25*sx+0.5*cx+0.25*bx, 0.25*sy+0.5*cy+0.25*by
			wk.dirty.mark(disc(mx, my, math.Max(13*s, (textWidth(wk.f.stat, fmt.Sprint(max(number, -number)))+10*s)/2)+3*s))
		}
		return
	}
	// Dark, then white, then the seat's colour: it reads on any ground,
	// its own colour included.
	outline := color.RGBA{th.ink.R, th.ink.G, th.ink.B, 235}
	white := rgb(0xffffff)
	if dash == nil {
		stroke(outline, width+6*s, nil)
		stroke(white, width+2.6*s, nil)
	} else {
		stroke(outline, width+6*s, dash)
		stroke(white, width+2.6*s, dash)
	}
	dc.SetLineJoinRound()
	head()
	dc.SetColor(outline)
	dc.SetLineWidth(6 * s)
	dc.Stroke()
	head()
	dc.SetColor(white)
	dc.SetLineWidth(2.6 * s)
	dc.StrokePreserve()
	dc.SetColor(col)
	dc.Fill()
	stroke(col, width, dash)
	if number != 0 {
		// The curve's point at t = 1/2.
		mx := 0.25*sx + 0.5*cx + 0.25*bx
		my := 0.25*sy + 0.5*cy + 0.25*by
		fill, ring := col, white
		if number < 0 {
			number, fill, ring = -number, white, col
		}
		text := fmt.Sprint(number)
		fc := wk.f.stat
		rad := math.Max(13*s, (textWidth(fc, text)+10*s)/2)
		dc.DrawCircle(mx, my, rad+2*s)
		dc.SetColor(outline)
		dc.Fill()
		dc.DrawCircle(mx, my, rad)
		fillOutline(dc, fill, ring, 2.2*s)
		drawTextCentered(wk.canvas, fc, text, mx, my, th.inkOn(fill))
	}
}

// quadTo adds to dc's path the quadratic curve from (x0, y0), where the
// path is, through control point (x1, y1) to (x2, y2), as the fewest
// straight segments that stay within flatTol of it. gg would cut it into
// a segment a pixel of its length, and its stroker then joins each to the
// next with a round join: two thirds of an arrow's time.
func quadTo(dc *gg.Context, x0, y0, x1, y1, x2, y2 float64) {
	// Uniform steps of a quadratic stray at most |p0 - 2p1 + p2| / (8n²)
	// from it.
	dd := math.Hypot(x0-2*x1+x2, y0-2*y1+y2)
	n := max(1, min(64, int(math.Ceil(math.Sqrt(dd/(8*flatTol))))))
	for i := 1; i <= n; i++ {
		t := float64(i) / float64(n)
		u := 1 - t
		dc.LineTo(u*u*x0+2*u*t*x1+t*t*x2, u*u*y0+2*u*t*y1+t*t*y2)
	}
}

// flatTol is how far, in pixels, quadTo's segments may stray from their
// curve: below what antialiasing shows.
const flatTol = 0.05

// fillOutline fills dc's current path in fill, then strokes it in line,
// width wide.
func fillOutline(dc *gg.Context, fill, line color.Color, width float64) {
	dc.SetColor(fill)
	dc.FillPreserve()
	dc.SetLineWidth(width)
	dc.SetColor(line)
	dc.Stroke()
}
