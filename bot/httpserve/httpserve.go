// Package httpserve builds the HTTP servers of the adapters (the web page
// and its match API, Discord's interactions endpoint, the metrics) with
// every connection bounded: the wait for a request on a kept-alive
// connection, the time to read a request's headers and its body, the time
// to write its response (or, for an event stream, each write), the size
// of its headers, and how many connections are open at once. A client
// that opens connections and sends nothing, or sends a byte now and then,
// holds them for seconds, not for ever, and never more of them than the
// cap; when the cap is reached, the connections that wait the longest
// without a request in progress make room for new ones.
package httpserve

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits bound the connections of a server.
type Limits struct {
	// Conns caps the connections open at once. When it is reached, the
	// server closes the connection that has gone longest without a
	// request in progress (kept alive between requests, or still sending
	// its headers) to take the new one; if every connection is busy with a
	// request, the new one waits for one to end.
	Conns int
	// Header bounds the time to read a request's headers, Read the time
	// to read the whole request (its body too), from the connection's
	// first byte or the end of the request before.
	Header, Read time.Duration
	// Write bounds the time from the end of a request's headers to the
	// end of its response: the handler's work and the writing. An event
	// stream (Stream) bounds each of its writes by it instead.
	Write time.Duration
	// Idle bounds the wait for the next request on a kept-alive
	// connection.
	Idle time.Duration
	// HeaderBytes bounds the size of a request's headers (431 past it).
	HeaderBytes int
}

// Defaults are the limits of a server unless its operator says otherwise:
// generous for a person's browser, Discord or a load balancer, and short
// enough that connections held on purpose do not pile up. Idle is longer
// than most proxies' own keep-alive (60 s), so that a proxy closes an
// idle connection before the server does, and never sends a request on
// one the server is closing.
func Defaults() Limits {
	return Limits{Conns: 2048, Header: 10 * time.Second, Read: 30 * time.Second, Write: 30 * time.Second,
		Idle: 90 * time.Second, HeaderBytes: 64 << 10}
}

// Check says what is wrong with the limits, if anything: each must be
// positive.
func (l Limits) Check() error {
	var bad []string
	for _, d := range []struct {
		name string
		v    time.Duration
	}{{"header timeout", l.Header}, {"read timeout", l.Read}, {"write timeout", l.Write}, {"idle timeout", l.Idle}} {
		if d.v <= 0 {
			bad = append(bad, fmt.Sprintf("the %s is %v", d.name, d.v))
		}
	}
	if l.Conns < 1 {
		bad = append(bad, fmt.Sprintf("the cap on connections is %d", l.Conns))
	}
	if l.HeaderBytes < 1<<10 {
		bad = append(bad, fmt.Sprintf("the headers may take %d bytes, under the 1024 a browser's need", l.HeaderBytes))
	}
	if len(bad) > 0 {
		return fmt.Errorf("httpserve: %v: want positive limits", bad)
	}
	return nil
}

// Config is what a Server is built from.
type Config struct {
	Handler http.Handler
	Limits  Limits
	// Context, if set, is the context of every request: when it ends,
	// the requests still open (event streams) end too. Without it,
	// requests outlive Shutdown's call until they finish.
	Context context.Context
	// Log gets the server's own errors (nil: discarded).
	Log *slog.Logger
}

// Server is an HTTP server whose every connection is bounded by its
// Limits.
type Server struct {
	http  *http.Server
	conns *conns
}

