// Package httpservetest holds connections to a server the way an
// attacker does, for the tests of the servers built by httpserve: kept
// alive and idle, sending headers a byte at a time, or a body a byte at a
// time. Each says when the server closed it.
package httpservetest

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// Held is a connection held open against a server.
type Held struct {
	net.Conn
	// Kind says how it is held, for messages.
	Kind string
	// Opened is when it was opened.
	Opened time.Time
	closed chan struct{}
	at     time.Time
}

func dial(t testing.TB, addr, kind string) *Held {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatalf("%s: dial %s: %v", kind, addr, err)
	}
	t.Cleanup(func() { c.Close() })
	return &Held{Conn: c, Kind: kind, Opened: time.Now(), closed: make(chan struct{})}
}

// watch reads (and drops) whatever the server sends until it closes the
// connection. It starts once the connection is held, so that reading an
// answer first is the caller's.
func (h *Held) watch(r io.Reader) {
	go func() {
		_, _ = io.Copy(io.Discard, r)
		h.at = time.Now()
		close(h.closed)
	}()
}

// trickle writes b a byte every tick until the connection fails.
func (h *Held) trickle(b []byte, tick time.Duration) {
	go func() {
		for i := 0; ; i++ {
			select {
			case <-h.closed:
				return
			case <-time.After(tick):
			}
			if _, err := h.Write(b[i%len(b) : i%len(b)+1]); err != nil {
				return
			}
		}
	}()
}

// Closed waits up to within for the server to close the connection, and
// returns how long after its opening it did.
func (h *Held) Closed(within time.Duration) (time.Duration, error) {
	select {
	case <-h.closed:
		return h.at.Sub(h.Opened), nil
	case <-time.After(within):
		return 0, fmt.Errorf("%s: still open %v after it was opened", h.Kind, time.Since(h.Opened).Round(time.Millisecond))
	}
}

// IsOpen reports whether the server has not closed the connection yet.
func (h *Held) IsOpen() bool {
	select {
	case <-h.closed:
		return false
	default:
		return true
	}
}

// Idle opens a connection kept alive: one GET of path, answered, and no
// other request.
func Idle(t testing.TB, addr, path string) *Held {
	t.Helper()
	h := dial(t, addr, "idle keep-alive")
	if _, err := fmt.Fprintf(h, "GET %s HTTP/1.1\r\nHost: %s\r\n\r\n", path, addr); err != nil {
		t.Fatalf("%s: %v", h.Kind, err)
	}
	br := bufio.NewReader(h)
	res, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("%s: GET %s: %v", h.Kind, path, err)
	}
	if _, err := io.Copy(io.Discard, res.Body); err != nil {
		t.Fatalf("%s: GET %s: %v", h.Kind, path, err)
	}
	res.Body.Close()
	if res.Close {
		t.Fatalf("%s: GET %s: the server closes the connection after its answer (%s)", h.Kind, path, res.Status)
	}
	h.Opened = time.Now() // idle from now on
	h.watch(br)
	return h
}

// SlowHeaders opens a connection that sends a request's headers a byte
// every tick, and never their end.
func SlowHeaders(t testing.TB, addr string, tick time.Duration) *Held {
	t.Helper()
	h := dial(t, addr, "slow headers")
	if _, err := fmt.Fprintf(h, "GET / HTTP/1.1\r\nHost: %s\r\n", addr); err != nil {
		t.Fatalf("%s: %v", h.Kind, err)
	}
	h.watch(h.Conn)
	h.trickle([]byte("X-Slow: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n"), tick)
	return h
}

// SlowBody opens a connection that sends a POST of path with header (its
// Host and Content-Length set here), then its body a byte every tick,
// and never all of it.
func SlowBody(t testing.TB, addr, path string, header http.Header, tick time.Duration) *Held {
	t.Helper()
	h := dial(t, addr, "slow body")
	var b strings.Builder
	fmt.Fprintf(&b, "POST %s HTTP/1.1\r\nHost: %s\r\nContent-Length: 100000\r\n", path, addr)
	for k, vs := range header {
		for _, v := range vs {
			fmt.Fprintf(&b, "%s: %s\r\n", k, v)
		}
	}
	b.WriteString("\r\n{")
	if _, err := io.WriteString(h, b.String()); err != nil {
		t.Fatalf("%s: %v", h.Kind, err)
	}
	h.watch(h.Conn)
	h.trickle([]byte(`"a":1,`), tick)
	return h
}
