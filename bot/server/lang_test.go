package server

import (
	"testing"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
)

// TestRefusalsInEachLanguage: the servers' refusals are worded by the
// catalogue, English as it was.
func TestRefusalsInEachLanguage(t *testing.T) {
	var sv Servers
	_, level := sv.LevelAllowed(Rules{Levels: []string{"easy", "normal"}}, "hard", true)
	for _, c := range []struct {
		name   string
		err    error
		en, fr string
	}{
		{"a level", level, "On this server, computer players are easy or normal only.", "Sur ce serveur, les bots sont easy ou normal seulement."},
		{"outside a server", adminOnly(chat.Request{}), "Server settings exist only in a server.", "Les réglages de serveur n'existent que dans un serveur."},
		{"not an admin", adminOnly(chat.Request{Server: "s"}),
			"Only the server's admins (Manage Server, or Manage Channels here) can change its settings for matches.",
			"Seuls les admins du serveur (Gérer le serveur, ou Gérer les salons ici) peuvent changer ses réglages de parties."},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.err == nil {
				t.Fatal("got no refusal")
			}
			if got := c.err.Error(); got != c.en {
				t.Errorf("English: got %q, want %q", got, c.en)
			}
			if got := lang.For(lang.French).Error(c.err); got != c.fr {
				t.Errorf("French: got %q, want %q", got, c.fr)
			}
		})
	}
	if got, want := lang.For(lang.French).Msg(DurationMsg(72*time.Hour)), "3 jours"; got != want {
		t.Errorf("a duration in French: got %q, want %q", got, want)
	}
}
