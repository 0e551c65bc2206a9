package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
	"unicode"

	"github.com/fogleman/gg"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// The players' panel: what both kinds of panel (classicpanel.go,
// gridpanel.go) are made of.

// drawGround copies the panel's ground onto the canvas: its background
// with a card at each of cards, each with a bar of its seat's colour, and
// whatever key draws on it (nil for none). The ground is drawn on first
// use and kept by the board, one per number of cards: it does not change
// from turn to turn.
func (wk *worker) drawGround(cards []frect, key func(img *image.RGBA, dc *gg.Context)) {
	b, th := wk.b, wk.th
	g := &b.grounds[len(cards)]
	g.once.Do(func() {
		img := image.NewRGBA(image.Rect(0, 0, b.panel.Dx(), b.panel.Dy()))
		fillRect(img, img.Rect, th.panelBg)
		fillRect(img, b.rule().Sub(b.panel.Min), th.gold)
		// img starts at the panel's corner; dc draws in the frame's
		// coordinates, as the panel does.
		dc := gg.NewContextForRGBA(img)
		dc.Translate(-float64(b.panel.Min.X), -float64(b.panel.Min.Y))
		for i, r := range cards {
			dc.DrawRoundedRectangle(r.x0, r.y0, r.x1-r.x0, r.y1-r.y0, 8*b.s)
			dc.SetColor(th.card)
			dc.Fill()
			cardBar(dc, r.x0, r.y0, r.y1-r.y0, b.s, wk.colors[i].RGBA)
		}
		if key != nil {
			key(img, dc)
		}
		g.img = img
		g.idx = make([]uint8, img.Rect.Dx()*img.Rect.Dy())
		b.look.quant.quantizePix(g.idx, img.Pix)
	})
	if wk.ground != g.img {
		draw.Draw(wk.canvas, b.panel, g.img, image.Point{}, draw.Src)
		return
	}
	// The canvas's panel is this ground already (mapPanel put it back),
	// but for what the overlays drawn before it may have spilled into it.
	wk.dirty.runs(b.panel, func(y, x0, x1 int) {
		gy := y - b.panel.Min.Y
		copy(wk.canvas.Pix[wk.canvas.PixOffset(x0, y):wk.canvas.PixOffset(x1, y)],
			g.img.Pix[g.img.PixOffset(x0-b.panel.Min.X, gy):g.img.PixOffset(x1-b.panel.Min.X, gy)])
	})
}

// cardBar draws the bar of a seat's colour down a card's left edge.
func cardBar(dc *gg.Context, x, y, h, s float64, c color.RGBA) {
	dc.DrawRoundedRectangle(x, y, 7*s, h, 3*s)
	dc.SetColor(c)
	dc.Fill()
}

// cardHighlight marks the card of the player to move (or the winner).
// It reports whether the seat is to move, and whether it won.
func (wk *worker) cardHighlight(s *state.State, seat int, x, y, w, h float64) (now, won bool) {
	now, won = cardState(s, seat)
	if !now && !won {
		return now, won
	}
	dc, sc, th := wk.dc, wk.s, wk.th
	// The card lies on the panel's ground (drawGround), which the canvas
	// holds there: the highlight is the first thing drawn on the card.
	on := wk.b.grounds[len(s.Seats)].img
	m := wk.memoized(memoKey{kind: memoHighlight, x: x, y: y, w: w, h: h, a: seat}, box(x, y, x+w, y+h), on, func() {
		dc.DrawRoundedRectangle(x, y, w, h, 8*sc)
		dc.SetColor(th.cardNow)
		dc.Fill()
		dc.DrawRoundedRectangle(x+1.5*sc, y+1.5*sc, w-3*sc, h-3*sc, 7*sc)
		dc.SetLineWidth(3 * sc)
		dc.SetColor(th.gold)
		dc.Stroke()
		cardBar(dc, x, y, h, sc, wk.colors[seat].RGBA)
	})
	if m != nil {
		// The highlight is a ground of its own: mapPanel takes its
		// indices rather than mapping it again.
		wk.grounds = append(wk.grounds, m)
	}
	return now, won
}

// cardState reports whether seat is to move in s (or to give its
// orders), and whether it won: what cardHighlight marks.
func cardState(s *state.State, seat int) (now, won bool) {
	now = seat == s.Current && s.Phase != state.PhaseOver && s.Phase != state.PhaseSetup
	if s.Phase == state.PhaseOrders {
		// A round waits for everyone who has not given their orders.
		now = s.Seats[seat].Alive() && !s.Seats[seat].Ready
	}
	won = s.Phase == state.PhaseOver && s.Won(seat)
	return now, won
}

// readyCount counts the seats still in the match, and those of them whose
// orders are in.
func readyCount(s *state.State) (ready, alive int) {
	for i := range s.Seats {
		if s.Seats[i].Alive() {
			alive++
			if s.Seats[i].Ready {
				ready++
			}
		}
	}
	return ready, alive
}

// wonBy words who won s, a finished match, for the banner or the
// panel's first line: its winner with its colour ("Ann (red) wins"), or,
// in a team match, the winning team ("Ann and Bob win"), from the seats'
// names and colours as drawn.
func wonBy(p lang.Printer, s *state.State, names []string, colors []Color, banner bool) string {
	side := s.Sides().Of(s.Winner)
	if len(side) < 2 {
		who := lang.Text(seatLabel(p, names[s.Winner], colors[s.Winner]))
		if banner {
			return p.T("render.banner.wins", "Player", who)
		}
		return p.T("render.head.wins", "Player", who)
	}
	list := make(lang.List, len(side))
	for i, seat := range side {
		list[i] = lang.Text(names[seat])
	}
	if banner {
		return p.T("render.banner.team-wins", "Players", list)
	}
	return p.T("render.head.team-wins", "Players", list)
}

