package render

import (
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// The panel of generated maps: beside the map square, the turn and who
// plays, then a card per player down the panel (troops, territories, the
// hero, an item held), and at its foot the key to the markers, arrows and
// terrains.

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

// heroWord is how a card words a hero's state (heroState), in pr's
// language.
func heroWord(pr lang.Printer, state string) string {
	switch state {
	case "locked":
		return pr.T("render.hero.locked")
	case "dead":
		return pr.T("render.hero.dead")
	}
	return pr.T("render.hero.alive")
}

// gridPhaseWord says what the current player of a capitals match is
// doing, in pr's language.
func gridPhaseWord(pr lang.Printer, p state.Phase) string {
	switch p {
	case state.PhaseReinforce:
		return pr.T("render.phase.reinforcing")
	case state.PhaseAction, state.PhaseAttack:
		return pr.T("render.phase.action")
	case state.PhaseMove, state.PhaseOccupy, state.PhaseFortify:
		return pr.T("render.phase.moving")
	}
	return ""
}

// gridTerrains is how many terrains generated maps have, and the key
// names: Plain to Coastal, the capitals rule set's five.
const gridTerrains = int(state.Coastal) + 1

// terrainWord is a terrain's name in the key, in pr's language: the
// catalogue's terrainKey.
func terrainWord(pr lang.Printer, t state.Terrain) string {
	if int(t) >= gridTerrains {
		return t.String()
	}
	return pr.T(terrainKey(t))
}

// terrainKey is the catalogue's key of a terrain's name, built from its
// stable name (TestTerrainKeys checks that every terrain has one).
func terrainKey(t state.Terrain) string { return "render.terrain." + t.String() }

// gridKeySections are where the key's sections start: its marks (three
// rows of two), arrows (two rows), terrains (two rows), then its notes.
func (b *board) gridKeySections() (marks, arrows, terrains, notes float64) {
	s, row := b.s, b.gridKeyRow()
	marks = b.gridKeyTop() + 30*s
	arrows = marks + 3*row + 4*s
	terrains = arrows + 2*row + 4*s
	notes = terrains + 2*row + 4*s
	return marks, arrows, terrains, notes
}

// keyNote is a note of the key: what a word of the panel means.
type keyNote struct {
	lines    []string // the note, wrapped
	y, lineH float64  // its first line's middle, and the lines' spacing
}

// gridKeyNotes lays out the notes of the key, under its terrains: the
// cards' "locked" and the key's "fat bonus", which say little by
// themselves. A note that would leave the panel is left out.
func (b *board) gridKeyNotes(small font.Face) []keyNote {
	s := b.s
	_, _, _, y := b.gridKeySections()
	lineH := capHeight(small) * 1.9
	width := float64(b.panel.Max.X) - 14*s - b.gridKeyNoteX()
	var out []keyNote
	for _, text := range []string{b.p.T("render.key.locked-note"), b.p.T("render.key.fat-bonus-note")} {
		lines := wrap(small, text, width)
		if y+float64(len(lines)-1)*lineH+capHeight(small) > float64(b.panel.Max.Y)-6*s {
			break
		}
		out = append(out, keyNote{lines: lines, y: y, lineH: lineH})
		y += float64(len(lines))*lineH + 8*s
	}
	return out
}

// gridKeyNoteX is where the notes' text starts.
func (b *board) gridKeyNoteX() float64 { return float64(b.panel.Min.X) + 50*b.s }

// drawKey explains the markers, arrows and terrains at the foot of the
// panel, on its ground img. dc draws in the frame's coordinates; text goes
// on img, whose origin is the panel's top-left corner.
func (k *gridKind) drawKey(wk *worker, img *image.RGBA, dc *gg.Context) {
	b, th, f := wk.b, wk.th, wk.f
	s := b.s
	ox := float64(b.panel.Min.X)
	x0 := float64(b.panel.Min.X) + 18*s
	y := b.gridKeyTop()
	text := func(t string, x, y float64, c color.RGBA) {
		drawText(img, f.small, t, x-ox, y+capHeight(f.small)/2, c)
	}
	text(wk.p.T("render.key.title"), x0, y, th.dim)
	y, arrowsY, terrainsY, _ := b.gridKeySections()
	colW := (float64(b.panel.Max.X) - 14*s - x0) / 2
	rowH := b.gridKeyRow()
	R := b.badgeR
	marks := []struct {
		label string
		draw  func(x, y float64)
	}{
		{wk.p.T("render.key.capital"), func(x, y float64) { crownMark(dc, x, y, R*1.15, s) }},
		{wk.p.T("render.key.hero"), func(x, y float64) { heroMark(dc, x, y, R*0.7, s, th.text, th) }},
		{wk.p.T("render.key.fortress"), func(x, y float64) { towerMark(dc, x, y, R*0.55, s, th) }},
		{wk.p.T("render.key.port"), func(x, y float64) {
			c := k.cell
			dc.DrawRectangle(x-c*0.6, y-c*0.9, c*1.2, c*1.8)
			dc.SetColor(th.seaColor(2))
			dc.Fill()
			pontoonMark(dc, x, y-c*0.75, 0, 1, c, th)
		}},
		{wk.p.T("render.key.item"), func(x, y float64) {
			// The "?" is text, drawn on img: draw the whole marker in
			// img's coordinates.
			dc.Push()
			dc.Identity()
			itemMark(dc, img, f, x-ox, y-float64(b.panel.Min.Y), R*0.66, s, false, th)
			dc.Pop()
		}},
		{wk.p.T("render.key.fat-bonus"), func(x, y float64) { itemMark(dc, img, f, x, y, R*0.66, s, true, th) }},
	}
	for i, m := range marks {
		cx := x0 + float64(i%2)*colW + 16*s
		cy := y + float64(i/2)*rowH
		m.draw(cx, cy)
		text(m.label, cx+24*s, cy, th.text)
	}
	y = arrowsY
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
		{wk.p.T("render.key.attack"), []float64{9, 6}, 4, launched}, {wk.p.T("render.key.planned-attack"), []float64{9, 6}, 4, planned},
		{wk.p.T("render.key.conquest"), nil, 6, noNumber}, {wk.p.T("render.key.move"), []float64{1.5, 8}, 4.6, noNumber},
	}
	for i, a := range arrows {
		cx := x0 + float64(i%2)*colW
		cy := y + float64(i/2)*rowH
		keyArrow(dc, cx, cy, s, a.dash, a.lw, th.text)
		tx := cx + 44*s
		if a.num != noNumber {
			fill, ink := th.text, th.panelBg
			if a.num == planned {
				fill, ink = th.panelBg, th.text
			}
			dc.DrawCircle(cx+13*s, cy, 9*s)
			fillOutline(dc, fill, th.text, 2*s)
			drawTextCentered(img, f.small, "1", cx+13*s-ox, cy-float64(b.panel.Min.Y), ink)
		}
		text(a.label, tx, cy, th.text)
	}
	y = terrainsY
	// Terrains: a swatch of each texture on its neutral tint.
	sw := 30 * s
	for t := range state.Terrain(gridTerrains) {
		i := int(t)
		cx := x0 + float64(i%3)*(colW*2/3)
		cy := y + float64(i/3)*rowH
		r := b.look.land(state.Neutral, t)
		tile := wk.tex.terrain[t]
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
		text(terrainWord(wk.p, t), cx+sw+8*s, cy, th.text)
	}
	// The notes: a mark, then what a word of the panel means.
	noteMarks := []func(x, y float64){
		func(x, y float64) { padlock(dc, x, y, 9*s, s, th) },
		func(x, y float64) { itemMark(dc, img, f, x, y, R*0.5, s, true, th) },
	}
	for i, n := range b.gridKeyNotes(f.small) {
		noteMarks[i](x0+12*s, n.y)
		for j, l := range n.lines {
			text(l, b.gridKeyNoteX(), n.y+float64(j)*n.lineH, th.text)
		}
	}
}

