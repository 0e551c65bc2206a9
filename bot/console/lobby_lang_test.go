package console

import (
	"strings"
	"testing"
)

// TestLobbyInFrench: a French console opens a match, joins it, adds a
// bot and is refused a start that is the host's: every answer of the
// lobby, and its line in the channel, reads French.
func TestLobbyInFrench(t *testing.T) {
	out := playLang(t, "fr", []byte(`Ann: /risk new
Ann: /risk new
Bob: /risk join
Bob: /risk join
Ann: /risk host addbot
Bob: /risk start
Bob: /risk host settings
Bob: /risk leave
`))
	for _, want := range []string{
		"Ta partie est ouverte : sa salle d'attente, ci-dessous, se met à jour à chaque arrivée. Lance-la avec son bouton Commencer (ou /risk start) dès que 2 joueurs ou plus sont assis.",
		"Ann ouvre une partie de Risk !",
		"Ce salon a déjà une partie (en attente de joueurs, hôte : Ann). Rejoins-la avec /risk join, ou joue dans un autre salon.",
		"Tu as rejoint (2/6 places). L'hôte lance la partie.",
		"Bob a rejoint (2/6 places).",
		"Tu es déjà dans cette partie (2/6 places). L'hôte la lance avec /risk start.",
		"🤖 Napoleon (bot normal) prend place (3/6).",
		"C'est Ann (l'hôte) qui peut lancer la partie, pas toi.",
		"C'est Ann (l'hôte) qui peut changer les réglages, pas toi.",
		"Tu as quitté la partie.",
		"Bob a quitté la partie.",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the French lobby lacks %q:\n%s", want, out)
		}
	}
	for _, english := range []string{"You joined", "Your match is open", "opened a Risk match", "Only Ann", "takes a seat", "left the match"} {
		if strings.Contains(out, english) {
			t.Errorf("the French lobby says %q in English:\n%s", english, out)
		}
	}
}

// TestHostSwitchesTheLanguage: once a match is under way its host may
// still change the language of its posts (as its palette), and the posts
// that follow speak it, while an English player's own answers stay English.
func TestHostSwitchesTheLanguage(t *testing.T) {
	out := playLang(t, "en", []byte(`Ann: /risk new
Ann: /risk host addbot level:easy
Ann: /risk start
Ann: /risk host settings language:fr
Ann: /risk place
`))
	after := out[strings.Index(out, "language:fr"):]
	for _, want := range []string{"Réglages : règles classiques sur la carte classique", "Placement initial terminé", "Tour 2 — "} {
		if !strings.Contains(after, want) {
			t.Errorf("after language:fr the channel lacks %q:\n%s", want, after)
		}
	}
	if !strings.Contains(after, "(only Ann sees this): ➕ 🟦 Ann placed 19 armies") {
		t.Errorf("Ann's own answer is not in her language (English):\n%s", after)
	}
}
