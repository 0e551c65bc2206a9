package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// TestTeamChat: a match of teams on the page gives each team a chat of its
// own beside the channel (the page's private thread): listed to its
// members only, read by them only, where a line that is not a command is
// said to the team, shown as written; elsewhere a line is refused, saying
// why, and so are commands in a team's chat.
func TestTeamChat(t *testing.T) {
	e := newEnv(t, Config{})
	pages := map[string]*pageClient{}
	for _, n := range []string{"Ann", "Bob", "Cat"} {
		p := openPage(t, e)
		if status, body := p.post("/web/names", fmt.Sprintf(`{"name":%q}`, n)); status != http.StatusOK {
			t.Fatalf("claim %s: %d %s", n, status, body)
		}
		pages[n] = p
	}
	send := func(who, path, channel, field, line string) (int, string) {
		b, _ := json.Marshal(map[string]string{"channel": channel, "as": who, field: line})
		status, body := pages[who].post(path, string(b))
		e.bot.Wait()
		return status, body
	}
	for _, c := range [][2]string{{"Ann", "/risk new teams:2 thread:off"}, {"Bob", "/risk join team:1"}, {"Ann", "/risk join team:1"},
		{"Cat", "/risk join"}, {"Ann", "/risk host addbot level:easy"}, {"Ann", "/risk start"}} {
		if status, body := send(c[0], "/web/command", "den", "line", c[1]); status != http.StatusOK {
			t.Fatalf("%s: %s: %d %s", c[0], c[1], status, body)
		}
	}
	listed := func(who string) []string {
		var ch struct{ Channels []string }
		getJSON(t, pages[who].client, e.ts.URL+"/web/channels", &ch)
		return ch.Channels
	}
	for who, want := range map[string]string{"Ann": "den-team-1", "Bob": "den-team-1", "Cat": "den-team-2"} {
		got := listed(who)
		other := "den-team-1"
		if want == other {
			other = "den-team-2"
		}
		if !slices.Contains(got, want) || slices.Contains(got, other) {
			t.Errorf("%s's page lists %v: want %s and not %s", who, got, want, other)
		}
	}

	if status, body := send("Ann", "/web/say", "den-team-1", "text", "**Brazil** first <b>now</b>"); status != http.StatusOK {
		t.Fatalf("Ann says in her team's chat: %d %s", status, body)
	}
	for _, c := range []struct {
		who, path, channel, field, line string
		status                          int
		says                            string
	}{
		{"Cat", "/web/say", "den-team-1", "text", "hello", http.StatusForbidden, "Cat is not in this team"},
		{"Ann", "/web/say", "den", "text", "hello", http.StatusBadRequest, "only a team's private chat takes messages"},
		{"Ann", "/web/command", "den-team-1", "line", "/risk show status", http.StatusBadRequest, "this is a team's private chat"},
	} {
		if status, body := send(c.who, c.path, c.channel, c.field, c.line); status != c.status || !strings.Contains(body, c.says) {
			t.Errorf("%s to %s in %s: %d %s, want %d saying %q", c.who, c.path, c.channel, status, body, c.status, c.says)
		}
	}

	read := func(who string) string {
		var se *session
		if who != "" {
			u, _ := url.Parse(e.ts.URL)
			for _, c := range pages[who].client.Jar.Cookies(u) {
				if c.Name == cookieName {
					se = e.srv.browsers.known(context.Background(), c.Value)
				}
			}
			if se == nil {
				t.Fatalf("no session for %s", who)
			}
		}
		var b strings.Builder
		for _, m := range e.srv.feeds.subscribe(Prefix+"den-team-1", &sub{se: se, ch: make(chan []byte, 1)}) {
			b.Write(m)
		}
		return b.String()
	}
	bob := read("Bob")
	if !strings.Contains(bob, "this chat is your team") || !strings.Contains(bob, "Brazil") {
		t.Errorf("Bob's page does not show his team's chat: %s", bob)
	}
	if strings.Contains(bob, "\\u003cb\\u003enow") || strings.Contains(bob, "\\u003cb\\u003eBrazil") {
		t.Errorf("what Ann wrote became markup: %s", bob)
	}
	for _, who := range []string{"Cat", ""} {
		if got := read(who); got != "" {
			t.Errorf("%q reads team 1's chat: %s", who, got)
		}
	}
}