// keepCard reports whether card i of the panel, at r and of key k (a hash
// of all that draws it), is the card of the previous frame of the match:
// then it is not drawn, and mapPanel keeps its indices (incremental.go).
// A card draws within its rectangle, and cards are apart: no other card
// draws on the pixels kept.
func (wk *worker) keepCard(i int, k uint64, r frect) bool {
	f := wk.frame
	if f == nil {
		return false
	}
	f.cardsNext[i] = k
	px := image.Rect(int(math.Floor(r.x0)), int(math.Floor(r.y0)), int(math.Ceil(r.x1)), int(math.Ceil(r.y1))).Intersect(wk.b.panel)
	if !wk.partialPanel || f.cards[i] != k {
		if len(wk.drawn) > 0 { // the panel's kind lists what it draws
			wk.drawn = append(wk.drawn, px)
		}
		return false
	}
	wk.kept = append(wk.kept, px)
	f.drewNext[i] = f.drew[i]
	return true
}

// noteParts keeps, for the next frame's keepCardTop, the parts of card i
// just drawn: its key but for the numbers (top), the box of its numbers
// (stats), and the boxes it touched from wk.touched[first] on, but for its
// numbers' (wk.touched[numbers]).
func (wk *worker) noteParts(i int, top uint64, stats image.Rectangle, first, numbers int) {
	f := wk.frame
	if f == nil || len(wk.drawn) == 0 || numbers >= len(wk.touched) {
		return // what the card touched is not known
	}
	p := f.drewNext[i] // none yet this frame
	p.top, p.stats = top, stats
	n := 0
	for k, r := range wk.touched[first:] {
		if first+k == numbers {
			continue
		}
		if n == len(p.rest) {
			return
		}
		p.rest[n] = r
		n++
	}
	if n > 0 {
		f.drewNext[i] = p
	}
}

// keepCardTop reports whether card i, not kept, can keep all but its
// numbers, to be drawn again within box stats: when the rest's key (top)
// is the frame before's, and the numbers then and now lie apart from the
// rest. The card's numbers are then the only part of it drawn (mapPanel
// maps that part alone), and the rest keeps its indices.
func (wk *worker) keepCardTop(i int, top uint64, stats image.Rectangle) bool {
	f := wk.frame
	if f == nil || !wk.partialPanel || len(wk.drawn) == 0 {
		return false
	}
	p := f.drew[i]
	part := p.stats.Union(stats)
	if p.top != top || p.rest[0].Empty() || p.stats.Empty() {
		return false
	}
	for _, r := range p.rest {
		if part.Overlaps(r) {
			return false
		}
	}
	// The card's rectangle is the last of the parts drawn (keepCard).
	wk.drawn[len(wk.drawn)-1] = part.Intersect(wk.drawn[len(wk.drawn)-1])
	p.stats = stats // the rest as it was
	f.drewNext[i] = p
	return true
}

// keyArrow draws a key's sample of an arrow style, pointing right: a
// shaft from x (dashed by dash, lw wide, both at refWidth) and its head,
// 34 px long in all at refWidth.
func keyArrow(dc *gg.Context, x, y, s float64, dash []float64, lw float64, c color.Color) {
	scaled := make([]float64, len(dash))
	for j, d := range dash {
		scaled[j] = d * s
	}
	dc.SetLineCapRound()
	dc.SetDash(scaled...)
	dc.SetLineWidth(lw * s)
	dc.SetColor(c)
	dc.DrawLine(x, y, x+26*s, y)
	dc.Stroke()
	dc.SetDash()
	dc.MoveTo(x+34*s, y)
	dc.LineTo(x+25*s, y-6*s)
	dc.LineTo(x+25*s, y+6*s)
	dc.ClosePath()
	dc.Fill()
}

// nameSeats sets the seats' names as drawn (wk.names) and returns their
// tags.
func (wk *worker) nameSeats(s *state.State) []string {
	wk.names = wk.names[:0]
	for i, st := range s.Seats {
		wk.names = append(wk.names, displayName(wk.p, drawable(wk.fonts.bold, st.Name), i))
	}
	return seatTags(wk.names)
}

// seatTags returns a short, distinct tag per seat: the initial, or two
// letters where initials clash, or the seat number.
func seatTags(names []string) []string {
	first := func(name string, n int) string {
		var out []rune
		for _, r := range name {
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				if len(out) == 0 {
					r = unicode.ToUpper(r)
				} else {
					r = unicode.ToLower(r)
				}
				out = append(out, r)
				if len(out) == n {
					break
				}
			}
		}
		return string(out)
	}
	tags := make([]string, len(names))
	for n := 1; n <= 2; n++ {
		seen := map[string]int{}
		for i, name := range names {
			tags[i] = first(name, n)
			seen[tags[i]]++
		}
		clash := false
		for _, t := range tags {
			if t == "" || seen[t] > 1 {
				clash = true
			}
		}
		if !clash {
			return tags
		}
	}
	for i := range tags {
		tags[i] = fmt.Sprint(i + 1)
	}
	return tags
}

// seatLabel is how the panel names a seat: "Ann (red)".
func seatLabel(p lang.Printer, name string, c Color) string {
	return fmt.Sprintf("%s (%s)", name, p.Colour(c.Name))
}

// displayName is the name a seat is drawn with: its own, or "Player 3"
// in pr's language when it has none that can be drawn.
func displayName(pr lang.Printer, name string, seat int) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return pr.T("render.player", "Number", seat+1)
	}
	return name
}
