package render

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/state"
)

// The sample maps of examples/maps (made by engine/mapfile's generator in
// three styles: a small hand-drawn isle, 92 territories, thin fjords),
// played by the engine to a turn of the middle game and drawn: golden
// images, and docs/maps.md's pictures with -docs.
var samples = []struct {
	dir     string
	players int
	seed    uint64
	turn    int
	width   int
	palette Palette
	fog     bool
}{
	{"inkwell", 3, 3, 6, goldenWidth, Default, false},
	{"realms", 5, 4, 7, goldenWidth, Default, false},
	{"fjords", 4, 5, 6, goldenWidth, ColorBlind, false},
	{"realms", 5, 4, 7, goldenWidth, Default, true},
}

// sampleTurn plays a sample map to its turn and returns the state there
// (the view of the player to move, with fog).
func sampleTurn(t *testing.T, dir string, players int, seed uint64, turn int, fog bool) *state.State {
	t.Helper()
	b, err := mapfile.ReadPath(filepath.Join("..", "examples", "maps", dir, dir+".map"), mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.AddMap(b.Map); err != nil {
		t.Fatal(err)
	}
	o := state.DefaultOptions()
	o.Map = b.Map.Name
	// Played without fog: a record's turns in fog are the public's views.
	// The rules are the same, so the fog is laid on afterwards.
	turns := playedTurns(t, o, players, seed, turn)
	s := turns[len(turns)-1]
	if s.Turn < turn-1 || s.Phase == state.PhaseOver {
		t.Fatalf("%s: the match is at turn %d (%s), want a match on at turn %d", dir, s.Turn, s.Phase, turn)
	}
	if fog {
		s = s.Clone()
		s.Options.Fog = true
		return s.View(s.Current)
	}
	return s
}

func sampleName(i int) string {
	d := samples[i]
	name := "sample-" + d.dir
	if d.fog {
		name += "-fog"
	}
	if d.palette == ColorBlind {
		name += "-colorblind"
	}
	return name
}

func TestGoldenSamples(t *testing.T) {
	for i, d := range samples {
		t.Run(sampleName(i), func(t *testing.T) {
			s := sampleTurn(t, d.dir, d.players, d.seed, d.turn, d.fog)
			checkGolden(t, sampleName(i), Options{Width: d.width, Palette: d.palette}, s)
			if !*docs {
				return
			}
			png, err := New(Options{Width: 1200, Palette: d.palette}).Render(context.Background(), s)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join("..", "docs", "images", "maps-"+sampleName(i)+".png"), png, 0o644); err != nil {
				t.Fatal(err)
			}
		})
	}
}
