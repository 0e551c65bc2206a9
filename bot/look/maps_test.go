package look

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
)

// recorder is a Renderer that keeps the states it is given and draws
// each as a few bytes naming itself and the turn.
type recorder struct {
	name   string
	mu     sync.Mutex
	states []*state.State
}

func (r *recorder) Render(_ context.Context, s *state.State) ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.states = append(r.states, s)
	return fmt.Appendf(nil, "%s turn %d", r.name, s.Turn), nil
}

// drawn is how many maps r drew.
func (r *recorder) drawn() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.states)
}

// last is the state r drew last.
func (r *recorder) last() *state.State {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.states[len(r.states)-1]
}

// twoPalettes are Maps with a default palette and a "blind" one, each
// drawn by a recorder.
func twoPalettes() (*Maps, *recorder, *recorder) {
	def, blind := &recorder{name: "default"}, &recorder{name: "blind"}
	ms := New(map[string]Palette{
		"default": {Colors: []string{"red", "blue"}, RGB: []int{0xff0000, 0x0000ff}, Render: def},
		"blind":   {Colors: []string{"vermillion", "sky blue"}, RGB: []int{0xd55e00, 0x56b4e9}, Render: blind},
		"broken":  {Colors: []string{"grey"}}, // no renderer: the default's
	}, Palette{Colors: []string{"red", "blue"}, RGB: []int{0xff0000, 0x0000ff}, Render: def})
	return ms, def, blind
}

