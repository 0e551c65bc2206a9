package web

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// TestForgedPageRequests: another site's page (another port of the same
// host, or another host) sends the requests a browser lets it send, with
// the victim's cookie: none plays, opens a lobby or changes the server's
// limits. The page's own request, built the same way, does.
func TestForgedPageRequests(t *testing.T) {
	e := newEnv(t, Config{})
	victim := openPage(t, e)
	if status, body := victim.post("/web/names", `{"name":"Ann"}`); status != http.StatusOK {
		t.Fatalf("Ann's browser names her: %d %s", status, body)
	}
	u, _ := url.Parse(e.ts.URL)
	otherPort := "http://" + u.Hostname() + ":1" // same site for the browser
	admin := `{"channel":"x","as":"Ann","line":"/risk admin limits per-server:1"}`
	open := `{"channel":"y","as":"Ann","line":"/risk new"}`
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	_ = mw.WriteField("channel", "x")
	mw.Close()
	for _, tc := range []struct {
		name, contentType, origin, site, token, body string
		cookie                                       bool
	}{
		{"JSON sent as text/plain", "text/plain", "http://evil.example", "cross-site", "", admin, true},
		{"text/plain from the page's origin, no token", "text/plain", e.ts.URL, "same-origin", "", admin, true},
		{"form-encoded", "application/x-www-form-urlencoded", otherPort, "same-site", "", "channel=x&as=Ann&line=/risk+end", true},
		{"multipart", mw.FormDataContentType(), otherPort, "same-site", "", form.String(), true},
		{"no content type", "", otherPort, "same-site", "", admin, true},
		{"JSON from another port of the host", "application/json", otherPort, "same-site", "", admin, true},
		{"JSON from another site", "application/json", "http://evil.example", "cross-site", "", open, true},
		{"JSON from another site, no fetch metadata", "application/json", "http://evil.example", "", "", open, true},
		{"null origin (a sandboxed frame)", "application/json", "null", "", "", open, true},
		{"no origin nor fetch metadata", "application/json", "", "", "", admin, true},
		{"same-origin but no token", "application/json", e.ts.URL, "same-origin", "", admin, true},
		{"same-origin, a forged token", "application/json", e.ts.URL, "same-origin", strings.Repeat("0", 32), admin, true},
		{"same-origin, a fresh browser's token with the victim's cookie", "application/json", e.ts.URL, "same-origin", openPage(t, e).token, admin, true},
		{"same-origin, the token without the cookie", "application/json", e.ts.URL, "same-origin", victim.token, open, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, path := range []string{"/web/command", "/web/click", "/web/names", "/web/token", "/web/forget", "/web/code", "/web/operator"} {
				req, _ := http.NewRequest(http.MethodPost, e.ts.URL+path, strings.NewReader(tc.body))
				for k, v := range map[string]string{"Content-Type": tc.contentType, "Origin": tc.origin, "Sec-Fetch-Site": tc.site, tokenHeader: tc.token} {
					if v != "" {
						req.Header.Set(k, v)
					}
				}
				c := http.DefaultClient
				if tc.cookie {
					c = victim.client
				}
				res, err := c.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				b, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusForbidden || !strings.Contains(string(b), "error") {
					t.Errorf("%s: %d %s, want 403 with a reason", path, res.StatusCode, b)
				}
			}
		})
	}
	e.bot.Wait()
	if _, err := e.db.Active(context.Background(), Prefix+"y"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("a forged request opened a lobby: %v", err)
	}
	// Had a forged request set per-server:1, the second lobby would be
	// refused.
	for _, ch := range []string{"one", "two"} {
		if status, body := victim.post("/web/command", fmt.Sprintf(`{"channel":%q,"as":"Ann","line":"/risk new"}`, ch)); status != http.StatusOK {
			t.Fatalf("the page's own /risk new in %s: %d %s", ch, status, body)
		}
	}
	e.bot.Wait()
	for _, ch := range []string{"one", "two"} {
		if _, err := e.db.Active(context.Background(), Prefix+ch); err != nil {
			t.Errorf("the page's own /risk new in %s opened no lobby (did a forged request change the limits?): %v", ch, err)
		}
	}
}

