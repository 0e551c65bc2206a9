package render

import (
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// TestTerrainKeys checks that the key of every terrain of generated maps
// (terrainKey, built from its stable name) is in every catalogue, and
// that the key names each in English as it always has.
func TestTerrainKeys(t *testing.T) {
	for _, tag := range lang.Tags() {
		raw, err := lang.Raw(tag)
		if err != nil {
			t.Fatal(err)
		}
		for tr := range state.Terrain(gridTerrains) {
			if _, ok := raw[terrainKey(tr)]; !ok {
				t.Errorf("%s.json lacks %q, the name of terrain %d", tag, terrainKey(tr), tr)
			}
		}
	}
	en := lang.For(lang.English)
	for _, tc := range []struct {
		t    state.Terrain
		want string
	}{
		{state.Plain, "plain"},
		{state.Forest, "forest"},
		{state.Mountain, "mountain"},
		{state.Desert, "desert"},
		{state.Coastal, "coastal"},
		{state.Tundra, "tundra"}, // the classic board's only: no key
		{state.Terrain(state.NumTerrains), "terrain(7)"},
	} {
		if got := terrainWord(en, tc.t); got != tc.want {
			t.Errorf("terrainWord(English, %d) = %q, want %q", tc.t, got, tc.want)
		}
	}
}
