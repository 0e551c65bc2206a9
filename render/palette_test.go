package render

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// lab converts an sRGB colour to CIELAB (D65).
func lab(c color.RGBA) [3]float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	r, g, b := lin(c.R), lin(c.G), lin(c.B)
	x := (0.4124*r + 0.3576*g + 0.1805*b) / 0.95047
	y := 0.2126*r + 0.7152*g + 0.0722*b
	z := (0.0193*r + 0.1192*g + 0.9505*b) / 1.08883
	f := func(t float64) float64 {
		if t > 0.008856 {
			return math.Cbrt(t)
		}
		return 7.787*t + 16.0/116
	}
	fx, fy, fz := f(x), f(y), f(z)
	return [3]float64{116*fy - 16, 500 * (fx - fy), 200 * (fy - fz)}
}

func deltaE(a, b color.RGBA) float64 {
	p, q := lab(a), lab(b)
	return math.Sqrt((p[0]-q[0])*(p[0]-q[0]) + (p[1]-q[1])*(p[1]-q[1]) + (p[2]-q[2])*(p[2]-q[2]))
}

// deuteranopia simulates red-green colour blindness (Viénot, Brettel and
// Mollon 1999), the most common form.
func deuteranopia(c color.RGBA) color.RGBA {
	r, g, b := float64(c.R), float64(c.G), float64(c.B)
	nr := 0.29275*r + 0.70725*g
	ng := 0.29275*r + 0.70725*g
	nb := -0.02234*r + 0.02234*g + b
	cl := func(v float64) uint8 { return uint8(math.Max(0, math.Min(255, v+0.5))) }
	return color.RGBA{cl(nr), cl(ng), cl(nb), 255}
}

// contrast is the WCAG contrast ratio of two colours.
func contrast(a, b color.RGBA) float64 {
	rel := func(c color.RGBA) float64 {
		l := func(v uint8) float64 {
			x := float64(v) / 255
			if x <= 0.03928 {
				return x / 12.92
			}
			return math.Pow((x+0.055)/1.055, 2.4)
		}
		return 0.2126*l(c.R) + 0.7152*l(c.G) + 0.0722*l(c.B)
	}
	x, y := rel(a)+0.05, rel(b)+0.05
	return math.Max(x, y) / math.Min(x, y)
}

func TestPlayerColors(t *testing.T) {
	th := newTheme()
	for _, p := range []Palette{Default, ColorBlind} {
		t.Run(p.String(), func(t *testing.T) {
			cs := PlayerColors(p)
			if len(cs) != state.MaxSeats {
				t.Fatalf("%d colours, want %d", len(cs), state.MaxSeats)
			}
			names := map[string]bool{}
			for i, c := range cs {
				if names[c.Name] || c.Name == "" {
					t.Errorf("colour %d: name %q empty or repeated", i, c.Name)
				}
				names[c.Name] = true
				if got := fmt.Sprintf("#%02x%02x%02x", c.RGBA.R, c.RGBA.G, c.RGBA.B); got != c.Hex {
					t.Errorf("%s: hex %s, value %s", c.Name, c.Hex, got)
				}
				// Badge numbers must read on the badge.
				if r := contrast(c.RGBA, th.inkOn(c.RGBA)); r < 4.5 {
					t.Errorf("%s: badge text contrast %.1f, want 4.5", c.Name, r)
				}
				if d := deltaE(c.RGBA, th.neutral); d < 20 {
					t.Errorf("%s is close to neutral (ΔE %.0f)", c.Name, d)
				}
				for j, o := range cs[:i] {
					if d := deltaE(c.RGBA, o.RGBA); d < 30 {
						t.Errorf("%s and %s are close (ΔE %.0f)", c.Name, o.Name, d)
					}
					if p == ColorBlind {
						if d := deltaE(deuteranopia(c.RGBA), deuteranopia(o.RGBA)); d < 12 {
							t.Errorf("%s and %s are close for deuteranopes (ΔE %.0f)", c.Name, cs[j].Name, d)
						}
					}
				}
			}
			if p == Default {
				want := []string{"#ff0000", "#00ffff", "#ffff00", "#8000ff", "#222222", "#ff00ff"}
				for i, c := range cs {
					if c.Hex != want[i] {
						t.Errorf("seat %d is %s, want the rule book's %s", i, c.Hex, want[i])
					}
				}
			}
		})
	}
	shapes := map[Shape]bool{}
	for seat := range state.MaxSeats {
		shapes[SeatShape(seat)] = true
	}
	if len(shapes) != state.MaxSeats || shapes[NeutralShape] {
		t.Errorf("seat shapes %v are not six distinct ones", shapes)
	}
}

// shrunkDir, when set, is where the readable-in-chat tests write the
// images they check, shrunk as a chat client shows them: to look at them.
var shrunkDir = flag.String("shrunk", "", "write the shrunk images of the readable-in-chat tests to this folder")

// inlineWidths are the widths chat clients show an image at: Discord's
// inline image is about 400 px wide on a phone and 550 px on a desktop.
var inlineWidths = []int{400, 550}

