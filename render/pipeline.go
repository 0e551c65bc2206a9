package render

import (
	"image"
	"image/color"
	"math"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// Every map, whatever its kind, is drawn by one sequence of steps:
// buildBoard makes its static layers, once per map and width; compose
// draws each frame over them; render (render.go) encodes it. What sets the
// kinds of map apart is data on the board (its style, its look, and what
// it carries: a continent legend, places for markers, pontoons) or asked
// of its kind (the kind interface, board.go).

// buildBoard makes the static layers of map m for images width pixels
// wide, drawn as kind k in colours lk with kt. Every kind of map is built
// by these steps, in this order.
func buildBoard(m *state.Map, k kind, lk *look, kt *kit, width int) (*board, error) {
	b := &board{m: m, p: kt.p, kind: k, look: lk, s: float64(width) / refWidth}
	_, b.localNames = k.(*classicKind)
	st, err := k.frame(b, width)
	if err != nil {
		return nil, err
	}
	b.style = st
	s, w := b.s, b.w
	b.tiles = newTileGrid(w, b.h)
	// The territories, on a grid twice as fine as the map area: lines are
	// found there and averaged down, which anti-aliases them.
	hi := k.outline(b)
	mt := halve(hi, b.mw, b.mh) // per pixel of the map area, mw wide
	b.terr = mt
	if b.mw < w { // a panel beside the map: rows as wide as the image
		b.terr = make([]uint8, w*b.mh)
		for y := range b.mh {
			copy(b.terr[y*w:y*w+b.mw], mt[y*b.mw:(y+1)*b.mw])
		}
	}
	ly := layers{
		lines: image.NewRGBA(image.Rect(0, 0, w, b.h)),
		names: image.NewRGBA(image.Rect(0, 0, w, b.h)),
		th:    kt.th,
		fs:    kt.fonts,
		tex:   kt.tex,
	}
	drawLines(ly.lines, hi, b, kt.th)
	// Land shades, and what lies around the land.
	inside := insideDistance(mt, b.mw, b.mh)
	b.base = make([]uint8, 4*w*b.h)
	ly.base = &image.RGBA{Pix: b.base, Stride: 4 * w, Rect: image.Rect(0, 0, w, b.h)}
	k.ground(b, ly, mt, inside)
	fillRect(ly.base, b.panel, kt.th.panelBg)
	fillRect(ly.base, b.rule(), kt.th.gold)
	b.badgeR = st.badge * s
	b.anchor = k.anchors(b, mt, inside)
	separateBadges(b.anchor, b.badgeR*2+6*s, b.mw, b.mh)
	if err := k.features(b, ly); err != nil {
		return nil, err
	}
	b.lines = sparseFrom(ly.lines)
	if err := placeNames(b, ly); err != nil {
		return nil, err
	}
	b.labels = sparseFrom(ly.names)
	k.finish(b, ly)
	b.bannerAt = placeBanner(b)
	return b, nil
}

// compose draws the frame of s on the worker's canvas. Every kind of map
// is drawn by these steps, in this order; a step draws what its board has.
// (composeIndexed, indexed.go, draws the same frame as palette indices.)
func (wk *worker) compose(s *state.State) {
	b := wk.b
	pix := wk.canvas.Pix
	copy(pix, b.base) // sea, legend, panel
	wk.ground = nil
	wk.drawLand(s)
	b.lines.over(pix) // borders, coasts, sea lanes
	wk.drawUnder(s)
	b.labels.over(pix) // names, and fortresses
	wk.drawOver(s, wk.nameSeats(s))
}

// drawUnder draws what goes under the names: the pontoons and the arrows.
func (wk *worker) drawUnder(s *state.State) {
	wk.drawPorts(s)
	wk.drawArrows(s)
}

// drawOver draws what goes over the names: the badges, the markers, the
// legend's holders, the panel and the banner. Planning, it leaves out the
// panel, which composeIndexed maps on its own.
func (wk *worker) drawOver(s *state.State, tags []string) {
	b := wk.b
	for t, tr := range s.Terr {
		armies := tr.Armies
		if tr.Fog {
			armies = fogBadge
		}
		if wk.begin(elemKey(elemBadge, uint64(t), uint64(tr.Owner+1), uint64(armies+1))) {
			wk.drawBadge(b.anchor[t][0], b.anchor[t][1], tr.Owner, armies)
		}
	}
	wk.drawMarkers(s)
	wk.drawLegendHolders(s, tags)
	if !wk.planning {
		b.kind.drawPanel(wk, s, tags)
	}
	if hasBanner(s) {
		wk.drawBanner(s, tags)
	}
}

// hasBanner reports whether s's map carries the winner's banner: placed
// on the map but drawn after the panel, so its frames map the panel whole.
func hasBanner(s *state.State) bool { return s.Phase == state.PhaseOver && s.Winner >= 0 }

// landRows returns the shades of each territory of s, by its owner and
// terrain.
func (wk *worker) landRows(s *state.State) []*[levels]color.RGBA {
	rows := wk.rows[:0]
	for t, tr := range s.Terr {
		rows = append(rows, wk.b.look.land(tr.Owner, s.Map.Territories[t].Terrain))
	}
	wk.rows = rows
	return rows
}

// drawLand colours every land pixel of the map area with the shade of its
// owner's colour (or of neutral land) that the terrain texture picked.
func (wk *worker) drawLand(s *state.State) {
	b := wk.b
	pix := wk.canvas.Pix
	rows := wk.landRows(s)
	for y := range b.mh {
		row := y * b.w
		for i, v := range b.terr[row : row+b.mw] {
			if v == 0 {
				continue
			}
			c := rows[v-1][b.lvl[row+i]]
			o := 4 * (row + i)
			pix[o], pix[o+1], pix[o+2], pix[o+3] = c.R, c.G, c.B, 255
		}
	}
}

// drawPorts shows the pontoon of every territory with a port, on a board
// that has them (generated maps: the classic board has no ports).
func (wk *worker) drawPorts(s *state.State) {
	piers := wk.b.piers
	if piers == nil {
		return
	}
	for t, tr := range s.Terr {
		if tr.Port && piers[t] != nil {
			if !wk.begin(elemKey(elemPort, uint64(t))) {
				continue
			}
			if wk.planning {
				wk.dirty.mark(piers[t].box)
				continue
			}
			piers[t].over(wk.canvas.Pix)
		}
	}
}

// drawArrows draws the moves of the turn (the current one, else the last)
// from badge to badge. Where the style numbers them, a capitals match's
// attacks carry their launch order (the engine's Arrow.Count), and the
// attacks planned but not launched yet (State.Cap.Plan) are drawn too,
// their order in a hollow disc.
func (wk *worker) drawArrows(s *state.State) {
	trail := &s.This
	if trail.Len() == 0 {
		trail = &s.Last
	}
	numbered := wk.b.style.numbered && s.Options.Rules == state.Capitals
	for _, a := range trail.Arrows() {
		num := 0
		if numbered && a.Kind != state.ArrowFortify && a.Count > 0 {
			num = int(a.Count)
		}
		wk.drawArrow(a, num)
	}
	if numbered {
		for k, p := range s.Cap.Planned() {
			wk.drawArrow(state.Arrow{From: p.From, To: p.To, Kind: state.ArrowAttack, Seat: int8(s.Current)}, -(k + 1))
		}
	}
}

// drawArrow draws arrow a from badge to badge, with its number (see
// arrowAt). On a map whose edges meet, an arrow takes the shorter way: one
// that crosses the edge is drawn leaving one side and arriving at the
// other.
func (wk *worker) drawArrow(a state.Arrow, number int) {
	b := wk.b
	x0, y0 := b.anchor[a.From][0], b.anchor[a.From][1]
	x1, y1 := b.anchor[a.To][0], b.anchor[a.To][1]
	if !b.style.wraps {
		wk.arrowAt(a, x0, y0, x1, y1, number)
		return
	}
	w := float64(b.mw)
	if x1-x0 > w/2 {
		x1 -= w
	} else if x0-x1 > w/2 {
		x1 += w
	}
	wk.arrowAt(a, x0, y0, x1, y1, number)
	if x1 < 0 {
		wk.arrowAt(a, x0+w, y0, x1+w, y1, number)
	} else if x1 > w {
		wk.arrowAt(a, x0-w, y0, x1-w, y1, number)
	}
}

// drawMarkers draws, on a board with places for them around each badge
// (generated maps), the items lying on territories, the capitals' crowns
// and the heroes.
func (wk *worker) drawMarkers(s *state.State) {
	b := wk.b
	if b.slots == nil {
		return
	}
	for t, tr := range s.Terr {
		if tr.Item != state.NoItem && wk.begin(elemKey(elemItem, uint64(t), uint64(tr.Item))) {
			wk.drawItem(b.slots[t].item, tr.Item == state.ItemFat, b.badgeR*0.66)
		}
	}
	for i, st := range s.Seats {
		c := st.Capitals
		if !st.Alive() {
			continue
		}
		if c.Capital > 0 && int(c.Capital) <= len(s.Terr) && wk.begin(elemKey(elemCrown, uint64(c.Capital))) {
			wk.drawCrown(b.slots[c.Capital-1].capital, b.badgeR*1.15)
		}
		if c.Hero > 0 && int(c.Hero) <= len(s.Terr) && wk.begin(elemKey(elemHero, uint64(c.Hero), uint64(i))) {
			wk.drawHero(b.slots[c.Hero-1].hero, b.badgeR*0.7, i)
		}
	}
}

// drawLegendHolders marks, in the continent legend, who holds each
// continent whole. A board without a legend (generated maps: their key is
// in the panel) marks none.
func (wk *worker) drawLegendHolders(s *state.State, tags []string) {
	l := wk.b.legend
	if len(l.rowY) == 0 {
		return
	}
	for c := range s.Map.Continents {
		if len(s.Map.Continents[c].Territories) == 0 {
			continue
		}
		if o := s.ContinentOwner(c); o >= 0 && wk.begin(elemKey(elemHolder, uint64(c), uint64(o), stringKey(tags[o]))) {
			wk.drawSwatch(l.holderX, l.rowY[c], 11*wk.s, o, tags[o])
		}
	}
}

// drawBanner announces the winner across the map, where the board placed
// the banner (placeBanner): a shadowed box with a gold edge, the winner's
// swatch and name, and the match in numbers below. On a map narrower than
// the banner's text (a generated map's square at small widths) the box
// stays on the map and its text is cut to fit.
func (wk *worker) drawBanner(s *state.State, tags []string) {
	b, dc, sc, th, f := wk.b, wk.dc, wk.s, wk.th, wk.f
	// A team wins together: its names, and what it holds together.
	title := wonBy(wk.p, s, wk.names, wk.colors, true)
	side := s.Sides()
	sub := wk.p.T("render.banner.match", "Turns", s.Turn, "Owned", side.Owned(s.Winner), "Total", len(s.Terr),
		"Armies", lang.M(b.style.armies, "Count", side.Armies(s.Winner)))
	tw := math.Max(textWidth(f.banner, title)+70*sc, textWidth(f.bannerSub, sub)+30*sc)
	mw := float64(b.mw)
	bw, bh := math.Min(tw+44*sc, mw-20*sc), 116*sc
	x, y := b.bannerAt[0]-bw/2, b.bannerAt[1]-bh/2
	x = math.Max(10*sc, math.Min(mw-10*sc-bw, x))
	if !wk.begin(elemKey(elemBanner, uint64(s.Winner), stringKey(title), stringKey(sub), stringKey(tags[s.Winner]))) {
		return
	}
	if wk.planning { // the shadow, and the gold edge's outer half
		wk.dirty.mark(box(x-3*sc, y-3*sc, x+bw+7*sc, y+bh+9*sc))
		return
	}
	title, sub = fit(f.banner, title, bw-100*sc), fit(f.bannerSub, sub, bw-30*sc)

	dc.DrawRoundedRectangle(x+4*sc, y+6*sc, bw, bh, 18*sc)
	dc.SetColor(color.RGBA{0, 0, 0, 120})
	dc.Fill()
	dc.DrawRoundedRectangle(x, y, bw, bh, 18*sc)
	fillOutline(dc, color.RGBA{16, 22, 32, 235}, th.gold, 5*sc)
	cx := x + bw/2
	titleW := textWidth(f.banner, title)
	sw := 26 * sc
	tx := cx - (titleW+sw*2+14*sc)/2
	wk.drawSwatch(tx+sw, y+44*sc, 22*sc, s.Winner, tags[s.Winner])
	drawText(wk.canvas, f.banner, title, tx+2*sw+14*sc, y+44*sc+capHeight(f.banner)/2, th.gold)
	drawTextCentered(wk.canvas, f.bannerSub, sub, cx, y+90*sc, th.text)
}
