package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
	"golang.org/x/image/font/opentype"

	"github.com/riskbot/riskbot/state"
)

// faces are one worker's font faces, at the renderer's scale.
type faces struct {
	badge, badgeSmall font.Face // army counts
	tag, tagMid       font.Face // initials in swatches: legend, panel
	tagBig            font.Face // and the banner
	head, headBig     font.Face // the panel's first line
	name, stat, small font.Face // player cards
	banner, bannerSub font.Face
}

// newFaces makes the faces at scale s. Badge digits, the player to move and
// player names are at least 6 px tall when the image is shown 400 px wide,
// as Discord does on a phone (TestReadableInChat).
func newFaces(fs *fonts, s float64) (*faces, error) {
	var f faces
	for _, x := range []struct {
		dst  *font.Face
		ft   *opentype.Font
		size float64
	}{
		{&f.badge, fs.bold, 35}, {&f.badgeSmall, fs.bold, 34},
		{&f.tag, fs.bold, 16}, {&f.tagMid, fs.bold, 21}, {&f.tagBig, fs.bold, 30},
		{&f.head, fs.medium, 34}, {&f.headBig, fs.bold, 35},
		{&f.name, fs.bold, 34}, {&f.stat, fs.medium, 27}, {&f.small, fs.medium, 20},
		{&f.banner, fs.bold, 50}, {&f.bannerSub, fs.medium, 22},
	} {
		fc, err := face(x.ft, x.size*s)
		if err != nil {
			return nil, err
		}
		*x.dst = fc
	}
	return &f, nil
}

// shapePath adds the outline of a badge shape of radius r centred on (x, y),
// stretched horizontally by sx >= 1 for long numbers.
func shapePath(dc *gg.Context, sh Shape, x, y, r, sx float64) {
	poly := func(pts [][2]float64) {
		for i, p := range pts {
			px, py := x+p[0]*r*sx, y+p[1]*r
			if i == 0 {
				dc.MoveTo(px, py)
			} else {
				dc.LineTo(px, py)
			}
		}
		dc.ClosePath()
	}
	regular := func(n int, rot, k float64) [][2]float64 {
		pts := make([][2]float64, n)
		for i := range pts {
			a := rot + 2*math.Pi*float64(i)/float64(n)
			pts[i] = [2]float64{k * math.Cos(a), k * math.Sin(a)}
		}
		return pts
	}
	switch sh {
	case Square:
		dc.DrawRoundedRectangle(x-0.9*r*sx, y-0.9*r, 1.8*r*sx, 1.8*r, 0.18*r)
	case Diamond:
		poly([][2]float64{{0, -1.22}, {1.22, 0}, {0, 1.22}, {-1.22, 0}})
	case Hexagon:
		poly(regular(6, 0, 1.12))
	case Shield:
		poly([][2]float64{{-0.98, -0.92}, {0.98, -0.92}, {0.98, 0.2}, {0, 1.2}, {-0.98, 0.2}})
	case House:
		poly([][2]float64{{0, -1.2}, {0.98, -0.2}, {0.98, 0.92}, {-0.98, 0.92}, {-0.98, -0.2}})
	case NeutralShape:
		dc.DrawEllipse(x, y, 0.82*r*sx, 0.82*r)
	default:
		dc.DrawEllipse(x, y, r*sx, r)
	}
}

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
		sp = wk.badgeSprite(owner, armies)
		wk.badges[k] = sp
	}
	ox, oy := int(math.Round(x))-sp.Rect.Dx()/2, int(math.Round(y))-sp.Rect.Dy()/2
	draw.Draw(wk.canvas, sp.Rect.Add(image.Pt(ox, oy)), sp, image.Point{}, draw.Over)
}

// badgeKey identifies a badge sprite.
type badgeKey struct {
	owner  int8
	armies int32
}

// maxSprites bounds a worker's badge cache (about 15 KB a sprite).
const maxSprites = 600

