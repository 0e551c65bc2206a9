package command

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskbot/riskbot/assets/lang"
)

// discordName is Discord's rule for the names of commands and options,
// localised ones too: 1 to 32 letters, digits, dashes or underscores
// (Devanagari and Thai count as letters), lower case where a letter has
// one.
var discordName = regexp.MustCompile(`^[-_\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// TestTreeWordedInEveryLanguage walks the tree of /risk and /risk-admin:
// every subcommand, group, option and choice has its words in each
// language of the catalogue (a description of 1 to 100 characters, a name
// Discord accepts, unique at its level, a choice's name of 1 to 100); the
// English is the tree's own (the parser's names, the descriptions); and
// every "cmd." key of the catalogue is one the tree uses.
func TestTreeWordedInEveryLanguage(t *testing.T) {
	specs := Specs([]string{"random", "easy", "normal", "hard"})
	used := map[string]bool{"cmd.risk.desc": true}
	for _, tag := range lang.Tags() {
		have := map[string]bool{}
		for _, k := range lang.Keys(tag) {
			have[k] = true
		}
		p := lang.For(tag)
		need := func(key string) bool {
			used[key] = true
			if !have[key] {
				t.Errorf("%s: the catalogue lacks %q", tag, key)
				return false
			}
			return true
		}
		desc := func(where, key, got string) {
			if need(key) {
				if n := utf8.RuneCountInString(got); n < 1 || n > 100 {
					t.Errorf("%s %s: description of %d characters, want 1 to 100: %q", tag, where, n, got)
				}
			}
		}
		name := func(where, key, canonical, got string) {
			if !need(key) {
				return
			}
			if !discordName.MatchString(got) || strings.ToLower(got) != got {
				t.Errorf("%s %s: name %q is no name Discord takes (lower case, 1 to 32 letters, digits, - or _)", tag, where, got)
			}
			if tag == lang.English && got != canonical {
				t.Errorf("%s: English name %q, want the parser's %q", where, got, canonical)
			}
		}
		// Names at one level: a localised name must differ from the
		// others' names, localised or not (Discord's rule).
		level := func(where string, canonical, local []string) {
			seen := map[string]bool{}
			for _, n := range canonical {
				seen[n] = true
			}
			for i, n := range local {
				if n != canonical[i] && seen[n] {
					t.Errorf("%s %s: the name %q is taken at its level", tag, where, n)
				}
				seen[n] = true
			}
		}
		desc("/risk", "cmd.risk.desc", Describe(p, CommandName))
		desc("/risk-admin", "cmd.admin.desc", Describe(p, AdminCommandName))
		groups := map[string]bool{}
		top := map[string][2][]string{} // command: canonical, local names
		for _, s := range specs {
			where := s.Slash()
			desc(where, s.Key()+".desc", s.Describe(p))
			name(where, s.Key()+".name", s.Name, s.LocalName(p))
			if tag == lang.English && s.Describe(p) != s.Description {
				t.Errorf("%s: English description %q, want %q", where, s.Describe(p), s.Description)
			}
			at := s.Command() + " " + s.DiscordGroup()
			l := top[at]
			top[at] = [2][]string{append(l[0], s.Name), append(l[1], s.LocalName(p))}
			if g := s.DiscordGroup(); g != "" && !groups[s.Group] {
				groups[s.Group] = true
				desc(s.Group, GroupKey(s.Group)+".desc", GroupDescribe(p, s.Group))
				name(s.Group, GroupKey(s.Group)+".name", g, GroupLocalName(p, s.Group))
				l := top[s.Command()+" "]
				top[s.Command()+" "] = [2][]string{append(l[0], g), append(l[1], GroupLocalName(p, s.Group))}
			}
			var canonical, local []string
			for _, o := range s.Options {
				w := where + " " + o.Name + ":"
				desc(w, o.Key+".desc", o.Describe(p))
				name(w, o.Key+".name", o.Name, o.LocalName(p))
				if tag == lang.English && o.Describe(p) != o.Description {
					t.Errorf("%s: English description %q, want %q", w, o.Describe(p), o.Description)
				}
				canonical, local = append(canonical, o.Name), append(local, o.LocalName(p))
				for i, c := range o.Choices {
					if !need(o.ChoiceKey(i)) {
						continue
					}
					got := o.ChoiceName(p, i)
					if n := utf8.RuneCountInString(got); n < 1 || n > 100 {
						t.Errorf("%s %s%s: choice name of %d characters, want 1 to 100", tag, w, c, n)
					}
					if want := c; tag == lang.English && i >= len(o.Labels) && got != want {
						t.Errorf("%s%s: English choice name %q, want the value", w, c, got)
					}
				}
			}
			level(where, canonical, local)
		}
		for at, l := range top {
			level("/"+at, l[0], l[1])
		}
	}
	for _, k := range lang.Keys(lang.English) {
		if strings.HasPrefix(k, "cmd.") && !used[k] {
			t.Errorf("the catalogue has %q, which no command uses", k)
		}
	}
}

// A subcommand or option made outside Specs (no key, or a key the
// catalogue lacks) keeps its own words in every language.
func TestWordsOutsideTheCatalogue(t *testing.T) {
	fr := lang.For(lang.French)
	o := Option{Name: "armies", Description: "How many", Choices: []string{"a"}}
	if got := o.Describe(fr); got != "How many" {
		t.Errorf("an option without a key: described %q, want its own words", got)
	}
	if got := o.LocalName(fr); got != "armies" {
		t.Errorf("an option without a key: named %q, want its own name", got)
	}
	if got := o.ChoiceName(fr, 0); got != "a" {
		t.Errorf("an option without a key: choice %q, want the value", got)
	}
	s := Spec{Name: "nowhere", Description: "Not in the catalogue"}
	if got := s.Describe(fr); got != s.Description {
		t.Errorf("a subcommand the catalogue lacks: described %q, want its own words", got)
	}
	// And one of Specs in French: its own key's words.
	attack, _ := Find(Specs(nil), "attack")
	if got, want := attack.LocalName(fr), fr.T("cmd.attack.name"); got != want || got == "attack" {
		t.Errorf("/risk attack in French: named %q, want the catalogue's %q", got, want)
	}
}
