package render

import (
	"image"
	"image/color"

	"github.com/fogleman/gg"
)

// The markers of generated maps, around each badge: a capital's crown, a
// hero's token, an item lying on a territory, a fortress's tower (static,
// part of the map), and a port's pontoon. Each shape is a function of a gg
// context (the ...Mark functions), so that the panel's key draws the same
// marks.

// drawCrown draws a capital's crown centred on p, w wide.
func (wk *worker) drawCrown(p [2]float64, w float64) {
	at := disc(p[0], p[1], w/2+3*wk.s) // and its outline
	if wk.planning {
		wk.dirty.mark(at)
		return
	}
	wk.memoized(memoKey{kind: memoCrown, x: p[0], y: p[1], r: w}, at, nil, func() { crownMark(wk.dc, p[0], p[1], w, wk.s) })
}

func crownMark(dc *gg.Context, x, y, w, s float64) {
	h := w * 0.72
	x0, y0 := x-w/2, y-h/2
	path := func() {
		dc.MoveTo(x0, y0+h)
		dc.LineTo(x0, y0+h*0.25)
		dc.LineTo(x0+w*0.27, y0+h*0.58)
		dc.LineTo(x, y0)
		dc.LineTo(x0+w*0.73, y0+h*0.58)
		dc.LineTo(x0+w, y0+h*0.25)
		dc.LineTo(x0+w, y0+h)
		dc.ClosePath()
	}
	dc.SetLineJoinRound()
	path()
	dc.SetLineWidth(4.2 * s)
	dc.SetColor(color.RGBA{12, 17, 24, 255})
	dc.Stroke()
	path()
	dc.SetColor(crownColor)
	dc.Fill()
	dc.DrawRectangle(x0, y0+h*0.78, w, h*0.22)
	dc.SetColor(crownShadow)
	dc.Fill()
}

// drawHero draws a hero's token centred on p: a pale disc with a sword,
// ringed in its owner's colour.
func (wk *worker) drawHero(p [2]float64, r float64, seat int) {
	if wk.planning {
		wk.dirty.mark(heroBox(p[0], p[1], r, wk.s))
		return
	}
	wk.memoHero(p[0], p[1], r, wk.colors[seat].RGBA, false)
}

// heroBox is where heroMark draws: the token and its shadow.
func heroBox(x, y, r, s float64) image.Rectangle { return disc(x, y, r+2*s) }

// memoHero draws a hero's token ringed in ring, crossed out when dead.
func (wk *worker) memoHero(x, y, r float64, ring color.RGBA, dead bool) {
	dc, s := wk.dc, wk.s
	k := memoKey{kind: memoHero, x: x, y: y, r: r, a: int(ring.R)<<16 | int(ring.G)<<8 | int(ring.B)}
	if dead {
		k.kind = memoDeadHero
	}
	wk.memoized(k, heroBox(x, y, r, s), nil, func() {
		heroMark(dc, x, y, r, s, ring, wk.th)
		if dead {
			dc.SetLineWidth(3 * s)
			dc.SetColor(rgb(0xe04040))
			dc.DrawLine(x-9*s, y-9*s, x+9*s, y+9*s)
			dc.Stroke()
		}
	})
}

func heroMark(dc *gg.Context, x, y, r, s float64, ring color.RGBA, th *theme) {
	dc.DrawCircle(x+1.2*s, y+1.6*s, r)
	dc.SetColor(th.shadow)
	dc.Fill()
	dc.DrawCircle(x, y, r)
	dc.SetColor(heroColor)
	dc.Fill()
	dc.DrawCircle(x, y, r-1.6*s)
	dc.SetLineWidth(3 * s)
	dc.SetColor(ring)
	dc.Stroke()
	dc.DrawCircle(x, y, r)
	dc.SetLineWidth(1.6 * s)
	dc.SetColor(th.ink)
	dc.Stroke()
	// A sword, point up.
	k := r * 0.62
	dc.SetLineCapRound()
	dc.SetColor(th.ink)
	dc.SetLineWidth(2.6 * s)
	dc.DrawLine(x, y-k, x, y+k*0.9)
	dc.Stroke()
	dc.SetLineWidth(2.4 * s)
	dc.DrawLine(x-k*0.55, y+k*0.35, x+k*0.55, y+k*0.35)
	dc.Stroke()
}

// drawItem draws an item lying on a territory, centred on p: a chest with a
// question mark, or, for the fat bonus, a gold star.
func (wk *worker) drawItem(p [2]float64, fat bool, r float64) {
	at := disc(p[0], p[1], 1.25*r+2*wk.s) // the star's points and outline, the chest's shadow
	if wk.planning {
		wk.dirty.mark(at)
		return
	}
	k := memoKey{kind: memoItem, x: p[0], y: p[1], r: r}
	if fat {
		k.a = 1
	}
	wk.memoized(k, at, nil, func() { itemMark(wk.dc, wk.canvas, wk.f, p[0], p[1], r, wk.s, fat, wk.th) })
}

