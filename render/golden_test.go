package render

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/draw"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbot/riskbot/state"
)

var (
	update = flag.Bool("update", false, "rewrite the golden images in testdata/")
	docs   = flag.Bool("docs", false, "rewrite the sample maps in docs/images/")
)

// goldenWidth keeps the golden images small; every size scales with the
// width, so they exercise the same layout as the default width.
const goldenWidth = 800

var goldens = []struct {
	name    string
	palette Palette
	state   func(testing.TB) *state.State
}{
	{"start", Default, fixtureStart},
	{"midgame", Default, fixtureMid},
	{"midgame-colorblind", ColorBlind, fixtureMid},
	{"over", Default, fixtureOver},
	{"team-over", Default, fixtureTeamOver},
	// Capitals boards, on generated maps of each size (seeds 42, 2024, 1).
	{"capitals-start", Default, gridStart},
	{"capitals-midgame", Default, gridMid},
	{"capitals-midgame-colorblind", ColorBlind, gridMid},
	{"capitals-planned", Default, gridPlanned},
	{"capitals-over", Default, gridOver},
	// Fog of war: the view of the seat to play.
	{"midgame-fog", Default, fogged(fixtureMid)},
	{"capitals-midgame-fog", Default, fogged(gridMid)},
	// Classic rules on generated islands: lanes, continents, classic cards.
	{"classic-islands-midgame", Default, lanesMid},
	{"classic-islands-setup", Default, lanesSetup},
}

// fogged returns fixture's state with fog of war, as its current seat sees
// it.
func fogged(fixture func(testing.TB) *state.State) func(testing.TB) *state.State {
	return func(tb testing.TB) *state.State {
		s := fixture(tb)
		s.Options.Fog = true
		if !s.View(s.Current).Fogged() {
			tb.Fatal("the fixture has no fog")
		}
		return s.View(s.Current)
	}
}

// TestGolden compares renders with the images in testdata/, pixel by
// pixel with a tolerance (never the PNG bytes: the encoder may change).
// Run with -update to accept new images, after looking at them.
func TestGolden(t *testing.T) {
	for _, g := range goldens {
		t.Run(g.name, func(t *testing.T) {
			checkGolden(t, g.name, Options{Width: goldenWidth, Palette: g.palette}, g.state(t))
		})
	}
}

// checkGolden renders s with a renderer of opts and compares the image
// with testdata/name.png, or writes it there with -update.
func checkGolden(t *testing.T, name string, opts Options, s *state.State) {
	t.Helper()
	got, err := shared(opts).Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", name+".png")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./render -run TestGolden -update)", err)
	}
	if err := comparePNG(got, want); err != nil {
		out := filepath.Join(t.TempDir(), name+".png")
		if keep := os.Getenv("RENDER_FAILED_DIR"); keep != "" {
			out = filepath.Join(keep, name+".png")
		}
		os.WriteFile(out, got, 0o644)
		t.Errorf("%s: %v (got image: %s; set RENDER_FAILED_DIR to keep it)", path, err, out)
	}
}

// comparePNG decodes two PNGs and compares their pixels: they differ when a
// pixel's channel is off by more than 24 in more than 0.1% of the pixels,
// or when the mean difference passes 0.6 (a shift of everything).
func comparePNG(got, want []byte) error {
	a, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		return fmt.Errorf("decode got: %w", err)
	}
	b, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		return fmt.Errorf("decode want: %w", err)
	}
	return compareImages(a, b)
}

func compareImages(a, b image.Image) error {
	if a.Bounds() != b.Bounds() {
		return fmt.Errorf("size %v, want %v", a.Bounds(), b.Bounds())
	}
	pa, pb := toRGBA(a).Pix, toRGBA(b).Pix
	var bad int
	var sum float64
	for i := 0; i < len(pa); i += 4 {
		d := max(absDiff(pa[i], pb[i]), absDiff(pa[i+1], pb[i+1]), absDiff(pa[i+2], pb[i+2]))
		sum += float64(d)
		if d > 24 {
			bad++
		}
	}
	total := len(pa) / 4
	mean := sum / float64(total)
	if float64(bad) > 0.001*float64(total) || mean > 0.6 {
		return fmt.Errorf("%d of %d pixels differ (%.3f%%), mean difference %.3f", bad, total, 100*float64(bad)/float64(total), mean)
	}
	return nil
}

// toRGBA converts img, quickly for the paletted images the renderer makes.
func toRGBA(img image.Image) *image.RGBA {
	if m, ok := img.(*image.RGBA); ok {
		return m
	}
	out := image.NewRGBA(img.Bounds())
	if p, ok := img.(*image.Paletted); ok {
		lut := make([][4]uint8, 256)
		for i, c := range p.Palette {
			r, g, b, a := c.RGBA()
			lut[i] = [4]uint8{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
		}
		for i, v := range p.Pix {
			copy(out.Pix[4*i:4*i+4], lut[v][:])
		}
		return out
	}
	draw.Draw(out, out.Bounds(), img, img.Bounds().Min, draw.Src)
	return out
}

func absDiff(a, b uint8) uint8 {
	if a > b {
		return a - b
	}
	return b - a
}

// TestGoldenCanFail checks the comparison itself: a moved badge must be
// seen.
func TestGoldenCanFail(t *testing.T) {
	r := shared(Options{Width: goldenWidth})
	s := fixtureMid(t)
	a, err := r.Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	s.Terr[0].Armies++
	s.Terr[5].Owner = 2
	b, err := r.Render(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	if comparePNG(b, a) == nil {
		t.Error("changing an owner and a count went unnoticed")
	}
	if err := comparePNG(a, a); err != nil {
		t.Errorf("an image differs from itself: %v", err)
	}
}

// TestDocImages writes the sample maps the docs link to, with -docs.
func TestDocImages(t *testing.T) {
	if !*docs {
		t.Skip("run with -docs to rewrite docs/images")
	}
	for _, d := range []struct {
		name    string
		palette Palette
		state   func(testing.TB) *state.State
	}{
		{"map-midgame", Default, fixtureMid},
		{"map-colorblind", ColorBlind, fixtureMid},
		{"map-over", Default, fixtureOver},
		{"map-capitals", Default, gridMid},
		{"map-imported", Default, artMid},
	} {
		got, err := New(Options{Palette: d.palette}).Render(context.Background(), d.state(t))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join("..", "docs", "images", d.name+".png"), got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
