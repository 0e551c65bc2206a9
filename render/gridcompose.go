package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"

	"github.com/fogleman/gg"

	"github.com/riskbot/riskbot/state"
)

// The markers' colours.
var (
	pierColor   = rgb(0x3b2a1e) // pontoons: dark wood
	pierLight   = rgb(0x8a6a4c)
	towerColor  = rgb(0x4a4f58) // fortress towers: grey stone
	towerLight  = rgb(0x9aa1ab)
	itemColor   = rgb(0x7b4bd0) // an item nobody has identified
	heroColor   = rgb(0xfff3c4)
	crownColor  = rgb(0xf6c945)
	crownShadow = rgb(0x9a6b0c)
)

// composeGrid draws a generated map's whole frame on the worker's canvas.
func (wk *worker) composeGrid(s *state.State) {
	b, gb, look := wk.b, wk.b.grid, wk.r.gridLook
	pix := wk.canvas.Pix
	copy(pix, b.base)
	// Land: owners' colours, neutral land by terrain; shaded by texture.
	rows := make([]*[levels]color.RGBA, len(s.Terr))
	for t, tr := range s.Terr {
		rows[t] = look.land(tr.Owner, s.Map.Territories[t].Terrain)
	}
	for y := range b.h {
		row := y * b.w
		for i, v := range b.terr[row : row+gb.side] {
			if v == 0 {
				continue
			}
			c := rows[v-1][b.lvl[row+i]]
			o := 4 * (row + i)
			pix[o], pix[o+1], pix[o+2], pix[o+3] = c.R, c.G, c.B, 255
		}
	}
	b.lines.over(pix)
	for t, tr := range s.Terr {
		if tr.Port && gb.piers[t] != nil {
			gb.piers[t].over(pix)
		}
	}
	// Arrows: this turn's, else the last turn's; in a capitals match the
	// engine numbers launched attacks by their launch order (Count), and
	// the attacks planned but not launched yet are drawn with their
	// numbers too, hollow.
	trail := &s.This
	if trail.Len() == 0 {
		trail = &s.Last
	}
	capitals := s.Options.Rules == state.Capitals
	for _, a := range trail.Arrows() {
		num := 0
		if capitals && a.Kind != state.ArrowFortify && a.Count > 0 {
			num = int(a.Count)
		}
		wk.arrowAt(a, b.anchor[a.From][0], b.anchor[a.From][1], b.anchor[a.To][0], b.anchor[a.To][1], num)
	}
	if capitals {
		for k, p := range s.Cap.Planned() {
			a := state.Arrow{From: p.From, To: p.To, Kind: state.ArrowAttack, Seat: int8(s.Current)}
			wk.arrowAt(a, b.anchor[p.From][0], b.anchor[p.From][1], b.anchor[p.To][0], b.anchor[p.To][1], -(k + 1))
		}
	}
	b.labels.over(pix)
	for t, tr := range s.Terr {
		wk.drawBadge(b.anchor[t][0], b.anchor[t][1], tr.Owner, tr.Armies)
	}
	// Markers: items lying on territories, capitals, heroes.
	for t, tr := range s.Terr {
		if tr.Item != state.NoItem {
			wk.drawItem(gb.slots[t].item, tr.Item == state.ItemFat, b.badgeR*0.66)
		}
	}
	for i, st := range s.Seats {
		c := st.Capitals
		if !st.Alive() {
			continue
		}
		if c.Capital > 0 && int(c.Capital) <= len(s.Terr) {
			wk.drawCrown(gb.slots[c.Capital-1].capital, b.badgeR*1.15)
		}
		if c.Hero > 0 && int(c.Hero) <= len(s.Terr) {
			wk.drawHero(gb.slots[c.Hero-1].hero, b.badgeR*0.7, i)
		}
	}
	wk.names = wk.names[:0]
	for i, st := range s.Seats {
		wk.names = append(wk.names, displayName(drawable(wk.r.fonts.bold, st.Name), i))
	}
	tags := seatTags(wk.names)
	wk.drawGridPanel(s, tags)
	if s.Phase == state.PhaseOver && s.Winner >= 0 {
		wk.drawGridBanner(s, tags)
	}
}

