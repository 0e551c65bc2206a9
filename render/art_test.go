package render

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/internal/racetest"
	"github.com/riskbot/riskbot/state"
)

// The imported maps' goldens: the middle game at the golden width (what a
// phone shows at 400 px is this image halved) and at the default width a
// desktop gets, in both palettes, in fog, and a finished match on the tall
// map of thin bands.
var artGoldens = []struct {
	name  string
	opts  Options
	state func(testing.TB) *state.State
}{
	{"art-midgame", Options{Width: goldenWidth}, artMid},
	{"art-midgame-colorblind", Options{Width: goldenWidth, Palette: ColorBlind}, artMid},
	{"art-midgame-fog", Options{Width: goldenWidth}, fogged(artMid)},
	{"art-midgame-1600", Options{}, artMid},
	{"art-midgame-colorblind-1600", Options{Palette: ColorBlind}, artMid},
	{"art-tall-over", Options{Width: goldenWidth}, artTallOver},
}

func TestGoldenArt(t *testing.T) {
	goldens := artGoldens
	if racetest.Enabled {
		goldens = goldens[:1] // seconds each, in one goroutine
	}
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) { checkGolden(t, g.name, g.opts, g.state(t)) })
	}
}

// TestArtLayout checks the static layout of the imported maps at several
// widths: every badge on its own territory's pixels and clear of the
// others, every name placed, on the map, clear of the other names, of
// every badge and of the legend.
func TestArtLayout(t *testing.T) {
	fixtures := []artFixture{isles, tallStripes, wideIsles}
	widths := []int{800, 1237, 1600}
	if testing.Short() || racetest.Enabled {
		fixtures, widths = fixtures[:2], widths[:2]
	}
	for _, f := range fixtures {
		m := artMap(t, f)
		for _, w := range widths {
			t.Run(fmt.Sprintf("%s/%d", f.name, w), func(t *testing.T) {
				r := shared(Options{Width: w})
				if err := r.init(); err != nil {
					t.Fatal(err)
				}
				b, err := r.board(m)
				if err != nil {
					t.Fatal(err)
				}
				checkArtLayout(t, b)
			})
		}
	}
}

func checkArtLayout(t *testing.T, b *board) {
	t.Helper()
	m := b.m
	name := func(i int) string { return m.Territories[i].Name }
	for u := range b.anchor {
		x, y := b.anchor[u][0], b.anchor[u][1]
		if got := b.terr[int(y)*b.w+int(x)]; int(got) != u+1 {
			t.Errorf("the badge of %s is on territory %d, want it on its own (%d)", name(u), int(got)-1, u)
		}
		for v := u + 1; v < len(b.anchor); v++ {
			if d := math.Hypot(x-b.anchor[v][0], y-b.anchor[v][1]); d < 2*b.badgeR {
				t.Errorf("badges of %s and %s overlap (%.0f px apart)", name(u), name(v), d)
			}
		}
	}
	if len(b.labelAt) != m.Len() {
		t.Errorf("%d names placed, want %d", len(b.labelAt), m.Len())
	}
	legend := rectOf(b.legend.box)
	for i, l := range b.labelAt {
		if l.box.x0 < 0 || l.box.y0 < 0 || l.box.x1 > float64(b.mw) || l.box.y1 > float64(b.mh) {
			t.Errorf("name of %s leaves the map: %+v", name(l.t), l.box)
		}
		for _, o := range b.labelAt[i+1:] {
			if l.box.overlaps(o.box) {
				t.Errorf("names of %s and %s overlap", name(l.t), name(o.t))
			}
		}
		for u := range b.anchor {
			if l.box.overlaps(b.badgeBox(u)) {
				t.Errorf("name of %s covers the badge of %s", name(l.t), name(u))
			}
		}
		if l.box.overlaps(legend) {
			t.Errorf("name of %s covers the legend", name(l.t))
		}
	}
}

