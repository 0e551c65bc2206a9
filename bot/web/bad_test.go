package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/tokens"
	"github.com/riskbot/riskbot/engine"
)

// TestBadInput sends the API what a careless or hostile client would: each
// request gets its status, and the match is left as it was.
func TestBadInput(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "bad")
	other := startMatch(t, e, "other")
	ctx := context.Background()
	ann := chat.User{ID: userID("Ann"), Name: "Ann"}
	tok, err := e.srv.Token(ctx, id, ann)
	if err != nil {
		t.Fatal(err)
	}
	otherTok, err := e.srv.Token(ctx, other, ann)
	if err != nil {
		t.Fatal(err)
	}
	// The match waits for Ann to place her armies (the computers placed
	// theirs at once): nothing moves while the bad requests come.
	e.bot.Wait()
	l, err := e.db.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	v := l.Game.Version
	// Ending a turn while everyone places armies: against the rules.
	notNow := fmt.Sprintf(`{"version":%d,"command":{"type":"end"}}`, v)
	path := fmt.Sprintf("/api/matches/%d/commands", id)
	huge := `{"version":1,"command":{"type":"end"},"x":"` + strings.Repeat("a", 10<<10) + `"}`
	forged := "rk_" + strings.Repeat("0", 48)
	page := openPage(t, e)
	for _, tc := range []struct {
		name, method, path, token, body string
		want                            int
	}{
		{"no token", "POST", path, "", notNow, http.StatusUnauthorized},
		{"forged token", "POST", path, forged, notNow, http.StatusUnauthorized},
		{"malformed token", "POST", path, "hello", notNow, http.StatusUnauthorized},
		{"token of another match", "POST", path, otherTok, notNow, http.StatusForbidden},
		{"against the rules", "POST", path, tok, notNow, http.StatusForbidden},
		{"not a neighbour", "POST", path, tok, fmt.Sprintf(`{"version":%d,"command":{"type":"attack","from":0,"to":41,"dice":3}}`, v), http.StatusForbidden},
		{"stale version", "POST", path, tok, fmt.Sprintf(`{"version":%d,"command":{"type":"end"}}`, v-1), http.StatusConflict},
		{"wrong type", "POST", path, tok, `{"version":"12","command":{"type":"end"}}`, http.StatusBadRequest},
		{"wrong field type", "POST", path, tok, fmt.Sprintf(`{"version":%d,"command":{"type":"attack","from":"Alaska","to":2}}`, v), http.StatusBadRequest},
		{"unknown field", "POST", path, tok, fmt.Sprintf(`{"version":%d,"command":{"type":"end"},"admin":true}`, v), http.StatusBadRequest},
		{"unknown command field", "POST", path, tok, fmt.Sprintf(`{"version":%d,"command":{"type":"end","armies":3}}`, v), http.StatusBadRequest},
		{"unknown command", "POST", path, tok, fmt.Sprintf(`{"version":%d,"command":{"type":"win"}}`, v), http.StatusBadRequest},
		{"no version", "POST", path, tok, `{"command":{"type":"end"}}`, http.StatusBadRequest},
		{"negative version", "POST", path, tok, `{"version":-1,"command":{"type":"end"}}`, http.StatusBadRequest},
		{"no command", "POST", path, tok, fmt.Sprintf(`{"version":%d}`, v), http.StatusBadRequest},
		{"two values", "POST", path, tok, notNow + notNow, http.StatusBadRequest},
		{"not JSON", "POST", path, tok, "end turn please", http.StatusBadRequest},
		{"empty body", "POST", path, tok, "", http.StatusBadRequest},
		{"undo", "POST", path, tok, fmt.Sprintf(`{"version":%d,"command":{"type":"undo"}}`, v), http.StatusBadRequest},
		{"huge body", "POST", path, tok, huge, http.StatusRequestEntityTooLarge},
		{"unknown match", "POST", "/api/matches/999/commands", tok, notNow, http.StatusNotFound},
		{"unknown match, read", "GET", "/api/matches/999", "", "", http.StatusNotFound},
		{"bad id", "GET", "/api/matches/abc", "", "", http.StatusNotFound},
		{"negative id", "GET", "/api/matches/-1", "", "", http.StatusNotFound},
		{"huge id", "GET", "/api/matches/99999999999999999999999", "", "", http.StatusNotFound},
		{"view with a forged token", "GET", fmt.Sprintf("/api/matches/%d", id), forged, "", http.StatusUnauthorized},
		{"view with another match's token", "GET", fmt.Sprintf("/api/matches/%d", id), otherTok, "", http.StatusForbidden},
		{"log with a forged token", "GET", path, forged, "", http.StatusUnauthorized},
		{"log with another match's token", "GET", path, otherTok, "", http.StatusForbidden},
		{"commands after too many", "GET", fmt.Sprintf("/api/matches/%d/commands?after=%d", id, v+1), "", "", http.StatusBadRequest},
		{"commands after a word", "GET", fmt.Sprintf("/api/matches/%d/commands?after=x", id), "", "", http.StatusBadRequest},
		{"commands after a negative", "GET", fmt.Sprintf("/api/matches/%d/commands?after=-3", id), "", "", http.StatusBadRequest},
		{"map at a future", "GET", fmt.Sprintf("/api/matches/%d/map.png?at=%d", id, v+1), "", "", http.StatusBadRequest},
		{"map of nothing", "GET", "/api/matches/999/map.png", "", "", http.StatusNotFound},
		{"traversal in static", "GET", "/static/..%2fweb.go", "", "", http.StatusNotFound},
		{"traversal in static, encoded dots", "GET", "/static/%2e%2e%2fapi.go", "", "", http.StatusNotFound},
		{"a page as static", "GET", "/static/index.html", "", "", http.StatusNotFound},
		{"an unknown static file", "GET", "/static/web.go", "", "", http.StatusNotFound},
		{"traversal in an image", "GET", "/web/img/..%2f..%2fetc%2fpasswd", "", "", http.StatusNotFound},
		{"wrong method", "PUT", path, tok, notNow, http.StatusMethodNotAllowed},
		{"page command without a name", "POST", "/web/command", "", `{"channel":"bad","as":"","line":"/risk end"}`, http.StatusForbidden},
		{"page command with a bad channel", "POST", "/web/command", "", `{"channel":"../x","as":"Bob","line":"/risk end"}`, http.StatusBadRequest},
		{"page command, unknown field", "POST", "/web/command", "", `{"channel":"bad","as":"Bob","line":"/risk end","admin":1}`, http.StatusBadRequest},
		{"page command, not a command", "POST", "/web/command", "", `{"channel":"bad","as":"Bob","line":"rm -rf /"}`, http.StatusBadRequest},
		{"page name with markup", "POST", "/web/names", "", `{"name":"<script>"}`, http.StatusBadRequest},
		{"page click on nothing", "POST", "/web/click", "", `{"channel":"bad","as":"Cid","message":"1","button":"x"}`, http.StatusNotFound},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest(tc.method, e.ts.URL+tc.path, strings.NewReader(tc.body))
			if tc.token != "" {
				req.Header.Set("Authorization", "Bearer "+tc.token)
			}
			c := http.DefaultClient
			if strings.HasPrefix(tc.path, "/web/") && tc.method == "POST" {
				// As the page sends them: the bad input is in the body.
				c = page.client
				page.dress(req)
			}
			res, err := c.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.want {
				t.Errorf("%s %s: %d %s, want %d", tc.method, tc.path, res.StatusCode, body, tc.want)
			}
			if strings.Contains(string(body), "package web") || strings.Contains(string(body), "root:") {
				t.Errorf("%s %s served a file it must not: %.100s", tc.method, tc.path, body)
			}
		})
	}
	e.bot.Wait()
	after, err := e.db.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Game.Version != v {
		t.Errorf("the match went from %d commands to %d on bad input", v, after.Game.Version)
	}
}