// New returns a server of cfg.Handler within cfg.Limits, which must pass
// Check.
func New(cfg Config) *Server {
	l := cfg.Limits
	c := newConns(l.Conns)
	log := cfg.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	hs := &http.Server{
		Handler:           cfg.Handler,
		ReadHeaderTimeout: l.Header,
		ReadTimeout:       l.Read,
		WriteTimeout:      l.Write,
		IdleTimeout:       l.Idle,
		MaxHeaderBytes:    l.HeaderBytes,
		ConnState:         c.track,
		// Stream reads the write limit from the request.
		ConnContext: func(ctx context.Context, _ net.Conn) context.Context {
			return context.WithValue(ctx, writeLimit{}, l.Write)
		},
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	if cfg.Context != nil {
		ctx := cfg.Context
		hs.BaseContext = func(net.Listener) context.Context { return ctx }
	}
	return &Server{http: hs, conns: c}
}

// Serve serves the connections of ln until Shutdown or Close, as
// http.Server.Serve does (http.ErrServerClosed then).
func (s *Server) Serve(ln net.Listener) error {
	return s.http.Serve(s.conns.listener(ln))
}

// Shutdown stops taking connections and waits for the requests in
// progress, until ctx ends (http.Server.Shutdown).
func (s *Server) Shutdown(ctx context.Context) error { return s.http.Shutdown(ctx) }

// Close closes the listener and every connection at once.
func (s *Server) Close() error { return s.http.Close() }

// Open is the number of connections open.
func (s *Server) Open() int {
	s.conns.mu.Lock()
	defer s.conns.mu.Unlock()
	return len(s.conns.open)
}

// writeLimit keys the server's Limits.Write in a request's context.
type writeLimit struct{}

// Stream returns the writer of an event stream, a response meant to last
// longer than the server's write limit: each write (and flush) must end
// within that limit instead of the whole response, so that a stream that
// is read lasts, and one whose reader stopped reading is dropped. Outside
// a Server, it is w.
func Stream(w http.ResponseWriter, r *http.Request) http.ResponseWriter {
	d, ok := r.Context().Value(writeLimit{}).(time.Duration)
	if !ok || d <= 0 {
		return w
	}
	s := &stream{ResponseWriter: w, rc: http.NewResponseController(w), d: d}
	s.extend()
	return s
}

// stream is a response whose each write has its own deadline.
type stream struct {
	http.ResponseWriter
	rc *http.ResponseController
	d  time.Duration
}

func (s *stream) extend() { _ = s.rc.SetWriteDeadline(time.Now().Add(s.d)) }

func (s *stream) Write(p []byte) (int, error) {
	s.extend()
	return s.ResponseWriter.Write(p)
}

// Flush sends what was written (http.Flusher).
func (s *stream) Flush() {
	s.extend()
	_ = s.rc.Flush()
}

// Unwrap lets http.ResponseController reach the server's writer.
func (s *stream) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// conns counts and follows the connections of a server, to keep them
// within its cap.
type conns struct {
	max int

	mu   sync.Mutex
	open map[*conn]bool
	// freed is signalled when a connection closes, for a new one
	// waiting for room.
	freed chan struct{}
}

func newConns(max int) *conns {
	return &conns{max: max, open: map[*conn]bool{}, freed: make(chan struct{}, 1)}
}

// conn is a connection the server serves. Its state and since (when it
// entered it) are guarded by conns.mu.
type conn struct {
	net.Conn
	t     *conns
	once  sync.Once
	state http.ConnState
	since time.Time
}

// Close closes the connection and gives its room back.
func (c *conn) Close() error {
	c.once.Do(func() {
		c.t.mu.Lock()
		delete(c.t.open, c)
		c.t.mu.Unlock()
		select {
		case c.t.freed <- struct{}{}:
		default:
		}
	})
	return c.Conn.Close()
}

// track follows a connection's state (http.Server.ConnState).
func (t *conns) track(nc net.Conn, s http.ConnState) {
	c, ok := nc.(*conn)
	if !ok {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.open[c] {
		c.state, c.since = s, time.Now()
	}
}

// shedding reports whether a connection in state s may be closed to make
// room: it has no request in progress.
func shedding(s http.ConnState) bool { return s == http.StateIdle || s == http.StateNew }

// admit makes room for a new connection, closing the one that has gone
// longest without a request in progress if the server is full, or
// waiting for one to close if every one is busy (or until done is
// closed: false then).
func (t *conns) admit(raw net.Conn, done <-chan struct{}) (*conn, bool) {
	for {
		t.mu.Lock()
		if len(t.open) < t.max {
			c := &conn{Conn: raw, t: t, state: http.StateNew, since: time.Now()}
			t.open[c] = true
			t.mu.Unlock()
			return c, true
		}
		var victim *conn
		for c := range t.open {
			if shedding(c.state) && (victim == nil || c.since.Before(victim.since)) {
				victim = c
			}
		}
		t.mu.Unlock()
		if victim != nil {
			victim.Close()
			continue
		}
		select {
		case <-t.freed:
		case <-done:
			return nil, false
		}
	}
}

// listener admits the connections of a net.Listener within the cap.
type listener struct {
	net.Listener
	t      *conns
	done   chan struct{}
	closed sync.Once
}

func (t *conns) listener(ln net.Listener) *listener {
	return &listener{Listener: ln, t: t, done: make(chan struct{})}
}

// Accept waits for a connection and room for it.
func (l *listener) Accept() (net.Conn, error) {
	raw, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	c, ok := l.t.admit(raw, l.done)
	if !ok {
		raw.Close()
		return nil, fmt.Errorf("httpserve: accept: %w", net.ErrClosed)
	}
	return c, nil
}

// Close stops the listener, and a connection waiting for room.
func (l *listener) Close() error {
	l.closed.Do(func() { close(l.done) })
	return l.Listener.Close()
}
