package people

import (
	"testing"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
)

// TestRefusalsInEachLanguage: the refusals of /risk me notify, and the
// choices it shows, are worded by the catalogue, English as it was.
func TestRefusalsInEachLanguage(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	_, away := parseAway("99", now)
	_, _, quietErr := parseQuiet("7-7")
	_, offset := parseOffset("+99")
	for _, c := range []struct {
		name   string
		err    error
		en, fr string
	}{
		{"away", away, "away takes 1 to 60 days, not 99.", "away prend de 1 à 60 jours, pas 99."},
		{"quiet", quietErr, `quiet takes two different hours, like 22-7 (from 22:00 to 07:00), or off; not "7-7".`,
			`quiet prend deux heures différentes, comme 22-7 (de 22:00 à 07:00), ou off ; pas "7-7".`},
		{"utc-offset", offset, `utc-offset takes hours from UTC, like +2, -5 or 5:30, not "99".`,
			`utc-offset prend des heures depuis UTC, comme +2, -5 ou 5:30, pas "99".`},
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
	p := Prefs{DM: true, QuietFrom: 22, QuietTo: 7, Orders: Orders{Defend: "Europe", NoAttack: true}}
	if got, want := p.Text(), "Direct message when it is your turn: on. Reminders: on. Quiet hours: 22:00 to 07:00 (UTC+0). Standing orders (when your time runs out): defend Europe, no attacks."; got != want {
		t.Errorf("English: got %q, want %q", got, want)
	}
	if got, want := p.In(lang.For(lang.French)), "Message privé quand c'est ton tour : oui. Rappels : oui. Heures calmes : de 22:00 à 07:00 (UTC+0). Ordres permanents (quand ton temps est écoulé) : défendre l'Europe, pas d'attaques."; got != want {
		t.Errorf("French: got %q, want %q", got, want)
	}
}
