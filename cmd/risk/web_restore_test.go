package main

import (
	"bufio"
	"context"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestWebRestores: `risk web` started on a database with a match under way
// (here a console's) shows the match in its channel, told again, before
// anything else: the page keeps no messages across runs.
func TestWebRestores(t *testing.T) {
	db := filepath.Join(t.TempDir(), "risk.db")
	var out, errb syncBuffer
	script := "Ann: /risk new\nAnn: /risk addbot level:easy\nAnn: /risk start\n"
	if code := runEnv(context.Background(), env{args: []string{"console", "--db", db, "--channel", "den", "--images", t.TempDir()},
		stdin: strings.NewReader(script), stdout: &out, stderr: &errb, getenv: func(string) string { return "" }}); code != 0 {
		t.Fatalf("risk console: exit %d, %q", code, errb.String())
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out, errb = syncBuffer{}, syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- runEnv(ctx, env{args: []string{"web", "--addr", "127.0.0.1:0", "--db", db},
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
	sctx, stop := context.WithTimeout(ctx, 10*time.Second)
	defer stop()
	req, _ := http.NewRequestWithContext(sctx, http.MethodGet, addr+"web/events?channel=console:den", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	first := ""
	for sc := bufio.NewScanner(res.Body); sc.Scan(); {
		if data, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			first = data
			break
		}
	}
	res.Body.Close()
	if !strings.Contains(first, "told again from its log") {
		t.Errorf("the console's channel in the page begins with %.200q, want its match told again", first)
	}
	cancel()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("risk web did not stop")
	}
}
