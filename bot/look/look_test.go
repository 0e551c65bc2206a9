package look

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"slices"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// palettes are the standard palettes, made once: their renderers build
// a map's layers on its first drawing, and are safe for concurrent use.
var palettes = sync.OnceValue(StandardPalettes)

// classicMatch is a classic match of Ann and Bob past its placement, its
// public posts in language code ("" for English).
func classicMatch(t *testing.T, code string) *hosted.Match {
	t.Helper()
	seats := []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}
	g, err := engine.NewGame(engine.Setup{Options: state.DefaultOptions(), Seed: 1, Seats: seats})
	if err != nil {
		t.Fatal(err)
	}
	for seat := range g.State.Seats {
		if _, _, err := g.Apply(seat, engine.AutoPlace{}); err != nil {
			t.Fatal(err)
		}
	}
	m := &hosted.Match{Loaded: &storage.Loaded{Match: storage.Match{ID: 7, Version: 3, Channel: "test:look", Status: storage.Active}, Game: g}}
	m.Meta.Settings.Lang = code
	return m
}

// TestMapsByLanguage: the same match at the same moment in French and in
// English gives two images (two keys of the cache), each drawn by its
// language's renderer; the French one is made on the first French map,
// once, and never for English.
func TestMapsByLanguage(t *testing.T) {
	made := map[lang.Tag]int{}
	pals := palettes()
	std := pals[command.PaletteStandard]
	in := std.In
	std.In = func(t lang.Tag) Renderer {
		made[t]++
		return in(t)
	}
	ms := New(map[string]Palette{command.PaletteStandard: std}, std)
	ctx := context.Background()

	en := classicMatch(t, "en-US")
	enPNG, err := ms.Image(en).PNG(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(made) != 0 {
		t.Fatalf("an English map made renderers %v, want none", made)
	}
	fr := classicMatch(t, "fr")
	frImage := ms.Image(fr)
	if frImage == ms.Image(en) {
		t.Fatal("the French match's map is the English one's image")
	}
	frPNG, err := frImage.PNG(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(frPNG, enPNG) {
		t.Error("the French map is drawn in English")
	}
	if ms.Renderer(fr) != ms.Renderer(fr) || ms.Renderer(fr) == ms.Renderer(en) {
		t.Error("a language's renderer is not kept, or is English's")
	}
	if got := made[lang.French]; got != 1 {
		t.Errorf("the French renderer was made %d times, want once", got)
	}
	// A library's preview is drawn in its reader's language, with the
	// renderer kept for it.
	enPre, err := ms.Preview(en.Game.State.Map, lang.English).PNG(ctx)
	if err != nil {
		t.Fatal(err)
	}
	frPre, err := ms.Preview(en.Game.State.Map, lang.French).PNG(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(enPre, frPre) {
		t.Error("the French preview is drawn in English")
	}
	if got := made[lang.French]; got != 1 {
		t.Errorf("the French renderer was made %d times, want once", got)
	}
	// A palette without In draws every language with its one renderer.
	plain := Palette{Render: std.Render}
	if got := New(nil, plain).Renderer(fr); got != std.Render {
		t.Errorf("a palette without In draws French with %v, want its renderer", got)
	}
}

// usesColor reports whether a map drawn as a paletted PNG uses colour c.
func usesColor(t *testing.T, im *chat.Image, c color.RGBA) bool {
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
	return slices.ContainsFunc(pal.Palette, func(pc color.Color) bool { return color.RGBAModel.Convert(pc) == c })
}

// TestColorBlindMap: a match of the colour-blind palette is drawn in its
// colours, one of the standard palette in the standard's.
func TestColorBlindMap(t *testing.T) {
	vermillion := color.RGBA{0xd5, 0x5e, 0x00, 0xff} // the first seat's, Okabe–Ito
	pals := palettes()
	ms := New(pals, pals[command.PaletteStandard])
	m := classicMatch(t, "")
	m.Meta.Settings.Palette = command.PaletteColorBlind
	if !usesColor(t, ms.Image(m), vermillion) {
		t.Error("the map of a colour-blind match does not use its colours")
	}
	m.Meta.Settings.Palette = command.PaletteStandard
	if usesColor(t, ms.Image(m), vermillion) {
		t.Error("the map of a standard match uses the colour-blind palette")
	}
}