// TestReadableInChatArt shrinks imported maps' default renders to
// Discord's inline widths (400 and 550 px) as TestReadableInChat does the
// classic board's: every badge still shows its owner's colour, and badge
// numbers, the player to move and player names stay at least 6 px tall.
func TestReadableInChatArt(t *testing.T) {
	fixtures := []struct {
		name  string
		state func(testing.TB) *state.State
	}{{"midgame", artMid}, {"tall", artTallOver}}
	palettes := []Palette{Default, ColorBlind}
	if racetest.Enabled {
		palettes = palettes[:1] // seconds each, in one goroutine
	}
	for _, p := range palettes {
		for _, fx := range fixtures {
			t.Run(p.String()+"/"+fx.name, func(t *testing.T) {
				r := shared(Options{Palette: p})
				s := fx.state(t)
				data, err := r.Render(context.Background(), s)
				if err != nil {
					t.Fatal(err)
				}
				img, err := png.Decode(bytes.NewReader(data))
				if err != nil {
					t.Fatal(err)
				}
				b, err := r.board(s.Map)
				if err != nil {
					t.Fatal(err)
				}
				f := r.newFacesForTest(t)
				for _, inline := range inlineWidths {
					checkBadgeColours(t, r, s, b, toRGBA(img), inline, "art-"+fx.name+"-"+p.String())
					k := float64(inline) / float64(img.Bounds().Dx())
					for _, x := range []struct {
						what string
						h    float64
					}{{"badge numbers", capHeight(f.badge)}, {"three-digit badge numbers", capHeight(f.badgeSmall)}, {"the current player", capHeight(f.headBig)}, {"player names", capHeight(f.name)}} {
						if h := x.h * k; h < 6 {
							t.Errorf("%s are %.1f px tall at %d px wide, want 6", x.what, h, inline)
						}
					}
				}
			})
		}
	}
}

// TestArtTinted checks the colours: each territory's pixels are mostly
// nearest its owner's shades (or neutral land's), whatever the picture
// painted there; off the territories, the picture's own pixels stay,
// within the palette's reach.
func TestArtTinted(t *testing.T) {
	r := shared(Options{Width: goldenWidth})
	s := artMid(t)
	data, err := r.Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	dec, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	img := toRGBA(dec)
	b, err := r.board(s.Map)
	if err != nil {
		t.Fatal(err)
	}
	// Whose shades each colour of the image is nearest: a seat's, or
	// neutral land's (state.Neutral).
	whose := map[color.RGBA]int{}
	owner := func(c color.RGBA) int {
		if o, ok := whose[c]; ok {
			return o
		}
		best, o := math.Inf(1), 0
		for i := range state.MaxSeats + 1 {
			for _, sc := range b.look.ramps[i] {
				if d := deltaE(c, sc); d < best {
					best, o = d, i
				}
			}
		}
		if o == state.MaxSeats {
			o = state.Neutral
		}
		whose[c] = o
		return o
	}
	drawn := make([]bool, b.w*b.h) // what the frame draws over the map
	for _, sp := range []*sparse{&b.lines, &b.labels} {
		for _, o := range sp.off {
			drawn[o/4] = true
		}
	}
	own, n := make([]int, len(s.Terr)), make([]int, len(s.Terr))
	var far, sea int
	// The picture as scaled, in the board's ground (the legend aside).
	pic := &image.RGBA{Pix: b.base, Stride: 4 * b.w, Rect: image.Rect(0, 0, b.w, b.h)}
	for y := range b.mh {
		for x := range b.mw {
			i := y*b.w + x
			if drawn[i] || image.Pt(x, y).In(b.legend.box) {
				continue
			}
			c := img.RGBAAt(x, y)
			if v := int(b.terr[i]); v != 0 {
				n[v-1]++
				if owner(c) == s.Terr[v-1].Owner {
					own[v-1]++
				}
				continue
			}
			sea++
			if deltaE(c, pic.RGBAAt(x, y)) > 10 {
				far++
			}
		}
	}
	for tr := range s.Terr {
		if float64(own[tr]) < 0.9*float64(n[tr]) {
			t.Errorf("%s: %d of %d pixels read as its owner's (seat %d), want 90%%", s.Map.Territories[tr].Name, own[tr], n[tr], s.Terr[tr].Owner)
		}
	}
	// Badges and arrows over the sea are few; everything else is the
	// picture, quantized.
	t.Logf("%d of %d pixels off the land more than ΔE 10 from the picture", far, sea)
	if float64(far) > 0.03*float64(sea) {
		t.Errorf("%d of %d pixels off the land are more than ΔE 10 from the picture, want at most 3%%", far, sea)
	}
}

