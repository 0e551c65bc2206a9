package render

import (
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/gomedium"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/font/sfnt"
	"golang.org/x/image/math/fixed"
)

// fonts are the parsed Go fonts. A parsed font is safe for concurrent use;
// the faces made from it are not, so every render worker makes its own.
type fonts struct {
	regular, medium, bold *opentype.Font
}

func parseFonts() (*fonts, error) {
	var f fonts
	for _, x := range []struct {
		dst  **opentype.Font
		data []byte
		name string
	}{{&f.regular, goregular.TTF, "Go Regular"}, {&f.medium, gomedium.TTF, "Go Medium"}, {&f.bold, gobold.TTF, "Go Bold"}} {
		ft, err := opentype.Parse(x.data)
		if err != nil {
			return nil, fmt.Errorf("render: parse %s: %w", x.name, err)
		}
		*x.dst = ft
	}
	return &f, nil
}

// face makes a face of f at size pixels (72 dpi, so points are pixels).
func face(f *opentype.Font, size float64) (font.Face, error) {
	fc, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		return nil, fmt.Errorf("render: font face: %w", err)
	}
	return fc, nil
}

// drawable drops from s the characters the font has no glyph for (they
// would show as boxes), and control characters.
func drawable(f *opentype.Font, s string) string {
	var buf sfnt.Buffer
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if unicode.IsControl(r) {
			continue
		}
		if i, err := f.GlyphIndex(&buf, r); err == nil && i != 0 {
			out = append(out, r)
		}
	}
	return strings.TrimSpace(string(out))
}

// cachedFace is a face that keeps the glyphs it has rasterized: a frame's
// panel writes much the same text in the same places as the frame before
// (the opentype face rasterizes every glyph it draws). A glyph's mask
// depends only on where the dot falls within its pixel, so that is the
// key, with the face and the rune; a cached glyph is the same, bit for bit.
// It keeps its glyphs' bounds, advances and kerning too, which laying out
// and measuring text asks for again and again. The faces of one worker
// share one cache, which is not safe for concurrent use, as the faces
// are not.
type cachedFace struct {
	font.Face
	id    uint8 // which of its worker's faces
	cache *glyphCache
}

// glyphCache is the glyphs of one worker's faces, at most maxGlyphs.
type glyphCache struct {
	m      map[glyphKey]glyph
	bounds map[glyphKey]glyphBounds // fx and fy 0: bounds do not depend on the dot
	kerns  map[kernKey]fixed.Int26_6
	adv    map[glyphKey]glyphBounds // fx and fy 0; only the advance and ok
}

// kernKey is a pair of runes in a face.
type kernKey struct {
	a, b rune
	face uint8
}

// glyphBounds is what font.Face.GlyphBounds returns.
type glyphBounds struct {
	b       fixed.Rectangle26_6
	advance fixed.Int26_6
	ok      bool
}

// maxGlyphs bounds a worker's glyph cache: a panel draws a few hundred
// glyphs, most of them again in the next frame; a glyph's mask is about
// 0.3 to 1 KB at the default width.
const maxGlyphs = 2048

type glyphKey struct {
	r      rune
	face   uint8
	fx, fy uint8 // the dot's position within its pixel, in 64ths
}

// glyph is a rasterized glyph, its rectangle relative to the dot's pixel.
type glyph struct {
	dr      image.Rectangle
	mask    *image.Alpha
	maskp   image.Point
	advance fixed.Int26_6
	ok      bool
}

// Glyph implements font.Face.
func (f *cachedFace) Glyph(dot fixed.Point26_6, r rune) (image.Rectangle, image.Image, image.Point, fixed.Int26_6, bool) {
	k := glyphKey{r: r, face: f.id, fx: uint8(dot.X & 63), fy: uint8(dot.Y & 63)}
	px := image.Pt(dot.X.Floor(), dot.Y.Floor())
	g, hit := f.cache.m[k]
	if !hit {
		dr, mask, maskp, advance, ok := f.Face.Glyph(dot, r)
		a, isAlpha := mask.(*image.Alpha)
		if ok && !isAlpha { // not the opentype face's: do not keep it
			return dr, mask, maskp, advance, ok
		}
		g = glyph{dr: dr.Sub(px), maskp: maskp, advance: advance, ok: ok}
		if ok {
			// The face reuses its mask: keep a copy.
			g.mask = &image.Alpha{Pix: slices.Clone(a.Pix), Stride: a.Stride, Rect: a.Rect}
		}
		if len(f.cache.m) >= maxGlyphs {
			clear(f.cache.m)
		}
		f.cache.m[k] = g
	}
	if !g.ok {
		return image.Rectangle{}, nil, image.Point{}, 0, false
	}
	return g.dr.Add(px), g.mask, g.maskp, g.advance, true
}