// TestHosts: a request for a name the server does not serve (a rebound
// DNS name) is refused before it reads anything; loopback names,
// addresses and the names given are served.
func TestHosts(t *testing.T) {
	e := newEnv(t, Config{Hosts: []string{"risk.example.org", "Board.Example.NET:8443", "127.0.0.1"}})
	id := startMatch(t, e, "hosts")
	for _, tc := range []struct {
		host string
		want int
	}{
		{"evil.example:8080", http.StatusMisdirectedRequest},
		{"evil.example", http.StatusMisdirectedRequest},
		{"127.0.0.1.evil.example", http.StatusMisdirectedRequest},
		{"localhost.evil.example:80", http.StatusMisdirectedRequest},
		{"risk.example.org.evil.example", http.StatusMisdirectedRequest},
		{"localhost:8080", http.StatusOK},
		{"LOCALHOST", http.StatusOK},
		{"127.0.0.1:8080", http.StatusOK},
		{"[::1]:8080", http.StatusOK},
		{"192.168.1.20:8080", http.StatusOK},
		{"risk.example.org", http.StatusOK},
		{"RISK.example.org.:443", http.StatusOK},
		{"board.example.net", http.StatusOK},
	} {
		for _, path := range []string{fmt.Sprintf("/api/matches/%d", id), "/", "/web/names"} {
			req, _ := http.NewRequest(http.MethodGet, e.ts.URL+path, nil)
			req.Host = tc.host
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.want {
				t.Errorf("Host %s, GET %s: %d, want %d", tc.host, path, res.StatusCode, tc.want)
			}
			if tc.want != http.StatusOK && bytes.Contains(b, []byte(`"seats"`)) {
				t.Errorf("Host %s, GET %s: the match was served", tc.host, path)
			}
		}
	}
	// Behind a proxy that gives the server its own Host, the page's
	// origin is the name the proxy serves.
	page := openPage(t, e)
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/web/names", strings.NewReader(`{"name":"Ann"}`))
	page.dress(req)
	req.Header.Set("Origin", "https://risk.example.org")
	res, err := page.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("the page behind a proxy at risk.example.org: %d", res.StatusCode)
	}
	// Another port of a name given is another origin.
	for _, origin := range []string{"https://risk.example.org:9999", "http://board.example.net", "https://board.example.net:8444", "http://127.0.0.1:9"} {
		req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/web/names", strings.NewReader(`{"name":"Bob"}`))
		page.dress(req)
		req.Header.Set("Origin", origin)
		res, err := page.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusForbidden {
			t.Errorf("a page at %s: %d, want 403", origin, res.StatusCode)
		}
	}
}

// TestOriginScheme (issue 42, item 9): an origin is a scheme, a host and a
// port. The page's own host under another scheme, or a proxy's name over
// plain HTTP (a page anyone on the network can forge), is another origin:
// its requests are refused. A name given with its scheme is served under
// that scheme only; one without is the TLS proxy's (https).
func TestOriginScheme(t *testing.T) {
	e := newEnv(t, Config{Hosts: []string{"risk.example.org", "http://box.lan:8080", "HTTPS://Board.Example.NET:8443/"}})
	u, _ := url.Parse(e.ts.URL)
	for i, tc := range []struct {
		origin string
		want   int
	}{
		{e.ts.URL, http.StatusOK},
		{"https://" + u.Host, http.StatusForbidden},
		{"https://risk.example.org", http.StatusOK},
		{"https://risk.example.org:443", http.StatusOK},
		{"HTTPS://RISK.example.org", http.StatusOK},
		{"http://risk.example.org", http.StatusForbidden},
		{"http://risk.example.org:443", http.StatusForbidden},
		{"http://box.lan:8080", http.StatusOK},
		{"https://box.lan:8080", http.StatusForbidden},
		{"https://board.example.net:8443", http.StatusOK},
		{"http://board.example.net:8443", http.StatusForbidden},
		{"ws://risk.example.org", http.StatusForbidden},
	} {
		t.Run(tc.origin, func(t *testing.T) {
			page := openPage(t, e)
			body := fmt.Sprintf(`{"name":"Player%d"}`, i)
			req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/web/names", strings.NewReader(body))
			page.dress(req)
			req.Header.Set("Origin", tc.origin)
			res, err := page.client.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != tc.want {
				t.Errorf("a page at %s: %d %s, want %d", tc.origin, res.StatusCode, b, tc.want)
			}
		})
	}
	// The names given with a scheme are served (Host) without it.
	for _, host := range []string{"box.lan:8080", "board.example.net"} {
		req, _ := http.NewRequest(http.MethodGet, e.ts.URL+"/", nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET / as %s: %d, want 200", host, res.StatusCode)
		}
	}
}

