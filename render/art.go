package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	_ "image/gif"  // pictures of imported maps may be GIF
	_ "image/jpeg" // or JPEG
	"math"
	"slices"

	xdraw "golang.org/x/image/draw"

	"github.com/riskbot/riskbot/state"
)

// Imported maps (state.Map.Art set: a map maker's picture, the index of
// which territory each of its pixels belongs to, and the army markers'
// points; engine/mapfile reads them) are drawn from their own picture:
// scaled to the image's width, the panel under it as on the classic board.
// Each territory is tinted in its owner's colour with the picture's own
// light and shade (its luminance picks the shade, as the terrain textures
// do on the other maps); everything else (sea, frame, decoration, the
// picture's own lines between territories) is the picture itself, mapped
// into colours of the map's own palette. Borders come from the index, the
// badges sit on the map maker's markers.

// artMaxAspect bounds the map area's height to its width: a picture taller
// than wide is drawn narrower than the image, centred, so that the image
// keeps the classic board's layout and is shown as wide in chat.
const artMaxAspect = 1.0

// artPictureReserve is how many palette entries are kept for the picture's
// darkest mixes under the legend's ground (see newArtLook).
const artPictureReserve = 6

// artKind is the kind of imported maps: their art, and the picture as the
// map area shows it.
type artKind struct {
	art *state.Art
	// pic is the map area (mw x mh): the picture scaled into it at
	// (ox, 0), pw x mh, the margins the panel's colour. Kept while the
	// board is built.
	pic    *image.RGBA
	ox, pw int
	// The picture's columns and rows per map area pixel.
	kx, ky float64
}

// buildArtBoard builds the board of imported map m for images width pixels
// wide: it decodes the picture (once per board), scales it to the map area
// and makes the map's look, whose palette holds the picture's colours.
func buildArtBoard(m *state.Map, kt *kit, width int) (*board, error) {
	a := m.Art
	if m.Len() > 254 || len(a.Index) != a.W*a.H || len(a.Markers) != m.Len() {
		return nil, fmt.Errorf("render: map %q has broken art", m.Name)
	}
	src, _, err := image.Decode(bytes.NewReader(a.Picture))
	if err != nil {
		return nil, fmt.Errorf("render: map %q: decode its picture: %w", m.Name, err)
	}
	if sz := src.Bounds().Size(); sz.X != a.W || sz.Y != a.H {
		return nil, fmt.Errorf("render: map %q: its picture is %dx%d, its index %dx%d", m.Name, sz.X, sz.Y, a.W, a.H)
	}
	k := newArtKind(a, src, width, kt.th.panelBg)
	return buildBoard(m, k, newArtLook(kt.th, kt.colors, k.colours()), kt, width)
}

// newArtKind lays the picture out in a map area width pixels wide and
// scales it there.
func newArtKind(a *state.Art, src image.Image, width int, margin color.RGBA) *artKind {
	mh := max(1, int(math.Round(float64(width)*float64(a.H)/float64(a.W))))
	pw := width
	if limit := int(float64(width) * artMaxAspect); mh > limit {
		mh = limit
		pw = max(1, int(math.Round(float64(mh)*float64(a.W)/float64(a.H))))
	}
	k := &artKind{art: a, ox: (width - pw) / 2, pw: pw,
		kx: float64(a.W) / float64(pw), ky: float64(a.H) / float64(mh)}
	k.pic = image.NewRGBA(image.Rect(0, 0, width, mh))
	fillRect(k.pic, k.pic.Rect, margin)
	// Catmull-Rom: sharp when a small picture is enlarged (the usual case:
	// map makers draw some 800 px wide), averaging when one is shrunk. Over
	// the margin's colour: a picture's transparent pixels come out opaque,
	// as every pixel of the frame's ground must.
	xdraw.CatmullRom.Scale(k.pic, image.Rect(k.ox, 0, k.ox+pw, mh), src, src.Bounds(), xdraw.Over, nil)
	return k
}

// at returns the territory id + 1 of the picture under the map area's
// point (x, y), or 0 for none: the index's nearest pixel.
func (k *artKind) at(x, y float64) uint8 {
	px, py := int(math.Floor((x-float64(k.ox))*k.kx)), int(math.Floor(y*k.ky))
	a := k.art
	if px < 0 || py < 0 || px >= a.W || py >= a.H {
		return 0
	}
	return a.Index[py*a.W+px]
}

