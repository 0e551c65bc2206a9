package httpserve_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/httpserve"
	"github.com/riskbot/riskbot/bot/httpserve/httpservetest"
)

// start serves a small handler within l: / answers at once, /body reads
// its body, /stream writes an event every 50 ms for as long as it is read.
func start(t *testing.T, l httpserve.Limits) (*httpserve.Server, string) {
	t.Helper()
	if err := l.Check(); err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("POST /body", func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		fmt.Fprintln(w, "read")
	})
	mux.HandleFunc("GET /stream", func(w http.ResponseWriter, r *http.Request) {
		w = httpserve.Stream(w, r)
		fl := w.(http.Flusher)
		for i := 0; ; i++ {
			if _, err := fmt.Fprintf(w, "data: %d\n\n", i); err != nil {
				return
			}
			fl.Flush()
			select {
			case <-r.Context().Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	})
	ctx, cancel := context.WithCancel(context.Background())
	s := httpserve.New(httpserve.Config{Handler: mux, Limits: l, Context: ctx})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- s.Serve(ln) }()
	t.Cleanup(func() {
		cancel()
		s.Close()
		if err := <-done; !errors.Is(err, http.ErrServerClosed) {
			t.Errorf("Serve: %v, want http.ErrServerClosed", err)
		}
	})
	return s, ln.Addr().String()
}

// get sends a GET of path on a connection of its own, which it keeps
// alive, and returns the status.
func get(t *testing.T, addr, path string) (int, error) {
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	c := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	res, err := c.Get("http://" + addr + path)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	_, err = io.Copy(io.Discard, res.Body)
	return res.StatusCode, err
}

// TestHeldConnectionsClosed: a connection kept alive and idle, one that
// sends its headers a byte at a time, and one that sends its body a byte
// at a time are each closed once their limit passes; an event stream
// read all along outlives the write limit.
func TestHeldConnectionsClosed(t *testing.T) {
	l := httpserve.Limits{Conns: 100, Header: 300 * time.Millisecond, Read: 600 * time.Millisecond, Write: 400 * time.Millisecond,
		Idle: 300 * time.Millisecond, HeaderBytes: 8 << 10}
	_, addr := start(t, l)
	tick := 50 * time.Millisecond
	held := []struct {
		h     *httpservetest.Held
		limit time.Duration
	}{
		{httpservetest.Idle(t, addr, "/"), l.Idle},
		{httpservetest.SlowHeaders(t, addr, tick), l.Header},
		{httpservetest.SlowBody(t, addr, "/body", nil, tick), l.Read},
	}
	// Closed at the limit, give or take the scheduler: within two
	// seconds after it, and not before (nothing else closes them).
	for _, c := range held {
		d, err := c.h.Closed(c.limit + 2*time.Second)
		if err != nil {
			t.Errorf("%v (limit %v)", err, c.limit)
			continue
		}
		if d < c.limit-100*time.Millisecond {
			t.Errorf("%s: closed after %v, before its limit, %v", c.h.Kind, d.Round(time.Millisecond), c.limit)
		}
	}

	// The stream: events go on for three times the write limit.
	res, err := http.Get("http://" + addr + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	end := time.Now().Add(3 * l.Write)
	events := 0
	for time.Now().Before(end) && sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			events++
		}
	}
	if time.Now().Before(end) {
		t.Fatalf("the stream ended after %d events, before %v: %v", events, 3*l.Write, sc.Err())
	}
}

