package voice

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/riskbot/riskbot/assets/lang"
)

// The lines of /risk me games, one case each, and the whole list within
// a Discord message however long the names.
func TestGames(t *testing.T) {
	deadline := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	long := strings.Repeat("W", 32)
	for _, tt := range []struct {
		name  string
		games []Game
		more  int
		want  []string
		not   []string
	}{
		{"none", nil, 0, []string{"You play in no match under way here", "/risk new"}, []string{"•"}},
		{"your move", []Game{{Channel: "c1", Turn: 4, Yours: true, Deadline: deadline}}, 0,
			[]string{"(1; 1 waits for you)", "• {{channel:c1}}: turn 4, **your move**, deadline {{time:1795608000}}"}, nil},
		{"placing with others", []Game{{Channel: "c1", Yours: true, Others: []string{"Bob", "Cat", "Dan"}}}, 0,
			[]string{"placing armies, **your move**, and Bob, Cat and 1 more's"}, []string{"deadline"}},
		{"someone else's", []Game{{Channel: "c1", Turn: 2, Others: []string{"Bob"}, Deadline: deadline}}, 0,
			[]string{"(1; 0 wait for you)", "turn 2, Bob's move, deadline"}, nil},
		{"a bot's", []Game{{Channel: "c1", Turn: 2, Bot: "Napoleon"}}, 0,
			[]string{"turn 2, Napoleon (bot) is playing"}, []string{"deadline"}},
		{"out", []Game{{Channel: "c1", Turn: 9, Out: "you are out", Others: []string{"Bob"}, Deadline: deadline}}, 0,
			[]string{"turn 9, you are out"}, []string{"deadline", "Bob"}},
		{"damaged", []Game{{Channel: "c1", Damaged: true}}, 0,
			[]string{"{{channel:c1}}: damaged", "/risk host abandon"}, nil},
		{"more", []Game{{Channel: "c1", Turn: 1, Yours: true}, {Channel: "c2", Turn: 1, Yours: true}}, 5,
			[]string{"(7; 2 wait for you)", "…and 5 more, with later deadlines."}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := Speaking(lang.English).Status().Games(tt.games, tt.more, "here")
			if !m.Private {
				t.Errorf("public, want private: %q", m.Text)
			}
			for _, w := range tt.want {
				if !strings.Contains(m.Text, w) {
					t.Errorf("%q lacks %q", m.Text, w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(m.Text, n) {
					t.Errorf("%q has %q", m.Text, n)
				}
			}
		})
	}
	// The longest list: GamesShown lines of the longest names and channel
	// IDs, and the count of more.
	var games []Game
	for range GamesShown {
		games = append(games, Game{Channel: "discord:" + strings.Repeat("9", 20), Turn: 10000, Yours: true,
			Others: []string{long, long, long}, Deadline: deadline})
	}
	m := Speaking(lang.English).Status().Games(games, 90, "on every server")
	if n := utf8.RuneCountInString(m.Text); n > 2000 {
		t.Errorf("the longest list is %d characters, more than a Discord message's 2000", n)
	}
	for _, line := range strings.Split(m.Text, "\n") {
		if n := utf8.RuneCountInString(line); n > 190 {
			t.Errorf("a line of %d characters: %q", n, line)
		}
	}
}