// pngOf draws im, failing the test on an error.
func pngOf(t *testing.T, im *chat.Image) string {
	t.Helper()
	b, err := im.PNG(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestOneMapAMoment: every post and answer of one moment of a match shows
// one image, drawn once; a new version, another palette, language or
// viewer (with fog of war) is another image. The image is of the state as
// it was: a later change to the match does not show in it.
func TestOneMapAMoment(t *testing.T) {
	ms, def, blind := twoPalettes()
	m := classicMatch(t, "")
	first := ms.Image(m)
	if def.drawn() != 0 {
		t.Fatal("a map was drawn before anyone asked for it")
	}
	for range 3 {
		if im := ms.Image(m); im != first {
			t.Fatal("one moment gave two images")
		}
		pngOf(t, ms.Image(m))
	}
	if got := def.drawn(); got != 1 {
		t.Errorf("one moment drawn %d times, want once", got)
	}
	turn := m.Game.State.Turn
	m.Game.State.Turn += 5 // the match moves on, unsaved: the same version
	if got, want := pngOf(t, first), fmt.Sprintf("default turn %d", turn); got != want {
		t.Errorf("the moment's map: got %q, want %q (as it was when asked for)", got, want)
	}

	others := []struct {
		name   string
		change func(m *hosted.Match)
		by     *recorder
	}{
		{"a new version", func(m *hosted.Match) { m.Version++ }, def},
		{"another palette", func(m *hosted.Match) { m.Meta.Settings.Palette = "blind" }, blind},
		{"a palette without a renderer draws with the default", func(m *hosted.Match) { m.Meta.Settings.Palette = "broken" }, def},
		{"another language", func(m *hosted.Match) { m.Meta.Settings.Lang = "fr" }, def},
	}
	for _, o := range others {
		t.Run(o.name, func(t *testing.T) {
			m := classicMatch(t, "")
			o.change(m)
			im := ms.Image(m)
			if im == first {
				t.Fatal("got the first moment's image")
			}
			before := o.by.drawn()
			pngOf(t, im)
			if o.by.drawn() != before+1 {
				t.Errorf("not drawn by the %s renderer", o.by.name)
			}
		})
	}
}

// TestFogMaps: with fog of war each seat's map is its own view, and the
// public map hides what the public may not see; without fog, every seat
// sees the public map.
func TestFogMaps(t *testing.T) {
	ms, def, _ := twoPalettes()
	m := classicMatch(t, "")
	if ms.ImageFor(m, 0) != ms.Image(m) || ms.ImageFor(m, 7) != ms.Image(m) {
		t.Error("without fog of war a seat's map is not the public one")
	}
	fog := classicMatch(t, "")
	fog.ID = 8
	fog.Game.State.Options.Fog = true
	pub, ann, bob := ms.ImageFor(fog, -1), ms.ImageFor(fog, 0), ms.ImageFor(fog, 1)
	if pub == ann || ann == bob || pub == bob {
		t.Fatal("with fog of war, the public and two seats share an image")
	}
	if ms.ImageFor(fog, 5) != pub {
		t.Error("a seat the match does not have sees other than the public map")
	}
	pngOf(t, ann)
	s := def.last()
	for i, terr := range s.Terr {
		if owner := fog.Game.State.Terr[i].Owner; owner == 0 && terr.Fog {
			t.Errorf("Ann's map hides her own territory %d", i)
		}
	}
	pngOf(t, pub)
	if s := def.last(); !slices.ContainsFunc(s.Terr, func(t state.Terr) bool { return t.Fog }) {
		t.Error("the public map of a match with fog of war hides nothing")
	}
}

// TestPastMaps: a past moment is rebuilt when first drawn, once; the
// present moment asked for by its number is the present map; once the
// match is over, a past moment is drawn without its fog.
func TestPastMaps(t *testing.T) {
	ms, def, _ := twoPalettes()
	m := classicMatch(t, "")
	if ms.ImageAt(m, m.Game.Version, nil) != ms.Image(m) {
		t.Error("the present moment by its number is not the present map")
	}
	rebuilt := 0
	then := m.Game.State.Clone()
	then.Turn, then.Options.Fog = 0, true
	past := func(context.Context) (*state.State, error) {
		rebuilt++
		return then.Clone(), nil
	}
	im := ms.ImageAt(m, 1, past)
	if rebuilt != 0 {
		t.Fatal("a past moment was rebuilt before it was drawn")
	}
	if got := pngOf(t, ms.ImageAt(m, 1, past)); got != "default turn 0" || rebuilt != 1 {
		t.Errorf("got %q after %d rebuilds, want the past moment rebuilt once", got, rebuilt)
	}
	pngOf(t, im)
	if rebuilt != 1 {
		t.Errorf("the past moment was rebuilt %d times, want once", rebuilt)
	}
	if !slices.ContainsFunc(def.last().Terr, func(t state.Terr) bool { return t.Fog }) {
		t.Error("a past moment of a match under way lifts its fog")
	}
	m.Game.State.Phase = state.PhaseOver
	pngOf(t, ms.ImageAt(m, 1, past))
	if slices.ContainsFunc(def.last().Terr, func(t state.Terr) bool { return t.Fog }) {
		t.Error("a past moment of a match that is over keeps its fog")
	}
	failing := func(context.Context) (*state.State, error) { return nil, errors.New("no log") }
	if _, err := ms.ImageAt(m, 0, failing).PNG(context.Background()); err == nil {
		t.Error("a past moment that cannot be rebuilt gave no error")
	}
	made := 0
	mk := func() *chat.Image { made++; return chat.NewImage("replay.gif", nil) }
	if a, b := ms.Whole(m, "replay", mk), ms.Whole(m, "replay", mk); a != b || made != 1 {
		t.Errorf("a moment's replay made %d times, want once", made)
	}
	if ms.Whole(m, "strip", mk); made != 2 {
		t.Errorf("a strip of the same moment is the replay's image")
	}
}

// TestPalettes: a match's palette is its choice, else the default; the
// voice names its seats in those colours, in the match's language, the
// reader's for an answer, and hides what fog of war hides.
func TestPalettes(t *testing.T) {
	ms, _, _ := twoPalettes()
	for _, name := range []string{"default", "blind", "broken"} {
		if !ms.Has(name) {
			t.Errorf("Has(%q) is false", name)
		}
	}
	if ms.Has("sepia") {
		t.Error(`Has("sepia") is true`)
	}
	m := classicMatch(t, "fr")
	m.Meta.Settings.Palette = "blind"
	v := ms.Voice(m)
	if got := ms.Palette(m).Colors[0]; got != "vermillion" {
		t.Errorf("the palette's first colour: got %q, want vermillion", got)
	}
	if got, want := v.ColorName(0), lang.For(lang.French).Colour("vermillion"); got != want || v.Color(1) != 0x56b4e9 {
		t.Errorf("the voice's first colour: %q, %#x; want %q, 0x56b4e9", got, v.Color(1), want)
	}
	if v.Lang().Tag() != lang.French || v.Hides(m.Game.State) {
		t.Errorf("the public voice speaks %s, hides %v; want French, nothing hidden without fog", v.Lang().Tag(), v.Hides(m.Game.State))
	}
	m.Reader = lang.English
	if got := ms.To(m).Lang().Tag(); got != lang.English {
		t.Errorf("the answer to an English reader speaks %s", got)
	}
	m.Game.State.Options.Fog = true
	if !ms.Voice(m).Hides(m.Game.State) {
		t.Error("the public voice of a match with fog of war hides nothing")
	}
	m.Meta.Settings.Palette = "sepia"
	if got := ms.Palette(m).Colors[0]; got != "red" {
		t.Errorf("a palette the bot lacks: got %q, want the default's red", got)
	}
}

// previewing draws previews too, and knows where territories lie.
type previewing struct{ recorder }

func (p *previewing) Preview(_ context.Context, m *state.Map) ([]byte, error) {
	return []byte("preview of " + m.Title), nil
}

func (p *previewing) Regions(context.Context, *state.State) (*render.Regions, error) {
	return &render.Regions{Width: 7}, nil
}

// wrapped is a renderer wrapped for metrics.
type wrapped struct{ Renderer }

func (w wrapped) Unwrap() Renderer { return w.Renderer }

// TestPreviewAndRegions: a library's preview and the territories' places
// come from the renderer, through any wrapper; a renderer that cannot
// gives none, with a reason.
func TestPreviewAndRegions(t *testing.T) {
	m := classicMatch(t, "")
	plain := New(nil, Palette{Render: &recorder{}})
	if plain.Preview(m.Game.State.Map, lang.English) != nil {
		t.Error("a renderer that draws no previews gave one")
	}
	if _, err := plain.Regions(context.Background(), m); err == nil || !strings.Contains(err.Error(), "cannot tell") {
		t.Errorf("the regions of a renderer that cannot tell: %v", err)
	}
	rich := New(nil, Palette{Render: wrapped{&previewing{}}})
	if got := pngOf(t, New(nil, Palette{Render: &previewing{}}).Preview(m.Game.State.Map, lang.English)); got != "preview of "+m.Game.State.Map.Title {
		t.Errorf("preview: got %q", got)
	}
	if rg, err := rich.Regions(context.Background(), m); err != nil || rg.Width != 7 {
		t.Errorf("regions through a wrapper: %+v, %v", rg, err)
	}
	m.Game = nil
	if _, err := rich.Regions(context.Background(), m); err == nil {
		t.Error("a match without a map gave regions")
	}
}

// TestStandardPalettes: each standard palette names as many colours as it
// has values, the values those of package render, and may be chosen by
// its name.
func TestStandardPalettes(t *testing.T) {
	for name, p := range StandardPalettes() {
		if len(p.Colors) < state.MaxSeats || len(p.Colors) != len(p.RGB) || p.Render == nil || p.In == nil {
			t.Errorf("palette %s: %d names, %d values, renderer %v, In %v", name, len(p.Colors), len(p.RGB), p.Render != nil, p.In != nil)
		}
	}
	names, rgb := PaletteColors(render.Default)
	for i, c := range render.PlayerColors(render.Default) {
		if want := int(c.RGBA.R)<<16 | int(c.RGBA.G)<<8 | int(c.RGBA.B); names[i] != c.Name || rgb[i] != want {
			t.Errorf("colour %d: %q %#x, want %q %#x", i, names[i], rgb[i], c.Name, want)
		}
	}
}