// colours are the colours of the picture where the map shows it (off the
// territories), by how many pixels have each: what its palette must hold.
func (k *artKind) colours() *colourBox {
	hist := map[uint16]*histEntry{}
	w, h := k.pic.Rect.Dx(), k.pic.Rect.Dy()
	for y := range h {
		for x := range w {
			if k.at(float64(x)+0.5, float64(y)+0.5) != 0 {
				continue
			}
			o := k.pic.PixOffset(x, y)
			r, g, b := k.pic.Pix[o], k.pic.Pix[o+1], k.pic.Pix[o+2]
			key := uint16(r>>3)<<10 | uint16(g>>3)<<5 | uint16(b>>3)
			e := hist[key]
			if e == nil {
				e = &histEntry{}
				hist[key] = e
			}
			e.sum[0] += int64(r)
			e.sum[1] += int64(g)
			e.sum[2] += int64(b)
			e.n++
		}
	}
	box := &colourBox{}
	for _, e := range hist {
		box.entries = append(box.entries, *e)
	}
	// The map's iteration order must not change the palette.
	slices.SortFunc(box.entries, func(a, b histEntry) int {
		for c := range 3 {
			if d := a.sum[c]*b.n - b.sum[c]*a.n; d != 0 {
				if d < 0 {
					return -1
				}
				return 1
			}
		}
		return int(a.n - b.n)
	})
	return box
}

// frame gives the map area the whole width, as tall as the picture
// scaled to it (at most square), and puts the classic board's panel under
// it.
func (k *artKind) frame(b *board, width int) (style, error) {
	b.w, b.mw, b.mh = width, width, k.pic.Rect.Dy()
	b.h = b.mh + int(math.Round(classicPanelHeight*b.s))
	b.panel = image.Rect(0, b.mh, b.w, b.h)
	return style{
		lines: continentLines(b.m),
		badge: 25,
		// Smaller names before leaving any out: the map maker decides how
		// crowded the map is.
		nameSizes: []float64{15, 13, 11},
		nameHalo:  1.6,
		dropNames: true,
		nearBadge: 3,
		armies:    "n.armies",
	}, nil
}

// outline samples the index, nearest pixel: the territories are the map
// maker's, pixel for pixel.
func (k *artKind) outline(b *board) []uint8 {
	hw, hh := 2*b.mw, 2*b.mh
	a := k.art
	col := make([]int, hw) // the index's column of each sample, or -1
	for x := range hw {
		px := int(math.Floor(((float64(x)+0.5)/2 - float64(k.ox)) * k.kx))
		if px < 0 || px >= a.W {
			px = -1
		}
		col[x] = px
	}
	hi := make([]uint8, hw*hh)
	for y := range hh {
		py := min(a.H-1, int((float64(y)+0.5)/2*k.ky))
		row := a.Index[py*a.W : (py+1)*a.W]
		out := hi[y*hw : (y+1)*hw]
		for x, px := range col {
			if px >= 0 {
				out[x] = row[px]
			}
		}
	}
	return hi
}

// anchors are the map maker's markers, scaled; a marker that the scaling
// moves off its territory (a territory a few pixels wide, shrunk) gives
// way to the territory's point farthest from its edges.
func (k *artKind) anchors(b *board, terr []uint8, inside []float32) [][2]float64 {
	out := make([][2]float64, b.m.Len())
	var far [][2]float64
	for t, p := range k.art.Markers {
		x := float64(k.ox) + (float64(p[0])+0.5)/k.kx
		y := (float64(p[1]) + 0.5) / k.ky
		xi, yi := int(x), int(y)
		if xi >= 0 && yi >= 0 && xi < b.mw && yi < b.mh && int(terr[yi*b.mw+xi]) == t+1 {
			out[t] = [2]float64{x, y}
			continue
		}
		if far == nil {
			far = farthestPoints(terr, inside, b.mw, b.mh, b.m.Len())
		}
		out[t] = far[t]
	}
	return out
}

// ground lays the picture on the map area and takes the land's shades from
// its luminance: each pixel's against its territory's mean, so that every
// territory is its owner's colour at heart, with the picture's texture and
// lines over it; and a light rim inside every border, as on the other maps.
func (k *artKind) ground(b *board, ly layers, terr []uint8, inside []float32) {
	for y := range b.mh {
		copy(ly.base.Pix[y*ly.base.Stride:y*ly.base.Stride+4*b.mw], k.pic.Pix[y*k.pic.Stride:])
	}
	n := b.m.Len()
	sum, cnt := make([]float64, n), make([]float64, n)
	lum := make([]float32, b.mw*b.mh)
	for i, v := range terr {
		if v == 0 {
			continue
		}
		p := k.pic.Pix[4*i : 4*i+3 : 4*i+3]
		l := 0.299*float64(p[0]) + 0.587*float64(p[1]) + 0.114*float64(p[2])
		lum[i] = float32(l)
		sum[v-1] += l
		cnt[v-1]++
	}
	for t := range sum {
		sum[t] /= max(1, cnt[t])
	}
	// A difference of 64 in luminance moves 7 shades: the picture's own
	// texture shows, its dark lines come out darkest.
	const gain, most = 7.0 / 64, 7
	b.lvl = make([]uint8, b.w*b.mh)
	for i, v := range terr {
		if v == 0 {
			continue
		}
		d := math.Max(-most, math.Min(most, (float64(lum[i])-sum[v-1])*gain))
		l := midLevel + int(math.Round(d))
		l += rimLift(float64(inside[i]) / b.s)
		b.lvl[i] = uint8(max(0, min(levels-1, l)))
	}
}

