package render

import (
	"context"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// frenchGoldens are matches drawn in French: the classic board (its names
// the catalogue's), and classic rules on generated islands and a capitals
// match (their names the map's own, their panel in French), at the
// golden width and at the default width (Width 0).
var frenchGoldens = []struct {
	name  string
	width int
	state func(testing.TB) *state.State
}{
	{"fr-midgame", goldenWidth, fixtureMid},
	{"fr-midgame-1600", 0, fixtureMid},
	{"fr-over", goldenWidth, fixtureOver},
	{"fr-classic-islands-midgame", goldenWidth, lanesMid},
	{"fr-classic-islands-midgame-1600", 0, lanesMid},
	{"fr-capitals-midgame", goldenWidth, gridMid},
}

// TestGoldenFrench compares French renders with their images in testdata/
// (-update rewrites them).
func TestGoldenFrench(t *testing.T) {
	for _, g := range frenchGoldens {
		t.Run(g.name, func(t *testing.T) {
			checkGolden(t, g.name, Options{Width: g.width, Lang: lang.French}, g.state(t))
		})
	}
}

// frenchLabel is what a label may show for a French name: the name, or
// its abbreviation, on one line or two.
func frenchLabel(name string, lines []string) bool {
	got := joinWords(lines)
	if len(lines) == 2 && !strings.HasSuffix(lines[0], "-") {
		got = lines[0] + " " + lines[1]
	}
	return got == name || got == abbreviate(lang.French, name)
}

// TestFrenchNamesPlaced: every territory of the classic board gets its
// French name (the catalogue's, without its article) at every width the
// tests draw it, with no overlap (checkLayout), and the legend names the
// continents in French.
func TestFrenchNamesPlaced(t *testing.T) {
	widths := []int{800, 1600}
	if !testing.Short() {
		widths = append(widths, 1100, 1200, 3200)
	}
	fr := lang.For(lang.French)
	translated := 0
	for _, w := range widths {
		b := checkLayout(t, Options{Width: w, Lang: lang.French})
		for _, l := range b.labelAt {
			en := b.m.Territories[l.t].Name
			want := fr.PlaceName(en)
			if want != en {
				translated++
			}
			if !frenchLabel(want, l.lines) {
				t.Errorf("width %d: %s is labelled %q, want %q", w, en, l.lines, want)
			}
		}
		for c, ct := range b.m.Continents {
			if got, want := b.continentName(c), fr.PlaceName(ct.Name); got != want {
				t.Errorf("width %d: continent %s is named %q, want %q", w, ct.Name, got, want)
			}
		}
	}
	if translated == 0 {
		t.Error("no name was translated")
	}
}

// TestGeneratedNamesStay: a generated map's names are its own in every
// language, even one the catalogue would translate.
func TestGeneratedNamesStay(t *testing.T) {
	s := gridMid(t)
	m := *s.Map
	m.Territories = append([]state.Territory(nil), m.Territories...)
	m.Territories[0].Name = "Peru"
	b := &board{m: &m, p: lang.For(lang.French)}
	if got := b.territoryName(0); got != "Peru" {
		t.Errorf("a generated map's Peru is named %q, want Peru", got)
	}
	b.localNames = true
	if got := b.territoryName(0); got != "Pérou" {
		t.Errorf("the classic board's Peru is named %q, want Pérou", got)
	}
}

// TestSplitTwoHyphens: a French name breaks after its hyphen; an English
// one only at spaces.
func TestSplitTwoHyphens(t *testing.T) {
	fs, err := parseFonts()
	if err != nil {
		t.Fatal(err)
	}
	fc, err := face(fs.bold, 15)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name    string
		hyphens bool
		want    []string
	}{
		{"Australie-Occidentale", true, []string{"Australie-", "Occidentale"}},
		{"Australie-Occidentale", false, nil},
		{"Terr. du Nord-Ouest", true, []string{"Terr. du", "Nord-Ouest"}},
		{"Western Australia", false, []string{"Western", "Australia"}},
	} {
		got := splitTwo(fc, c.name, c.hyphens)
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("splitTwo(%q, %v) = %q, want %q", c.name, c.hyphens, got, c.want)
		}
	}
}

// TestFrenchDiffers: the same state drawn in French and in English gives
// two images; a language the catalogue lacks draws English.
func TestFrenchDiffers(t *testing.T) {
	s := lanesSetup(t)
	ctx := context.Background()
	en, err := shared(Options{Width: goldenWidth}).Render(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	fr, err := shared(Options{Width: goldenWidth, Lang: lang.French}).Render(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if comparePNG(fr, en) == nil {
		t.Error("the French render is the English one")
	}
	de, err := New(Options{Width: goldenWidth, Lang: "de"}).Render(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := comparePNG(de, en); err != nil {
		t.Errorf("a language the catalogue lacks: %v, want the English image", err)
	}
}

// TestWonByNamesTheTeam: a team wins together, and every line that says
// who won names the whole team, in the match's language.
func TestWonByNamesTheTeam(t *testing.T) {
	names := []string{"Ann", "Bob", "Chloé", "Dmitri"}
	colors := []Color{{Name: "red"}, {Name: "cyan"}, {Name: "yellow"}, {Name: "violet"}}
	for _, c := range []struct {
		name  string
		state func(testing.TB) *state.State
		tag   lang.Tag
		want  string
	}{
		{"alone", fixtureOver, lang.English, "Bob (cyan) wins!"},
		{"team", fixtureTeamOver, lang.English, "Bob and Dmitri win!"},
		{"team, French", fixtureTeamOver, lang.French, "Bob et Dmitri gagnent !"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := wonBy(lang.For(c.tag), c.state(t), names, colors, true)
			if got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
	s := fixtureTeamOver(t)
	for seat, want := range []bool{false, true, false, true} {
		if _, won := cardState(s, seat); won != want {
			t.Errorf("seat %d's card marked won: %v, want %v", seat, won, want)
		}
	}
}
