package command

import (
	"maps"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/state"
)

// words are the subcommands a person may type: the registered ones by
// their full names, and the words of earlier versions still understood.
func words(specs []Spec) []string {
	var w []string
	for _, s := range specs {
		w = append(w, s.FullName())
	}
	return append(w, slices.Sorted(maps.Keys(oldWords()))...)
}

// Suggest returns the subcommands a mistyped one most likely meant, best
// first, at most three: those within a few typing mistakes of it, or that
// it starts; else those its first words mean (a word typed after a
// command, as in "place auto", reads as part of its name). Nothing when
// none is close.
func Suggest(specs []Spec, typed string) []string {
	typed = strings.Join(strings.Fields(strings.ToLower(typed)), " ")
	if typed == "" {
		return nil
	}
	type cand struct {
		name string
		d    int
	}
	var cs []cand
	seen := map[string]bool{}
	for _, w := range words(specs) {
		d := state.EditDistance(typed, w)
		if len(typed) >= 2 && strings.HasPrefix(w, typed) {
			d = min(d, 1)
		}
		name := w
		if s, ok := Find(specs, Alias(w)); ok {
			name = s.FullName()
		}
		if d <= max(1, len([]rune(typed))*2/5) && !seen[name] {
			seen[name] = true
			cs = append(cs, cand{name, d})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var out []string
	for i, c := range cs {
		if i == 3 || (i > 0 && c.d > cs[0].d) {
			break
		}
		out = append(out, c.name)
	}
	if fs := strings.Fields(typed); len(out) == 0 && len(fs) > 1 {
		return Suggest(specs, strings.Join(fs[:len(fs)-1], " "))
	}
	return out
}
