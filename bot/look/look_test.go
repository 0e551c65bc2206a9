package look

import (
	"bytes"
	"context"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

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
	pals := StandardPalettes()
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