// badgeSprite draws a badge centred in a small transparent image.
func (wk *worker) badgeSprite(owner, armies int) *image.RGBA {
	s, th := wk.s, wk.r.th
	r := wk.b.badgeR
	text := fmt.Sprint(armies)
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
		fill, sh = wk.r.colors[owner].RGBA, SeatShape(owner)
	}
	shapePath(dc, sh, x+1.6*s, y+2.2*s, r, sx)
	dc.SetColor(th.shadow)
	dc.Fill()
	shapePath(dc, sh, x, y, r, sx)
	dc.SetColor(fill)
	dc.FillPreserve()
	dc.SetLineJoinRound()
	dc.SetLineWidth(3.2 * s)
	dc.SetColor(th.ink)
	dc.Stroke()
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
	dc, s, th := wk.dc, wk.s, wk.r.th
	fill := wk.r.colors[seat].RGBA
	shapePath(dc, SeatShape(seat), x, y, r, 1)
	dc.SetColor(fill)
	dc.FillPreserve()
	dc.SetLineJoinRound()
	dc.SetLineWidth(2 * s)
	dc.SetColor(th.ink)
	dc.Stroke()
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

// drawArrow draws one move of the last turn from badge to badge, bent a
// little so that opposite moves do not cover each other. Conquests are
// solid and thick, failed attacks dashed, fortifications dotted.
func (wk *worker) drawArrow(a state.Arrow) {
	b, s := wk.b, wk.s
	x0, y0 := b.anchor[a.From][0], b.anchor[a.From][1]
	x1, y1 := b.anchor[a.To][0], b.anchor[a.To][1]
	w := float64(b.w)
	if x1-x0 > w/2 { // shorter across the map's edge
		x1 -= w
	} else if x0-x1 > w/2 {
		x1 += w
	}
	wk.arrowAt(a, x0, y0, x1, y1, 0)
	if x1 < 0 {
		wk.arrowAt(a, x0+w, y0, x1+w, y1, 0)
	} else if x1 > w {
		wk.arrowAt(a, x0-w, y0, x1-w, y1, 0)
	}
	_ = s
}

// arrowAt draws arrow a from (x0, y0) to (x1, y1). A number other than 0
// is written in a disc halfway along: the launch order of attacks, in the
// mover's colour once launched (number > 0), white while only planned
// (number < 0, for -order).
func (wk *worker) arrowAt(a state.Arrow, x0, y0, x1, y1 float64, number int) {
	dc, s, th := wk.dc, wk.s, wk.r.th
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
	if a.Seat >= 0 && int(a.Seat) < len(wk.r.colors) {
		col = wk.r.colors[a.Seat].RGBA
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
		dc.QuadraticTo(cx, cy, bx+tx*2*s, by+ty*2*s)
		dc.Stroke()
		dc.SetDash()
	}
	head := func() {
		dc.MoveTo(ex, ey)
		dc.LineTo(bx-ty*hw, by+tx*hw)
		dc.LineTo(bx+ty*hw, by-tx*hw)
		dc.ClosePath()
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
		dc.SetColor(fill)
		dc.FillPreserve()
		dc.SetLineWidth(2.2 * s)
		dc.SetColor(ring)
		dc.Stroke()
		drawTextCentered(wk.canvas, fc, text, mx, my, th.inkOn(fill))
	}
}

// star adds a five-pointed star of outer radius r centred on (x, y).
func star(dc *gg.Context, x, y, r float64) {
	for i := range 10 {
		a := -math.Pi/2 + float64(i)*math.Pi/5
		k := r
		if i%2 == 1 {
			k = r * 0.45
		}
		if i == 0 {
			dc.MoveTo(x+k*math.Cos(a), y+k*math.Sin(a))
		} else {
			dc.LineTo(x+k*math.Cos(a), y+k*math.Sin(a))
		}
	}
	dc.ClosePath()
}

// plural writes n with the singular or plural noun.
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
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
func (wk *worker) seatLabel(s *state.State, seat int) string {
	return fmt.Sprintf("%s (%s)", wk.names[seat], wk.r.colors[seat].Name)
}

func displayName(name string, seat int) string {
	name = strings.TrimSpace(name)
	if name == "" {
		return fmt.Sprintf("Player %d", seat+1)
	}
	return name
}