func itemMark(dc *gg.Context, dst *image.RGBA, f *faces, x, y, r, s float64, fat bool, th *theme) {
	dc.SetLineJoinRound()
	if fat {
		star(dc, x, y, r*1.25)
		dc.SetLineWidth(4 * s)
		dc.SetColor(th.ink)
		dc.StrokePreserve()
		dc.SetColor(crownColor)
		dc.Fill()
		star(dc, x, y, r*0.5)
		dc.SetColor(rgb(0xffffff))
		dc.Fill()
		return
	}
	dc.DrawRoundedRectangle(x-r+1.2*s, y-r+1.6*s, 2*r, 2*r, 0.35*r)
	dc.SetColor(th.shadow)
	dc.Fill()
	dc.DrawRoundedRectangle(x-r, y-r, 2*r, 2*r, 0.35*r)
	fillOutline(dc, itemColor, th.ink, 1.8*s)
	drawTextCentered(dst, f.tag, "?", x, y, rgb(0xffffff))
}

// drawTower draws a fortress's tower centred on p (static: fortresses are
// part of the map).
func drawTower(dst *image.RGBA, p [2]float64, R float64, th *theme) {
	dc := gg.NewContextForRGBA(dst)
	towerMark(dc, p[0], p[1], R*0.55, R/19, th)
}

func towerMark(dc *gg.Context, x, y, r, s float64, th *theme) {
	w, h := 1.5*r, 2*r
	x0, y0 := x-w/2, y-h/2
	m := w / 5 // merlons: three of them, two gaps
	path := func() {
		dc.MoveTo(x0, y0+h)
		dc.LineTo(x0, y0)
		dc.LineTo(x0+m, y0)
		dc.LineTo(x0+m, y0+m)
		dc.LineTo(x0+2*m, y0+m)
		dc.LineTo(x0+2*m, y0)
		dc.LineTo(x0+3*m, y0)
		dc.LineTo(x0+3*m, y0+m)
		dc.LineTo(x0+4*m, y0+m)
		dc.LineTo(x0+4*m, y0)
		dc.LineTo(x0+w, y0)
		dc.LineTo(x0+w, y0+h)
		dc.ClosePath()
	}
	dc.SetLineJoinRound()
	path()
	dc.SetLineWidth(3.6 * s)
	dc.SetColor(th.ink)
	dc.Stroke()
	path()
	dc.SetColor(towerColor)
	dc.Fill()
	// A gate.
	dc.DrawRoundedRectangle(x-w*0.18, y0+h*0.55, w*0.36, h*0.45, w*0.15)
	dc.SetColor(th.ink)
	dc.Fill()
	dc.DrawLine(x0+w*0.15, y0+h*0.32, x0+w*0.85, y0+h*0.32)
	dc.SetLineWidth(1.2 * s)
	dc.SetColor(towerLight)
	dc.Stroke()
}

// drawPier draws a pontoon: a dark plank from the coast out over the water,
// on posts.
func drawPier(dst *image.RGBA, p pier, cell float64, th *theme) {
	dc := gg.NewContextForRGBA(dst)
	pontoonMark(dc, p.x, p.y, p.dx, p.dy, cell, th)
}

func pontoonMark(dc *gg.Context, x, y, dx, dy, cell float64, th *theme) {
	l, hw := cell*1.25, cell*0.24
	ex, ey := x+dx*l, y+dy*l
	nx, ny := -dy*hw, dx*hw // across the plank
	plank := func() {
		dc.MoveTo(x+nx-dx*cell*0.15, y+ny-dy*cell*0.15)
		dc.LineTo(ex+nx, ey+ny)
		dc.LineTo(ex-nx, ey-ny)
		dc.LineTo(x-nx-dx*cell*0.15, y-ny-dy*cell*0.15)
		dc.ClosePath()
	}
	dc.SetLineJoinRound()
	plank()
	dc.SetLineWidth(cell * 0.16)
	dc.SetColor(color.RGBA{th.labelHalo.R, th.labelHalo.G, th.labelHalo.B, 200})
	dc.Stroke()
	plank()
	dc.SetColor(pierColor)
	dc.Fill()
	// Posts at the end, and a line of boards.
	for _, k := range []float64{-1, 1} {
		dc.DrawCircle(ex+nx*k*1.1-dx*cell*0.1, ey+ny*k*1.1-dy*cell*0.1, cell*0.11)
		dc.SetColor(pierLight)
		dc.Fill()
	}
	dc.DrawLine(x+dx*cell*0.1, y+dy*cell*0.1, ex-dx*cell*0.2, ey-dy*cell*0.2)
	dc.SetLineWidth(cell * 0.05)
	dc.SetColor(pierLight)
	dc.Stroke()
}
