package web

import (
	"net/http/httptest"
	"slices"
	"testing"
)

// The page offers the options the channel's match takes: armies: of an
// attack only in simultaneous rounds, dice: and until: only outside them
// (issue 43: armies: was offered in sequential matches).
func TestPageOffersTheOptionsTheMatchTakes(t *testing.T) {
	e := newEnv(t, Config{})
	for _, tt := range []struct {
		channel, turns string
		want, wantNot  []string
	}{
		{"seq", "sequential", []string{"dice:", "until:"}, []string{"armies:"}},
		{"sim", "simultaneous", []string{"armies:"}, []string{"dice:", "until:"}},
	} {
		e.do(t, tt.channel, "Ann", "/risk new turns:"+tt.turns)
		e.do(t, tt.channel, "Bob", "/risk join")
		e.do(t, tt.channel, "Ann", "/risk start")
		user := userIn(Prefix+tt.channel, "Ann")
		var got []string
		for _, s := range e.srv.play.suggest(httptest.NewRequest("GET", "/web/complete", nil), Prefix+tt.channel, user, "/risk attack from:Alaska to:Kamchatka ") {
			got = append(got, s.Label)
		}
		for _, w := range tt.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s: offered %v, want %s among them", tt.turns, got, w)
			}
		}
		for _, w := range tt.wantNot {
			if slices.Contains(got, w) {
				t.Errorf("%s: offered %v, want no %s", tt.turns, got, w)
			}
		}
	}
}

// The page's menu of help topics says what each is about, as Discord's
// does (issue 43).
func TestPageHelpTopicsSayWhatTheyAreAbout(t *testing.T) {
	e := newEnv(t, Config{})
	got := e.srv.play.suggest(httptest.NewRequest("GET", "/web/complete", nil), Prefix+"help", userIn(Prefix+"help", "Ann"), "/risk help topic:")
	if len(got) == 0 {
		t.Fatal("no topics offered")
	}
	for _, s := range got {
		if s.Note == "" {
			t.Errorf("topic %s: no note, want what it is about", s.Label)
		}
	}
}
