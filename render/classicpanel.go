package render

import (
	"image"
	"math"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
	"golang.org/x/image/font"
)

// The classic board's panel, which imported maps share: a strip under the
// map with the turn and who plays on its first line, the key to the arrows
// at its right end, and the players' cards in two columns.

// cardRects lays out n player cards in two columns under the panel's
// first line.
func (b *board) cardRects(n int) []frect {
	s := b.s
	p := b.panel
	x0 := float64(p.Min.X) + 16*s
	cols := 2
	rows := max(1, (n+cols-1)/cols)
	gap := 8 * s
	top := float64(p.Min.Y) + 12*s + 52*s
	cardW := (float64(p.Dx()) - 2*16*s - gap*float64(cols-1)) / float64(cols)
	avail := float64(p.Max.Y) - 12*s - top
	cardH := math.Min(82*s, (avail-gap*float64(rows-1))/float64(rows))
	top += (avail - cardH*float64(rows) - gap*float64(rows-1)) / 2
	out := make([]frect, n)
	for i := range out {
		col, row := i/rows, i%rows
		x := x0 + float64(col)*(cardW+gap)
		y := top + float64(row)*(cardH+gap)
		out[i] = frect{x, y, x + cardW, y + cardH}
	}
	return out
}

// phaseWord says what the current player is doing, in pr's language.
func phaseWord(pr lang.Printer, p state.Phase) (string, bool) {
	switch p {
	case state.PhaseReinforce:
		return pr.T("render.phase.reinforcing"), true
	case state.PhaseAttack:
		return pr.T("render.phase.attacking"), true
	case state.PhaseOccupy:
		return pr.T("render.phase.moving-in"), true
	case state.PhaseFortify:
		return pr.T("render.phase.fortifying"), true
	}
	return "", false
}

// drawPanel draws the strip under the map (drawStrip).
func (*classicKind) drawPanel(wk *worker, s *state.State, tags []string) { wk.drawStrip(s, tags) }

