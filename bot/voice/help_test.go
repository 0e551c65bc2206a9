package voice

import (
	"strings"
	"testing"
	"unicode/utf8"

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
				m := Help(specs, tc.rules, topic)
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
			overview := Help(specs, tc.rules, "").Text
			for _, topic := range command.HelpTopics() {
				if !strings.Contains(overview, "topic:"+topic) {
					t.Errorf("the overview does not name topic %s", topic)
				}
			}
			list := Help(specs, tc.rules, "commands").Text
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
	if m := Help(specs, state.Classic, "nope"); !strings.Contains(m.Text, "topic:turn") {
		t.Errorf("an unknown topic: %q", m.Text)
	}
}