// TestNotYourTurn: a seat's command out of its turn is refused with the
// engine's reason, and changes nothing.
func TestNotYourTurn(t *testing.T) {
	e := newEnv(t, Config{})
	for _, l := range []string{"Ann: /risk new", "Bob: /risk join", "Ann: /risk start", "Ann: /risk place", "Bob: /risk place"} {
		who, line, _ := strings.Cut(l, ": ")
		e.do(t, "turns", who, line)
	}
	ctx := context.Background()
	l, err := e.db.Active(ctx, Prefix+"turns")
	if err != nil {
		t.Fatal(err)
	}
	s := l.Game.State
	waiting := s.Seats[1-s.Current]
	tok, err := e.srv.Token(ctx, l.ID, chat.User{ID: waiting.ID, Name: waiting.Name})
	if err != nil {
		t.Fatal(err)
	}
	c := &client{t: t, base: e.ts.URL, token: tok}
	var out struct {
		Error string `json:"error"`
	}
	st := c.post(fmt.Sprintf("/api/matches/%d/commands", l.ID), fmt.Sprintf(`{"version":%d,"command":{"type":"end"}}`, l.Game.Version), &out)
	if st != http.StatusForbidden || !strings.Contains(out.Error, "turn") {
		t.Errorf("%s ending %s's turn: %d %q, want 403 and the reason", waiting.Name, s.Seats[s.Current].Name, st, out.Error)
	}
	t.Logf("%d %s", st, out.Error)
	after, _ := e.db.Load(ctx, l.ID)
	if after.Version != l.Version {
		t.Errorf("the refused command changed the match (version %d, then %d)", l.Version, after.Version)
	}
	// A match in its lobby takes no command.
	e.do(t, "lobby", "Ann", "/risk new")
	lobby, err := e.db.Active(ctx, Prefix+"lobby")
	if err != nil {
		t.Fatal(err)
	}
	if c.token, err = e.srv.Token(ctx, lobby.ID, chat.User{ID: userID("Ann"), Name: "Ann"}); err != nil {
		t.Fatal(err)
	}
	if st := c.post(fmt.Sprintf("/api/matches/%d/commands", lobby.ID), `{"version":0,"command":{"type":"end"}}`, &out); st != http.StatusServiceUnavailable {
		t.Errorf("a command for a lobby: %d %s, want 503", st, out.Error)
	}
}

