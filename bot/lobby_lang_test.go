package bot

import (
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
)

// TestLobbyRefusalsInTheirAuthorsLanguage: a refusal of the lobby is
// worded in its author's language (their locale), the same refusal in
// English for another, whatever the match's own language.
func TestLobbyRefusalsInTheirAuthorsLanguage(t *testing.T) {
	h := newHarness(t)
	// A full match (6 seats), and one with a seat for Bob, hosted by Ann.
	h.do("full", "Ann", "new")
	for range 5 {
		h.do("full", "Ann", "host addbot")
	}
	h.do("open", "Ann", "new")
	h.do("open", "Bob", "join")
	for _, c := range []struct {
		name, channel, who, command string
		opts                        map[string]string
		locale, want                string
	}{
		{"full, French", "full", "Cid", "join", nil, "fr", "La partie est complète (6 joueurs)."},
		{"full, English", "full", "Cid", "join", nil, "en-US", "The match is full (6 players)."},
		{"full, other locale", "full", "Cid", "join", nil, "de", "The match is full (6 players)."},
		{"not the host, French", "open", "Bob", "start", nil, "fr", "C'est Ann (l'hôte) qui peut lancer la partie, pas toi."},
		{"not the host, English", "open", "Bob", "start", nil, "en-GB", "Only Ann (the host) can start the match."},
		{"a capitals option, French", "new", "Cid", "new", map[string]string{"neutral": "1-5"}, "fr", "neutral est une option des parties à capitales : ajoute rules:capitals."},
		{"a capitals option, English", "new", "Cid", "new", map[string]string{"neutral": "1-5"}, "en", "neutral is an option of capitals matches: add rules:capitals."},
		{"no such command, French", "new", "Cid", "jion", nil, "fr-FR", `Il n'y a pas de /risk "jion". Tu voulais dire /risk join ?`},
		{"a seat already, French", "open", "Bob", "join", nil, "fr", "Tu es déjà dans cette partie (2/6 places). L'hôte la lance avec /risk start."},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := h.doReq(chat.Request{Channel: c.channel, User: user(c.who), Command: c.command, Options: c.opts, Locale: c.locale})
			if !got.Refused || !got.Private {
				t.Errorf("got a reply refused %v, private %v; want a private refusal", got.Refused, got.Private)
			}
			if got.Text != c.want {
				t.Errorf("got %q, want %q", got.Text, c.want)
			}
		})
	}
}