// drawPanel draws the panel beside the map: the turn and who plays, the
// map's title, then one card per player (troops, territories, hero, item
// held), on a ground with the key. A classic match has its own key,
// phases and cards, and the holders of the continents (gridclassic.go).
func (k *gridKind) drawPanel(wk *worker, s *state.State, tags []string) {
	key, card := k.drawKey, wk.drawGridCard
	if k.classic {
		key, card = k.drawClassicKey, wk.drawClassicGridCard
	}
	cards := wk.b.gridCardRects(len(s.Seats))
	wk.drawGround(cards, func(img *image.RGBA, dc *gg.Context) { key(wk, img, dc) })
	h := newGridHead(wk, tags)
	switch {
	case s.Phase == state.PhaseOver && s.Winner >= 0:
		h.heading(wk.p.T("render.head.over"), "")
		h.says(s.Winner, wonBy(wk.p, s, wk.names, wk.colors, false))
	case k.classic:
		h.classicPhase(s)
	case s.Phase == state.PhaseSetup:
		// Capitals are chosen in turn order.
		h.heading(wk.p.T("render.head.setup"), wk.p.T("render.phase.choosing-capitals"))
		h.says(s.Current, wk.p.T("render.head.picks", "Player", h.player(s.Current)))
	default:
		h.heading(wk.p.T("render.head.turn", "Turn", s.Turn), gridPhaseWord(wk.p, s.Phase))
		h.says(s.Current, wk.p.T("render.head.to-play", "Player", h.player(s.Current)))
	}
	h.title(s.Map.Title)
	for i, r := range cards {
		card(s, i, tags[i], r)
	}
	if k.classic {
		wk.drawClassicHolders(s, tags)
	}
}

