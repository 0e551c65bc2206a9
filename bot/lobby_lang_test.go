package bot

import (
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
)

// TestUnknownCommandInItsAuthorsLanguage: a command the bot does not know
// is refused in its author's language (their locale), with the nearest it
// knows. (The lobby's refusals are the lobby package's tests.)
func TestUnknownCommandInItsAuthorsLanguage(t *testing.T) {
	h := newHarness(t)
	for _, c := range []struct {
		name, locale, want string
	}{
		{"French", "fr-FR", `Il n'y a pas de /risk "jion". Tu voulais dire /risk join ?`},
		{"English", "en-GB", `There is no /risk "jion". Did you mean /risk join?`},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := h.doReq(chat.Request{Channel: "new", User: user("Cid"), Command: "jion", Locale: c.locale})
			if !got.Refused || !got.Private {
				t.Errorf("got a reply refused %v, private %v; want a private refusal", got.Refused, got.Private)
			}
			if got.Text != c.want {
				t.Errorf("got %q, want %q", got.Text, c.want)
			}
		})
	}
}
