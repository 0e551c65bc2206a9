package render

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
)

// legendFaces are the faces the continent legend is drawn with.
type legendFaces struct {
	title, name font.Face
}

func newLegendFaces(fs *fonts, s float64) (legendFaces, error) {
	title, err := face(fs.bold, 15*s)
	if err != nil {
		return legendFaces{}, err
	}
	name, err := face(fs.medium, 17*s)
	if err != nil {
		return legendFaces{}, err
	}
	return legendFaces{title: title, name: name}, nil
}

// layoutLegend sizes the legend and puts it in the first corner of the map
// with no land under it, or the one with least; or where place says, if
// place is not nil (an imported picture has its own title and legend to
// keep clear of).
func layoutLegend(b *board, f legendFaces, place func(w, h int) image.Point) legendLayout {
	s := b.s
	var l legendLayout
	nameW := 0.0
	for c := range b.m.Continents {
		nameW = math.Max(nameW, textWidth(f.name, b.continentName(c)))
	}
	rowH := 27 * s
	// As wide as the rows, or as the title over short names.
	rows := 14*s + 18*s + nameW + 14*s + 34*s + 10*s + 28*s + 12*s
	w := int(math.Ceil(math.Max(rows, 14*s+textWidth(f.title, b.p.T("render.legend.title"))+14*s)))
	h := int(math.Ceil(36*s + rowH*float64(len(b.m.Continents)) + 6*s))
	margin := int(10 * s)
	corners := []image.Point{
		{margin, b.mh - margin - h},
		{b.w - margin - w, b.mh - margin - h},
		{margin, margin},
		{b.w - margin - w, margin},
	}
	if place != nil {
		corners = []image.Point{place(w, h)}
	}
	pick := corners[0]
	bestLand := math.Inf(1)
	for _, p := range corners {
		land := 0.0
		for y := p.Y; y < p.Y+h; y += 2 {
			for x := p.X; x < p.X+w; x += 2 {
				if x >= 0 && y >= 0 && x < b.w && y < b.mh && b.terr[y*b.w+x] != 0 {
					land++
				}
			}
		}
		if land < bestLand {
			pick, bestLand = p, land
		}
		if land == 0 {
			break
		}
	}
	l.box = image.Rect(pick.X, pick.Y, pick.X+w, pick.Y+h)
	x := float64(pick.X)
	l.swatchX = x + 14*s + 7*s
	l.nameX = x + 14*s + 18*s
	l.bonusX = l.nameX + nameW + 14*s + 34*s // right edge of the bonus
	l.holderX = l.bonusX + 10*s + 14*s       // centre of the holder's mark
	for i := range b.m.Continents {
		l.rowY = append(l.rowY, float64(pick.Y)+36*s+rowH*(float64(i)+0.5))
	}
	return l
}

// drawLegendGround draws the static part of the legend into the base: the
// box, the title, each continent's colour, name and bonus.
func drawLegendGround(dst *image.RGBA, b *board, th *theme, f legendFaces) {
	s := b.s
	l := b.legend
	dc := gg.NewContextForRGBA(dst)
	r := l.box
	dc.DrawRoundedRectangle(float64(r.Min.X), float64(r.Min.Y), float64(r.Dx()), float64(r.Dy()), 8*s)
	fillOutline(dc, color.RGBA{8, 14, 24, 200}, color.RGBA{200, 210, 225, 120}, 1.5*s)
	drawText(dst, f.title, b.p.T("render.legend.title"), float64(r.Min.X)+14*s, float64(r.Min.Y)+24*s, th.dim)
	for i, c := range b.m.Continents {
		y := l.rowY[i]
		dc.DrawCircle(l.swatchX, y, 7*s)
		fillOutline(dc, th.continentColor(i), th.ink, 1.2*s)
		drawText(dst, f.name, b.continentName(i), l.nameX, y+capHeight(f.name)/2, th.text)
		bonus := fmt.Sprintf("+%d", c.Bonus)
		drawText(dst, f.name, bonus, l.bonusX-textWidth(f.name, bonus), y+capHeight(f.name)/2, th.gold)
	}
}
