package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/storage/sqlite"
)

// TestLookalike: names that read alike have one lookalike; others do not.
func TestLookalike(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"Alice", "Аlice", true}, // a Cyrillic А
		{"Alice", "ALICE", true},
		{"Alice", "Ａｌｉｃｅ", true}, // full width
		{"Alice", "AIice", true}, // a capital I for the l
		{"here", "һere", true},   // a Cyrillic һ
		{"everyone", "EVERYONE", true},
		{"Alice", "Alicia", false},
		{"Ann", "Anne", false},
		{"Bob", "Rob", false},
	} {
		la, lb := looksOf(tc.a, strings.ToLower(tc.a)), looksOf(tc.b, strings.ToLower(tc.b))
		got := false
		for _, x := range la {
			got = got || slices.Contains(lb, x)
		}
		if got != tc.same {
			t.Errorf("%q and %q look alike: %v, want %v (%q, %q)", tc.a, tc.b, got, tc.same, la, lb)
		}
	}
}

// TestNameLimits: a name that looks like a mention or like another's is
// refused, as are names past a browser's bound and past the page's; a
// browser forgets a name with no match under way to make room. Before, one
// browser took 300 names of 300, "everyone" and "Аlice" beside "Alice".
func TestNameLimits(t *testing.T) {
	e := newEnv(t, Config{Limits: Limits{NamesPerBrowser: 3, Names: 5}})
	p := openPage(t, e)
	add := func(p *pageClient, name string, want int, say string) {
		t.Helper()
		status, body := p.post("/web/names", fmt.Sprintf(`{"name":%q}`, name))
		if status != want || !strings.Contains(body, say) {
			t.Errorf("naming %q: %d %s, want %d saying %q", name, status, body, want, say)
		}
	}
	add(p, "Alice", http.StatusOK, "Alice")
	for _, name := range []string{"everyone", "Here", "еveryone", "risk", "@here"} {
		add(p, name, http.StatusBadRequest, "")
	}
	add(p, "Аlice", http.StatusConflict, "looks too much like")
	q := openPage(t, e)
	add(q, "ALICE", http.StatusConflict, "played from another browser")
	add(q, "AIice", http.StatusConflict, "looks too much like")
	add(p, "Bob", http.StatusOK, "Bob")
	add(p, "Cid", http.StatusOK, "Cid")
	add(p, "Dee", http.StatusTooManyRequests, "the most one browser may")
	// Playing a name claims it too: the same bound.
	if status, body := p.post("/web/command", `{"channel":"lim","as":"Dee","line":"/risk help"}`); status != http.StatusForbidden || !strings.Contains(body, "the most one browser may") {
		t.Errorf("playing a fourth name: %d %s, want 403 naming the bound", status, body)
	}
	if status, body := p.post("/web/forget", `{"name":"Cid"}`); status != http.StatusOK || strings.Contains(body, "Cid") {
		t.Errorf("forgetting Cid: %d %s", status, body)
	}
	add(p, "Dee", http.StatusOK, "Dee")
	add(q, "Cid", http.StatusOK, "Cid") // free again
	add(q, "Eve", http.StatusOK, "Eve")
	add(q, "Fay", http.StatusTooManyRequests, "the most it keeps")

	// A name with a seat in a match under way stays its browser's.
	e.do(t, "lim", "Alice", "/risk new")
	e.do(t, "lim", "Alice", "/risk addbot level:easy")
	e.do(t, "lim", "Alice", "/risk start")
	if status, body := p.post("/web/forget", `{"name":"Alice"}`); status != http.StatusConflict || !strings.Contains(body, "under way") {
		t.Errorf("forgetting Alice, seated: %d %s, want 409", status, body)
	}
}

