package metrics_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/metrics"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

func get(t *testing.T, srv *httptest.Server, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(srv.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// /metrics shows what the hooks were told and the database's counts, in
// Prometheus' text format; /healthz answers while the process runs;
// /readyz only while the database answers.
func TestHandler(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := db.Create(ctx, "discord:1", nil, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, m.ID, m.Version, storage.Change{Posts: []json.RawMessage{json.RawMessage(`{}`)}}, time.Now().Add(-time.Minute)); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Create(ctx, "discord:2", nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	mt := metrics.New(db)
	mt.Command("attack", "ok")
	mt.Command("attack", "ok")
	mt.Command("attack", "refused")
	mt.Answer("command", 30*time.Millisecond)
	mt.Render(25 * time.Millisecond)
	mt.Think("hard", 2*time.Second)
	mt.TimerLag("deadline", 3*time.Second)
	srv := httptest.NewServer(mt.Handler())
	defer srv.Close()

	code, body := get(t, srv, "/metrics")
	if code != 200 {
		t.Fatalf("/metrics: %d", code)
	}
	for _, want := range []string{
		`risk_commands_total{command="attack",result="ok"} 2`,
		`risk_commands_total{command="attack",result="refused"} 1`,
		`risk_answer_seconds_bucket{kind="command",le="0.05"} 1`,
		`risk_answer_seconds_bucket{kind="command",le="0.025"} 0`,
		`risk_render_seconds_count 1`,
		`risk_ai_think_seconds_bucket{level="hard",le="2"} 1`,
		`risk_timer_lag_seconds_count{kind="deadline"} 1`,
		"risk_open_matches 2",
		"risk_active_matches 0",
		"risk_outbox_backlog 1",
		"risk_database_up 1",
		"go_goroutines ",
	} {
		if !strings.Contains(body, want+"\n") && !strings.Contains(body, want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
	for _, tt := range []struct {
		path string
		code int
		body string
	}{
		{"/healthz", 200, "ok"},
		{"/readyz", 200, "ready"},
	} {
		if code, body := get(t, srv, tt.path); code != tt.code || !strings.Contains(body, tt.body) {
			t.Errorf("%s: %d %q, want %d %q", tt.path, code, body, tt.code, tt.body)
		}
	}
	db.Close()
	if code, body := get(t, srv, "/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "not ready") {
		t.Errorf("/readyz with the database closed: %d %q", code, body)
	}
	if code, _ := get(t, srv, "/healthz"); code != 200 {
		t.Errorf("/healthz with the database closed: %d", code)
	}
	if _, body := get(t, srv, "/metrics"); !strings.Contains(body, "risk_database_up 0") {
		t.Error("the database's counts are still said to be up")
	}
}