// Kern implements font.Face, keeping what the face returns: a pair's
// kerning takes the face two glyph lookups and a table search.
func (f *cachedFace) Kern(a, b rune) fixed.Int26_6 {
	k := kernKey{a: a, b: b, face: f.id}
	v, hit := f.cache.kerns[k]
	if !hit {
		v = f.Face.Kern(a, b)
		if len(f.cache.kerns) >= maxGlyphs {
			clear(f.cache.kerns)
		}
		f.cache.kerns[k] = v
	}
	return v
}

// GlyphAdvance implements font.Face, keeping what the face returns.
func (f *cachedFace) GlyphAdvance(r rune) (fixed.Int26_6, bool) {
	k := glyphKey{r: r, face: f.id}
	g, hit := f.cache.adv[k]
	if !hit {
		g.advance, g.ok = f.Face.GlyphAdvance(r)
		if len(f.cache.adv) >= maxGlyphs {
			clear(f.cache.adv)
		}
		f.cache.adv[k] = g
	}
	return g.advance, g.ok
}

// GlyphBounds implements font.Face, keeping what the face returns.
func (f *cachedFace) GlyphBounds(r rune) (fixed.Rectangle26_6, fixed.Int26_6, bool) {
	k := glyphKey{r: r, face: f.id}
	g, hit := f.cache.bounds[k]
	if !hit {
		g.b, g.advance, g.ok = f.Face.GlyphBounds(r)
		if len(f.cache.bounds) >= maxGlyphs {
			clear(f.cache.bounds)
		}
		f.cache.bounds[k] = g
	}
	return g.b, g.advance, g.ok
}

// textWidth returns the advance width of s in pixels.
func textWidth(fc font.Face, s string) float64 {
	return float64(font.MeasureString(fc, s)) / 64
}

// capHeight returns the height of capital letters and digits, for centring
// text on a point by eye rather than by the font's line box.
func capHeight(fc font.Face) float64 {
	m := fc.Metrics()
	if m.CapHeight > 0 {
		return float64(m.CapHeight) / 64
	}
	return float64(m.Ascent) / 64 * 0.7
}

// drawText draws s with its left end of baseline at (x, y), and returns
// the rectangle of the pixels it drew on. It uses the font's glyph masks
// directly: no resampling, unlike gg.DrawString. It lays out the glyphs as
// font.Drawer does, and draws each as draw.DrawMask would (glyphOver).
func drawText(dst *image.RGBA, fc font.Face, s string, x, y float64, c color.Color) image.Rectangle {
	var g glyphOver
	g.init(c)
	dot := fixed.Point26_6{X: fixed.Int26_6(x * 64), Y: fixed.Int26_6(y * 64)}
	prev := rune(-1)
	var drawn image.Rectangle
	for _, r := range s {
		if prev >= 0 {
			dot.X += fc.Kern(prev, r)
		}
		dr, mask, maskp, advance, _ := fc.Glyph(dot, r)
		if !dr.Empty() {
			drawn = drawn.Union(g.draw(dst, dr, mask, maskp))
		}
		dot.X += advance
		prev = r
	}
	return drawn
}

// textBox is a box that holds what drawText(dst, fc, s, x, y, ...)
// draws: the glyphs' bounds, and two pixels around them for where their
// rasterizing rounds.
func textBox(fc font.Face, s string, x, y float64) image.Rectangle {
	b, _ := font.BoundString(fc, s)
	dx, dy := fixed.Int26_6(x*64), fixed.Int26_6(y*64)
	return image.Rect((b.Min.X+dx).Floor()-2, (b.Min.Y+dy).Floor()-2, (b.Max.X+dx).Ceil()+2, (b.Max.Y+dy).Ceil()+2)
}

// glyphOver draws glyph masks in a colour over an image, as draw.DrawMask
// does (Over, a uniform source): text is mostly drawn on one colour, and a
// pixel of that colour under a mask's alpha gives the same pixel each
// time, which it keeps (by alpha) for the pixels to come.
type glyphOver struct {
	src            *image.Uniform
	sr, sg, sb, sa uint32
	bg             uint32 // the pixel the kept ones were drawn on, once set
	bgSet          bool
	kept           [256]uint32 // by alpha, when known
	known          [256]bool
}

func (g *glyphOver) init(c color.Color) {
	g.src = image.NewUniform(c)
	g.sr, g.sg, g.sb, g.sa = c.RGBA()
}

