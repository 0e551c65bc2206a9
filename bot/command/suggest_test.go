package command

import (
	"slices"
	"testing"
)

// TestSuggest: a mistyped subcommand gets the ones it most likely meant,
// and garbage gets none.
func TestSuggest(t *testing.T) {
	specs := Specs([]string{"easy", "normal", "hard"})
	for _, tc := range []struct {
		typed string
		want  []string
	}{
		{"atack", []string{"attack"}},
		{"attakc", []string{"attack"}},
		{"Attack", []string{"attack"}},
		{"plcae", []string{"place"}},
		{"fortfy", []string{"fortify"}},
		{"hlep", []string{"help"}},
		{"sta", []string{"start", "me stats", "show status"}},
		{"stauts", []string{"me stats", "show status"}},
		{"show stauts", []string{"show status"}},
		{"adbot", []string{"host addbot"}},
		{"host adbot", []string{"host addbot"}},
		{"notfy", []string{"me notify"}},
		{"leaderbord", []string{"me stats"}},
		{"autplace", []string{"place"}},
		{"surender", []string{"surrender"}},
		{"admin defualts", []string{"admin defaults"}},
		{"admin  limit", []string{"admin limits"}},
		{"place auto", []string{"place"}},
		{"attack alaska kamchatka", []string{"attack"}},
		{"atack from alaska", []string{"attack"}},
		{"host addbot easy", []string{"host addbot"}},
		{"xyzzy", nil},
		{"xyzzy plugh", nil},
		{"", nil},
		{"a", nil},
		{"rm -rf /", nil},
	} {
		if got := Suggest(specs, tc.typed); !slices.Equal(got, tc.want) {
			t.Errorf("Suggest(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
}

func FuzzSuggest(f *testing.F) {
	specs := Specs([]string{"easy"})
	for _, s := range []string{"atack", "admin defualts", "", "ß\x00\xff"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, name := range Suggest(specs, s) {
			if _, ok := Find(specs, name); !ok {
				t.Fatalf("Suggest(%q) offers %q, which is no subcommand", s, name)
			}
		}
	})
}
