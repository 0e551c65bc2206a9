package voice

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/state"
)

// TestHelp: every topic of each rule set fits a message on every
// platform, speaks of its own rule set, and together they name every
// command; the overview names every topic.
func TestHelp(t *testing.T) {
	specs := command.Specs([]string{"easy", "normal", "hard"})
	for _, tc := range []struct {
		rules state.Rules
		not   []string // words of the other rule set
	}{
		{state.Classic, []string{"capital", "launch", "hero"}},
		{state.Capitals, []string{"dice", "conquer the world", "Alaska", "Kamchatka", "kamch", "Europe", "occupy", "`trade`", "/risk trade"}},
	} {
		t.Run(tc.rules.String(), func(t *testing.T) {
			all := ""
			for _, topic := range append([]string{""}, command.HelpTopics()...) {
				m := Speaking(lang.English).Status().Help(specs, tc.rules, topic)
				if n := utf8.RuneCountInString(m.Text); n > chat.MaxText || n == 0 {
					t.Errorf("topic %q: %d characters, want 1 to %d", topic, n, chat.MaxText)
				}
				if !m.Private {
					t.Errorf("topic %q is answered in public", topic)
				}
				if topic != "start" && (topic != "commands" || tc.rules == state.Capitals) {
					for _, w := range tc.not {
						if strings.Contains(m.Text, w) {
							t.Errorf("topic %q of %s speaks of %q", topic, tc.rules, w)
						}
					}
				}
				all += m.Text
			}
			overview := Speaking(lang.English).Status().Help(specs, tc.rules, "").Text
			for _, topic := range command.HelpTopics() {
				if !strings.Contains(overview, "topic:"+topic) {
					t.Errorf("the overview does not name topic %s", topic)
				}
			}
			list := Speaking(lang.English).Status().Help(specs, tc.rules, "commands").Text
			for _, s := range specs {
				if tc.rules == state.Capitals && (s.Name == "trade" || s.Name == "occupy") {
					continue
				}
				if !strings.Contains(list, "`"+strings.TrimPrefix(s.Slash(), "/risk ")+"`") {
					t.Errorf("the list of commands lacks %s", s.Slash())
				}
			}
		})
	}
	if m := Speaking(lang.English).Status().Help(specs, state.Classic, "nope"); !strings.Contains(m.Text, "topic:turn") {
		t.Errorf("an unknown topic: %q", m.Text)
	}
}

// The help in French: every topic of each rule set is worded (no English
// sentence, no key left), fits a message, and names the topics and the
// commands as they are typed, in English (what the parser takes).
func TestHelpInFrench(t *testing.T) {
	specs := command.Specs([]string{"easy", "normal", "hard"})
	fr := Voice{}.In(lang.French)
	for _, rules := range []state.Rules{state.Classic, state.Capitals} {
		for _, topic := range append([]string{"", "nope"}, command.HelpTopics()...) {
			m, en := fr.Status().Help(specs, rules, topic), Speaking(lang.English).Status().Help(specs, rules, topic)
			if n := utf8.RuneCountInString(m.Text); n > chat.MaxText || n == 0 || !m.Private {
				t.Errorf("%s %q: %d characters (private %v), want 1 to %d, private", rules, topic, n, m.Private, chat.MaxText)
			}
			frLines, enLines := strings.Split(m.Text, "\n"), strings.Split(en.Text, "\n")
			if len(frLines) != len(enLines) {
				t.Errorf("%s %q: %d lines in French, %d in English", rules, topic, len(frLines), len(enLines))
				continue
			}
			for i, l := range frLines {
				// The teams' paragraph is teams.go's, and a line of
				// typed names only may read alike.
				if l == enLines[i] && !strings.HasPrefix(l, "**Teams**") {
					t.Errorf("%s %q: line %d is English in French: %q", rules, topic, i, l)
				}
				if strings.Contains(l, "{{") || strings.Contains(l, "help.") {
					t.Errorf("%s %q: line %d is not worded: %q", rules, topic, i, l)
				}
			}
		}
		overview := fr.Status().Help(specs, rules, "").Text
		for _, topic := range command.HelpTopics() {
			if !strings.Contains(overview, "`/risk help topic:"+topic+"`") {
				t.Errorf("%s: the French overview does not name topic %s as typed", rules, topic)
			}
		}
		list := fr.Status().Help(specs, rules, "commands").Text
		for _, s := range specs {
			if rules == state.Capitals && (s.Name == "trade" || s.Name == "occupy") {
				continue
			}
			if !strings.Contains(list, "`"+strings.TrimPrefix(s.Slash(), "/risk ")+"`") {
				t.Errorf("%s: the French list of commands lacks %s", rules, s.Slash())
			}
		}
	}
}

// What a command that left out an option takes, in French: the sentence
// is French, the example as typed (the commands' names, the map's names).
func TestUsageInFrench(t *testing.T) {
	m, _ := capitalsMatch(t)
	s := m.Game.State
	fr := Voice{}.In(lang.French)
	for _, c := range []string{"attack", "fortify", "port"} {
		en, ok := Speaking(lang.English).Status().CapitalsUsage(s, s.Current, c, "to")
		got, frOK := fr.Status().CapitalsUsage(s, s.Current, c, "to")
		if !ok || !frOK || got == en || !strings.HasPrefix(got, "/risk "+c+" attend to") {
			t.Errorf("%s: French usage %q (English %q)", c, got, en)
		}
		// The example's names are the English one's.
		if i, j := strings.Index(en, " like "), strings.Index(got, " comme "); (i < 0) != (j < 0) ||
			(i >= 0 && strings.TrimSuffix(strings.Fields(en[i+6:])[2], ":") != strings.Fields(got[j+7:])[2]) {
			t.Errorf("%s: the example differs: %q, %q", c, got, en)
		}
	}
	if got := fr.Asks().CapitalsNoUndo(s); !strings.HasPrefix(got, "Rien à annuler") {
		t.Errorf("nothing to undo, in French: %q", got)
	}
}

// TestHelpKeys: the topics' paragraphs, whose keys Help builds (prefix
// and part), are all in the catalogue, and every paragraph the catalogue
// holds under those prefixes is shown by some topic of some rule set.
func TestHelpKeys(t *testing.T) {
	specs := command.Specs([]string{"easy", "normal", "hard"})
	prefixes := []string{"help.start.", "help.turn.", "help.rules.", "help.admin."}
	for _, tag := range lang.Tags() {
		shown := map[string]bool{}
		for _, rules := range []state.Rules{state.Classic, state.Capitals} {
			for _, topic := range command.HelpTopics() {
				for _, l := range strings.Split(Speaking(tag).Status().Help(specs, rules, topic).Text, "\n") {
					if strings.HasPrefix(l, "help.") {
						t.Errorf("%s %s %q: a key left unworded: %q", tag, rules, topic, l)
					}
					shown[l] = true
				}
			}
		}
		cat, err := lang.Raw(tag)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for key := range cat {
			if !slices.ContainsFunc(prefixes, func(p string) bool { return strings.HasPrefix(key, p) }) {
				continue
			}
			n++
			if text := lang.For(tag).T(key); !shown[text] {
				t.Errorf("%s: %s (%q) is in no topic", tag, key, text)
			}
		}
		if n < 32 {
			t.Errorf("%s: got %d paragraphs, want 32 or more", tag, n)
		}
	}
}