// features lays out the continent legend in the corner with the least
// land, as on the classic board. Where it does cover land, the legend
// wins: no land, lines or badges' names under it.
func (k *artKind) features(b *board, ly layers) error {
	legendFaces, err := newLegendFaces(ly.fs, b.s)
	if err != nil {
		return err
	}
	b.legend = layoutLegend(b, legendFaces, func(w, h int) image.Point { return k.legendPlace(b, w, h) })
	r := b.legend.box.Intersect(image.Rect(0, 0, b.mw, b.mh))
	for y := r.Min.Y; y < r.Max.Y; y++ {
		clear(b.terr[y*b.w+r.Min.X : y*b.w+r.Max.X])
	}
	fillRect(ly.lines, r, color.RGBA{})
	drawLegendGround(ly.base, b, ly.th, legendFaces)
	return nil
}

// finish lets the scaled picture go: the board's ground holds it now.
func (k *artKind) finish(*board, layers) { k.pic = nil }

// drawPanel draws the classic board's strip under the map.
func (*artKind) drawPanel(wk *worker, s *state.State, tags []string) { wk.drawStrip(s, tags) }

// newArtLook is the look of an imported map: the classic board's land
// shades for the seats and neutral land, and a palette of what else the
// frame shows (the panel, text, badges) with the picture's own colours in
// every entry left: a median cut of them, and a few of the commonest
// darkened as the legend's ground darkens them.
func newArtLook(th *theme, seats []Color, picture *colourBox) *look {
	l := &look{ramps: append(seatRamps(th, seats), ramp(th.neutral))}
	q := &quantizer{}
	addExact(q, []color.RGBA{th.ink, rgb(0xffffff), th.text, th.dim, th.gold, th.panelBg, th.card, th.cardNow,
		th.labelHalo, th.coast, th.border, th.continentBorder, th.neutral}, seats, l.ramps[:len(seats)])
	for i := 0; i < levels; i += 2 { // neutral land: the nearest stands in
		q.add(l.ramps[neutralBase][i])
	}
	for c := range th.continents {
		q.add(th.continentColor(c))
	}
	addGreys(q)
	addPanelEdges(q, th, seats)
	boxes := picture.cut(256 - len(q.palette) - artPictureReserve)
	for _, bx := range boxes {
		q.add(bx.mean())
	}
	slices.SortStableFunc(boxes, func(a, b *colourBox) int { return int(b.n - a.n) })
	for _, bx := range boxes[:min(len(boxes), artPictureReserve)] {
		q.add(mix(bx.mean(), color.RGBA{8, 14, 24, 255}, 200.0/255))
	}
	q.finish()
	l.quant = q
	return l
}

// histEntry is the pixels of one colour cell (5 bits a channel): their
// sum and count.
type histEntry struct {
	sum [3]int64
	n   int64
}

// colourBox is a set of colour cells, for the median cut.
type colourBox struct {
	entries []histEntry
	n       int64 // pixels
}

// mean is the box's colour: the mean of its pixels.
func (bx *colourBox) mean() color.RGBA {
	var s [3]int64
	var n int64
	for _, e := range bx.entries {
		for c := range 3 {
			s[c] += e.sum[c]
		}
		n += e.n
	}
	if n == 0 {
		return color.RGBA{A: 255}
	}
	return color.RGBA{uint8(s[0] / n), uint8(s[1] / n), uint8(s[2] / n), 255}
}

// spread returns the channel along which the box's cells spread the most,
// and how far.
func (bx *colourBox) spread() (int, float64) {
	lo, hi := [3]float64{255, 255, 255}, [3]float64{}
	for _, e := range bx.entries {
		for c := range 3 {
			v := float64(e.sum[c]) / float64(e.n)
			lo[c], hi[c] = math.Min(lo[c], v), math.Max(hi[c], v)
		}
	}
	best, bc := -1.0, 0
	for c := range 3 {
		if d := hi[c] - lo[c]; d > best {
			best, bc = d, c
		}
	}
	return bc, best
}