// cardNumbers is the second line of a card on a generated map: the
// territories and armies of a player in the match, armies being the
// rules' word for them, counted; else how the player left it, by
// elimination or by surrender (surrendered).
func cardNumbers(p lang.Printer, s *state.State, seat int, armies, surrendered lang.Msg) string {
	switch s.Seats[seat].Status {
	case state.Eliminated:
		return p.T("render.card.eliminated")
	case state.Surrendered:
		return p.Msg(surrendered)
	}
	return p.T("render.card.terr", "Owned", s.Owned(seat), "Armies", armies)
}

// gridHead draws the head of a generated map's panel: a heading with a
// word at its right end, under it who plays or a line of words, and under
// that the map's title.
type gridHead struct {
	wk           *worker
	tags         []string
	x0, right, y float64 // the heading's left and right ends, and its middle
}

// newGridHead is the head of wk's panel, whose seats are drawn with tags.
func newGridHead(wk *worker, tags []string) gridHead {
	p, sc := wk.b.panel, wk.s
	return gridHead{wk: wk, tags: tags, x0: float64(p.Min.X) + 18*sc, right: float64(p.Max.X) - 14*sc, y: float64(p.Min.Y) + 36*sc}
}

// heading draws big in gold, and word dim at the right end unless it is
// empty.
func (h gridHead) heading(big, word string) {
	wk, f := h.wk, h.wk.f
	drawText(wk.canvas, f.headBig, big, h.x0, h.y+capHeight(f.headBig)/2, wk.th.gold)
	if word != "" {
		drawText(wk.canvas, f.head, word, h.right-textWidth(f.head, word), h.y+capHeight(f.head)/2, wk.th.dim)
	}
}

// player is seat's label (seatLabel) as a sentence's argument.
func (h gridHead) player(seat int) lang.Text {
	return lang.Text(seatLabel(h.wk.p, h.wk.names[seat], h.wk.colors[seat]))
}

// says draws seat's swatch on the second line, and t beside it.
func (h gridHead) says(seat int, t string) {
	wk, sc, f := h.wk, h.wk.s, h.wk.f
	line2 := h.y + 44*sc
	wk.drawSwatch(h.x0+17*sc, line2, 17*sc, seat, h.tags[seat])
	drawText(wk.canvas, f.head, fit(f.head, t, h.right-h.x0-46*sc), h.x0+46*sc, line2+capHeight(f.head)/2, wk.th.text)
}

