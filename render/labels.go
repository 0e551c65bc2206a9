package render

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"golang.org/x/image/font"

	"github.com/riskbot/riskbot/assets/lang"
)

// badgeBox is the space a territory's badge may take (three digits).
func (b *board) badgeBox(t int) frect {
	x, y := b.anchor[t][0], b.anchor[t][1]
	hw, hh := b.badgeR*1.45, b.badgeR*1.12
	return frect{x - hw, y - hh, x + hw, y + hh}
}

// abbreviate shortens the common words of territory names in language t:
// the classic board's, as the catalogue names them.
func abbreviate(t lang.Tag, name string) string {
	var r *strings.Replacer
	switch t {
	case lang.French:
		r = strings.NewReplacer("Territoires ", "Terr. ", "Australie-", "Austr.-", "Amérique ", "Amér. ",
			"Afrique ", "Afr. ", "Europe ", "Eur. ", "Nouvelle-", "N.-", "Grande-", "G.-")
	default:
		r = strings.NewReplacer("United States", "US", "Northern ", "N. ", "Southern ", "S. ",
			"Eastern ", "E. ", "Western ", "W. ", "Northwest ", "NW ", "Central ", "C. ")
	}
	return r.Replace(name)
}

// splitTwo splits a name into two lines of balanced width, or returns nil
// for a single word. With hyphens set a line may also end after a hyphen
// (French names: "Australie-" / "Occidentale").
func splitTwo(fc font.Face, name string, hyphens bool) []string {
	words := strings.Fields(name)
	if hyphens {
		words = strings.FieldsFunc(strings.ReplaceAll(name, "-", "-\x00"), func(r rune) bool { return r == ' ' || r == 0 })
	}
	if len(words) < 2 {
		return nil
	}
	var best []string
	bestW := math.Inf(1)
	for i := 1; i < len(words); i++ {
		a, b := joinWords(words[:i]), joinWords(words[i:])
		if w := math.Max(textWidth(fc, a), textWidth(fc, b)); w < bestW {
			best, bestW = []string{a, b}, w
		}
	}
	return best
}

// joinWords joins words with spaces, but none after a hyphen.
func joinWords(words []string) string {
	var sb strings.Builder
	for i, w := range words {
		if i > 0 && !strings.HasSuffix(words[i-1], "-") {
			sb.WriteByte(' ')
		}
		sb.WriteString(w)
	}
	return sb.String()
}

