package render

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// Classic rules on a generated map (engine.ClassicMatchMap): the map's sea
// links are borders, sea lanes, drawn as dashed lines across the water
// from coast to coast like the classic board's Alaska–Kamchatka; the
// borders between continents are thicker, as on the classic board; and the
// panel says what the classic rules need: each player's territories,
// armies and cards, the reserve to place during the setup, and the
// continents with their bonus. Such a map is told from a capitals one by
// its lanes: a generated map's borders are its cells' (every capitals map
// has sea links instead, genmap's MinSeaLinks).

// classicKeyRows are the rows of the classic key: its arrows and lanes
// (two rows), then a row a continent.
func (b *board) classicKeySections() (arrows, continents float64) {
	s, row := b.s, b.gridKeyRow()
	arrows = b.gridKeyTop() + 30*s
	continents = arrows + 2*row + 12*s
	return arrows, continents
}

// classicContinentRow is the height of a continent's row of the key: as
// many as fit down to the panel's foot, at most a key row.
func (b *board) classicContinentRow(n int) float64 {
	_, top := b.classicKeySections()
	room := float64(b.panel.Max.Y) - 10*b.s - top
	return math.Min(b.gridKeyRow()*0.85, room/float64(max(1, n)))
}

// drawClassicKey explains the arrows and lanes, and lists the continents
// with their bonus (who holds one whole is marked each frame, by
// drawClassicHolders).
func (k *gridKind) drawClassicKey(wk *worker, img *image.RGBA, dc *gg.Context) {
	b, th, f := wk.b, wk.th, wk.f
	s := b.s
	ox, oy := float64(b.panel.Min.X), float64(b.panel.Min.Y)
	x0 := ox + 18*s
	right := float64(b.panel.Max.X) - 14*s
	text := func(t string, x, y float64, c color.RGBA) {
		drawText(img, f.small, t, x-ox, y-oy+capHeight(f.small)/2, c)
	}
	text(wk.p.T("render.key.title"), x0, b.gridKeyTop(), th.dim)
	arrowsY, contY := b.classicKeySections()
	colW := (right - x0) / 2
	rowH := b.gridKeyRow()
	for i, a := range []struct {
		label string
		dash  []float64
		lw    float64
	}{{wk.p.T("render.key.attack"), []float64{9, 6}, 4}, {wk.p.T("render.key.conquest"), nil, 6}, {wk.p.T("render.key.fortify"), []float64{1.5, 8}, 4.6}} {
		cx := x0 + float64(i%2)*colW
		cy := arrowsY + float64(i/2)*rowH
		keyArrow(dc, cx, cy, s, a.dash, a.lw, th.text)
		text(a.label, cx+44*s, cy, th.text)
	}
	// The lane's sample, in the last place of the arrows' rows.
	cx, cy := x0+colW, arrowsY+rowH
	laneLine(dc, [][2]float64{{cx + 4*s, cy}, {cx + 34*s, cy}}, s, th)
	laneDot(dc, [2]float64{cx + 4*s, cy}, s, th)
	laneDot(dc, [2]float64{cx + 34*s, cy}, s, th)
	text(wk.p.T("render.key.sea-lane"), cx+44*s, cy, th.text)

	cont := b.m.Continents
	text(wk.p.T("render.key.continents"), x0, contY-rowH*0.55, th.dim)
	w := wk.p.T("render.key.bonus")
	text(w, right-textWidth(f.small, w), contY-rowH*0.55, th.dim)
	row := b.classicContinentRow(len(cont))
	for i, c := range cont {
		y := contY + float64(i)*row
		bonus := fmt.Sprintf("+%d", c.Bonus)
		bw := textWidth(f.small, bonus)
		name := fit(f.small, fmt.Sprintf("%s (%d)", b.continentName(i), len(c.Territories)), right-bw-12*s-(x0+30*s))
		text(name, x0+30*s, y, th.text)
		text(bonus, right-bw, y, th.gold)
	}
}

// drawClassicHolders marks, in the key's list of continents, who holds
// each one whole.
func (wk *worker) drawClassicHolders(s *state.State, tags []string) {
	b := wk.b
	_, top := b.classicKeySections()
	row := b.classicContinentRow(len(s.Map.Continents))
	x := float64(b.panel.Min.X) + 18*wk.s + 11*wk.s
	for c := range s.Map.Continents {
		if o := s.ContinentOwner(c); o >= 0 {
			wk.drawSwatch(x, top+float64(c)*row, 9*wk.s, o, tags[o])
		}
	}
}