// TestCap: with the cap reached by connections held idle, sending
// headers slowly or a body slowly, a new client is served at once, the
// oldest idle connection making room; the slow bodies (requests in
// progress) are kept. With the cap reached by requests in progress only,
// a new client is served when one of them ends.
func TestCap(t *testing.T) {
	l := httpserve.Limits{Conns: 6, Header: 5 * time.Second, Read: 2 * time.Second, Write: 5 * time.Second,
		Idle: 5 * time.Second, HeaderBytes: 8 << 10}
	s, addr := start(t, l)
	tick := 50 * time.Millisecond
	idle := []*httpservetest.Held{httpservetest.Idle(t, addr, "/"), httpservetest.Idle(t, addr, "/")}
	headers := []*httpservetest.Held{httpservetest.SlowHeaders(t, addr, tick), httpservetest.SlowHeaders(t, addr, tick)}
	bodies := []*httpservetest.Held{httpservetest.SlowBody(t, addr, "/body", nil, tick), httpservetest.SlowBody(t, addr, "/body", nil, tick)}
	time.Sleep(100 * time.Millisecond) // all six accepted
	if n := s.Open(); n != l.Conns {
		t.Fatalf("%d connections open, want the cap, %d", n, l.Conns)
	}
	for i := range 4 {
		at := time.Now()
		status, err := get(t, addr, "/")
		if err != nil || status != http.StatusOK {
			t.Fatalf("client %d, at the cap: %d %v, want 200", i+1, status, err)
		}
		if d := time.Since(at); d > 500*time.Millisecond {
			t.Errorf("client %d, at the cap: served after %v, want at once", i+1, d)
		}
		if n := s.Open(); n > l.Conns {
			t.Errorf("%d connections open, over the cap of %d", n, l.Conns)
		}
	}
	// Four clients, each kept alive, took the room of the four
	// connections without a request in progress, the oldest first.
	for _, h := range append(idle, headers...) {
		if _, err := h.Closed(200 * time.Millisecond); err != nil {
			t.Errorf("%v, want it closed for a new client", err)
		}
	}
	for _, h := range bodies {
		if !h.IsOpen() {
			t.Errorf("%s: closed to make room, though its request is in progress", h.Kind)
		}
	}

	// Six requests in progress (the four new ones take the room of the
	// clients' idle connections): a new client waits until one of them
	// is cut at the read limit.
	bodies = append(bodies, httpservetest.SlowBody(t, addr, "/body", nil, tick), httpservetest.SlowBody(t, addr, "/body", nil, tick),
		httpservetest.SlowBody(t, addr, "/body", nil, tick), httpservetest.SlowBody(t, addr, "/body", nil, tick))
	time.Sleep(100 * time.Millisecond)
	at := time.Now()
	status, err := get(t, addr, "/")
	if err != nil || status != http.StatusOK {
		t.Fatalf("a client when all are busy: %d %v, want 200", status, err)
	}
	if d := time.Since(at); d > l.Read+time.Second {
		t.Errorf("a client when all are busy: served after %v, want within the read limit, %v", d.Round(time.Millisecond), l.Read)
	}
	cut := 0
	for end := time.Now().Add(500 * time.Millisecond); cut == 0 && time.Now().Before(end); time.Sleep(10 * time.Millisecond) {
		for _, h := range bodies {
			if !h.IsOpen() {
				cut++
			}
		}
	}
	if cut == 0 {
		t.Error("a client when all are busy was served, yet no request in progress was cut: over the cap")
	}
	if n := s.Open(); n > l.Conns {
		t.Errorf("%d connections open, over the cap of %d", n, l.Conns)
	}
}

func TestLimitsCheck(t *testing.T) {
	if err := httpserve.Defaults().Check(); err != nil {
		t.Errorf("the defaults: %v", err)
	}
	for _, tt := range []struct {
		name string
		edit func(*httpserve.Limits)
		want string
	}{
		{"no cap", func(l *httpserve.Limits) { l.Conns = 0 }, "cap on connections is 0"},
		{"no idle timeout", func(l *httpserve.Limits) { l.Idle = 0 }, "idle timeout is 0s"},
		{"negative write", func(l *httpserve.Limits) { l.Write = -time.Second }, "write timeout is -1s"},
		{"tiny headers", func(l *httpserve.Limits) { l.HeaderBytes = 10 }, "headers may take 10 bytes"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			l := httpserve.Defaults()
			tt.edit(&l)
			if err := l.Check(); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("got %v, want an error with %q", err, tt.want)
			}
		})
	}
}
