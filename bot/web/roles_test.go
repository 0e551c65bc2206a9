package web

import (
	"net/http"
	"strings"
	"testing"
)

// named opens a page in a browser of its own and names its player.
func named(t *testing.T, e *testEnv, name string) *pageClient {
	t.Helper()
	p := openPage(t, e)
	if status, body := p.post("/web/names", `{"name":"`+name+`"}`); status != http.StatusOK {
		t.Fatalf("naming %s: %d %s", name, status, body)
	}
	return p
}

// run types a command in channel as the page does, and returns the
// private answers (their text) the command added for that player.
func (p *pageClient) run(e *testEnv, channel, as, line string) []string {
	p.t.Helper()
	before := len(e.privateTo(channel, as))
	body := `{"channel":"` + channel + `","as":"` + as + `","line":"` + line + `"}`
	if status, out := p.post("/web/command", body); status != http.StatusOK {
		p.t.Fatalf("%s: %s: %d %s", as, line, status, out)
	}
	e.bot.Wait()
	return e.privateTo(channel, as)[before:]
}

// privateTo lists the messages of a channel only name sees (their text,
// buttons' labels after a "|").
func (e *testEnv) privateTo(channel, name string) []string {
	e.srv.feeds.mu.Lock()
	defer e.srv.feeds.mu.Unlock()
	var out []string
	fd, ok := e.srv.feeds.channels[Prefix+channel]
	if !ok {
		return nil
	}
	for _, p := range fd.posts {
		if p.to != userID(name) {
			continue
		}
		text := p.v.HTML
		for _, row := range p.v.Buttons {
			for _, b := range row {
				text += "|" + b.Label
			}
		}
		out = append(out, text)
	}
	return out
}

// TestPageRoles: on the page, only the host acts as host and only the
// operator (the browser that gave the key risk web prints) as admin;
// everyone else gets the bot's private refusals, as on Discord. Before,
// every page visitor was an admin: a stranger kicked players, kicked the
// host of a started match and was offered "End the match".
func TestPageRoles(t *testing.T) {
	const key = "operator-key-of-this-test-0123456789"
	e := newEnv(t, Config{OperatorKey: key})
	ann, bob, cid := named(t, e, "Ann"), named(t, e, "Bob"), named(t, e, "Cid")
	if got := ann.run(e, "ro", "Ann", "/risk new"); len(got) != 1 {
		t.Fatalf("/risk new: %q", got)
	}
	bob.run(e, "ro", "Bob", "/risk join")
	refused := func(who string, p *pageClient, line, want string) {
		t.Helper()
		as, _, _ := strings.Cut(who, " ")
		got := p.run(e, "ro", as, line)
		if len(got) != 1 || !strings.Contains(got[0], want) || strings.Contains(got[0], "End the match") {
			t.Errorf("%s: %s: got %q, want a private refusal saying %q", who, line, got, want)
		}
	}
	refused("Cid (a stranger)", cid, "/risk host addbot level:easy", "Only Ann (the host) can add bots")
	refused("Cid (a stranger)", cid, "/risk host kick player:Bob", "Only Ann (the host) can remove players")
	refused("Bob (seated)", bob, "/risk host kick player:Ann", "Only Ann (the host) can remove players")
	refused("Bob (seated)", bob, "/risk host settings victory:domination", "Only Ann (the host) can change the settings")
	refused("Cid (a stranger)", cid, "/risk-admin limits per-host:1", "Only the server")
	ann.run(e, "ro", "Ann", "/risk host addbot level:easy")
	ann.run(e, "ro", "Ann", "/risk start")
	refused("Cid (a stranger)", cid, "/risk host kick player:Ann", "Only Ann (the host) can remove players")
	refused("Bob (seated)", bob, "/risk host kick player:Ann", "Only Ann (the host) can remove players")
	refused("Cid (a stranger)", cid, "/risk host abandon", "can end a match without a winner")
	refused("Bob (seated)", bob, "/risk host abandon", "can end a match without a winner")
	l, err := e.db.OpenHead(t.Context(), Prefix+"ro")
	if err != nil || l.Status.String() != "active" {
		t.Fatalf("the match after the refusals: %+v %v, want it under way", l, err)
	}

	// The host may; so may the operator, once their browser gave the key.
	if got := ann.run(e, "ro", "Ann", "/risk host abandon"); len(got) != 1 || !strings.Contains(got[0], "End the match") {
		t.Errorf("Ann (the host): /risk host abandon: %q, want the question", got)
	}
	olga := named(t, e, "Olga")
	if status, body := olga.post("/web/operator", `{"key":"not the key"}`); status != http.StatusForbidden {
		t.Errorf("a wrong operator's key: %d %s, want 403", status, body)
	}
	refused("Olga (not yet the operator)", olga, "/risk host abandon", "can end a match without a winner")
	if status, body := olga.post("/web/operator", `{"key":"`+key+`"}`); status != http.StatusOK || !strings.Contains(body, `"operator":true`) {
		t.Fatalf("the operator's key: %d %s", status, body)
	}
	if got := olga.run(e, "ro", "Olga", "/risk host abandon"); len(got) != 1 || !strings.Contains(got[0], "End the match") {
		t.Errorf("Olga (the operator): /risk host abandon: %q, want the question", got)
	}
	if got := olga.run(e, "ro", "Olga", "/risk-admin show"); len(got) != 1 || strings.Contains(got[0], "Only the server") {
		t.Errorf("Olga (the operator): /risk-admin show: %q", got)
	}
	// Without a key the page has no operator: no key makes one.
	e2 := newEnv(t, Config{})
	p := named(t, e2, "Olga")
	if status, _ := p.post("/web/operator", `{"key":""}`); status != http.StatusForbidden {
		t.Errorf("a page without an operator took an empty key: %d, want 403", status)
	}
}