// TestRateLimit: a client flooding the API is told to slow down, and
// another client is served meanwhile.
func TestRateLimit(t *testing.T) {
	now := time.Unix(1000, 0)
	var mu sync.Mutex
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	e := newEnv(t, Config{Rate: 2, Burst: 5, Now: clock})
	c := &client{t: t, base: e.ts.URL}
	codes := map[int]int{}
	for range 20 {
		codes[c.get("/api/matches/1", nil)]++
	}
	if codes[http.StatusTooManyRequests] != 15 || codes[http.StatusNotFound] != 5 {
		t.Errorf("20 requests at once, a burst of 5: got %v, want 5 answered and 15 refused", codes)
	}
	if !e.srv.guard.limit.allow("another client") {
		t.Error("another client was refused")
	}
	mu.Lock()
	now = now.Add(time.Second)
	mu.Unlock()
	if st := c.get("/api/matches/1", nil); st != http.StatusNotFound {
		t.Errorf("a second later: %d, want the request answered", st)
	}
}

// TestTokensHashed: a token is shown once and stored only as its hash.
func TestTokensHashed(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "tok")
	tok, err := e.srv.Token(context.Background(), id, chat.User{ID: userID("Ann"), Name: "Ann"})
	if err != nil {
		t.Fatal(err)
	}
	all, err := e.db.Settings(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, st := range all {
		if strings.Contains(st.ID, tok) || strings.Contains(string(st.Value), tok) {
			t.Errorf("the token is stored in clear: %s %s", st.ID, st.Value)
		}
		if st.Scope == tokens.Scope && st.ID == tokens.Hash(tok) {
			found = true
		}
	}
	if !found {
		t.Error("the token's hash is not stored")
	}
	c := &client{t: t, base: e.ts.URL, token: tok}
	var m apiMatch
	if st := c.get(fmt.Sprintf("/api/matches/%d", id), &m); st != http.StatusOK || m.Viewer < 0 {
		t.Errorf("Ann's token: %d, viewer %d", st, m.Viewer)
	}
}

// TestPublicViewHides: the public view and the spectators' stream show no
// hand, no item, no generator; private answers never reach spectators.
func TestPublicViewHides(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "hide")
	e.do(t, "hide", "Ann", "/risk place")
	c := &client{t: t, base: e.ts.URL}
	var m apiMatch
	c.get(fmt.Sprintf("/api/matches/%d", id), &m)
	s, err := engine.DecodeState(m.State)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Hidden || s.Viewer != -1 || s.RNG.Seed != 0 || s.RNG.N != 0 || s.Deck.Len() != 0 {
		t.Errorf("the public view shows hidden things: hidden %v viewer %d rng %+v deck %d", s.Hidden, s.Viewer, s.RNG, s.Deck.Len())
	}
	for i, seat := range s.Seats {
		if seat.Hand.Len() != 0 {
			t.Errorf("the public view shows seat %d's hand", i)
		}
	}
	// A private answer in the channel's feed, and what a spectator sees.
	e.srv.feeds.put(Prefix+"hide", "", userID("Ann"), chat.Message{Private: true, Text: "secret of Ann"})
	sb := &sub{ch: make(chan []byte, 1)}
	for _, b := range e.srv.feeds.subscribe(Prefix+"hide", sb) {
		if strings.Contains(string(b), "secret of Ann") {
			t.Error("a spectator sees a private answer")
		}
	}
	e.srv.feeds.unsubscribe(Prefix+"hide", sb)
}