// classicPhase draws the head of a classic match on a generated map (but
// one won, which drawPanel draws): the turn (or round), and who plays or
// what everyone does.
func (h gridHead) classicPhase(s *state.State) {
	wk := h.wk
	switch s.Phase {
	case state.PhaseSetup:
		h.heading(wk.p.T("render.head.setup"), wk.p.T("render.phase.placing"))
		h.line(wk.p.T("render.head.everyone-places-short"))
	case state.PhaseOrders:
		h.heading(wk.p.T("render.head.round", "Turn", s.Turn), wk.p.T("render.phase.orders"))
		ready, alive := readyCount(s)
		h.line(wk.p.T("render.head.orders", "Count", ready, "Alive", alive))
	default:
		w, _ := phaseWord(wk.p, s.Phase)
		h.heading(wk.p.T("render.head.turn", "Turn", s.Turn), w)
		h.says(s.Current, wk.p.T("render.head.to-play", "Player", h.player(s.Current)))
	}
}

// drawClassicGridCard draws one player's card: name, colour and the cards
// held on the first line; territories and armies, and on the right the
// armies the next turn brings (or, during the setup, those left to place)
// on the second.
func (wk *worker) drawClassicGridCard(s *state.State, seat int, tag string, r frect) {
	dc, sc, th, f := wk.dc, wk.s, wk.th, wk.f
	st := s.Seats[seat]
	x, y, w, h := r.x0, r.y0, r.x1-r.x0, r.y1-r.y0
	now, won := wk.cardHighlight(s, seat, x, y, w, h)
	out := st.Status != state.Playing
	textCol := th.cardText(out)
	top := y + 26*sc
	wk.drawSwatch(x+33*sc, top, 17*sc, seat, tag)
	right := x + w - 14*sc
	nx := x + 60*sc
	colour := wk.p.Colour(wk.colors[seat].Name)
	switch {
	case won:
		colour = wk.p.T("render.card.won", "Colour", colour)
	case now && s.Phase == state.PhaseOrders:
		colour = wk.p.T("render.card.ordering", "Colour", colour)
	case s.Phase == state.PhaseOrders && st.Ready && st.Alive():
		colour = wk.p.T("render.card.ready", "Colour", colour)
	}
	// The cards held, right-aligned on the first line.
	room := right - nx
	if !out {
		c := wk.p.N("render.n.cards", s.HandSize(seat))
		cw := textWidth(f.stat, c)
		drawText(wk.canvas, f.stat, c, right-cw, top+capHeight(f.stat)/2, th.dim)
		room -= cw + 14*sc
	}
	name := fit(f.name, wk.names[seat], room)
	drawText(wk.canvas, f.name, name, nx, top+capHeight(f.name)/2, textCol)
	if cx := nx + textWidth(f.name, name) + 10*sc; cx+textWidth(f.small, colour) <= nx+room {
		c := th.dim
		if now || won {
			c = th.gold
		}
		drawText(wk.canvas, f.small, colour, cx, top+capHeight(f.small)/2, c)
	}
	if out {
		dc.SetLineWidth(2 * sc)
		dc.SetColor(th.dim)
		dc.DrawLine(nx, top, nx+textWidth(f.name, name), top)
		dc.Stroke()
	}
	bottom := y + h - 24*sc
	stats := cardNumbers(wk.p, s, seat, lang.M("n.armies", "Count", s.Armies(seat)), lang.M("render.card.surrendered"))
	var extra string
	if !out {
		switch {
		case s.Phase == state.PhaseSetup:
			extra = wk.p.T("render.card.to-place", "Count", st.Reserve)
		case s.Phase == state.PhaseOver:
		case s.Fogged() && seat != s.Viewer:
			// The continents others hold, and so their income, lie in the fog.
		default:
			extra = wk.p.T("render.card.next", "Income", s.Income(seat).Total)
		}
	}
	room = right - (x + 18*sc)
	if extra != "" {
		ew := textWidth(f.stat, extra)
		drawText(wk.canvas, f.stat, extra, right-ew, bottom+capHeight(f.stat)/2, th.text)
		room -= ew + 14*sc
	}
	drawText(wk.canvas, f.stat, fit(f.stat, stats, room), x+18*sc, bottom+capHeight(f.stat)/2, textCol)
}