// fit shortens s with an ellipsis until it is at most w pixels wide.
func fit(fc font.Face, s string, w float64) string {
	if textWidth(fc, s) <= w {
		return s
	}
	for len(s) > 0 {
		_, n := utf8.DecodeLastRuneInString(s)
		s = s[:len(s)-n]
		if textWidth(fc, s+"…") <= w {
			return s + "…"
		}
	}
	return "…"
}

// phaseWord says what the current player is doing.
func phaseWord(p state.Phase) (string, bool) {
	switch p {
	case state.PhaseReinforce:
		return "reinforcing", true
	case state.PhaseAttack:
		return "attacking", true
	case state.PhaseOccupy:
		return "moving in", true
	case state.PhaseFortify:
		return "fortifying", true
	}
	return "", false
}

// drawPanel draws the strip under the map: the turn and who plays, the key
// to the arrows, and one card per player.
func (wk *worker) drawPanel(s *state.State, tags []string) {
	b, sc, th, f := wk.b, wk.s, wk.r.th, wk.f
	p := b.panel
	// The cached ground: background and cards.
	draw.Draw(wk.canvas, p, b.panelGround(len(s.Seats), wk.r.colors, th), image.Point{}, draw.Src)
	x0, y0 := float64(p.Min.X)+16*sc, float64(p.Min.Y)+12*sc
	headY := y0 + 24*sc
	// First line, kept clear of the arrow key at its right end.
	x := x0
	right := float64(p.Max.X) - 16*sc - wk.arrowKeyWidth() - 24*sc
	over := s.Phase == state.PhaseOver && s.Winner >= 0
	switch {
	case over:
		t := "Match over"
		drawText(wk.canvas, f.headBig, t, x, headY+capHeight(f.headBig)/2, th.gold)
		x += textWidth(f.headBig, t) + 16*sc
		wk.drawSwatch(x+18*sc, headY, 17*sc, s.Winner, tags[s.Winner])
		x += 46 * sc
		t = fit(f.headBig, wk.seatLabel(s, s.Winner)+" wins", right-x)
		drawText(wk.canvas, f.headBig, t, x, headY+capHeight(f.headBig)/2, th.text)
	case s.Phase == state.PhaseSetup:
		t := "Setup"
		drawText(wk.canvas, f.headBig, t, x, headY+capHeight(f.headBig)/2, th.gold)
		x += textWidth(f.headBig, t) + 16*sc
		drawText(wk.canvas, f.head, fit(f.head, "everyone places their armies", right-x), x, headY+capHeight(f.head)/2, th.text)
	default:
		t := fmt.Sprintf("Turn %d", s.Turn)
		drawText(wk.canvas, f.headBig, t, x, headY+capHeight(f.headBig)/2, th.gold)
		x += textWidth(f.headBig, t) + 16*sc
		wk.drawSwatch(x+18*sc, headY, 17*sc, s.Current, tags[s.Current])
		x += 46 * sc
		phase, pw := "", 0.0
		if w, ok := phaseWord(s.Phase); ok {
			phase = "· " + w
			pw = textWidth(f.head, phase) + 12*sc
		}
		t = fit(f.headBig, wk.seatLabel(s, s.Current)+" to play", right-x-pw)
		drawText(wk.canvas, f.headBig, t, x, headY+capHeight(f.headBig)/2, th.text)
		x += textWidth(f.headBig, t) + 12*sc
		if phase != "" {
			drawText(wk.canvas, f.head, phase, x, headY+capHeight(f.head)/2, th.dim)
		}
	}
	wk.drawArrowKey(float64(p.Max.X)-16*sc, headY)

	for i, r := range b.cardRects(len(s.Seats)) {
		wk.drawCard(s, i, tags[i], r.x0, r.y0, r.x1-r.x0, r.y1-r.y0)
	}
}