// TestArtNamesLeftOut: on an imported map, a name with no room at the
// smallest size is left out rather than failing the board; on the other
// maps it fails the layout.
func TestArtNamesLeftOut(t *testing.T) {
	r := New(Options{Width: goldenWidth}) // its board is changed below
	if err := r.init(); err != nil {
		t.Fatal(err)
	}
	b, err := r.board(artMap(t, isles))
	if err != nil {
		t.Fatal(err)
	}
	// Room for names in the west only.
	b.obstacles = []frect{{float64(b.mw) / 2, 0, float64(b.mw), float64(b.mh)}}
	fc, err := face(r.fonts.bold, 11*b.s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := layoutLabels(b, fc, false); err == nil || !strings.Contains(err.Error(), "no room") {
		t.Errorf("layout with no room, nothing left out: error %v, want no room", err)
	}
	got, err := layoutLabels(b, fc, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) == 0 || len(got) >= b.m.Len() {
		t.Errorf("%d names placed of %d, want some, not all", len(got), b.m.Len())
	}
	for _, l := range got {
		if l.box.x1 > float64(b.mw)/2 {
			t.Errorf("the name of %s was placed where there is no room", b.m.Territories[l.t].Name)
		}
	}
}

// TestArtBadPicture: a picture that does not decode, or does not match
// its index, is an error naming the map, never a panic.
func TestArtBadPicture(t *testing.T) {
	for _, tt := range []struct {
		name   string
		mutate func(a *state.Art)
		want   string
	}{
		{"not an image", func(a *state.Art) { a.Picture = []byte("GIF89a nonsense") }, "decode its picture"},
		{"cut short", func(a *state.Art) { a.Picture = a.Picture[:len(a.Picture)/2] }, "decode its picture"},
		{"another size", func(a *state.Art) { a.W, a.H = a.H, a.W }, "its picture is 600x400, its index 400x600"},
		{"markers missing", func(a *state.Art) { a.Markers = a.Markers[1:] }, "broken art"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := artMid(t)
			m := *s.Map
			art := *m.Art
			tt.mutate(&art)
			m.Art = &art
			s.Map = &m
			got, err := New(Options{Width: goldenWidth}).Render(context.Background(), s)
			if err == nil || got != nil {
				t.Fatalf("rendered %d bytes, want an error containing %q", len(got), tt.want)
			}
			if !strings.HasPrefix(err.Error(), "render: ") || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to start with \"render: \" and contain %q", err, tt.want)
			}
		})
	}
}

