package render

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"strings"
	"testing"
)

// The key of a capitals map says what the cards' "locked" and its own
// "fat bonus" mean (issue 43: both unexplained on the map): each note is
// drawn, whole, inside the panel, at the widths chat shows.
func TestGridKeyExplainsLockedAndFatBonus(t *testing.T) {
	for _, w := range []int{800, 1600} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			r := shared(Options{Width: w})
			s := gridStart(t)
			data, err := r.Render(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			b, err := r.gridBoardFor(s.Map)
			if err != nil {
				t.Fatal(err)
			}
			f, err := newFaces(r.fonts, float64(r.width)/refWidth)
			if err != nil {
				t.Fatal(err)
			}
			notes := b.gridKeyNotes(f.small)
			var said []string
			for _, n := range notes {
				said = append(said, strings.Join(n.lines, " "))
			}
			for _, word := range []string{"locked:", "fat bonus:"} {
				if !strings.Contains(strings.Join(said, "\n"), word) {
					t.Errorf("the key's notes %q do not explain %q", said, word)
				}
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			rgba := toRGBA(img)
			x0, x1 := int(b.gridKeyNoteX()), b.panel.Max.X
			for _, n := range notes {
				for i, l := range n.lines {
					y := n.y + float64(i)*n.lineH
					if y+capHeight(f.small) > float64(b.panel.Max.Y) || b.gridKeyNoteX()+textWidth(f.small, l) > float64(x1) {
						t.Errorf("note line %q at y %.0f leaves the panel %v", l, y, b.panel)
					}
					// Text is drawn there: light pixels on the dark ground.
					light := 0
					for x := x0; x < x1; x++ {
						p := rgba.RGBAAt(x, int(y))
						if int(p.R)+int(p.G)+int(p.B) > 3*160 {
							light++
						}
					}
					if light < 5 {
						t.Errorf("note line %q: nothing drawn at y %.0f", l, y)
					}
				}
			}
		})
	}
}
