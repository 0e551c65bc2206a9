package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine/genmap"
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/state"
)

func TestMapGenerate(t *testing.T) {
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string // in stdout, or stderr when the code is not 0
	}{
		{"summary", []string{"map", "generate", "--seed", "42"}, 0,
			[]string{"(gen-normal-000000000000002a)", "territories in", "Rows ", "borders", "Sea links"}},
		{"small", []string{"map", "generate", "--seed", "7", "--size", "small"}, 0, []string{"(gen-small-0000000000000007)"}},
		{"large", []string{"map", "generate", "--size=large", "--seed=7"}, 0, []string{"(gen-large-0000000000000007)"}},
		{"no seed", []string{"map", "generate"}, 2, []string{"want --seed N"}},
		{"bad seed", []string{"map", "generate", "--seed", "-1"}, 2, []string{"invalid value"}},
		{"bad size", []string{"map", "generate", "--seed", "1", "--size", "huge"}, 2, []string{`unknown map size "huge"`}},
		{"extra argument", []string{"map", "generate", "--seed", "1", "more"}, 2, []string{`unexpected argument "more"`}},
		{"unknown map command", []string{"map", "draw"}, 2, []string{"want check, show, generate, import"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runRisk(t, "", tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, errOut)
			}
			text := out
			if code != 0 {
				text = errOut
			}
			for _, w := range tt.want {
				if !strings.Contains(text, w) {
					t.Errorf("output lacks %q:\n%s", w, text)
				}
			}
		})
	}
}

// TestMapGenerateJSON: --json prints the map's description, the same as
// the generator's, grid included.
func TestMapGenerateJSON(t *testing.T) {
	code, out, errOut := runRisk(t, "", "map", "generate", "--seed", "1234", "--size", "small", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var got state.MapJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	m, err := genmap.Generate(1234, genmap.Small)
	if err != nil {
		t.Fatal(err)
	}
	if want := m.Describe(); !reflect.DeepEqual(got, want) {
		t.Errorf("printed map differs from the generated one: name %q, want %q", got.Name, want.Name)
	}
	if got.Grid == nil || len(got.Grid.Rows) != genmap.Side {
		t.Errorf("the JSON has no %d-row grid", genmap.Side)
	}
}

// Issue 44: risk map check reads a Domination map with its images, or a
// zip of the three, and says its hash; a broken one is refused with the
// line of each problem.
func TestMapCheckDomination(t *testing.T) {
	dir := t.TempDir()
	b, err := mapfile.ReadPath("../../examples/maps/inkwell/inkwell.map", mapfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	z, err := b.Zip()
	if err != nil {
		t.Fatal(err)
	}
	zipPath := filepath.Join(dir, "inkwell.zip")
	if err := os.WriteFile(zipPath, z, 0o644); err != nil {
		t.Fatal(err)
	}
	broken := filepath.Join(dir, "broken.map")
	text, _ := os.ReadFile("../../examples/maps/inkwell/inkwell.map")
	if err := os.WriteFile(broken, []byte(strings.Replace(string(text), "[borders]\n1 ", "[borders]\n1 99 ", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name     string
		args     []string
		wantCode int
		want     []string
	}{
		{"map", []string{"map", "check", "../../examples/maps/inkwell/inkwell.map"}, 0,
			[]string{`ok: "The Inkwell Isles" by riskbot samples, 13 territories, 3 continents`, "hash " + b.Hash, "plays as " + b.Map.Name}},
		{"zip", []string{"map", "check", zipPath}, 0, []string{"hash " + b.Hash}},
		{"broken", []string{"map", "check", broken}, 1, []string{"is refused", "lists territory 99, which does not exist (want 1..13)", `line 10: the picture "inkwell-pic.png": no such file or directory`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := runRisk(t, "", tt.args...)
			if code != tt.wantCode {
				t.Fatalf("exit %d, want %d; stderr:\n%s", code, tt.wantCode, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out+errOut, w) {
					t.Errorf("output lacks %q:\n%s%s", w, out, errOut)
				}
			}
		})
	}
}