// TestArtTransparentPicture: where a picture is transparent, the map
// shows the margin's colour (the panel's), not black.
func TestArtTransparentPicture(t *testing.T) {
	s := artMid(t)
	m := *s.Map
	art := *m.Art
	src, err := png.Decode(bytes.NewReader(art.Picture))
	if err != nil {
		t.Fatal(err)
	}
	clearSea := image.NewNRGBA(src.Bounds())
	for y := range art.H {
		for x := range art.W {
			c := color.NRGBAModel.Convert(src.At(x, y)).(color.NRGBA)
			if art.Index[y*art.W+x] == 0 {
				c.A = 0
			}
			clearSea.SetNRGBA(x, y, c)
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, clearSea); err != nil {
		t.Fatal(err)
	}
	art.Picture = buf.Bytes()
	m.Art = &art
	s.Map = &m
	r := New(Options{Width: goldenWidth})
	data, err := r.Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	// The open sea at the top, between the islands.
	got := color.RGBAModel.Convert(img.At(goldenWidth/2, 30)).(color.RGBA)
	if d := deltaE(got, r.th.panelBg); d > 3 {
		t.Errorf("a transparent pixel of the picture shows as %v, want the panel's %v (ΔE %.0f)", got, r.th.panelBg, d)
	}
}

// TestArtCache: two imported maps of one name but different pictures get
// a board each; the same map again gets the board it had.
func TestArtCache(t *testing.T) {
	r := New(Options{Width: goldenWidth})
	s := artMid(t)
	a, err := r.Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	again := artMid(t) // another *Map, the same drawing
	if got, err := r.Render(context.Background(), again); err != nil || !bytes.Equal(got, a) {
		t.Errorf("the same map again: %v, same image %v", err, bytes.Equal(got, a))
	}
	if n := len(r.grids); n != 1 {
		t.Errorf("%d boards after the same map twice, want 1", n)
	}
	other := artPlayed(t, artFixture{name: isles.name, w: isles.w, h: isles.h, seed: isles.seed, land: isles.land,
		cells: isles.cells, conts: isles.conts, jpeg: true})
	other.Map.Name = s.Map.Name
	b, err := r.Render(context.Background(), other)
	if err != nil {
		t.Fatal(err)
	}
	if comparePNG(a, b) == nil {
		t.Error("a map of the same name with another picture drew as the first")
	}
}

// TestArtPlayed plays a match on an imported map with the engine (the
// map added to its library, as a store does) and draws it turn by turn,
// as a GIF replay too.
func TestArtPlayed(t *testing.T) {
	m := artMap(t, isles)
	if err := engine.AddMap(m); err != nil {
		t.Fatal(err)
	}
	o := state.DefaultOptions()
	o.Map = m.Name
	turns := playedTurns(t, o, 3, 5, 8)
	if len(turns) < 5 || turns[len(turns)-1].Map.Art == nil {
		t.Fatalf("%d turns played on the imported map, want 5 or more", len(turns))
	}
	r := shared(Options{Width: goldenWidth})
	ctx := context.Background()
	for i, s := range turns {
		if _, err := r.Render(ctx, s); err != nil {
			t.Fatalf("turn %d: %v", i, err)
		}
	}
	data, info, err := r.Replay(ctx, turns, ReplayOptions{Width: 480})
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != len(turns) || info.Frames != len(turns) {
		t.Errorf("%d frames (info %+v) for %d turns", len(g.Image), info, len(turns))
	}
}

// TestArtView writes renders of the test maps to $ART_VIEW, to look at.
func TestArtView(t *testing.T) {
	dir := os.Getenv("ART_VIEW")
	if dir == "" {
		t.Skip("set ART_VIEW to a folder")
	}
	for _, c := range []struct {
		name  string
		opts  Options
		state func(testing.TB) *state.State
	}{
		{"mid-800", Options{Width: 800}, artMid},
		{"mid-1600", Options{}, artMid},
		{"tall-800", Options{Width: 800}, artTallOver},
		{"wide-1600", Options{}, func(tb testing.TB) *state.State { return artPlayed(tb, wideIsles) }},
	} {
		got, err := shared(c.opts).Render(context.Background(), c.state(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, c.name+".png"), got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// BenchmarkArt pairs a warm render of the classic board and of an
// imported map with the same pixels (1600 x 1125: a 1600 x 789 picture),
// both six-seat middle games, in one run: an imported map must cost at
// most 1.5 times the classic board.
func BenchmarkArt(b *testing.B) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		state func(testing.TB) *state.State
	}{
		{"classic", func(tb testing.TB) *state.State { return playGame(tb, 6, 3, 600).State }},
		{"art", func(tb testing.TB) *state.State { return artPlayed(tb, wideIsles) }},
	} {
		b.Run(c.name, func(b *testing.B) {
			s := c.state(b)
			r := New(Options{})
			benchWarm(b, func() ([]byte, error) { return r.Render(ctx, s) })
		})
	}
}

// BenchmarkArtCold is the first render of an imported map: the picture
// decoded and scaled, its palette, the static layers.
func BenchmarkArtCold(b *testing.B) {
	s := artPlayed(b, wideIsles)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New(Options{}).Render(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
}