// TestFormatEscapes: what people type comes back as text, never as markup.
func TestFormatEscapes(t *testing.T) {
	f := formatter{name: func(id string) string { return "<b>Eve</b>" }, now: time.Unix(0, 0)}
	got := f.html(`**bold** <script>alert(1)</script> {{mention:web:eve}} ` + "`x<y`")
	for _, bad := range []string{"<script>", "<b>Eve"} {
		if strings.Contains(got, bad) {
			t.Errorf("html(...) = %s: contains %s", got, bad)
		}
	}
	if !strings.Contains(got, "<b>bold</b>") || !strings.Contains(got, `<span class="mention">@&lt;b&gt;Eve&lt;/b&gt;</span>`) || !strings.Contains(got, "<code>x&lt;y</code>") {
		t.Errorf("html(...) = %s", got)
	}
}

// TestFormatItalics: italics in either of Discord's ways (the bot writes
// "Hero *locked*" and "*(Posted late…)*"), and stars that are not markup
// left alone.
func TestFormatItalics(t *testing.T) {
	f := formatter{name: func(id string) string { return id }, now: time.Unix(0, 0)}
	for _, c := range []struct{ in, want string }{
		{"Hero *locked*: it appears", "Hero <i>locked</i>: it appears"},
		{"*(Posted late: the bot was interrupted.)*\nTurn 3", "<i>(Posted late: the bot was interrupted.)</i><br>Turn 3"},
		{"an _old_ way", "an <i>old</i> way"},
		{"**bold** and *it*", "<b>bold</b> and <i>it</i>"},
		{"2 * 3 * 4", "2 * 3 * 4"},
	} {
		if got := f.html(c.in); got != c.want {
			t.Errorf("html(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestFirstLoadSize: the page, its scripts, its style and its words (the
// longest language's) stay small.
func TestFirstLoadSize(t *testing.T) {
	total := 0
	for _, name := range []string{"index.html", "words.js", "map.js", "app.js", "style.css"} {
		b, err := fs.ReadFile(files, name)
		if err != nil {
			t.Fatal(err)
		}
		total += len(b)
	}
	words, err := loadWords()
	if err != nil {
		t.Fatal(err)
	}
	most := 0
	for tag, w := range words {
		t.Logf("the words in %s: %d bytes", tag, len(w.body))
		most = max(most, len(w.body))
	}
	total += most
	t.Logf("first load: %d bytes (HTML+JS+CSS+words)", total)
	if total > 100<<10 {
		t.Errorf("the page's first load is %d bytes, more than 100 KB", total)
	}
	// And nothing in them reaches out of the server.
	for _, name := range []string{"index.html", "words.js", "map.js", "app.js", "style.css", "watch.html", "watch.js"} {
		b, _ := fs.ReadFile(files, name)
		for _, ext := range []string{"http://", "https://", "//cdn"} {
			if strings.Contains(string(b), ext) {
				t.Errorf("%s names an address elsewhere (%s)", name, ext)
			}
		}
	}
}

// FuzzDecodePlay: the API's decoding of a POSTed command never panics, and
// what it accepts encodes back to a command that decodes the same.
func FuzzDecodePlay(f *testing.F) {
	for _, s := range []string{
		`{"version":3,"command":{"type":"attack","from":1,"to":2,"dice":3}}`,
		`{"version":0,"command":{"type":"end"}}`,
		`{"version":9,"command":{"type":"trade","cards":[1,2,3]}}`,
		`{"version":9,"command":{"type":"move","from":1,"to":2,"quarters":2,"hero":true}}`,
		`{"version":"1"}`, `[]`, `null`, `{"version":1,"command":null}`, `{"version":1e99,"command":{}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		v, c, err := decodePlay(b)
		if err != nil {
			return
		}
		if v < 0 || c == nil {
			t.Fatalf("decodePlay(%q) = %d, %v", b, v, c)
		}
		raw, err := engine.MarshalCommand(c)
		if err != nil {
			t.Fatalf("accepted %q, cannot encode it: %v", b, err)
		}
		again, err := engine.UnmarshalCommand(raw)
		if err != nil {
			t.Fatalf("accepted %q, its encoding %s does not decode: %v", b, raw, err)
		}
		a1, _ := json.Marshal(c)
		a2, _ := json.Marshal(again)
		if string(a1) != string(a2) {
			t.Fatalf("%q decodes to %s, then %s", b, a1, a2)
		}
	})
}
