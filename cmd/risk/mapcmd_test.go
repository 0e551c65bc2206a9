package main

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine/genmap"
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
