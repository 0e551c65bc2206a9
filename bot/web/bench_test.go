package web

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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

// BenchmarkPostCommand plays one army's placement through the API (no
// map is drawn: nobody asks for one), on a match of two people; a fresh
// match is started, off the clock, when the armies run out.
func BenchmarkPostCommand(b *testing.B) {
	e := newEnv(b, Config{})
	h := e.srv.Handler()
	ctx := context.Background()
	var id int64
	var version, left, terr int
	var tok string
	fresh := func(n int) {
		ch := fmt.Sprintf("post%d", n)
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
		id, version, left = l.ID, l.Game.Version, s.Seats[seat].Reserve-1
		for t := range s.Terr {
			if s.Terr[t].Owner == seat {
				terr = t
				break
			}
		}
		if tok, err = e.srv.Token(ctx, id, chat.User{ID: userID("Ann"), Name: "Ann"}); err != nil {
			b.Fatal(err)
		}
	}
	n := 0
	fresh(n)
	for b.Loop() {
		if left == 0 {
			b.StopTimer()
			n++
			fresh(n)
			b.StartTimer()
		}
		req := httptest.NewRequest(http.MethodPost, fmt.Sprintf("/api/matches/%d/commands", id),
			strings.NewReader(fmt.Sprintf(`{"version":%d,"command":{"type":"place","territory":%d,"armies":1}}`, version, terr)))
		req.Header.Set("Authorization", "Bearer "+tok)
		serve(b, h, req, http.StatusOK)
		version++
		left--
	}
}
