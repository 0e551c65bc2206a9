package hosted

import (
	"testing"

	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/state"
)

// TestApplyNamedOptions: the options read by the rules' own words are set
// when given, left as they were when not, and a bad value is refused (the
// first of several) with the rules' reason.
func TestApplyNamedOptions(t *testing.T) {
	for _, c := range []struct {
		name    string
		opts    map[string]string
		want    func(o state.Options) bool
		wantErr string
	}{
		{"victory", map[string]string{"victory": "domination"}, func(o state.Options) bool { return o.Victory == state.Domination }, ""},
		{"cards and turns", map[string]string{"cards": "fixed", "turns": "simultaneous"},
			func(o state.Options) bool { return o.Cards == state.Fixed && o.Turns == state.Simultaneous }, ""},
		{"none", map[string]string{}, func(o state.Options) bool { return o == DefaultSettings().Options }, ""},
		{"a bad fortify", map[string]string{"fortify": "far"}, nil, `Unknown fortify rule "far" (want connected or adjacent).`},
		{"two bad, the first refused", map[string]string{"victory": "most", "turns": "later"}, nil,
			`Unknown victory condition "most" (want two-thirds, domination or missions).`},
	} {
		t.Run(c.name, func(t *testing.T) {
			set, err := DefaultSettings().Apply(command.Args{Str: c.opts}, func(string) bool { return false })
			if c.wantErr != "" {
				if err == nil || err.Error() != c.wantErr {
					t.Fatalf("got error %v, want %q", err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !c.want(set.Options) {
				t.Errorf("got options %+v", set.Options)
			}
		})
	}
}