// drawStrip draws the strip under the map, on the classic board and on
// drawn maps: the turn and who plays, the key to the arrows, and one card
// per player.
func (wk *worker) drawStrip(s *state.State, tags []string) {
	b, sc, th, f := wk.b, wk.s, wk.th, wk.f
	p := b.panel
	cards := b.cardRects(len(s.Seats))
	wk.drawGround(cards, nil)
	if wk.partialPanel && !hasBanner(s) {
		// Under a banner the panel is mapped whole (composeIndexed), so
		// it lists no parts: a card keeping its top (keepCardTop) would
		// lose it to the ground.
		// What is drawn on the ground: the first line (above the cards:
		// its text, swatch and key reach 56 px at refWidth, the cards
		// start at 64 or lower), and the cards not kept (keepCard).
		wk.drawn = append(wk.drawn[:0], image.Rect(p.Min.X, p.Min.Y, p.Max.X, int(math.Floor(cards[0].y0))))
	}
	x0, y0 := float64(p.Min.X)+16*sc, float64(p.Min.Y)+12*sc
	headY := y0 + 24*sc
	// First line, kept clear of the arrow key at its right end.
	x := x0
	right := float64(p.Max.X) - 16*sc - arrowKeyWidth(wk.f.small, wk.p, sc) - 24*sc
	over := s.Phase == state.PhaseOver && s.Winner >= 0
	switch {
	case over:
		t := wk.p.T("render.head.over")
		wk.text(f.headBig, t, x, headY+capHeight(f.headBig)/2, th.gold)
		x += textWidth(f.headBig, t) + 16*sc
		wk.drawSwatch(x+18*sc, headY, 17*sc, s.Winner, tags[s.Winner])
		x += 46 * sc
		t = fit(f.headBig, wonBy(wk.p, s, wk.names, wk.colors, false), right-x)
		wk.text(f.headBig, t, x, headY+capHeight(f.headBig)/2, th.text)
	case s.Phase == state.PhaseSetup:
		t := wk.p.T("render.head.setup")
		wk.text(f.headBig, t, x, headY+capHeight(f.headBig)/2, th.gold)
		x += textWidth(f.headBig, t) + 16*sc
		wk.text(f.head, fit(f.head, wk.p.T("render.head.everyone-places"), right-x), x, headY+capHeight(f.head)/2, th.text)
	case s.Phase == state.PhaseOrders:
		t := wk.p.T("render.head.round", "Turn", s.Turn)
		wk.text(f.headBig, t, x, headY+capHeight(f.headBig)/2, th.gold)
		x += textWidth(f.headBig, t) + 16*sc
		ready, alive := readyCount(s)
		wk.text(f.head, fit(f.head, wk.p.T("render.head.orders", "Count", ready, "Alive", alive), right-x), x, headY+capHeight(f.head)/2, th.text)
	default:
		t := wk.p.T("render.head.turn", "Turn", s.Turn)
		wk.text(f.headBig, t, x, headY+capHeight(f.headBig)/2, th.gold)
		x += textWidth(f.headBig, t) + 16*sc
		wk.drawSwatch(x+18*sc, headY, 17*sc, s.Current, tags[s.Current])
		x += 46 * sc
		phase, pw := "", 0.0
		if w, ok := phaseWord(wk.p, s.Phase); ok {
			phase = "· " + w
			pw = textWidth(f.head, phase) + 12*sc
		}
		t = fit(f.headBig, wk.p.T("render.head.to-play", "Player", lang.Text(seatLabel(wk.p, wk.names[s.Current], wk.colors[s.Current]))), right-x-pw)
		wk.text(f.headBig, t, x, headY+capHeight(f.headBig)/2, th.text)
		x += textWidth(f.headBig, t) + 12*sc
		if phase != "" {
			wk.text(f.head, phase, x, headY+capHeight(f.head)/2, th.dim)
		}
	}
	right = float64(p.Max.X) - 16*sc
	at := box(right-arrowKeyWidth(wk.f.small, wk.p, sc)-4*sc, headY-18*sc, right+4*sc, headY+18*sc) // the labels' descenders included
	wk.memoized(memoKey{kind: memoArrowKey, x: right, y: headY}, at, nil, func() { wk.drawArrowKey(right, headY) })

	for i, r := range cards {
		wk.drawCard(s, i, tags[i], r.x0, r.y0, r.x1-r.x0, r.y1-r.y0)
	}
}

