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

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage/postgres"
	"github.com/riskbot/riskbot/storage/postgres/pgtest"
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
	b                   testing.TB
	e                   *testEnv
	n                   int
	id                  int64
	version, left, terr int
	tok                 string
}

func newPlacer(b testing.TB, e *testEnv) *placer {
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
	l, err := e.bot.Matches().Active(ctx, Prefix+ch)
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

// next returns the request of Ann's next placement, starting a match if
// her armies ran out (the benchmark's timer stopped meanwhile).
func (p *placer) next(b *testing.B, base string) *http.Request {
	if p.left == 0 {
		b.StopTimer()
		p.fresh()
		b.StartTimer()
	}
	req, err := http.NewRequest(http.MethodPost, fmt.Sprintf("%s/api/matches/%d/commands", base, p.id), strings.NewReader(placeBody(p.version, p.terr)))
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+p.tok)
	req.Host = "127.0.0.1" // httptest's example.com is not a name the server answers to
	p.version++
	p.left--
	return req
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
		req := httptest.NewRequest(http.MethodPost, fmt.Sprintf("/api/matches/%d/commands", p.id), strings.NewReader(placeBody(p.version, p.terr)))
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

// p50 is the median, in µs.
func (q quantiles) p50() float64 {
	if len(q) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(q))
	return float64(s[len(s)/2].Nanoseconds()) / 1e3
}

func (q quantiles) report(b *testing.B) {
	q.reportAs(b, "")
}

// reportAs reports the median and the 99th percentile, their units
// named after what.
func (q quantiles) reportAs(b *testing.B, what string) {
	if len(q) == 0 {
		return
	}
	if what != "" {
		what += "-"
	}
	s := slices.Sorted(slices.Values(q))
	b.ReportMetric(q.p50(), what+"p50-µs")
	b.ReportMetric(float64(s[len(s)*99/100].Nanoseconds())/1e3, what+"p99-µs")
}

// BenchmarkAPI pairs the API's answers, over a loopback connection to the
// server, with their floors, on SQLite (issues 33 and 48):
//
//		go test -run '^$' -bench 'API' -benchmem -count 6 ./bot/web
//
//	  - get/state: the state of a finished 148-command match, against
//	    get/static, a static file of the same server (the page's script),
//	    run just before: x-floor is the ratio of their medians.
//	  - post: a placement POSTed (command), against its floor: a static GET
//	    of the same server (static) plus one durable commit of the same
//	    store (commit: a setting written, SQLite's synchronous=FULL), the
//	    three in turn in each iteration, so that they see the same load;
//	    x-floor is command's median over the sum of the other two's.
func BenchmarkAPI(b *testing.B) {
	e, id, _ := played(b)
	static := benchGet(b, e, "get/static", "/static/watch.js", 0)
	benchGet(b, e, "get/state", fmt.Sprintf("/api/matches/%d", id), static)
	benchPost(b, e, e.db)
}

// BenchmarkAPIPostgres is BenchmarkAPI's post on PostgreSQL, whose commit
// must be durable (fsync and synchronous_commit on):
//
//	eval "$(bash .ci/postgres start durable)"
//	go test -run '^$' -bench APIPostgres -benchmem -count 6 ./bot/web
//	bash .ci/postgres stop "$RISK_PG_DIR"
func BenchmarkAPIPostgres(b *testing.B) {
	ctx := context.Background()
	addr := pgtest.URL(b)
	db, err := postgres.Open(ctx, addr)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	if why := pgtest.NotDurable(b, addr); why != "" {
		b.Skipf("the floor is a durable commit, and this server's are not (%s): start one with `bash .ci/postgres start durable`", why)
	}
	benchPost(b, newStoreEnv(b, db), db)
}

// benchStore is the store of the API's benchmarks: the bot's and the
// server's, and the setting the floor's commit writes.
type benchStore interface {
	bot.Store
	Store
}

// newStoreEnv is a server on st, with the standard bot, listening on a
// loopback port.
func newStoreEnv(b testing.TB, st benchStore) *testEnv {
	srv := New(Config{Store: st, Rate: 1e6, Burst: 1e6})
	seed := uint64(41)
	bt, err := bot.New(bot.Standard(bot.Config{Store: st, Poster: srv, Scope: Prefix, Seed: func() uint64 { seed++; return seed }}))
	if err != nil {
		b.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	b.Cleanup(func() { ts.Close(); bt.Close() })
	srv.SetBot(bt)
	return &testEnv{srv: srv, bot: bt, ts: ts}
}

// benchGet runs sub-benchmark name: GETs of path from e's server, and
// returns their median in µs; floor, if set, is the median of its floor,
// which x-floor is reported against.
func benchGet(b *testing.B, e *testEnv, name, path string, floor float64) float64 {
	c := e.ts.Client()
	var p50 float64
	b.Run(name, func(b *testing.B) {
		var q quantiles
		size := 0
		for b.Loop() {
			q.time(func() { size = get(b, c, e.ts.URL+path) })
		}
		q.report(b)
		b.ReportMetric(float64(size), "bytes")
		if p50 = q.p50(); floor > 0 {
			b.ReportMetric(p50/floor, "x-floor")
		}
	})
	return p50
}

// get GETs url and returns the size of the answer.
func get(b *testing.B, c *http.Client, url string) int {
	res, err := c.Get(url)
	if err != nil {
		b.Fatal(err)
	}
	n, _ := io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		b.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	return int(n)
}

// benchPost runs sub-benchmark post (BenchmarkAPI) on e's server, whose
// store is st.
func benchPost(b *testing.B, e *testEnv, st benchStore) {
	c := e.ts.Client()
	ctx := context.Background()
	var p *placer // one for every run of post: its channels are the env's
	b.Run("post", func(b *testing.B) {
		if p == nil {
			p = newPlacer(b, e)
		}
		p.b = b
		var static, commit, command quantiles
		i := 0
		for b.Loop() {
			i++
			static.time(func() { get(b, c, e.ts.URL+"/static/watch.js") })
			commit.time(func() {
				if err := st.SetSetting(ctx, "bench", "floor", json.RawMessage(strconv.Itoa(i)), time.Now()); err != nil {
					b.Fatal(err)
				}
			})
			req := p.next(b, e.ts.URL)
			command.time(func() {
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
		}
		static.reportAs(b, "static")
		commit.reportAs(b, "commit")
		command.reportAs(b, "command")
		if floor := static.p50() + commit.p50(); floor > 0 {
			b.ReportMetric(command.p50()/floor, "x-floor")
		}
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
				e.srv.feeds.mu.Lock()
				e.srv.feeds.channels = map[string]*feed{}
				e.srv.feeds.mu.Unlock()
				if err := e.srv.Restore(ctx); err != nil {
					b.Fatal(err)
				}
				e.srv.feeds.mu.Lock()
				restored = len(e.srv.feeds.channels)
				e.srv.feeds.mu.Unlock()
			}
			b.ReportMetric(float64(restored), "channels")
			b.ReportMetric(float64(n), "commands")
		})
	}
}