// cardHighlight marks the card of the player to move (or the winner).
// It reports whether the seat is to move, and whether it won.
func (wk *worker) cardHighlight(s *state.State, seat int, x, y, w, h float64) (now, won bool) {
	now = seat == s.Current && s.Phase != state.PhaseOver && s.Phase != state.PhaseSetup
	won = s.Phase == state.PhaseOver && seat == s.Winner
	if !now && !won {
		return now, won
	}
	dc, sc, th := wk.dc, wk.s, wk.r.th
	dc.DrawRoundedRectangle(x, y, w, h, 8*sc)
	dc.SetColor(th.cardNow)
	dc.Fill()
	dc.DrawRoundedRectangle(x+1.5*sc, y+1.5*sc, w-3*sc, h-3*sc, 7*sc)
	dc.SetLineWidth(3 * sc)
	dc.SetColor(th.gold)
	dc.Stroke()
	cardBar(dc, x, y, h, sc, wk.r.colors[seat].RGBA)
	return now, won
}

// drawCard draws one player's card over its ground: the highlight of the
// player to move (or the winner), shape, then the name and colour on the
// first line and the numbers on the second, both large enough to read on a
// phone.
func (wk *worker) drawCard(s *state.State, seat int, tag string, x, y, w, h float64) {
	dc, sc, th, f := wk.dc, wk.s, wk.r.th, wk.f
	st := s.Seats[seat]
	now, won := wk.cardHighlight(s, seat, x, y, w, h)
	wk.drawSwatch(x+34*sc, y+h/2, 18*sc, seat, tag)
	out := st.Status != state.Playing
	nameCol, statCol := th.text, th.text
	if out {
		nameCol, statCol = th.dim, th.dim
	}
	nx := x + 64*sc
	right := x + w - 14*sc
	top, bottom := y+h*0.34, y+h*0.72
	var stats string
	switch {
	case won:
		stats = fmt.Sprintf("winner · %d territories · %s", s.Owned(seat), plural(s.Armies(seat), "army", "armies"))
	case st.Status == state.Eliminated:
		stats = "eliminated"
	case st.Status == state.Surrendered:
		stats = "surrendered"
	default:
		stats = fmt.Sprintf("%d terr · %s · %s · +%d next", s.Owned(seat), plural(s.Armies(seat), "army", "armies"), plural(s.HandSize(seat), "card", "cards"), s.Income(seat).Total)
	}
	sx := nx
	if won {
		star(dc, nx+11*sc, bottom, 12*sc)
		dc.SetColor(th.gold)
		dc.Fill()
		sx += 30 * sc
	}
	drawText(wk.canvas, f.stat, fit(f.stat, stats, right-sx), sx, bottom+capHeight(f.stat)/2, statCol)
	colour := wk.r.colors[seat].Name
	if now {
		colour += " · to play"
	}
	name := fit(f.name, wk.names[seat], right-nx)
	drawText(wk.canvas, f.name, name, nx, top+capHeight(f.name)/2, nameCol)
	if cx := nx + textWidth(f.name, name) + 12*sc; cx+textWidth(f.small, colour) <= right {
		c := th.dim
		if now {
			c = th.gold
		}
		drawText(wk.canvas, f.small, colour, cx, top+capHeight(f.small)/2, c)
	}
	if out {
		dc.SetLineWidth(2.5 * sc)
		dc.SetColor(th.dim)
		dc.DrawLine(nx, top, nx+textWidth(f.name, name), top)
		dc.Stroke()
	}
}

// arrowKey is the panel's key to the arrow styles: label, dash pattern and
// line width at refWidth.
var arrowKey = []struct {
	label string
	dash  []float64
	lw    float64
}{
	{"conquest", nil, 6}, {"attack", []float64{9, 6}, 4}, {"fortify", []float64{1.5, 8}, 4.6},
}

// arrowKeyWidth is the width drawArrowKey takes.
func (wk *worker) arrowKeyWidth() float64 {
	w := 0.0
	for _, it := range arrowKey {
		w += textWidth(wk.f.small, it.label) + (8+34+22)*wk.s
	}
	return w - 22*wk.s
}

