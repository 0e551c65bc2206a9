package hosted

import (
	"testing"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/command"
)

// TestRefusalsInEachLanguage: the refusals of a match's settings and of a
// seat's name are worded by the catalogue, English as it always was.
func TestRefusalsInEachLanguage(t *testing.T) {
	apply := func(opts map[string]string) error {
		_, err := DefaultSettings().Apply(command.Args{Str: opts}, func(string) bool { return false })
		return err
	}
	meta := Meta{Seats: []Seat{{ID: "u:1", Name: "Ann"}, {ID: "u:2", Name: "Anna"}}}
	_, several := meta.FindSeat("an")
	for _, c := range []struct {
		name   string
		err    error
		en, fr string
	}{
		{"a language", apply(map[string]string{"language": "de"}),
			`There is no language "de" here: language:en or language:fr.`,
			`Il n'y a pas de langue "de" ici : language:en ou language:fr.`},
		{"teams", apply(map[string]string{"teams": "7"}),
			`teams takes off, 2 or 3 (players per team), not "7".`,
			`teams prend off, 2 ou 3 (joueurs par équipe), pas "7".`},
		{"a palette", apply(map[string]string{"palette": "neon"}),
			`There is no palette "neon" here.`,
			`Il n'y a pas de palette "neon" ici.`},
		{"a map of the other rules", apply(map[string]string{"map": "small"}),
			"map:small is for capitals matches; a classic match on generated islands is map:islands-small. Or add rules:capitals.",
			"map:small est pour les parties à capitales ; une partie classique sur des îles générées, c'est map:islands-small. Ou ajoute rules:capitals."},
		{"a seat", several,
			`"an" could be several players: Ann, Anna`,
			`"an" peut désigner plusieurs joueurs : Ann, Anna`},
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
}