// drawCard draws one player's card over its ground: the highlight of the
// player to move (or the winner), shape, then the name and colour on the
// first line and the numbers on the second, both large enough to read on a
// phone.
func (wk *worker) drawCard(s *state.State, seat int, tag string, x, y, w, h float64) {
	dc, sc, th, f := wk.dc, wk.s, wk.th, wk.f
	st := s.Seats[seat]
	now, won := cardState(s, seat)
	out := st.Status != state.Playing
	textCol := th.cardText(out)
	nx := x + 64*sc
	right := x + w - 14*sc
	top, bottom := y+h*0.34, y+h*0.72
	var stats string
	armies, cards := lang.M("n.armies", "Count", s.Armies(seat)), lang.M("render.n.cards", "Count", s.HandSize(seat))
	switch {
	case won:
		stats = wk.p.T("render.card.winner-stats", "Owned", s.Owned(seat), "Armies", armies)
	case st.Status == state.Eliminated:
		stats = wk.p.T("render.card.eliminated")
	case st.Status == state.Surrendered:
		stats = wk.p.T("render.card.surrendered")
	case s.Fogged() && seat != s.Viewer:
		// The continents others hold, and so their income, lie in the fog.
		stats = wk.p.T("render.card.stats-fogged", "Owned", s.Owned(seat), "Armies", armies, "Cards", cards)
	default:
		stats = wk.p.T("render.card.stats", "Owned", s.Owned(seat), "Armies", armies, "Cards", cards, "Income", s.Income(seat).Total)
	}
	sx := nx
	if won {
		sx += 30 * sc
	}
	stats = fit(f.stat, stats, right-sx)
	colour := wk.p.Colour(wk.colors[seat].Name)
	switch {
	case now && s.Phase == state.PhaseOrders:
		colour = wk.p.T("render.card.ordering", "Colour", colour)
	case now:
		colour = wk.p.T("render.card.to-play", "Colour", colour)
	case s.Phase == state.PhaseOrders && st.Ready:
		colour = wk.p.T("render.card.ready", "Colour", colour)
	}
	name := fit(f.name, wk.names[seat], right-nx)
	k := elemKey(elemCard, uint64(seat), stringKey(tag), stringKey(stats), stringKey(colour), stringKey(name), flags(now, won, out), f64(x), f64(y), f64(w), f64(h))
	if wk.keepCard(seat, k, frect{x, y, x + w, y + h}) {
		return
	}
	// All but the numbers, whose line changes most often: a card that is
	// not highlighted may keep it (keepCardTop).
	topKey := elemKey(elemCard, uint64(seat), stringKey(tag), stringKey(colour), stringKey(name), flags(now, won, out), f64(x), f64(y), f64(w), f64(h))
	statsY := bottom + capHeight(f.stat)/2
	if !now && !won && wk.keepCardTop(seat, topKey, textBox(f.stat, stats, sx, statsY)) {
		wk.text(f.stat, stats, sx, statsY, textCol)
		return
	}
	first := len(wk.touched) // what the card draws from here: its parts
	wk.cardHighlight(s, seat, x, y, w, h)
	wk.drawSwatch(x+34*sc, y+h/2, 18*sc, seat, tag)
	if won {
		star(dc, nx+11*sc, bottom, 12*sc)
		dc.SetColor(th.gold)
		dc.Fill()
		wk.touch(disc(nx+11*sc, bottom, 12*sc))
	}
	numbers := len(wk.touched)
	statsBox := wk.text(f.stat, stats, sx, statsY, textCol)
	wk.text(f.name, name, nx, top+capHeight(f.name)/2, textCol)
	if cx := nx + textWidth(f.name, name) + 12*sc; cx+textWidth(f.small, colour) <= right {
		c := th.dim
		if now {
			c = th.gold
		}
		wk.text(f.small, colour, cx, top+capHeight(f.small)/2, c)
	}
	if out {
		dc.SetLineWidth(2.5 * sc)
		dc.SetColor(th.dim)
		dc.DrawLine(nx, top, nx+textWidth(f.name, name), top)
		dc.Stroke()
		wk.touch(box(nx-2*sc, top-2*sc, nx+textWidth(f.name, name)+2*sc, top+2*sc))
	}
	wk.noteParts(seat, topKey, statsBox, first, numbers)
}

// arrowKey is the panel's key to the arrow styles: label, dash pattern and
// line width at refWidth.
var arrowKey = []struct {
	label lang.Msg
	dash  []float64
	lw    float64
}{
	{lang.M("render.key.conquest"), nil, 6}, {lang.M("render.key.attack"), []float64{9, 6}, 4}, {lang.M("render.key.fortify"), []float64{1.5, 8}, 4.6},
}

// arrowKeyWidth is the width drawArrowKey takes.
func arrowKeyWidth(small font.Face, p lang.Printer, sc float64) float64 {
	w := 0.0
	for _, it := range arrowKey {
		w += textWidth(small, p.Msg(it.label)) + (8+34+22)*sc
	}
	return w - 22*sc
}

// drawArrowKey explains the three arrow styles, right-aligned at x.
func (wk *worker) drawArrowKey(right, y float64) {
	dc, sc, th, f := wk.dc, wk.s, wk.th, wk.f
	x := right
	for i := len(arrowKey) - 1; i >= 0; i-- {
		it := arrowKey[i]
		label := wk.p.Msg(it.label)
		tw := textWidth(f.small, label)
		x -= tw
		drawText(wk.canvas, f.small, label, x, y+capHeight(f.small)/2, th.dim)
		x -= 8 * sc
		keyArrow(dc, x-34*sc, y, sc, it.dash, it.lw, th.text)
		x -= 34*sc + 22*sc
	}
}
