package web

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/httpserve"
	"github.com/riskbot/riskbot/bot/httpserve/httpservetest"
)

// serveLimited runs e's server as risk web does (Server.Serve) on a loopback
// port within limits, until the test ends, and returns its address.
func serveLimited(t *testing.T, e *testEnv, limits httpserve.Limits) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- e.srv.Serve(ctx, ln, limits) }()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return ln.Addr().String()
}

// events follows an event stream and sends the kind of each event
// ("ready" for the comment that opens it) until it ends.
func events(t *testing.T, url string) <-chan string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	tr := &http.Transport{}
	res, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		cancel()
		t.Fatalf("GET %s: %s", url, res.Status)
	}
	t.Cleanup(func() { cancel(); res.Body.Close(); tr.CloseIdleConnections() })
	out := make(chan string, 100)
	go func() {
		defer close(out)
		sc := bufio.NewScanner(res.Body)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			switch l := sc.Text(); {
			case l == ": ready":
				out <- "ready"
			case strings.HasPrefix(l, "event: "):
				out <- strings.TrimPrefix(l, "event: ")
			}
		}
	}()
	return out
}

// await waits for an event of kind on a stream, for up to d.
func await(t *testing.T, what string, ev <-chan string, kind string, d time.Duration) {
	t.Helper()
	end := time.After(d)
	for {
		select {
		case k, ok := <-ev:
			if !ok {
				t.Fatalf("%s: the stream ended, want an event %q", what, kind)
			}
			if k == kind {
				return
			}
		case <-end:
			t.Fatalf("%s: no event %q in %v", what, kind, d)
		}
	}
}

// TestServeBoundsConnections (issue 42): the server risk web runs holds
// no connection for ever. Kept-alive idle connections, headers sent a
// byte at a time and a command's body sent a byte at a time are closed
// at their limits; with the cap reached, a new client is served at once;
// the page's and the spectators' event streams outlive the write limit
// and still carry what happens.
func TestServeBoundsConnections(t *testing.T) {
	e := newEnv(t, Config{})
	id := startMatch(t, e, "held")
	limits := httpserve.Limits{Conns: 8, Header: 1500 * time.Millisecond, Read: 1500 * time.Millisecond, Write: 700 * time.Millisecond,
		Idle: 1500 * time.Millisecond, HeaderBytes: 8 << 10}
	addr := serveLimited(t, e, limits)
	base := "http://" + addr

	page := events(t, base+"/web/events?channel=held")
	await(t, "the page's stream", page, "ready", 5*time.Second)
	watch := events(t, fmt.Sprintf("%s/watch/%d/events", base, id))
	await(t, "the spectators' stream", watch, "ready", 5*time.Second)

	tick := 100 * time.Millisecond
	play := http.Header{"Content-Type": {"application/json"}, "Authorization": {"Bearer rk_0123456789abcdef"}}
	held := []*httpservetest.Held{
		httpservetest.Idle(t, addr, "/web/channels"),
		httpservetest.Idle(t, addr, fmt.Sprintf("/api/matches/%d", id)),
		httpservetest.SlowHeaders(t, addr, tick),
		httpservetest.SlowHeaders(t, addr, tick),
		httpservetest.SlowBody(t, addr, fmt.Sprintf("/api/matches/%d/commands", id), play, tick),
		httpservetest.SlowBody(t, addr, fmt.Sprintf("/api/matches/%d/commands", id), play, tick),
	}
	// Two streams and six held: the cap. A new client is served at once,
	// twice, each time in the room of the oldest connection idle.
	for i := range 2 {
		at := time.Now()
		res, err := http.Get(base + "/web/channels")
		if err != nil {
			t.Fatalf("a client at the cap: %v", err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("a client at the cap: %s, want 200", res.Status)
		}
		if d := time.Since(at); d > limits.Idle/2 {
			t.Errorf("client %d at the cap: served after %v, want at once", i+1, d.Round(time.Millisecond))
		}
	}
	// A connection without a request in progress was closed to make room,
	// well before its limit would close it. Which one is the server's
	// clock's: an idle one is idle from when its server goroutine says
	// so, and under -race on a loaded machine that may come after the
	// server accepted the slow headers, which then are the oldest without
	// a request (CI saw it once).
	free := held[:4] // the two idle and the two slow headers
	allOpen := func() bool {
		for _, h := range free {
			if !h.IsOpen() {
				return false
			}
		}
		return true
	}
	for end := time.Now().Add(limits.Idle / 2); allOpen(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Errorf("the idle and slow-header connections all still open %v after the clients at the cap, want one closed to make room", limits.Idle/2)
			break
		}
	}

	// Each held connection is closed at its limit.
	for _, h := range held {
		limit := map[string]time.Duration{"idle keep-alive": limits.Idle, "slow headers": limits.Header, "slow body": limits.Read}[h.Kind]
		if _, err := h.Closed(limit + 2*time.Second); err != nil {
			t.Errorf("%v, want it closed at %v", err, limit)
		}
	}

	// The streams, opened more than the write limit ago, carry a post.
	if _, err := e.srv.Post(context.Background(), Prefix+"held", chat.Message{Text: "still here?"}); err != nil {
		t.Fatal(err)
	}
	await(t, "the page's stream, after the write limit", page, "put", 5*time.Second)
	await(t, "the spectators' stream, after the write limit", watch, "put", 5*time.Second)
}