// drawCrown draws a capital's crown centred on p, w wide.
func (wk *worker) drawCrown(p [2]float64, w float64) {
	crown(wk.dc, p[0], p[1], w, wk.s)
}

func crown(dc *gg.Context, x, y, w, s float64) {
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
	hero(wk.dc, p[0], p[1], r, wk.s, wk.r.colors[seat].RGBA, wk.r.th)
}

func hero(dc *gg.Context, x, y, r, s float64, ring color.RGBA, th *theme) {
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
	item(wk.dc, wk.canvas, wk.f, p[0], p[1], r, wk.s, fat, wk.r.th)
}

func item(dc *gg.Context, dst *image.RGBA, f *faces, x, y, r, s float64, fat bool, th *theme) {
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
	dc.SetColor(itemColor)
	dc.FillPreserve()
	dc.SetLineWidth(1.8 * s)
	dc.SetColor(th.ink)
	dc.Stroke()
	drawTextCentered(dst, f.tag, "?", x, y, rgb(0xffffff))
}

// drawTower draws a fortress's tower centred on p (static: fortresses are
// part of the map).
func drawTower(dst *image.RGBA, p [2]float64, R float64, th *theme) {
	dc := gg.NewContextForRGBA(dst)
	tower(dc, p[0], p[1], R*0.55, R/19, th)
}

func tower(dc *gg.Context, x, y, r, s float64, th *theme) {
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
	pontoon(dc, p.x, p.y, p.dx, p.dy, cell, th)
}

