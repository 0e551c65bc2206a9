package discord

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
	"github.com/riskbot/riskbot/bot/httpserve"
	"github.com/riskbot/riskbot/bot/httpserve/httpservetest"
)

// TestServeBoundsConnections (issue 42): the interactions endpoint as risk
// discord --http serves it (Adapter.Serve) holds no connection for ever:
// kept-alive idle connections, headers sent a byte at a time and a body
// sent a byte at a time are closed at their limits, and with the cap
// reached by them, Discord's interactions are answered at once.
func TestServeBoundsConnections(t *testing.T) {
	e := newEnv(t, nil, DefaultDeferAfter)
	core := replyWith(chat.Message{Text: "pong"})
	limits := httpserve.Limits{Conns: 6, Header: time.Second, Read: 1200 * time.Millisecond, Write: 3 * time.Second,
		Idle: 800 * time.Millisecond, HeaderBytes: 8 << 10}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	health := func(mux *http.ServeMux) {
		mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	}
	go func() {
		done <- e.a.Serve(ctx, core, ln, ServeConfig{Key: e.fake.PublicKey(), Limits: limits, Health: health})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	if !fakediscord.Await(5*time.Second, func() bool { return len(e.fake.Commands("")) > 0 }) {
		t.Fatal("/risk was not registered")
	}

	tick := 100 * time.Millisecond
	held := []*httpservetest.Held{
		httpservetest.Idle(t, addr, "/healthz"),
		httpservetest.Idle(t, addr, "/healthz"),
		httpservetest.SlowHeaders(t, addr, tick),
		httpservetest.SlowHeaders(t, addr, tick),
		httpservetest.SlowBody(t, addr, "/", http.Header{"Content-Type": {"application/json"}, "X-Signature-Ed25519": {"00"}, "X-Signature-Timestamp": {"1"}}, tick),
		httpservetest.SlowBody(t, addr, "/", http.Header{"Content-Type": {"application/json"}}, tick),
	}
	for i := range 3 {
		at := time.Now()
		ping := []byte(`{"id":"` + e.fake.Snowflake() + `","type":1,"application_id":"` + fakediscord.AppID + `","token":"ping","version":1}`)
		_, status, body, err := e.fake.DeliverHTTP("http://"+addr+"/", ping)
		if err != nil || status != http.StatusOK || string(body) != `{"type":1}` {
			t.Fatalf("PING %d at the cap: %d %s %v, want 200 and PONG", i+1, status, body, err)
		}
		if d := time.Since(at); d > limits.Idle/2 {
			t.Errorf("PING %d at the cap: answered after %v, want at once", i+1, d.Round(time.Millisecond))
		}
	}
	http.DefaultClient.CloseIdleConnections()
	for _, h := range held {
		limit := map[string]time.Duration{"idle keep-alive": limits.Idle, "slow headers": limits.Header, "slow body": limits.Read}[h.Kind]
		if _, err := h.Closed(limit + 2*time.Second); err != nil {
			t.Errorf("%v, want it closed at %v", err, limit)
		}
	}
}