// TestNamesAfterRestartKeepLooks: the page's names are read back after a
// restart: a lookalike of a name of before is still refused.
func TestNamesAfterRestartKeepLooks(t *testing.T) {
	e := newEnv(t, Config{})
	named(t, e, "AIan") // a capital I
	db2, err := sqlite.Open(context.Background(), e.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	e.srv = New(Config{Store: db2})
	e.srv.SetBot(e.bot)
	e.ts.Config.Handler = e.srv.Handler()
	p := openPage(t, e)
	if status, body := p.post("/web/names", `{"name":"Alan"}`); status != http.StatusConflict || !strings.Contains(body, "looks too much like") {
		t.Errorf("Alan beside AIan after a restart: %d %s, want 409", status, body)
	}
}

// TestMatchLimits: a browser opens at most MatchesPerBrowser matches,
// whichever of its names hosts them, and the page at most Matches; the
// refusal is private, as the bot's are; the operator is bound by the
// page's bound only. Before, 300 of 300 /risk new were opened.
func TestMatchLimits(t *testing.T) {
	const key = "operator-key-of-this-test-0123456789"
	e := newEnv(t, Config{OperatorKey: key, Limits: Limits{MatchesPerBrowser: 2, Matches: 4}})
	p := named(t, e, "Ann")
	if status, body := p.post("/web/names", `{"name":"Bea"}`); status != http.StatusOK {
		t.Fatal(status, body)
	}
	open := func(p *pageClient, as, channel string, want bool) {
		t.Helper()
		got := p.run(e, channel, as, "/risk new")
		if opened := len(got) == 1 && strings.Contains(got[0], "Your match is open"); opened != want {
			t.Errorf("%s: /risk new in %s: %q, want opened %v", as, channel, got, want)
		}
	}
	open(p, "Ann", "m1", true)
	open(p, "Bea", "m2", true)
	open(p, "Ann", "m3", false)
	open(p, "Bea", "m3", false)
	if got := e.privateTo("m3", "Bea"); len(got) != 1 || !strings.Contains(got[0], "the most one browser may") {
		t.Errorf("the refusal: %q", got)
	}
	o := named(t, e, "Olga")
	if status, body := o.post("/web/operator", `{"key":"`+key+`"}`); status != http.StatusOK {
		t.Fatal(status, body)
	}
	open(o, "Olga", "m3", true)
	open(o, "Olga", "m4", true)
	open(o, "Olga", "m5", false)
	if got := e.privateTo("m5", "Olga"); len(got) != 1 || !strings.Contains(got[0], "The page has 4 open matches") {
		t.Errorf("the page's bound: %q", got)
	}
	// One ends: there is room again.
	p.run(e, "m1", "Ann", "/risk host abandon")
	q := e.privateTo("m1", "Ann")
	if len(q) == 0 {
		t.Fatal("no question")
	}
	var button string
	e.srv.feeds.mu.Lock()
	for _, post := range e.srv.feeds.channels[Prefix+"m1"].posts {
		for _, row := range post.v.Buttons {
			for _, b := range row {
				if b.Label == "End the match" {
					button = fmt.Sprintf(`{"channel":"m1","as":"Ann","message":%q,"button":%q}`, post.v.ID, b.ID)
				}
			}
		}
	}
	e.srv.feeds.mu.Unlock()
	if status, body := p.post("/web/click", button); status != http.StatusOK {
		t.Fatal(status, body)
	}
	open(p, "Ann", "m6", true)
}

// TestNameMoves: a player takes their name to another browser with their
// seat's token or a one-time code from the browser that plays it (the
// operator may give one for any name); the first browser loses it; a code
// works once, a revoked token never; without either the name stays where
// it is. Before, a player whose browser lost its cookie lost the seat.
func TestNameMoves(t *testing.T) {
	const key = "operator-key-of-this-test-0123456789"
	e := newEnv(t, Config{OperatorKey: key})
	old := named(t, e, "Ann")
	startMatch(t, e, "mv", "classic")
	tok := tokenIn(t, e.ask(t, "mv", "Ann", "/risk me token"))
	fresh := openPage(t, e)
	claim := func(p *pageClient, proof string, want int, say string) {
		t.Helper()
		status, body := p.post("/web/names", fmt.Sprintf(`{"name":"Ann","proof":%q}`, proof))
		if status != want || !strings.Contains(body, say) {
			t.Errorf("claiming Ann with %q: %d %s, want %d saying %q", proof, status, body, want, say)
		}
	}
	claim(fresh, "", http.StatusConflict, "played from another browser")
	claim(fresh, "rk_"+strings.Repeat("0", 48), http.StatusForbidden, "not valid")
	claim(fresh, "ABCD-EFGH-JKMN", http.StatusForbidden, "not valid")
	claim(fresh, tok, http.StatusOK, `"Ann"`)
	if status, _ := old.post("/web/command", `{"channel":"mv","as":"Ann","line":"/risk show status"}`); status != http.StatusForbidden {
		t.Errorf("the first browser after the move: %d, want 403", status)
	}
	// Back with a code from the browser that plays Ann now.
	var code struct {
		Code string `json:"code"`
	}
	status, body := fresh.post("/web/code", `{"as":"Ann"}`)
	if status != http.StatusOK || json.Unmarshal([]byte(body), &code) != nil || len(code.Code) != 14 {
		t.Fatalf("a code: %d %s", status, body)
	}
	if status, _ := old.post("/web/code", `{"as":"Ann"}`); status != http.StatusForbidden {
		t.Errorf("a code asked by a browser that does not play Ann: %d, want 403", status)
	}
	claim(old, strings.ToLower(code.Code), http.StatusOK, `"Ann"`)
	claim(fresh, code.Code, http.StatusForbidden, "not valid") // used up
	// The operator gives a code for a player who lost their browser.
	o := named(t, e, "Olga")
	if status, body := o.post("/web/operator", `{"key":"`+key+`"}`); status != http.StatusOK {
		t.Fatal(status, body)
	}
	status, body = o.post("/web/code", `{"as":"Ann"}`)
	if status != http.StatusOK || json.Unmarshal([]byte(body), &code) != nil {
		t.Fatalf("the operator's code: %d %s", status, body)
	}
	claim(fresh, code.Code, http.StatusOK, `"Ann"`)
	// A revoked token moves nobody.
	e.ask(t, "mv", "Ann", "/risk me token revoke:yes")
	claim(old, tok, http.StatusForbidden, "revoked")
	// An expired code neither.
	status, body = fresh.post("/web/code", `{"as":"Ann"}`)
	if status != http.StatusOK || json.Unmarshal([]byte(body), &code) != nil {
		t.Fatal(status, body)
	}
	e.srv.browsers.now = func() time.Time { return time.Now().Add(2 * time.Hour) }
	claim(old, code.Code, http.StatusForbidden, "expired")
}

// TestStaleNameIsFree: a name unused for NameDays with no match under way
// may be taken by another browser; one with a match under way may not.
func TestStaleNameIsFree(t *testing.T) {
	e := newEnv(t, Config{})
	named(t, e, "Ann")
	named(t, e, "Bob")
	startMatch(t, e, "st", "classic") // Ann plays, Bob does not
	later := time.Now().Add((DefaultNameDays + 1) * 24 * time.Hour)
	e.srv.browsers.now = func() time.Time { return later }
	p := openPage(t, e)
	if status, body := p.post("/web/names", `{"name":"Bob"}`); status != http.StatusOK {
		t.Errorf("Bob, unused for %d days: %d %s, want 200", DefaultNameDays+1, status, body)
	}
	if status, body := p.post("/web/names", `{"name":"Ann"}`); status != http.StatusConflict {
		t.Errorf("Ann, seated in a match under way: %d %s, want 409", status, body)
	}
}