// draw draws mask (from maskp) into dst's rectangle dr, and returns the
// part of dr it drew in.
func (g *glyphOver) draw(dst *image.RGBA, dr image.Rectangle, mask image.Image, maskp image.Point) image.Rectangle {
	a, ok := mask.(*image.Alpha)
	if !ok {
		draw.DrawMask(dst, dr, g.src, image.Point{}, mask, maskp, draw.Over)
		return dr.Intersect(dst.Rect)
	}
	// draw.DrawMask's clip, for a source without bounds.
	r := dr.Intersect(dst.Rect).Intersect(a.Rect.Add(dr.Min.Sub(maskp)))
	if r.Empty() {
		return r
	}
	mp := maskp.Add(r.Min.Sub(dr.Min))
	const m = 1<<16 - 1
	for y := r.Min.Y; y < r.Max.Y; y++ {
		row := dst.Pix[dst.PixOffset(r.Min.X, y):dst.PixOffset(r.Max.X, y)]
		ms := a.Pix[a.PixOffset(mp.X, mp.Y+y-r.Min.Y):]
		ms = ms[:len(row)/4]
		for i, ma := range ms {
			if ma == 0 {
				continue
			}
			d := row[4*i : 4*i+4 : 4*i+4]
			px := binary.LittleEndian.Uint32(d)
			if px == g.bg && g.known[ma] {
				binary.LittleEndian.PutUint32(d, g.kept[ma])
				continue
			}
			// draw.drawGlyphOver's sums.
			ma16 := uint32(ma) | uint32(ma)<<8
			f := (m - (g.sa * ma16 / m)) * 0x101
			d[0] = uint8((uint32(d[0])*f + g.sr*ma16) / m >> 8)
			d[1] = uint8((uint32(d[1])*f + g.sg*ma16) / m >> 8)
			d[2] = uint8((uint32(d[2])*f + g.sb*ma16) / m >> 8)
			d[3] = uint8((uint32(d[3])*f + g.sa*ma16) / m >> 8)
			if !g.bgSet {
				g.bg, g.bgSet = px, true
			}
			if px == g.bg {
				g.kept[ma], g.known[ma] = binary.LittleEndian.Uint32(d), true
			}
		}
	}
	return r
}

// drawTextCentered centres s on (cx, cy), by its advance and cap height.
func drawTextCentered(dst *image.RGBA, fc font.Face, s string, cx, cy float64, c color.Color) {
	drawText(dst, fc, s, cx-textWidth(fc, s)/2, cy+capHeight(fc)/2, c)
}

// drawTextHalo draws s centred on (cx, cy) in fg over a soft outline of bg,
// readable on any ground.
func drawTextHalo(dst *image.RGBA, fc font.Face, s string, cx, cy, r float64, fg, bg color.RGBA) {
	x := cx - textWidth(fc, s)/2
	y := cy + capHeight(fc)/2
	soft := bg
	soft.A = uint8(int(bg.A) * 5 / 10)
	soft.R, soft.G, soft.B = uint8(int(bg.R)*5/10), uint8(int(bg.G)*5/10), uint8(int(bg.B)*5/10)
	for _, o := range [][2]float64{{-1, -1}, {1, -1}, {-1, 1}, {1, 1}, {0, -1.4}, {0, 1.4}, {-1.4, 0}, {1.4, 0}} {
		drawText(dst, fc, s, x+o[0]*r*1.3, y+o[1]*r*1.3, soft)
	}
	for _, o := range [][2]float64{{-1, 0}, {1, 0}, {0, -1}, {0, 1}, {-0.7, -0.7}, {0.7, -0.7}, {-0.7, 0.7}, {0.7, 0.7}} {
		drawText(dst, fc, s, x+o[0]*r, y+o[1]*r, bg)
	}
	drawText(dst, fc, s, x, y, fg)
}

// fillRect fills r with c (opaque colours replace, others blend).
func fillRect(dst *image.RGBA, r image.Rectangle, c color.RGBA) {
	op := draw.Over
	if c.A == 255 {
		op = draw.Src
	}
	draw.Draw(dst, r, image.NewUniform(c), image.Point{}, op)
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

// wrap breaks s into lines at most w pixels wide, at spaces (a word wider
// than w is shortened with an ellipsis).
func wrap(fc font.Face, s string, w float64) []string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		next := word
		if line != "" {
			next = line + " " + word
		}
		if line != "" && textWidth(fc, next) > w {
			lines = append(lines, fit(fc, line, w))
			next = word
		}
		line = next
	}
	if line != "" {
		lines = append(lines, fit(fc, line, w))
	}
	return lines
}