func pontoon(dc *gg.Context, x, y, dx, dy, cell float64, th *theme) {
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

// drawGridBanner announces the winner across the map square.
func (wk *worker) drawGridBanner(s *state.State, tags []string) {
	sc, f := wk.s, wk.f
	b := wk.b
	title := wk.seatLabel(s, s.Winner) + " wins!"
	sub := fmt.Sprintf("after %d turns · %d of %d territories · %s", s.Turn, s.Owned(s.Winner), len(s.Terr), plural(s.Armies(s.Winner), "troop", "troops"))
	tw := math.Max(textWidth(f.banner, title)+70*sc, textWidth(f.bannerSub, sub)+30*sc)
	bw, bh := tw+44*sc, 116*sc
	side := float64(b.grid.side)
	bw = math.Min(bw, side-20*sc)
	x, y := b.bannerAt[0]-bw/2, b.bannerAt[1]-bh/2
	x = math.Max(10*sc, math.Min(side-10*sc-bw, x))
	// The box may be narrower than its text here: the text is cut to fit.
	wk.drawBannerBox(x, y, bw, bh, s.Winner, tags[s.Winner], fit(f.banner, title, bw-100*sc), fit(f.bannerSub, sub, bw-30*sc))
}

// heroState says how a seat stands with its hero: locked (not yet won),
// alive, or dead (won, then lost: it never comes back).
func heroState(c state.CapitalsSeat) string {
	switch {
	case !c.HeroWon:
		return "locked"
	case c.Hero == 0:
		return "dead"
	}
	return "alive"
}

// gridPhaseWord says what the current player of a capitals match is doing.
func gridPhaseWord(p state.Phase) string {
	switch p {
	case state.PhaseReinforce:
		return "reinforcing"
	case state.PhaseAction, state.PhaseAttack:
		return "action"
	case state.PhaseMove, state.PhaseOccupy, state.PhaseFortify:
		return "moving"
	}
	return ""
}

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

// gridPanelGround returns the panel with n cards and the key, drawn on
// first use (at the origin: the caller shifts it to the panel).
func (b *board) gridPanelGround(n int, colors []Color, th *theme, f *faces, tex *textures, look *look) *image.RGBA {
	g := &b.grounds[n]
	g.once.Do(func() {
		img := image.NewRGBA(image.Rect(0, 0, b.panel.Dx(), b.panel.Dy()))
		fillRect(img, img.Rect, th.panelBg)
		fillRect(img, image.Rect(0, 0, max(1, int(2*b.s)), b.h), th.gold)
		dc := gg.NewContextForRGBA(img)
		ox := float64(b.panel.Min.X)
		dc.Translate(-ox, -float64(b.panel.Min.Y))
		for i, r := range b.gridCardRects(n) {
			dc.DrawRoundedRectangle(r.x0, r.y0, r.x1-r.x0, r.y1-r.y0, 8*b.s)
			dc.SetColor(th.card)
			dc.Fill()
			cardBar(dc, r.x0, r.y0, r.y1-r.y0, b.s, colors[i].RGBA)
		}
		drawGridKey(img, dc, b, ox, th, f, tex, look)
		g.img = img
	})
	return g.img
}

// drawGridKey explains the markers, arrows and terrains at the foot of the
// panel. dc draws in board coordinates; text goes on img, whose origin is
// the panel's top-left corner at ox.
func drawGridKey(img *image.RGBA, dc *gg.Context, b *board, ox float64, th *theme, f *faces, tex *textures, look *look) {
	s := b.s
	x0 := float64(b.panel.Min.X) + 18*s
	y := b.gridKeyTop()
	text := func(t string, x, y float64, c color.RGBA) {
		drawText(img, f.small, t, x-ox, y+capHeight(f.small)/2, c)
	}
	text("KEY", x0, y, th.dim)
	y += 30 * s
	colW := (float64(b.panel.Max.X) - 14*s - x0) / 2
	rowH := 34 * s
	R := b.badgeR
	marks := []struct {
		label string
		draw  func(x, y float64)
	}{
		{"capital", func(x, y float64) { crown(dc, x, y, R*1.15, s) }},
		{"hero", func(x, y float64) { hero(dc, x, y, R*0.7, s, th.text, th) }},
		{"fortress", func(x, y float64) { tower(dc, x, y, R*0.55, s, th) }},
		{"port", func(x, y float64) {
			c := b.grid.cell
			dc.DrawRectangle(x-c*0.6, y-c*0.9, c*1.2, c*1.8)
			dc.SetColor(th.seaColor(2))
			dc.Fill()
			pontoon(dc, x, y-c*0.75, 0, 1, c, th)
		}},
		{"item", func(x, y float64) {
			// The "?" is text, drawn on img: draw the whole marker in
			// img's coordinates.
			dc.Push()
			dc.Identity()
			item(dc, img, f, x-ox, y-float64(b.panel.Min.Y), R*0.66, s, false, th)
			dc.Pop()
		}},
		{"fat bonus", func(x, y float64) { item(dc, img, f, x, y, R*0.66, s, true, th) }},
	}
	for i, m := range marks {
		cx := x0 + float64(i%2)*colW + 16*s
		cy := y + float64(i/2)*rowH
		m.draw(cx, cy)
		text(m.label, cx+24*s, cy, th.text)
	}
	y += 3*rowH + 4*s
	// Arrows.
	// The numbers are the attacks' launch order: filled once launched,
	// hollow while planned.
	const (
		noNumber = iota
		launched
		planned
	)
	arrows := []struct {
		label string
		dash  []float64
		lw    float64
		num   int
	}{
		{"attack", []float64{9, 6}, 4, launched}, {"planned attack", []float64{9, 6}, 4, planned},
		{"conquest", nil, 6, noNumber}, {"move", []float64{1.5, 8}, 4.6, noNumber},
	}
	for i, a := range arrows {
		cx := x0 + float64(i%2)*colW
		cy := y + float64(i/2)*rowH
		dash := make([]float64, len(a.dash))
		for j, d := range a.dash {
			dash[j] = d * s
		}
		dc.SetLineCapRound()
		dc.SetDash(dash...)
		dc.SetLineWidth(a.lw * s)
		dc.SetColor(th.text)
		dc.DrawLine(cx, cy, cx+26*s, cy)
		dc.Stroke()
		dc.SetDash()
		dc.MoveTo(cx+34*s, cy)
		dc.LineTo(cx+25*s, cy-6*s)
		dc.LineTo(cx+25*s, cy+6*s)
		dc.ClosePath()
		dc.Fill()
		tx := cx + 44*s
		if a.num != noNumber {
			fill, ink := th.text, th.panelBg
			if a.num == planned {
				fill, ink = th.panelBg, th.text
			}
			dc.DrawCircle(cx+13*s, cy, 9*s)
			dc.SetColor(fill)
			dc.FillPreserve()
			dc.SetLineWidth(2 * s)
			dc.SetColor(th.text)
			dc.Stroke()
			drawTextCentered(img, f.small, "1", cx+13*s-ox, cy-float64(b.panel.Min.Y), ink)
		}
		text(a.label, tx, cy, th.text)
	}
	y += float64((len(arrows)+1)/2)*rowH + 4*s
	// Terrains: a swatch of each texture on its neutral tint.
	sw := 30 * s
	for i, t := range []state.Terrain{state.Plain, state.Forest, state.Mountain, state.Desert, state.Coastal} {
		cx := x0 + float64(i%3)*(colW*2/3)
		cy := y + float64(i/3)*rowH
		r := look.ramps[neutralBase+int(t)]
		tile := tex.terrain[t]
		for py := 0; py < int(sw); py++ {
			for px := 0; px < int(sw); px++ {
				tv := int(tile[(int(float64(py)/s)&(texSize-1))*texSize+int(float64(px)/s)&(texSize-1)])
				l := midLevel + int(math.Round(float64(tv-128)/128*float64(midLevel)*0.9))
				c := r[max(0, min(levels-1, l))]
				img.SetRGBA(int(cx-ox)+px, int(cy-float64(b.panel.Min.Y)-sw/2)+py, c)
			}
		}
		dc.DrawRectangle(cx, cy-sw/2, sw, sw)
		dc.SetLineWidth(1.5 * s)
		dc.SetColor(th.ink)
		dc.Stroke()
		text(t.String(), cx+sw+8*s, cy, th.text)
	}
}

// drawGridPanel draws the panel beside the map: the turn and who plays,
// then one card per player (troops, territories, hero, item held), on a
// ground with the key.
func (wk *worker) drawGridPanel(s *state.State, tags []string) {
	b, sc, th, f := wk.b, wk.s, wk.r.th, wk.f
	p := b.panel
	draw.Draw(wk.canvas, p, b.gridPanelGround(len(s.Seats), wk.r.colors, th, f, wk.r.tex, wk.r.gridLook), image.Point{}, draw.Src)
	x0 := float64(p.Min.X) + 18*sc
	right := float64(p.Max.X) - 14*sc
	y := float64(p.Min.Y) + 36*sc
	over := s.Phase == state.PhaseOver && s.Winner >= 0
	switch {
	case over:
		t := "Match over"
		drawText(wk.canvas, f.headBig, t, x0, y+capHeight(f.headBig)/2, th.gold)
		wk.drawSwatch(x0+17*sc, y+44*sc, 17*sc, s.Winner, tags[s.Winner])
		drawText(wk.canvas, f.head, fit(f.head, wk.seatLabel(s, s.Winner)+" wins", right-x0-46*sc), x0+46*sc, y+44*sc+capHeight(f.head)/2, th.text)
	case s.Phase == state.PhaseSetup:
		// Capitals are chosen in turn order.
		drawText(wk.canvas, f.headBig, "Setup", x0, y+capHeight(f.headBig)/2, th.gold)
		w := "choosing capitals"
		drawText(wk.canvas, f.head, w, right-textWidth(f.head, w), y+capHeight(f.head)/2, th.dim)
		wk.drawSwatch(x0+17*sc, y+44*sc, 17*sc, s.Current, tags[s.Current])
		drawText(wk.canvas, f.head, fit(f.head, wk.seatLabel(s, s.Current)+" picks", right-x0-46*sc), x0+46*sc, y+44*sc+capHeight(f.head)/2, th.text)
	default:
		t := fmt.Sprintf("Turn %d", s.Turn)
		drawText(wk.canvas, f.headBig, t, x0, y+capHeight(f.headBig)/2, th.gold)
		if w := gridPhaseWord(s.Phase); w != "" {
			drawText(wk.canvas, f.head, w, right-textWidth(f.head, w), y+capHeight(f.head)/2, th.dim)
		}
		wk.drawSwatch(x0+17*sc, y+44*sc, 17*sc, s.Current, tags[s.Current])
		drawText(wk.canvas, f.head, fit(f.head, wk.seatLabel(s, s.Current)+" to play", right-x0-46*sc), x0+46*sc, y+44*sc+capHeight(f.head)/2, th.text)
	}
	drawText(wk.canvas, f.small, fit(f.small, s.Map.Title, right-x0), x0, y+80*sc+capHeight(f.small)/2, th.dim)
	for i, r := range b.gridCardRects(len(s.Seats)) {
		wk.drawGridCard(s, i, tags[i], r)
	}
}

// drawGridCard draws one player's card: name and colour on the first line,
// then troops and territories, the hero, and a bag when the player keeps
// an item (never which).
func (wk *worker) drawGridCard(s *state.State, seat int, tag string, r frect) {
	dc, sc, th, f := wk.dc, wk.s, wk.r.th, wk.f
	st := s.Seats[seat]
	x, y, w, h := r.x0, r.y0, r.x1-r.x0, r.y1-r.y0
	wk.cardHighlight(s, seat, x, y, w, h)
	out := st.Status != state.Playing
	nameCol, statCol := th.text, th.text
	if out {
		nameCol, statCol = th.dim, th.dim
	}
	top := y + 26*sc
	wk.drawSwatch(x+33*sc, top, 17*sc, seat, tag)
	right := x + w - 14*sc
	nx := x + 60*sc
	// The item bag, right-aligned on the first line.
	room := right - nx
	if st.Capitals.Item != 0 && !out {
		// The same mark as an item lying on the map: never which one.
		item(dc, wk.canvas, f, right-12*sc, top, 12*sc, sc, false, th)
		room -= 32 * sc
	}
	colour := wk.r.colors[seat].Name
	name := fit(f.name, wk.names[seat], room)
	drawText(wk.canvas, f.name, name, nx, top+capHeight(f.name)/2, nameCol)
	if cx := nx + textWidth(f.name, name) + 10*sc; cx+textWidth(f.small, colour) <= nx+room {
		drawText(wk.canvas, f.small, colour, cx, top+capHeight(f.small)/2, th.dim)
	}
	if out {
		dc.SetLineWidth(2 * sc)
		dc.SetColor(th.dim)
		dc.DrawLine(nx, top, nx+textWidth(f.name, name), top)
		dc.Stroke()
	}
	bottom := y + h - 24*sc
	var stats string
	switch {
	case st.Status == state.Eliminated:
		stats = "eliminated"
	case st.Status == state.Surrendered:
		stats = "abandoned"
	default:
		stats = fmt.Sprintf("%d terr · %s", s.Owned(seat), plural(s.Armies(seat), "troop", "troops"))
	}
	drawText(wk.canvas, f.stat, stats, x+18*sc, bottom+capHeight(f.stat)/2, statCol)
	if out {
		return
	}
	// The hero: alive, dead or not yet won.
	hs := heroState(st.Capitals)
	hw := textWidth(f.stat, hs)
	hx := right - hw
	hc := th.dim
	if hs == "alive" {
		hc = th.text
	}
	drawText(wk.canvas, f.stat, hs, hx, bottom+capHeight(f.stat)/2, hc)
	ix := hx - 16*sc
	switch hs {
	case "alive":
		hero(dc, ix, bottom, 11*sc, sc, wk.r.colors[seat].RGBA, th)
	case "dead":
		hero(dc, ix, bottom, 11*sc, sc, th.dim, th)
		dc.SetLineWidth(3 * sc)
		dc.SetColor(rgb(0xe04040))
		dc.DrawLine(ix-9*sc, bottom-9*sc, ix+9*sc, bottom+9*sc)
		dc.Stroke()
	default:
		padlock(dc, ix, bottom, 9*sc, sc, th)
	}
}

// padlock draws a small padlock: the hero is not won yet.
func padlock(dc *gg.Context, x, y, r, s float64, th *theme) {
	dc.DrawArc(x, y-r*0.2, r*0.55, math.Pi, 2*math.Pi)
	dc.SetLineWidth(2.2 * s)
	dc.SetColor(th.dim)
	dc.Stroke()
	dc.DrawRoundedRectangle(x-r*0.85, y-r*0.2, r*1.7, r*1.25, r*0.25)
	dc.SetColor(th.dim)
	dc.Fill()
}