// TestReadableInChat shrinks a render to Discord's inline widths (400 and
// 550 px) and checks that every badge still shows its owner's colour and
// that badge numbers and the panel's first line and names stay at least
// 6 px tall.
func TestReadableInChat(t *testing.T) {
	for _, p := range []Palette{Default, ColorBlind} {
		t.Run(p.String(), func(t *testing.T) {
			r := shared(Options{Palette: p})
			s := fixtureMid(t)
			data, err := r.Render(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			img, err := png.Decode(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			b, _ := r.board(s.Map)
			f := r.newFacesForTest(t)
			for _, inline := range inlineWidths {
				checkBadgeColours(t, r, s, b, toRGBA(img), inline, "classic-"+p.String())
				k := float64(inline) / float64(img.Bounds().Dx())
				for _, x := range []struct {
					what string
					h    float64
				}{{"badge numbers", capHeight(f.badge)}, {"three-digit badge numbers", capHeight(f.badgeSmall)}, {"the current player", capHeight(f.headBig)}, {"player names", capHeight(f.name)}} {
					h := x.h * k
					if h < 6 {
						t.Errorf("%s are %.1f px tall at %d px wide, want 6", x.what, h, inline)
					}
					t.Logf("%s: %.1f px tall at %d px wide", x.what, h, inline)
				}
			}
		})
	}
}

// checkBadgeColours shrinks img to width inline and checks that the
// colour nearest any seat's around each badge's centre is its owner's.
// With -shrunk, it writes the shrunk image there as name-WIDTH.png.
func checkBadgeColours(t *testing.T, r *Renderer, s *state.State, b *board, img *image.RGBA, inline int, name string) {
	t.Helper()
	k := float64(inline) / float64(img.Bounds().Dx())
	small := shrink(img, inline)
	if *shrunkDir != "" {
		var buf bytes.Buffer
		if err := png.Encode(&buf, small); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(*shrunkDir, fmt.Sprintf("%s-%d.png", name, inline)), buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	colours := append([]color.RGBA{}, r.th.neutral)
	for _, c := range r.colors {
		colours = append(colours, c.RGBA)
	}
	for tr, terr := range s.Terr {
		cx, cy := int(b.anchor[tr][0]*k), int(b.anchor[tr][1]*k)
		best, class := math.Inf(1), -2
		for y := cy - 3; y <= cy+3; y++ {
			for x := cx - 3; x <= cx+3; x++ {
				c := small.RGBAAt(x, y)
				for i, pc := range colours {
					if d := deltaE(c, pc); d < best {
						best, class = d, i-1
					}
				}
			}
		}
		if class != terr.Owner || best > 12 {
			t.Errorf("%s: at %d px its badge reads as seat %d (ΔE %.0f), want seat %d", s.Map.Territories[tr].Name, inline, class, best, terr.Owner)
		}
	}
}

// shrink scales img down to width w by averaging the source pixels under
// each target pixel, as browsers and chat clients do when they shrink.
func shrink(img *image.RGBA, w int) *image.RGBA {
	sw, sh := img.Rect.Dx(), img.Rect.Dy()
	h := sh * w / sw
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	k := float64(sw) / float64(w)
	for y := range h {
		y0, y1 := int(float64(y)*k), max(int(float64(y)*k)+1, int(float64(y+1)*k))
		for x := range w {
			x0, x1 := int(float64(x)*k), max(int(float64(x)*k)+1, int(float64(x+1)*k))
			var r, g, b, n int
			for yy := y0; yy < y1 && yy < sh; yy++ {
				for xx := x0; xx < x1 && xx < sw; xx++ {
					o := img.PixOffset(xx, yy)
					r += int(img.Pix[o])
					g += int(img.Pix[o+1])
					b += int(img.Pix[o+2])
					n++
				}
			}
			o := out.PixOffset(x, y)
			out.Pix[o], out.Pix[o+1], out.Pix[o+2], out.Pix[o+3] = uint8(r/n), uint8(g/n), uint8(b/n), 255
		}
	}
	return out
}

func (r *Renderer) newFacesForTest(t *testing.T) *faces {
	t.Helper()
	if err := r.init(); err != nil {
		t.Fatal(err)
	}
	f, err := newFaces(r.fonts, float64(r.width)/refWidth)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestSeatTags(t *testing.T) {
	tests := []struct {
		names []string
		want  []string
	}{
		{[]string{"Ann", "Bob"}, []string{"A", "B"}},
		{[]string{"Ann", "alex", "Bob"}, []string{"An", "Al", "Bo"}},
		{[]string{"Ann", "Anna"}, []string{"1", "2"}},
		{[]string{"élodie", "  Zoë"}, []string{"É", "Z"}},
		{[]string{"", "Bob"}, []string{"1", "2"}},
	}
	for _, tt := range tests {
		got := seatTags(tt.names)
		if fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("seatTags(%q) = %q, want %q", tt.names, got, tt.want)
		}
	}
}

func TestDrawableNames(t *testing.T) {
	fs, err := parseFonts()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ in, want string }{
		{"Ann", "Ann"},
		{"Chloé Ørsted", "Chloé Ørsted"},
		{"龍 Ryu ★", "Ryu"},
		{"\x00Bob\n", "Bob"},
		{"😀", ""},
	} {
		if got := drawable(fs.bold, tt.in); got != tt.want {
			t.Errorf("drawable(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := displayName(lang.Printer{}, drawable(fs.bold, "😀"), 2); got != "Player 3" {
		t.Errorf("an undrawable name shows as %q, want Player 3", got)
	}
}