// TestNamesBoundAcrossRestarts: a name played from a browser stays that
// browser's after the server restarts: a browser with a fresh cookie (or
// none) cannot take over the seat, and the first gets its names back.
func TestNamesBoundAcrossRestarts(t *testing.T) {
	e := newEnv(t, Config{})
	ann := openPage(t, e)
	if status, body := ann.post("/web/names", `{"name":"Ann"}`); status != http.StatusOK {
		t.Fatalf("naming Ann: %d %s", status, body)
	}
	// A restart: a new server on the same database, its browsers
	// forgotten.
	ctx := context.Background()
	db2, err := sqlite.Open(ctx, e.path)
	if err != nil {
		t.Fatal(err)
	}
	defer db2.Close()
	e.srv = New(Config{Store: db2})
	e.srv.SetBot(e.bot)
	e.ts.Config.Handler = e.srv.Handler()

	// A ping before Ann's browser is back names her as she typed it.
	if _, err := e.srv.Post(ctx, Prefix+"den", chat.Message{Text: chat.MentionOf(userID("Ann"), "Ann") + ", it is your turn " + chat.Timestamp(time.Now())}); err != nil {
		t.Fatal(err)
	}
	e.srv.feeds.mu.Lock()
	ping := e.srv.feeds.channels[Prefix+"den"].posts[0].v.HTML
	e.srv.feeds.mu.Unlock()
	if !strings.Contains(ping, "@Ann<") {
		t.Errorf("a ping after a restart: %s, want @Ann", ping)
	}

	mallory := openPage(t, e)
	if status, body := mallory.post("/web/names", `{"name":"ann"}`); status != http.StatusConflict {
		t.Errorf("a fresh browser naming Ann after a restart: %d %s, want 409", status, body)
	}
	if status, _ := mallory.post("/web/command", `{"channel":"den","as":"Ann","line":"/risk new"}`); status != http.StatusForbidden {
		t.Errorf("a fresh browser playing as Ann after a restart: %d, want 403", status)
	}
	// Ann's browser comes back with its cookie: its token is stale (the
	// server's key is new), its names are still its own.
	if status, body := ann.post("/web/command", `{"channel":"den","as":"Ann","line":"/risk new"}`); status != http.StatusForbidden || !strings.Contains(body, "token") {
		t.Errorf("a token of the earlier run: %d %s, want 403 naming the token", status, body)
	}
	var names struct {
		Names []string `json:"names"`
		Token string   `json:"token"`
	}
	getJSON(t, ann.client, e.ts.URL+"/web/names", &names)
	if len(names.Names) != 1 || names.Names[0] != "Ann" {
		t.Errorf("Ann's browser after the restart plays %v, want [Ann]", names.Names)
	}
	ann.token = names.Token
	if status, body := ann.post("/web/command", `{"channel":"den","as":"Ann","line":"/risk new"}`); status != http.StatusOK {
		t.Errorf("Ann's browser after the restart: %d %s", status, body)
	}
}

