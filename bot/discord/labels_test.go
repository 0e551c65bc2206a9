package discord

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/command"
)

// /risk help topic: shows what each topic is about: a Discord choice has
// a name only, no description, and a bare "turn" or "notify" said too
// little (issue 43). Each choice sends the topic itself.
func TestHelpTopicChoicesSayWhatTheyAreAbout(t *testing.T) {
	specs := command.Specs(levels())
	help, ok := command.Find(specs, "help")
	if !ok {
		t.Fatal("no /risk help")
	}
	sub := findSub(Commands(specs, true), help)
	if sub == nil {
		t.Fatal("/risk help is not registered")
	}
	for _, o := range sub.Options {
		if o.Name != "topic" {
			continue
		}
		if len(o.Choices) != len(command.HelpTopics()) {
			t.Fatalf("topic: has %d choices, want %d", len(o.Choices), len(command.HelpTopics()))
		}
		for i, c := range o.Choices {
			topic := command.HelpTopics()[i]
			if c.Value != topic || !strings.HasPrefix(c.Name, topic+" — ") || len(c.Name) < len(topic)+8 {
				t.Errorf("choice %d: got name %q, value %v; want the value %q and a name that says what it is about", i, c.Name, c.Value, topic)
			}
		}
		return
	}
	t.Fatal("/risk help has no topic option")
}
