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
	ts, has, err := e.srv.api.seatOf(hr)
	if err != nil || !has || ts.Match != id || ts.User != userID("Ann") {
		t.Fatalf("the API reads the token as %+v (has %v, err %v), want Ann's seat in match %d", ts, has, err, id)
	}
	ann := &client{t: t, base: e.ts.URL, token: tok}
	if st := ann.get(fmt.Sprintf("/api/matches/%d", id), &apiMatch{}); st != http.StatusOK {
		t.Errorf("GET the match with the token: %d", st)
	}
}

// ask runs a command as a player of the page who is no admin, and returns
// the bot's answers to them.
func (e *testEnv) ask(t testing.TB, channel, user, line string) []chat.Message {
	t.Helper()
	cmd, opts, err := parseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	var got []chat.Message
	r := chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = append(got, m); return nil })
	if err := e.bot.Handle(context.Background(), chat.Request{Channel: Prefix + channel, User: chat.User{ID: userID(user), Name: user}, Command: cmd, Options: opts, Key: "t/" + randomHex(8), Server: "web"}, r); err != nil {
		t.Fatal(err)
	}
	e.bot.Wait()
	return got
}

// press clicks the button labelled label of a message, as a player of the
// page who is no admin, and returns the answers.
func (e *testEnv) press(t testing.TB, channel, user string, m chat.Message, label string) []chat.Message {
	t.Helper()
	for _, row := range m.Buttons {
		for _, b := range row {
			if b.Label != label {
				continue
			}
			var got []chat.Message
			r := chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = append(got, m); return nil })
			c := chat.Click{Channel: Prefix + channel, User: chat.User{ID: userID(user), Name: user}, ID: b.ID, Label: b.Label, Key: "t/" + randomHex(8), Server: "web"}
			if err := e.bot.HandleClick(context.Background(), c, r); err != nil {
				t.Fatal(err)
			}
			e.bot.Wait()
			return got
		}
	}
	t.Fatalf("no button %q in %+v", label, m)
	return nil
}

// tokenIn reads the token of an answer of /risk me token.
func tokenIn(t testing.TB, got []chat.Message) string {
	t.Helper()
	if len(got) == 0 {
		t.Fatal("no answer")
	}
	tok := regexp.MustCompile(`rk_[0-9a-f]{48}`).FindString(got[0].Text)
	if tok == "" {
		t.Fatalf("no token in %q", got[0].Text)
	}
	return tok
}

// TestTokensRevoked: a seat's tokens end when its player revokes them
// (/risk me token revoke:yes), when the host removes them, and when they
// give the seat up; a removed player plays nothing more, by token or by
// command. Before, every token worked forever, and a removed player still
// played the seat the bot had taken over.
func TestTokensRevoked(t *testing.T) {
	e := newEnv(t, Config{})
	e.ask(t, "rv", "Ann", "/risk new")
	e.ask(t, "rv", "Bob", "/risk join")
	e.ask(t, "rv", "Cid", "/risk join")
	e.ask(t, "rv", "Ann", "/risk start")
	l, err := e.db.Active(context.Background(), Prefix+"rv")
	if err != nil {
		t.Fatal(err)
	}
	path := fmt.Sprintf("/api/matches/%d", l.ID)
	status := func(tok string) (int, string) {
		t.Helper()
		var out struct {
			Error string `json:"error"`
		}
		c := &client{t: t, base: e.ts.URL, token: tok}
		return c.get(path, &out), out.Error
	}
	ann := tokenIn(t, e.ask(t, "rv", "Ann", "/risk me token"))
	bob := tokenIn(t, e.ask(t, "rv", "Bob", "/risk me token"))
	cid := tokenIn(t, e.ask(t, "rv", "Cid", "/risk me token"))
	for _, tok := range []string{ann, bob, cid} {
		if st, msg := status(tok); st != http.StatusOK {
			t.Fatalf("a fresh token: %d %s", st, msg)
		}
	}
	revoked := func(who, tok string) {
		t.Helper()
		if st, msg := status(tok); st != http.StatusUnauthorized || !strings.Contains(msg, "revoked") {
			t.Errorf("%s: got %d %q, want 401 saying it was revoked", who, st, msg)
		}
	}

	// Ann's own command ends hers, and only hers; a new one works.
	if got := e.ask(t, "rv", "Ann", "/risk me token revoke:yes"); len(got) != 1 || !got[0].Private || !strings.Contains(got[0].Text, "revoked") {
		t.Fatalf("/risk me token revoke:yes answered %+v", got)
	}
	revoked("Ann's token after she revoked it", ann)
	if st, _ := status(bob); st != http.StatusOK {
		t.Errorf("Bob's token after Ann revoked hers: %d, want 200", st)
	}
	if st, _ := status(tokenIn(t, e.ask(t, "rv", "Ann", "/risk me token"))); st != http.StatusOK {
		t.Errorf("Ann's new token: %d, want 200", st)
	}

	// The host removes Bob: his token ends, and he plays nothing more.
	q := e.ask(t, "rv", "Ann", "/risk host kick player:Bob")
	if len(q) != 1 {
		t.Fatalf("kick asked %+v", q)
	}
	e.press(t, "rv", "Ann", q[0], "Remove Bob")
	revoked("Bob's token after he was removed", bob)
	if got := e.ask(t, "rv", "Bob", "/risk place"); len(got) != 1 || !strings.Contains(got[0].Text, "removed") {
		t.Errorf("Bob, removed, placing: %+v, want a refusal saying he was removed", got)
	}

	// Cid gives his seat up: his token ends.
	q = e.ask(t, "rv", "Cid", "/risk surrender")
	if len(q) != 1 {
		t.Fatalf("surrender asked %+v", q)
	}
	e.press(t, "rv", "Cid", q[0], "Give up")
	revoked("Cid's token after he gave up", cid)
}
