package storetest

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/storage"
)

// StripMap returns the files of a map of n territories (2 to 254) in a
// row, each a column 10 pixels wide between a row of sea above and below,
// each bordering the next, in two continents (West, East); its title
// makes it a map of its own (its picture too), its hash another's.
func StripMap(t testing.TB, title string, n int) storage.MapFiles {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "; a map of the tests\nname %s\nauthor The tests\n\n[files]\npic strip-pic.png\nmap strip-map.png\n\n", strings.ReplaceAll(title, " ", "_"))
	b.WriteString("[continents]\nWest 2 red\nEast 3 blue\n\n[countries]\n")
	for i := 1; i <= n; i++ {
		c := 1
		if i > n/2 {
			c = 2
		}
		fmt.Fprintf(&b, "%d Land_%d %d %d 5\n", i, i, c, (i-1)*10+5)
	}
	b.WriteString("\n[borders]\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "%d", i)
		if i > 1 {
			fmt.Fprintf(&b, " %d", i-1)
		}
		if i < n {
			fmt.Fprintf(&b, " %d", i+1)
		}
		b.WriteString("\n")
	}
	w, h := n*10, 12
	idx := image.NewGray(image.Rect(0, 0, w, h))
	pic := image.NewRGBA(image.Rect(0, 0, w, h))
	seed := len(title)
	for _, r := range title {
		seed = seed*31 + int(r)
	}
	for y := range h {
		for x := range w {
			v := uint8(255)
			if y > 0 && y < h-1 {
				v = uint8(x/10 + 1)
			}
			idx.SetGray(x, y, color.Gray{v})
			pic.Set(x, y, color.RGBA{uint8(seed + x), uint8(seed >> 8), uint8(y * 20), 255})
		}
	}
	enc := func(img image.Image) []byte {
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	return storage.MapFiles{Map: []byte(b.String()), Picture: enc(pic), Index: enc(idx)}
}