// drawArrowKey explains the three arrow styles, right-aligned at x.
func (wk *worker) drawArrowKey(right, y float64) {
	dc, sc, th, f := wk.dc, wk.s, wk.r.th, wk.f
	x := right
	for i := len(arrowKey) - 1; i >= 0; i-- {
		it := arrowKey[i]
		tw := textWidth(f.small, it.label)
		x -= tw
		drawText(wk.canvas, f.small, it.label, x, y+capHeight(f.small)/2, th.dim)
		x -= 8 * sc
		dash := make([]float64, len(it.dash))
		for j, d := range it.dash {
			dash[j] = d * sc
		}
		dc.SetLineCapRound()
		dc.SetDash(dash...)
		dc.SetLineWidth(it.lw * sc)
		dc.SetColor(th.text)
		dc.DrawLine(x-34*sc, y, x-8*sc, y)
		dc.Stroke()
		dc.SetDash()
		dc.MoveTo(x, y)
		dc.LineTo(x-9*sc, y-6*sc)
		dc.LineTo(x-9*sc, y+6*sc)
		dc.ClosePath()
		dc.Fill()
		x -= 34*sc + 22*sc
	}
}

// drawLegendHolders marks, in the continent legend, who holds each
// continent whole.
func (wk *worker) drawLegendHolders(s *state.State, tags []string) {
	l := wk.b.legend
	for c := range s.Map.Continents {
		if len(s.Map.Continents[c].Territories) == 0 {
			continue
		}
		if o := s.ContinentOwner(c); o >= 0 {
			wk.drawSwatch(l.holderX, l.rowY[c], 11*wk.s, o, tags[o])
		}
	}
}

// drawBanner announces the winner across the map.
func (wk *worker) drawBanner(s *state.State, tags []string) {
	sc, f := wk.s, wk.f
	b := wk.b
	title := wk.seatLabel(s, s.Winner) + " wins!"
	sub := fmt.Sprintf("after %d turns · %d of %d territories · %d armies", s.Turn, s.Owned(s.Winner), len(s.Terr), s.Armies(s.Winner))
	tw := math.Max(textWidth(f.banner, title)+70*sc, textWidth(f.bannerSub, sub)+30*sc)
	bw, bh := tw+44*sc, 116*sc
	x, y := b.bannerAt[0]-bw/2, b.bannerAt[1]-bh/2
	x = math.Max(10*sc, math.Min(float64(b.w)-10*sc-bw, x))
	wk.drawBannerBox(x, y, bw, bh, s.Winner, tags[s.Winner], title, sub)
}

// drawBannerBox draws the winner's banner, bw x bh at x, y: a shadowed box
// with a gold edge, the title after the winner's swatch, sub below. Both
// boards' banners are this box; they size and place it each their way.
func (wk *worker) drawBannerBox(x, y, bw, bh float64, winner int, tag, title, sub string) {
	dc, sc, th, f := wk.dc, wk.s, wk.r.th, wk.f
	dc.DrawRoundedRectangle(x+4*sc, y+6*sc, bw, bh, 18*sc)
	dc.SetColor(color.RGBA{0, 0, 0, 120})
	dc.Fill()
	dc.DrawRoundedRectangle(x, y, bw, bh, 18*sc)
	dc.SetColor(color.RGBA{16, 22, 32, 235})
	dc.FillPreserve()
	dc.SetLineWidth(5 * sc)
	dc.SetColor(th.gold)
	dc.Stroke()
	cx := x + bw/2
	titleW := textWidth(f.banner, title)
	sw := 26 * sc
	tx := cx - (titleW+sw*2+14*sc)/2
	wk.drawSwatch(tx+sw, y+44*sc, 22*sc, winner, tag)
	drawText(wk.canvas, f.banner, title, tx+2*sw+14*sc, y+44*sc+capHeight(f.banner)/2, th.gold)
	drawTextCentered(wk.canvas, f.bannerSub, sub, cx, y+90*sc, th.text)
}

// rectOf converts an image rectangle to frect.
func rectOf(r image.Rectangle) frect {
	return frect{float64(r.Min.X), float64(r.Min.Y), float64(r.Max.X), float64(r.Max.Y)}
}