// cut splits the colours into at most n boxes (median cut): each time the
// box whose spread, weighted by its pixels, is largest, at its pixels'
// median along its widest channel.
func (bx *colourBox) cut(n int) []*colourBox {
	for _, e := range bx.entries {
		bx.n += e.n
	}
	boxes := []*colourBox{bx}
	if len(bx.entries) == 0 || n < 1 {
		return nil
	}
	for len(boxes) < n {
		best, bestScore := -1, 0.0
		for i, b := range boxes {
			if len(b.entries) < 2 {
				continue
			}
			_, d := b.spread()
			if score := d * d * float64(b.n); score > bestScore {
				best, bestScore = i, score
			}
		}
		if best < 0 {
			break
		}
		b := boxes[best]
		c, _ := b.spread()
		slices.SortFunc(b.entries, func(x, y histEntry) int {
			if d := x.sum[c]*y.n - y.sum[c]*x.n; d != 0 {
				if d < 0 {
					return -1
				}
				return 1
			}
			return 0
		})
		var acc int64
		cutAt := 1
		for i, e := range b.entries[:len(b.entries)-1] {
			acc += e.n
			cutAt = i + 1
			if 2*acc >= b.n {
				break
			}
		}
		lo := &colourBox{entries: b.entries[:cutAt]}
		hi := &colourBox{entries: b.entries[cutAt:]}
		for _, e := range lo.entries {
			lo.n += e.n
		}
		hi.n = b.n - lo.n
		boxes[best] = lo
		boxes = append(boxes, hi)
	}
	return boxes
}

// legendPlace is where the continent legend, w x h, goes on an imported
// map: over no land if it can be, and then where it hides the least of
// the picture's own drawing (its title, legend, compass), above all
// without cutting through one: a sharp edge just outside the legend is a
// thing half hidden, and weighs most. Among equals, the nearer a corner
// the better. Sums over the area make each place cost the same, so every
// place a few pixels apart is tried.
func (k *artKind) legendPlace(b *board, w, h int) image.Point {
	mw, mh := b.mw, b.mh
	lum := func(x, y int) int {
		i := k.pic.PixOffset(x, y)
		p := k.pic.Pix[i : i+3 : i+3]
		return (299*int(p[0]) + 587*int(p[1]) + 114*int(p[2])) / 1000
	}
	// Summed-area tables of land and of sharp edges, (mw+1) x (mh+1).
	land := make([]int32, (mw+1)*(mh+1))
	edge := make([]int32, (mw+1)*(mh+1))
	for y := range mh {
		var rl, re int32
		for x := range mw {
			if b.terr[y*b.w+x] != 0 {
				rl++
			}
			if x+1 < mw && y+1 < mh {
				l := lum(x, y)
				if dx, dy := l-lum(x+1, y), l-lum(x, y+1); dx > 48 || dx < -48 || dy > 48 || dy < -48 {
					re++
				}
			}
			i := (y+1)*(mw+1) + x + 1
			land[i] = land[i-mw-1] + rl
			edge[i] = edge[i-mw-1] + re
		}
	}
	sum := func(t []int32, r image.Rectangle) float64 {
		r = r.Intersect(image.Rect(0, 0, mw, mh))
		if r.Empty() {
			return 0
		}
		at := func(x, y int) int32 { return t[y*(mw+1)+x] }
		return float64(at(r.Max.X, r.Max.Y) - at(r.Min.X, r.Max.Y) - at(r.Max.X, r.Min.Y) + at(r.Min.X, r.Min.Y))
	}
	margin := int(10 * b.s)
	ring := max(2, int(4*b.s))
	best, bestCost := image.Point{margin, mh - margin - h}, math.Inf(1)
	step := max(2, int(4*b.s))
	for y := margin; y+h+margin <= mh; y += step {
		for x := margin; x+w+margin <= mw; x += step {
			r := image.Rect(x, y, x+w, y+h)
			cost := sum(edge, r)
			cost += 8 * (sum(edge, r.Inset(-ring)) - sum(edge, r))
			if l := sum(land, r); l > 0 {
				cost += 1e7 + 16*l
			}
			dx := min(x-margin, mw-margin-w-x)
			dy := min(y-margin, mh-margin-h-y)
			cost += 0.01 * float64(dx+dy)
			if cost < bestCost {
				best, bestCost = image.Point{x, y}, cost
			}
		}
	}
	return best
}
