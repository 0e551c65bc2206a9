package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/httpserve/httpservetest"
	"github.com/riskbot/riskbot/bot/web"
)

// syncBuffer is a buffer written by one goroutine and read by another.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestWeb: `risk web` says where it listens, serves the page there, and
// stops when asked.
func TestWeb(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var out, errb syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- runEnv(ctx, env{args: []string{"web", "--addr", "127.0.0.1:0", "--host", "risk.example.org, board.example.net", "--db", filepath.Join(t.TempDir(), "risk.db")},
			stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	}()
	url := regexp.MustCompile(`http://127\.0\.0\.1:\d+/`)
	var addr string
	for end := time.Now().Add(30 * time.Second); addr == ""; time.Sleep(20 * time.Millisecond) {
		addr = url.FindString(out.String())
		if time.Now().After(end) {
			t.Fatalf("no address said: %q %q", out.String(), errb.String())
		}
	}
	for path, want := range map[string]int{"": http.StatusOK, "static/app.js": http.StatusOK, "api/matches/1": http.StatusNotFound} {
		res, err := http.Get(addr + path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET /%s: %d %.80s, want %d", path, res.StatusCode, body, want)
		}
	}
	// The operator's link, with a key of this run.
	if !regexp.MustCompile(`Operator \(the page's admin\): open http://127\.0\.0\.1:\d+/#operator=[0-9a-f]{32} `).MatchString(out.String()) {
		t.Errorf("no operator's link said: %q", out.String())
	}
	// The names it answers to: --host's, and no other (DNS rebinding).
	for host, want := range map[string]int{"risk.example.org": http.StatusOK, "board.example.net:443": http.StatusOK, "localhost": http.StatusOK, "evil.example": http.StatusMisdirectedRequest} {
		req, _ := http.NewRequest(http.MethodGet, addr, nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("GET / as %s: %d, want %d", host, res.StatusCode, want)
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d, stderr %q", code, errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("risk web did not stop")
	}
}

// startWeb runs risk web with args on a loopback port until the test
// ends, and returns its address (host:port).
func startWeb(t *testing.T, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var out, errb syncBuffer
	done := make(chan int, 1)
	args = append([]string{"web", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "risk.db")}, args...)
	go func() {
		done <- runEnv(ctx, env{args: args, stdin: strings.NewReader(""), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }})
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != 0 {
			t.Errorf("risk web: exit %d, stderr %q", code, errb.String())
		}
	})
	url := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/`)
	for end := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if m := url.FindStringSubmatch(out.String()); m != nil {
			return m[1]
		}
		if time.Now().After(end) {
			t.Fatalf("no address said: %q %q", out.String(), errb.String())
		}
	}
}

// TestWebLimits (issue 42): risk web bounds its connections with the
// limits its flags give: idle ones, slow headers and slow bodies are
// closed at them, and a new client is served at the cap. Limits that are
// not positive are refused.
func TestWebLimits(t *testing.T) {
	addr := startWeb(t, "--max-conns", "3", "--idle-timeout", "400ms", "--header-timeout", "500ms", "--read-timeout", "600ms", "--write-timeout", "5s")
	tick := 50 * time.Millisecond
	held := []struct {
		h     *httpservetest.Held
		limit time.Duration
	}{
		{httpservetest.Idle(t, addr, "/web/channels"), 400 * time.Millisecond},
		{httpservetest.SlowHeaders(t, addr, tick), 500 * time.Millisecond},
		{httpservetest.SlowBody(t, addr, "/api/matches/1/commands", http.Header{"Content-Type": {"application/json"}}, tick), 600 * time.Millisecond},
	}
	res, err := http.Get("http://" + addr + "/web/channels")
	if err != nil {
		t.Fatalf("a client at the cap: %v", err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("a client at the cap: %s, want 200", res.Status)
	}
	for _, c := range held {
		if _, err := c.h.Closed(c.limit + 2*time.Second); err != nil {
			t.Errorf("%v, want it closed at %v", err, c.limit)
		}
	}

	for _, args := range [][]string{{"--max-conns", "0"}, {"--idle-timeout", "0s"}, {"--read-timeout", "-1s"}, {"--max-header-bytes", "100"}} {
		code, _, stderr := runWith(append([]string{"web"}, args...), nil)
		if code != 2 || !strings.Contains(stderr, args[0]) {
			t.Errorf("risk web %s: exit %d, %q; want 2 naming the flag", strings.Join(args, " "), code, stderr)
		}
	}
}

// TestWebFlags: --limits and the operator's key from the environment, read
// or refused with what is wrong.
func TestWebFlags(t *testing.T) {
	for _, tc := range []struct {
		limits string
		want   web.Limits
		bad    bool
	}{
		{"", web.Limits{}, false},
		{"names=2, page-names=50,matches=1,page-matches=9,name-days=7", web.Limits{NamesPerBrowser: 2, Names: 50, MatchesPerBrowser: 1, Matches: 9, NameDays: 7}, false},
		{"names=0", web.Limits{}, true},
		{"games=3", web.Limits{}, true},
		{"names", web.Limits{}, true},
	} {
		got, err := parseLimits(tc.limits)
		if (err != nil) != tc.bad || (!tc.bad && got != tc.want) {
			t.Errorf("--limits %q: %+v, %v; want %+v (bad %v)", tc.limits, got, err, tc.want, tc.bad)
		}
	}
	for _, tc := range []struct {
		env string
		bad bool
	}{
		{"", false},
		{"a-lasting-key-of-the-operator", false},
		{"short", true},
		{"a key with spaces in it", true},
	} {
		key, err := operatorKey(func(string) string { return tc.env })
		if (err != nil) != tc.bad || (!tc.bad && tc.env != "" && key != tc.env) || (!tc.bad && len(key) < 16) {
			t.Errorf("%s=%q: key %q, %v; want bad %v", operatorEnv, tc.env, key, err, tc.bad)
		}
	}
}