// openStream opens an event stream and waits for its first events; it
// returns the status and, for a stream, a function that closes it.
func openStream(t testing.TB, c *http.Client, url string) (int, func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	res, err := c.Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		cancel()
		return res.StatusCode, nil
	}
	rd := bufio.NewReader(res.Body)
	for {
		line, err := rd.ReadString('\n')
		if err != nil {
			t.Fatalf("%s: %v", url, err)
		}
		if strings.HasPrefix(line, ": ready") {
			break
		}
	}
	return http.StatusOK, func() { cancel(); res.Body.Close() }
}

// TestStreamsBounded: one client gets a bounded number of event streams
// (429 beyond), all clients together too (503 beyond); the channels they
// named, the watchers of the matches they followed and their goroutines
// are gone once they close, and a match no one follows is not looked at.
func TestStreamsBounded(t *testing.T) {
	e := newEnv(t, Config{Streams: 30, ClientStreams: 12})
	id := startMatch(t, e, "watched")
	c := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 0, MaxIdleConnsPerHost: 100}}
	defer c.CloseIdleConnections()
	settle := func() {
		deadline := time.Now().Add(5 * time.Second)
		for time.Now().Before(deadline) {
			e.srv.feeds.mu.Lock()
			n := len(e.srv.feeds.channels)
			e.srv.feeds.mu.Unlock()
			e.srv.watchers.mu.Lock()
			w := e.srv.watchers.looking
			e.srv.watchers.mu.Unlock()
			if n <= 1 && w == 0 {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	settle()
	runtime.GC()
	goroutines := runtime.NumGoroutine()
	var closers []func()
	for i := range 12 {
		u := fmt.Sprintf("%s/web/events?channel=flood%d", e.ts.URL, i)
		if i%2 == 1 {
			u = fmt.Sprintf("%s/watch/%d/events", e.ts.URL, id)
		}
		status, close := openStream(t, c, u)
		if status != http.StatusOK {
			t.Fatalf("stream %d: %d", i+1, status)
		}
		closers = append(closers, close)
	}
	e.srv.watchers.mu.Lock()
	if n := e.srv.watchers.looking; n != 1 {
		t.Errorf("6 spectators of one match: %d watchers, want 1", n)
	}
	e.srv.watchers.mu.Unlock()
	if status, _ := openStream(t, c, e.ts.URL+"/web/events?channel=one-more"); status != http.StatusTooManyRequests {
		t.Errorf("the 13th stream of a client: %d, want 429", status)
	}
	if status, _ := openStream(t, c, fmt.Sprintf("%s/watch/%d/events", e.ts.URL, id)); status != http.StatusTooManyRequests {
		t.Errorf("the 13th stream of a client, watching: %d, want 429", status)
	}
	// The total: other clients fill the server (the bound per client is
	// lifted for them by taking the slots directly).
	for range 30 - 12 {
		if status, _ := e.srv.guard.streams.open("elsewhere-" + randomHex(4)); status != 0 {
			t.Fatalf("a stream of another client refused early: %d", status)
		}
	}
	if status, _ := e.srv.guard.streams.open("someone-new"); status != http.StatusServiceUnavailable {
		t.Errorf("a stream beyond the total: %d, want 503", status)
	}
	for _, close := range closers {
		close()
	}
	settle()
	e.srv.feeds.mu.Lock()
	for ch := range e.srv.feeds.channels {
		if strings.Contains(ch, "flood") {
			t.Errorf("channel %s, followed and never written to, is kept after its streams closed", ch)
		}
	}
	e.srv.feeds.mu.Unlock()
	e.srv.watchers.mu.Lock()
	if n := e.srv.watchers.looking; n != 0 {
		t.Errorf("%d watchers left after the spectators went", n)
	}
	e.srv.watchers.mu.Unlock()
	c.CloseIdleConnections()
	deadline := time.Now().Add(5 * time.Second)
	for runtime.NumGoroutine() > goroutines+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > goroutines+2 {
		t.Errorf("%d goroutines after the streams closed, %d before", n, goroutines)
	}
}

// TestBearerCaseInsensitive: the scheme of Authorization is not case
// sensitive (RFC 9110, 11.1).
func TestBearerCaseInsensitive(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "bearer")
	tok, err := e.srv.Token(context.Background(), id, userIn(Prefix+"bearer", "Ann"))
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{"Bearer " + tok, "bearer " + tok, "BEARER " + tok, "Bearer  " + tok} {
		req, _ := http.NewRequest(http.MethodGet, fmt.Sprintf("%s/api/matches/%d", e.ts.URL, id), nil)
		req.Header.Set("Authorization", h)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || bytes.Contains(b, []byte(`"viewer":-1`)) {
			t.Errorf("Authorization: %.12s…: %d %.120s, want 200 with the seat's view", h, res.StatusCode, b)
		}
	}
}

// TestStreamsMemory: a thousand event streams (the default bound), half of
// them spectators of one match and half following channels of their own
// naming, take their memory with them when they close.
func TestStreamsMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("opens a thousand streams")
	}
	const n = DefaultStreams
	e := newEnv(t, Config{ClientStreams: n + 1})
	id := startMatch(t, e, "watched")
	c := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	heap := func() uint64 {
		// Twice: what sync.Pools keep goes with the second.
		runtime.GC()
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return m.HeapAlloc
	}
	before, goroutines := heap(), runtime.NumGoroutine()
	var closers []func()
	for i := range n {
		u := fmt.Sprintf("%s/web/events?channel=c%d", e.ts.URL, i)
		if i%2 == 1 {
			u = fmt.Sprintf("%s/watch/%d/events", e.ts.URL, id)
		}
		status, close := openStream(t, c, u)
		if status != http.StatusOK {
			t.Fatalf("stream %d: %d", i+1, status)
		}
		closers = append(closers, close)
	}
	if status, _ := openStream(t, c, e.ts.URL+"/web/events?channel=over"); status != http.StatusServiceUnavailable {
		t.Errorf("stream %d: %d, want 503", n+1, status)
	}
	if status, _ := openStream(t, c, fmt.Sprintf("%s/watch/%d/events", e.ts.URL, id)); status != http.StatusServiceUnavailable {
		t.Errorf("stream %d, watching: %d, want 503", n+1, status)
	}
	open := heap()
	for _, close := range closers {
		close()
	}
	c.CloseIdleConnections()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > goroutines+2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	after := heap()
	t.Logf("heap: %.1f MB before, %.1f MB with %d streams open, %.1f MB after they closed; goroutines %d, then %d",
		float64(before)/1e6, float64(open)/1e6, n, float64(after)/1e6, goroutines, runtime.NumGoroutine())
	// The runtime keeps the descriptors of goroutines that ended, for
	// reuse (runtime.malg): about 2 MB for the 4,000 of these streams,
	// both ends. Anything of the server's would be tens of MB.
	if after > before+4<<20 {
		t.Errorf("the heap kept %.1f MB after the streams closed", float64(after-before)/1e6)
	}
	e.srv.feeds.mu.Lock()
	feeds := len(e.srv.feeds.channels)
	e.srv.feeds.mu.Unlock()
	if feeds > 1 {
		t.Errorf("%d channels kept after their streams closed", feeds)
	}
}

// TestWatchMissing: a spectator's link to no match gets a page saying so,
// not an empty page with a broken map or raw JSON.
func TestWatchMissing(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "watched")
	for _, tc := range []struct {
		path, want string
		status     int
	}{
		{"/watch/999", "There is no match 999 here", http.StatusNotFound},
		{"/watch/abc", "“abc” is not a match", http.StatusNotFound},
		{"/watch/%3Cb%3Ex", "“&lt;b&gt;x” is not a match", http.StatusNotFound},
		{fmt.Sprintf("/watch/%d", id), `<script src="/static/watch.js"`, http.StatusOK},
	} {
		res, err := http.Get(e.ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(b), tc.want) {
			t.Errorf("GET %s: %d %s %.300s, want %d and %q", tc.path, res.StatusCode, res.Header.Get("Content-Type"), b, tc.status, tc.want)
		}
	}
}