// layoutLabels places every territory's name next to its badge so that no
// name overlaps another name, a badge or the legend, preferring spots over
// the territory itself. Tight territories are placed first. A name with no
// room is an error, or left out when drop is set.
func layoutLabels(b *board, fc font.Face, drop bool) ([]labelPlacement, error) {
	s := b.s
	n := b.m.Len()
	lineH := float64(fc.Metrics().Height)/64*0.92 + 1
	capH := capHeight(fc)
	pad := 3 * s // halo and breathing room
	badges := make([]frect, n)
	for t := range n {
		badges[t] = b.badgeBox(t)
	}
	// Territories with little room around their badge go first.
	order := make([]int, n)
	crowd := make([]float64, n)
	for t := range n {
		order[t] = t
		for u := range n {
			if u != t {
				d := math.Hypot(b.anchor[t][0]-b.anchor[u][0], b.anchor[t][1]-b.anchor[u][1])
				crowd[t] += math.Exp(-d / (60 * s))
			}
		}
	}
	slices.SortStableFunc(order, func(x, y int) int { return cmp.Compare(crowd[y], crowd[x]) })
	type variant struct {
		lines   []string
		penalty float64
	}
	dirs := []struct{ ux, uy, pen float64 }{
		{0, 1, 0}, {0, -1, 0.5}, {1, 0, 0.8}, {-1, 0, 0.9},
		{1, 1, 1.3}, {-1, 1, 1.3}, {1, -1, 1.4}, {-1, -1, 1.4},
	}
	// On generated maps every territory has room under its badge, so a
	// name between two badges is refused more firmly than on the classic
	// board, where Europe leaves no choice.
	near := b.style.nearBadge
	legend := b.legend.box
	legendR := frect{float64(legend.Min.X), float64(legend.Min.Y), float64(legend.Max.X), float64(legend.Max.Y)}
	var placed []labelPlacement
	for _, t := range order {
		name := b.territoryName(t)
		// A name the catalogue gives in another language than English is
		// shortened and broken that language's way.
		tag := lang.English
		if b.localNames {
			tag = b.p.Tag()
		}
		hyphens := tag != lang.English
		vars := []variant{{[]string{name}, 0}}
		if two := splitTwo(fc, name, hyphens); two != nil {
			vars = append(vars, variant{two, 0.6})
		}
		if ab := abbreviate(tag, name); ab != name {
			vars = append(vars, variant{[]string{ab}, 2.5})
			if two := splitTwo(fc, ab, hyphens); two != nil {
				vars = append(vars, variant{two, 3})
			}
		}
		ax, ay := b.anchor[t][0], b.anchor[t][1]
		best := math.Inf(1)
		var pick labelPlacement
		for _, v := range vars {
			bw := 0.0
			for _, l := range v.lines {
				bw = math.Max(bw, textWidth(fc, l))
			}
			bw += 2 * pad
			bh := capH + lineH*float64(len(v.lines)-1) + 2*pad
			for _, dist := range []float64{0, 6, 14, 24, 36, 50, 66, 84} {
				g := b.badgeR + 2*s + dist*s
				for _, d := range dirs {
					var cx, cy float64
					switch {
					case d.ux == 0:
						cx, cy = ax, ay+d.uy*(g+bh/2)
					case d.uy == 0:
						cx, cy = ax+d.ux*(g+bw/2), ay
					default:
						cx, cy = ax+d.ux*(g*0.75+bw/2), ay+d.uy*(g*0.75+bh/2)
					}
					box := frect{cx - bw/2, cy - bh/2, cx + bw/2, cy + bh/2}
					if box.x0 < 2*s || box.y0 < 2*s || box.x1 > float64(b.w)-2*s || box.y1 > float64(b.mh)-2*s {
						continue
					}
					score := v.penalty + d.pen + dist/10*0.55
					if score >= best {
						continue
					}
					if box.overlaps(legendR) || overlapsAny(box, badges) || overlapsAny(box, b.obstacles) {
						continue
					}
					clash := false
					for _, p := range placed {
						if box.overlaps(p.box) {
							clash = true
							break
						}
					}
					if clash {
						continue
					}
					score += 3 * b.offTerritory(box.inset(pad), t)
					// A name nearer another badge than its own reads as that
					// territory's.
					own := box.dist(ax, ay)
					for u := range n {
						if u != t && box.dist(b.anchor[u][0], b.anchor[u][1]) < own+b.badgeR {
							score += near
							break
						}
					}
					if score < best {
						best = score
						pick = labelPlacement{t: t, lines: v.lines, cx: cx, cy: cy, lineH: lineH, box: box}
					}
				}
			}
		}
		if math.IsInf(best, 1) {
			if drop {
				continue
			}
			return nil, fmt.Errorf("render: no room for the name of %s at width %d", name, b.w)
		}
		placed = append(placed, pick)
	}
	slices.SortFunc(placed, func(x, y labelPlacement) int { return x.t - y.t })
	return placed, nil
}

// offTerritory returns how much of r lies off territory t: 0 all on it, up
// to 1 all on other territories (the sea counts half).
func (b *board) offTerritory(r frect, t int) float64 {
	step := math.Max(2, 3*b.s)
	var sum, n float64
	for y := r.y0; y <= r.y1; y += step {
		for x := r.x0; x <= r.x1; x += step {
			xi, yi := int(x), int(y)
			if xi < 0 || yi < 0 || xi >= b.w || yi >= b.mh {
				sum++
				n++
				continue
			}
			switch v := b.terr[yi*b.w+xi]; {
			case int(v) == t+1:
			case v == 0:
				sum += 0.5
			default:
				sum++
			}
			n++
		}
	}
	if n == 0 {
		return 0
	}
	return sum / n
}

// placeNames lays out the territories' names at the first of the style's
// sizes where every name has room (a map too crowded for the first still
// gets drawn: a map that cannot be drawn is a match nobody can follow),
// and draws them with their halos on the names layer. Where the style
// lets names go (drawn maps, as crowded as their makers drew them), the
// last size leaves out those that have no room.
func placeNames(b *board, ly layers) error {
	var fc font.Face
	var err error
	for i, size := range b.style.nameSizes {
		if fc, err = face(ly.fs.bold, size*b.s); err != nil {
			return err
		}
		last := i == len(b.style.nameSizes)-1
		if b.labelAt, err = layoutLabels(b, fc, last && b.style.dropNames); err == nil {
			break
		}
	}
	if err != nil {
		return err
	}
	for _, l := range b.labelAt {
		for j, line := range l.lines {
			cy := l.cy - l.lineH*float64(len(l.lines)-1)/2 + l.lineH*float64(j)
			drawTextHalo(ly.names, fc, line, l.cx, cy, b.style.nameHalo*b.s, ly.th.labelFg, ly.th.labelHalo)
		}
	}
	return nil
}
