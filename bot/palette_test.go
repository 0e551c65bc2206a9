package bot

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
)

// hasColor reports whether a rendered map uses colour c.
func hasColor(t *testing.T, im *chat.Image, c color.RGBA) bool {
	t.Helper()
	b, err := im.PNG(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	pal, ok := img.(*image.Paletted)
	if !ok {
		t.Fatalf("the map is a %T, want a paletted PNG", img)
	}
	for _, pc := range pal.Palette {
		if color.RGBAModel.Convert(pc) == c {
			return true
		}
	}
	return false
}

// A match chooses its colours: the colour-blind palette names the seats
// with its colours and draws the map with them. The host may switch at any
// time, since it only changes what is drawn; nothing else changes once the
// match has started.
func TestMatchPalette(t *testing.T) {
	vermillion := color.RGBA{0xd5, 0x5e, 0x00, 0xff} // the first seat's, Okabe–Ito
	h := newHarness(t)
	const ch = "test:palette"
	wantOpened(t, h, ch, h.do(ch, "Ann", "new", "palette:colorblind"), "colour-blind palette")
	h.do(ch, "Bob", "join")
	start := h.do(ch, "Ann", "start")
	wantPublic(t, start, "— vermillion,", "🟧", "— sky blue,", "🟦")
	if !hasColor(t, start.Image, vermillion) {
		t.Error("the map of a colour-blind match does not use its colours")
	}

	wantPrivate(t, h.do(ch, "Bob", "settings", "palette:standard"), "Only Ann (the host)")
	wantPrivate(t, h.do(ch, "Ann", "settings", "palette:standard", "victory:domination"), "only the palette and the language can change")
	wantPrivate(t, h.do(ch, "Ann", "settings", "palette:sepia"), "sepia")
	before := h.load(ch)
	h.takePosts()
	wantPrivate(t, h.do(ch, "Ann", "settings", "palette:standard"), "Settings:")
	// Everyone sees the colours change: the channel is told.
	if p := h.takePosts(); len(p) != 1 || !strings.Contains(p[0].msg.Text, "Settings:") {
		t.Errorf("posts of the palette changed: %+v", p)
	}
	after := h.load(ch)
	if after.Meta.Settings.Palette != command.PaletteStandard || after.Meta.Settings.Options != before.Meta.Settings.Options {
		t.Fatalf("settings after the switch: %+v, were %+v", after.Meta.Settings, before.Meta.Settings)
	}
	status := h.do(ch, "Bob", "map")
	if hasColor(t, status.Image, vermillion) {
		t.Error("the map still uses the colour-blind palette")
	}
	wantText(t, status, "🟥")
}
