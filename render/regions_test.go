package render

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// regionMaps are a map of every kind of board: the classic world, a
// capitals map of each size, classic rules on generated islands, and two
// imported maps (a test fixture and a sample of examples/maps).
func regionMaps(t testing.TB) []struct {
	name string
	m    *state.Map
} {
	t.Helper()
	sample, err := mapfile.ReadPath(filepath.Join("..", "examples", "maps", "inkwell", "inkwell.map"), mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return []struct {
		name string
		m    *state.Map
	}{
		{"classic", classicMap(t)},
		{"capitals-small", genMap(t, 3, genmap.Small)},
		{"capitals-normal", genMap(t, 4, genmap.Normal)},
		{"capitals-large", genMap(t, 5, genmap.Large)},
		{"islands", lanesMap(t, 12, genmap.Large)},
		{"imported-fixture", artMap(t, isles)},
		{"imported-inkwell", sample.Map},
	}
}

// regionsState is a state of m with four seats, the territories dealt
// round the seats and the neutral ones, so neighbours mostly differ.
func regionsState(m *state.Map) *state.State {
	s := newState(m, "Ann", "Bob", "Chloé", "Dmitri")
	s.Options.Map = m.Name
	if m.Grid != nil {
		s.Options.Rules = state.Capitals
	}
	for t := range s.Terr {
		s.Terr[t] = state.Terr{Owner: t%5 - 1, Armies: 1 + t%7}
	}
	return s
}

// TestRegions checks the hit regions of every kind of board, at a
// desktop's and at the narrowest width, in both palettes, against the
// image the renderer draws: each territory's badge and name lie on its own
// pixels in the index, and its index pixels away from lines, badges and
// names carry its owner's colour in the image.
func TestRegions(t *testing.T) {
	ctx := context.Background()
	maps, options := regionMaps(t), []Options{{}, {Width: goldenWidth, Palette: ColorBlind}}
	if racetest.Enabled {
		// Seconds a board under the race detector, in one goroutine: a
		// board of each kind at the narrowest width.
		maps = []struct {
			name string
			m    *state.Map
		}{maps[0], maps[1], maps[4], maps[5]}
		options = options[1:]
	}
	for _, mm := range maps {
		// The default width (1600) and the narrowest: the options of other
		// tests, whose renderers (and boards) are shared.
		for _, opts := range options {
			r := shared(opts)
			t.Run(mm.name+"/"+strconv.Itoa(r.width), func(t *testing.T) {
				s := regionsState(mm.m)
				reg, err := r.Regions(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				data, err := r.Render(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				pic, err := png.Decode(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				idx := decodeIndex(t, reg)
				if got, want := idx.Rect, pic.Bounds(); got != want {
					t.Fatalf("index is %v, want the image's %v", got, want)
				}
				if got, want := image.Rect(0, 0, reg.Width, reg.Height), pic.Bounds(); got != want {
					t.Errorf("regions are %v, want the image's %v", got, want)
				}
				if !reg.Map.In(pic.Bounds()) || reg.Map.Min != (image.Point{}) {
					t.Errorf("map area %v, want at the top left of %v", reg.Map, pic.Bounds())
				}
				b, err := r.board(mm.m)
				if err != nil {
					t.Fatal(err)
				}
				rgba := toRGBA(pic)
				checkRegions(t, b, reg, idx, rgba, s)
				checkOwnerColours(t, b, reg, idx, rgba, s)
			})
		}
	}
}

// decodeIndex decodes the index PNG of reg, which must be 8-bit gray.
func decodeIndex(t *testing.T, reg *Regions) *image.Gray {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(reg.Index))
	if err != nil {
		t.Fatalf("decode the index: %v", err)
	}
	g, ok := img.(*image.Gray)
	if !ok {
		t.Fatalf("the index is a %T, want *image.Gray", img)
	}
	return g
}

// checkRegions checks each region against the index: it has pixels, its
// box bounds them, its badge and name lie on them; and no pixel outside
// the map area names a territory.
func checkRegions(t *testing.T, b *board, reg *Regions, idx *image.Gray, pic *image.RGBA, s *state.State) {
	t.Helper()
	th := newTheme()
	// layoutLabels tries spots up to 84 px (at refWidth) past the badge.
	nameReach := b.badgeR + 90*b.s
	n := s.Map.Len()
	if len(reg.Territories) != n {
		t.Fatalf("%d regions, want %d", len(reg.Territories), n)
	}
	count := make([]int, n)
	boxes := make([]image.Rectangle, n)
	for y := range idx.Rect.Dy() {
		for x := range idx.Rect.Dx() {
			v := int(idx.GrayAt(x, y).Y)
			if v == 0 {
				continue
			}
			if v > n {
				t.Fatalf("index pixel (%d, %d) is %d, want at most %d", x, y, v, n)
			}
			if !image.Pt(x, y).In(reg.Map) {
				t.Fatalf("index pixel (%d, %d) off the map area %v names %s", x, y, reg.Map, s.Map.Territories[v-1].Name)
			}
			count[v-1]++
			boxes[v-1] = boxes[v-1].Union(image.Rect(x, y, x+1, y+1))
		}
	}
	at := func(p image.Point) int { return int(idx.GrayAt(p.X, p.Y).Y) - 1 }
	named := 0
	for tid, rg := range reg.Territories {
		name := s.Map.Territories[tid].Name
		if rg.ID != tid || rg.Name != name {
			t.Errorf("region %d is %d %q, want %d %q", tid, rg.ID, rg.Name, tid, name)
		}
		if count[tid] == 0 {
			t.Errorf("%s has no pixels in the index", name)
			continue
		}
		if rg.Box != boxes[tid] {
			t.Errorf("%s: box %v, want %v (its pixels')", name, rg.Box, boxes[tid])
		}
		if got := at(rg.Anchor); got != tid {
			t.Errorf("%s: the badge at %v is on territory %d, want its own (%d)", name, rg.Anchor, got, tid)
		}
		if rg.Label == nil {
			continue
		}
		named++
		if !rg.Label.At.In(rg.Label.Box) || !rg.Label.Box.In(reg.Map) || len(rg.Label.Lines) == 0 {
			t.Errorf("%s: name at %v in box %v (%q), want inside it and on the map %v", name, rg.Label.At, rg.Label.Box, rg.Label.Lines, reg.Map)
		}
		// Names go beside their badge: over their territory where there
		// is room, else over the sea or a neighbour (the classic board's
		// Europe), so the badge, not the name, is where to click.
		if d := rectOf(rg.Label.Box).dist(float64(rg.Anchor.X), float64(rg.Anchor.Y)); d > nameReach {
			t.Errorf("%s: the name's box %v is %.0f px from its badge at %v, want at most %.0f", name, rg.Label.Box, d, rg.Anchor, nameReach)
		}
		// Its letters and their halo are there (small, at small widths).
		fg, halo := inkIn(pic, rg.Label.Box, th.labelFg), inkIn(pic, rg.Label.Box, th.labelHalo)
		if fg < 3 || halo < 3 {
			t.Errorf("%s: %d pixels of the names' colour and %d of their halo's in the name's box %v, want 3 or more of each", name, fg, halo, rg.Label.Box)
		}
	}
	if named == 0 {
		t.Errorf("no territory has its name placed")
	}
}

// checkOwnerColours checks the index against the image: a pixel of
// territory t in the index, away from its borders and from every badge and
// name, is drawn in the shade of t's owner that the board's terrain picks
// there, nearer to it than to that shade of any other owner. A pixel may
// differ where anti-aliasing reaches: at most 2% of a territory's.
func checkOwnerColours(t *testing.T, b *board, reg *Regions, idx *image.Gray, pic *image.RGBA, s *state.State) {
	t.Helper()
	covered := make([]bool, idx.Rect.Dx()*idx.Rect.Dy())
	cover := func(r image.Rectangle) {
		r = r.Intersect(idx.Rect)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			for x := r.Min.X; x < r.Max.X; x++ {
				covered[y*idx.Stride+x] = true
			}
		}
	}
	// The board's lines (borders, coasts, sea lanes) and names.
	for _, sp := range []*sparse{&b.lines, &b.labels} {
		for _, o := range sp.off {
			covered[o/4] = true
		}
	}
	// Badges, and the markers around them where the board has any.
	around := 1.6 * b.badgeR
	if b.slots != nil {
		around = 2.6 * b.badgeR
	}
	for _, rg := range reg.Territories {
		cover(image.Rectangle{Min: rg.Anchor, Max: rg.Anchor}.Inset(-int(around)))
	}
	const margin = 1
	owners := []int{state.Neutral}
	for i := range s.Seats {
		owners = append(owners, i)
	}
	good, bad := make([]int, len(s.Terr)), make([]int, len(s.Terr))
	for y := margin; y < reg.Map.Dy()-margin; y++ {
		for x := margin; x < reg.Map.Dx()-margin; x++ {
			v := idx.Pix[y*idx.Stride+x]
			if v == 0 || covered[y*idx.Stride+x] {
				continue
			}
			if !sameAround(idx, x, y, margin) {
				continue // a border, a coast
			}
			tid := int(v) - 1
			terrain := s.Map.Territories[tid].Terrain
			lvl := b.lvl[y*b.w+x]
			got := pic.RGBAAt(x, y)
			want := b.look.land(s.Terr[tid].Owner, terrain)[lvl]
			d := colourDistance(got, want)
			ok := true
			for _, o := range owners {
				if o != s.Terr[tid].Owner && colourDistance(got, b.look.land(o, terrain)[lvl]) <= d {
					ok = false
					break
				}
			}
			if ok {
				good[tid]++
			} else {
				bad[tid]++
			}
		}
	}
	hidden := 0
	for tid := range s.Terr {
		n := good[tid] + bad[tid]
		if n == 0 {
			hidden++ // an islet under its badge
			continue
		}
		if bad[tid]*50 > n {
			t.Errorf("%s: %d of its %d clear pixels carry its owner's colour, want 98%%", s.Map.Territories[tid].Name, good[tid], n)
		}
	}
	if hidden*10 > len(s.Terr) {
		t.Errorf("%d of %d territories have no pixel clear of lines, badges and names, want at most a tenth", hidden, len(s.Terr))
	}
}

// sameAround reports whether the pixels d away from (x, y) (on a cross)
// are of its territory.
func sameAround(g *image.Gray, x, y, d int) bool {
	v := g.Pix[y*g.Stride+x]
	return g.Pix[y*g.Stride+x-d] == v && g.Pix[y*g.Stride+x+d] == v &&
		g.Pix[(y-d)*g.Stride+x] == v && g.Pix[(y+d)*g.Stride+x] == v
}

// TestRegionsCached: the index is made once per board and shared.
func TestRegionsCached(t *testing.T) {
	ctx := context.Background()
	r := shared(Options{Width: 1600})
	s := regionsState(classicMap(t))
	a, err := r.Regions(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := r.Regions(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if &a.Index[0] != &b.Index[0] {
		t.Errorf("the index was made twice")
	}
}

// TestRegionsBadInput: what Render refuses, Regions refuses too.
func TestRegionsBadInput(t *testing.T) {
	ctx := context.Background()
	good := regionsState(classicMap(t))
	for _, tt := range []struct {
		name string
		r    *Renderer
		s    *state.State
	}{
		{"no state", shared(Options{}), nil},
		{"no map", shared(Options{}), &state.State{}},
		{"width", New(Options{Width: 100}), good},
		{"palette", New(Options{Palette: 9}), good},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if reg, err := tt.r.Regions(ctx, tt.s); err == nil {
				t.Errorf("got %d regions, want an error", len(reg.Territories))
			}
		})
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := shared(Options{}).Regions(cancelled, good); err == nil {
		t.Errorf("a cancelled context: got regions, want an error")
	}
}

// inkIn counts the pixels of pic in r near colour c.
func inkIn(pic *image.RGBA, r image.Rectangle, c color.RGBA) int {
	n := 0
	r = r.Intersect(pic.Rect)
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if colourDistance(pic.RGBAAt(x, y), c) <= 40 {
				n++
			}
		}
	}
	return n
}

// BenchmarkRegions measures Regions on a board already built (by a
// render): cold, its first call, which makes the index; warm, every later
// one.
func BenchmarkRegions(b *testing.B) {
	ctx := context.Background()
	for _, bb := range []struct {
		name  string
		width int
		m     func(testing.TB) *state.Map
	}{
		{"classic-1600", 1600, classicMap},
		{"classic-800", 800, classicMap},
		{"capitals-large-1600", 1600, func(tb testing.TB) *state.Map { return genMap(tb, 5, genmap.Large) }},
	} {
		r := New(Options{Width: bb.width})
		s := regionsState(bb.m(b))
		if _, err := r.Render(ctx, s); err != nil {
			b.Fatal(err)
		}
		board, err := r.board(s.Map)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(bb.name+"/cold", func(b *testing.B) {
			var size int
			for b.Loop() {
				board.hitOnce = sync.Once{}
				reg, err := r.Regions(ctx, s)
				if err != nil {
					b.Fatal(err)
				}
				size = len(reg.Index)
			}
			b.ReportMetric(float64(size), "index-bytes")
		})
		b.Run(bb.name+"/warm", func(b *testing.B) {
			for b.Loop() {
				if _, err := r.Regions(ctx, s); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
