package console

import (
	"strings"
	"testing"
)

// Issue 45: French players (locale fr) place, play and ask, and read
// play's answers and refusals in French; the same match in English reads
// as it always did.
func TestFrenchPlayersReadPlayInFrench(t *testing.T) {
	const transcript = `Ann: /risk new
Bob: /risk join
Ann: /risk start
Ann: /risk place
Bob: /risk place
Bob: /risk place
Bob: /risk end
Ann: /risk show cards
Ann: /risk port territory:Alaska
Ann: /risk show odds attackers:10 defenders:6
Ann: /risk show history turn:9
`
	for _, c := range []struct {
		tag        string
		want, lost []string
	}{
		{"fr", []string{
			"Bob a fini le tour 1.",
			"Tu n'as aucune carte. Tu en pioches une à la fin de chaque tour où tu conquiers un territoire.",
			"/risk port sert aux parties capitales : les routes maritimes de la carte classique sont ouvertes à tous.",
			"10 armées contre 6 jusqu'au bout (une armée reste en arrière) : 80,8 % de chances de gagner ; en moyenne, il reste 5,3 attaquants et 0,5 défenseurs.",
			"Il n'y a pas de tour 9 à montrer : les tours 0 à 2 ont été joués.",
			"dans 24 h (26/11 12:00 UTC)",
		}, []string{"ended turn", "You hold no cards", "is for capitals matches", "to the end", "There is no turn"}},
		{"", []string{
			"Bob ended turn 1.",
			"You hold no cards. You draw one at the end of every turn in which you conquer a territory.",
			"/risk port is for capitals matches: the classic map's sea routes are open to all.",
			"10 armies attacking 6 to the end (one stays behind): 80.8% to win; on average 5.3 of the attackers and 0.5 of the defenders are left.",
			"There is no turn 9 to show: turns 0 to 2 have been played.",
			"in 24 h (Nov 26 12:00 UTC)",
		}, nil},
	} {
		got := playLang(t, c.tag, []byte(transcript))
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("locale %q: the transcript lacks %q:\n%s", c.tag, w, got)
			}
		}
		for _, l := range c.lost {
			if strings.Contains(got, l) {
				t.Errorf("locale %q: the transcript still says %q", c.tag, l)
			}
		}
	}
}
