package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
)

// A token a player gets from the bot (/risk me token, as on Discord) is
// one the match API accepts: it plays that player's seat in that match.
// Before the bot made tokens, only this adapter did, and a player on
// Discord had no way to get one.
func TestTokenFromTheBot(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "token", "classic")
	var got []chat.Message
	r := chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = append(got, m); return nil })
	req := chat.Request{Channel: Prefix + "token", User: chat.User{ID: userID("Ann"), Name: "Ann"}, Command: "me token", Options: map[string]string{}}
	if err := e.bot.Handle(context.Background(), req, r); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || !got[0].Private {
		t.Fatalf("answers %+v, want one, private", got)
	}
	tok := regexp.MustCompile(`rk_[0-9a-f]{48}`).FindString(got[0].Text)
	if tok == "" || !strings.Contains(got[0].Text, "docs/api.md") || !strings.Contains(got[0].Text, "risk web") {
		t.Fatalf("answer %q: want a token, where the API is described, and what serves it", got[0].Text)
	}
	hr := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/matches/%d", id), nil)
	hr.Header.Set("Authorization", "Bearer "+tok)
	ts, has, err := e.srv.seatOf(hr)
	if err != nil || !has || ts.Match != id || ts.User != userID("Ann") {
		t.Fatalf("the API reads the token as %+v (has %v, err %v), want Ann's seat in match %d", ts, has, err, id)
	}
	ann := &client{t: t, base: e.ts.URL, token: tok}
	if st := ann.get(fmt.Sprintf("/api/matches/%d", id), &apiMatch{}); st != http.StatusOK {
		t.Errorf("GET the match with the token: %d", st)
	}
}
