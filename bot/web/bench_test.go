package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
)

// The API's costs, without the network: the handler called directly.
//
//	go test -run '^$' -bench . -benchmem ./bot/web

// played returns a finished match with computer players and its log's
// length.
func played(b *testing.B) (*testEnv, int64, int) {
	e := newEnv(b, Config{})
	id := startMatch(b, e, "bench")
	ctx := context.Background()
	// Ann places her armies and ends her turns; the computers play theirs,
	// to the end.
	for {
		l, err := e.db.Load(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		if !l.Status.Open() {
			return e, id, l.Game.Version
		}
		e.do(b, "bench", "Ann", "/risk place")
		e.do(b, "bench", "Ann", "/risk end")
	}
}

func serve(b *testing.B, h http.Handler, req *http.Request, want int) {
	req.Host = "127.0.0.1" // httptest's example.com is not a name the server answers to
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != want {
		b.Fatalf("%s %s: %d %s", req.Method, req.URL, rec.Code, rec.Body)
	}
}

func BenchmarkGetState(b *testing.B) {
	e, id, n := played(b)
	h := e.srv.Handler()
	b.ReportMetric(float64(n), "commands")
	for b.Loop() {
		serve(b, h, httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/matches/%d", id), nil), http.StatusOK)
	}
}

func BenchmarkGetCommandsAfter(b *testing.B) {
	e, id, n := played(b)
	h := e.srv.Handler()
	for _, after := range []int{0, n - 10} {
		b.Run(fmt.Sprintf("after=%d_of_%d", after, n), func(b *testing.B) {
			for b.Loop() {
				serve(b, h, httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/matches/%d/commands?after=%d", id, after), nil), http.StatusOK)
			}
		})
	}
}

// placer plays Ann's placements, one army at a time, in matches of two
// people it starts when her armies run out.
type placer struct {
	b                   *testing.B
	e                   *testEnv
	n                   int
	id                  int64
	version, left, terr int
	tok                 string
}

func newPlacer(b *testing.B, e *testEnv) *placer {
	p := &placer{b: b, e: e}
	p.fresh()
	return p
}

// fresh starts a match of two people off the clock.
func (p *placer) fresh() {
	b, e, ctx := p.b, p.e, context.Background()
	p.n++
	ch := fmt.Sprintf("post%d", p.n)
	for _, l := range []string{"Ann: /risk new", "Bob: /risk join", "Ann: /risk start"} {
		who, line, _ := strings.Cut(l, ": ")
		e.do(b, ch, who, line)
	}
	l, err := e.db.Active(ctx, Prefix+ch)
	if err != nil {
		b.Fatal(err)
	}
	s := l.Game.State
	seat := s.SeatByID(userID("Ann"))
	p.id, p.version, p.left = l.ID, l.Game.Version, s.Seats[seat].Reserve-1
	for t := range s.Terr {
		if s.Terr[t].Owner == seat {
			p.terr = t
			break
		}
	}
	if p.tok, err = e.srv.Token(ctx, p.id, chat.User{ID: userID("Ann"), Name: "Ann"}); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkPostCommand plays one army's placement through the API (no
// map is drawn: nobody asks for one), on a match of two people; a fresh
// match is started, off the clock, when the armies run out.
func BenchmarkPostCommand(b *testing.B) {
	e := newEnv(b, Config{})
	h := e.srv.Handler()
	p := newPlacer(b, e)
	for b.Loop() {
		if p.left == 0 {
			b.StopTimer()
			p.fresh()
			b.StartTimer()
		}
		req := httptest.NewRequest(http.MethodPost, fmt.Sprintf("/api/matches/%d/commands", p.id),
			strings.NewReader(fmt.Sprintf(`{"version":%d,"command":{"type":"place","territory":%d,"armies":1}}`, p.version, p.terr)))
		req.Header.Set("Authorization", "Bearer "+p.tok)
		serve(b, h, req, http.StatusOK)
		p.version++
		p.left--
	}
}

// quantiles reports the median and the 99th percentile of the times of
// the benchmark's operations.
type quantiles []time.Duration

func (q *quantiles) time(f func()) {
	t := time.Now()
	f()
	*q = append(*q, time.Since(t))
}

func (q quantiles) report(b *testing.B) {
	if len(q) == 0 {
		return
	}
	slices.Sort(q)
	b.ReportMetric(float64(q[len(q)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(q[len(q)*99/100].Microseconds()), "p99-µs")
}

// BenchmarkAPI pairs the API's answers, over a loopback connection to the
// server, with their floors in the same run (issue 33):
//
//		go test -run '^$' -bench 'API' -benchmem -count 6 ./bot/web
//
//	  - get/static: a static file of the same server (the page's script), the
//	    floor of get/state: the state of a finished 148-command match.
//	  - post/commit: one durable write (a setting, synchronous=FULL) to the
//	    same database, the floor of post/command: a placement POSTed.
func BenchmarkAPI(b *testing.B) {
	e, id, _ := played(b)
	c := e.ts.Client()
	get := func(b *testing.B, path string) {
		var q quantiles
		size := 0
		for b.Loop() {
			q.time(func() {
				res, err := c.Get(e.ts.URL + path)
				if err != nil {
					b.Fatal(err)
				}
				n, _ := io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("GET %s: %d", path, res.StatusCode)
				}
				size = int(n)
			})
		}
		q.report(b)
		b.ReportMetric(float64(size), "bytes")
	}
	b.Run("get/static", func(b *testing.B) { get(b, "/static/watch.js") })
	b.Run("get/state", func(b *testing.B) { get(b, fmt.Sprintf("/api/matches/%d", id)) })
	ctx := context.Background()
	b.Run("post/commit", func(b *testing.B) {
		var q quantiles
		i := 0
		for b.Loop() {
			i++
			q.time(func() {
				if err := e.db.SetSetting(ctx, "bench", "floor", json.RawMessage(strconv.Itoa(i)), time.Now()); err != nil {
					b.Fatal(err)
				}
			})
		}
		q.report(b)
	})
	var p *placer // one for every run of post/command: its channels are the env's
	b.Run("post/command", func(b *testing.B) {
		if p == nil {
			p = newPlacer(b, e)
		}
		p.b = b
		var q quantiles
		for b.Loop() {
			if p.left == 0 {
				b.StopTimer()
				p.fresh()
				b.StartTimer()
			}
			body := fmt.Sprintf(`{"version":%d,"command":{"type":"place","territory":%d,"armies":1}}`, p.version, p.terr)
			req, err := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/api/matches/%d/commands", e.ts.URL, p.id), strings.NewReader(body))
			if err != nil {
				b.Fatal(err)
			}
			req.Header.Set("Authorization", "Bearer "+p.tok)
			q.time(func() {
				res, err := c.Do(req)
				if err != nil {
					b.Fatal(err)
				}
				_, _ = io.Copy(io.Discard, res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK {
					b.Fatalf("POST: %d", res.StatusCode)
				}
			})
			p.version++
			p.left--
		}
		q.report(b)
	})
}

// BenchmarkRestartClosed is what the start of risk web costs
// (Server.Restore) in a database that holds matches that are over, each
// the latest of its channel: the finished match of played, copied into
// more channels. However many there are, the start restores the
// restoreClosed closed last (the others are restored when a page opens
// them), so that it costs the same with a thousand as with restoreClosed.
//
//	go test -run '^$' -bench RestartClosed -benchmem ./bot/web
func BenchmarkRestartClosed(b *testing.B) {
	ctx := context.Background()
	e, id, n := played(b)
	x, err := e.db.Export(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	closed := 1
	for _, want := range []int{restoreClosed, 1000} {
		var more []string
		for ; closed < want; closed++ {
			more = append(more, fmt.Sprintf("%sended%d", Prefix, closed))
		}
		if err := e.db.ImportCopies(ctx, x, more, time.Now()); err != nil {
			b.Fatal(err)
		}
		b.Run(fmt.Sprintf("closed=%d", closed), func(b *testing.B) {
			restored := 0
			b.ReportAllocs()
			for b.Loop() {
				e.srv.mu.Lock()
				e.srv.feeds = map[string]*feed{}
				e.srv.mu.Unlock()
				if err := e.srv.Restore(ctx); err != nil {
					b.Fatal(err)
				}
				e.srv.mu.Lock()
				restored = len(e.srv.feeds)
				e.srv.mu.Unlock()
			}
			b.ReportMetric(float64(restored), "channels")
			b.ReportMetric(float64(n), "commands")
		})
	}
}