// line draws t, without a swatch, on the second line.
func (h gridHead) line(t string) {
	wk, sc, f := h.wk, h.wk.s, h.wk.f
	drawText(wk.canvas, f.head, fit(f.head, t, h.right-h.x0), h.x0, h.y+44*sc+capHeight(f.head)/2, wk.th.text)
}

// title draws the map's title t under the second line.
func (h gridHead) title(t string) {
	wk, sc, f := h.wk, h.wk.s, h.wk.f
	drawText(wk.canvas, f.small, fit(f.small, t, h.right-h.x0), h.x0, h.y+80*sc+capHeight(f.small)/2, wk.th.dim)
}

// drawGridCard draws one player's card: name and colour on the first line,
// then troops and territories, the hero, and a bag when the player keeps
// an item (never which).
func (wk *worker) drawGridCard(s *state.State, seat int, tag string, r frect) {
	dc, sc, th, f := wk.dc, wk.s, wk.th, wk.f
	st := s.Seats[seat]
	x, y, w, h := r.x0, r.y0, r.x1-r.x0, r.y1-r.y0
	out := st.Status != state.Playing
	textCol := th.cardText(out)
	top := y + 26*sc
	right := x + w - 14*sc
	nx := x + 60*sc
	room := right - nx
	bag := st.Capitals.Item != 0 && !out
	if bag {
		room -= 32 * sc
	}
	colour := wk.p.Colour(wk.colors[seat].Name)
	name := fit(f.name, wk.names[seat], room)
	bottom := y + h - 24*sc
	stats := cardNumbers(wk.p, s, seat, lang.M("render.n.troops", "Count", s.Armies(seat)), lang.M("render.card.abandoned"))
	// The hero: alive, dead or not yet won; the numbers keep clear of it.
	hs := heroState(st.Capitals)
	hword := heroWord(wk.p, hs)
	hw := textWidth(f.stat, hword)
	hx := right - hw
	if !out {
		stats = fit(f.stat, stats, hx-30*sc-(x+18*sc))
	}
	now, won := cardState(s, seat)
	k := elemKey(elemCard, uint64(seat), stringKey(tag), stringKey(stats), stringKey(colour), stringKey(name), stringKey(hs), stringKey(hword), flags(now, won, out, bag), f64(x), f64(y), f64(w), f64(h))
	if wk.keepCard(seat, k, r) {
		return
	}
	wk.cardHighlight(s, seat, x, y, w, h)
	wk.drawSwatch(x+33*sc, top, 17*sc, seat, tag)
	// The item bag, right-aligned on the first line.
	if bag {
		// The same mark as an item lying on the map: never which one.
		wk.drawItem([2]float64{right - 12*sc, top}, false, 12*sc)
	}
	drawText(wk.canvas, f.name, name, nx, top+capHeight(f.name)/2, textCol)
	if cx := nx + textWidth(f.name, name) + 10*sc; cx+textWidth(f.small, colour) <= nx+room {
		drawText(wk.canvas, f.small, colour, cx, top+capHeight(f.small)/2, th.dim)
	}
	if out {
		dc.SetLineWidth(2 * sc)
		dc.SetColor(th.dim)
		dc.DrawLine(nx, top, nx+textWidth(f.name, name), top)
		dc.Stroke()
	}
	drawText(wk.canvas, f.stat, stats, x+18*sc, bottom+capHeight(f.stat)/2, textCol)
	if out {
		return
	}
	hc := th.dim
	if hs == "alive" {
		hc = th.text
	}
	drawText(wk.canvas, f.stat, hword, hx, bottom+capHeight(f.stat)/2, hc)
	ix := hx - 16*sc
	switch hs {
	case "alive":
		wk.memoHero(ix, bottom, 11*sc, wk.colors[seat].RGBA, false)
	case "dead":
		wk.memoHero(ix, bottom, 11*sc, th.dim, true)
	default:
		r := 9 * sc
		at := box(ix-0.85*r-2*sc, bottom-0.75*r-2*sc, ix+0.85*r+2*sc, bottom+1.05*r+2*sc)
		wk.memoized(memoKey{kind: memoPadlock, x: ix, y: bottom, r: r}, at, nil, func() { padlock(dc, ix, bottom, r, sc, th) })
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
