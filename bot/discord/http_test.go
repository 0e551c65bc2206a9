package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// httpEnv is an adapter serving Discord's HTTP interactions endpoint,
// against the fake Discord.
type httpEnv struct {
	*env
	ep  *Endpoint
	url string
}

func newHTTPEnv(t *testing.T, core Core) *httpEnv {
	t.Helper()
	e := newEnv(t, core, DefaultDeferAfter)
	ctx, cancel := context.WithCancel(context.Background())
	ep, err := e.a.NewEndpoint(ctx, core, e.fake.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(ep)
	t.Cleanup(func() { srv.Close(); cancel(); ep.Wait() })
	return &httpEnv{env: e, ep: ep, url: srv.URL + "/interactions"}
}

// Discord's example payloads, and a PING, signed with the application's
// key, go through: each is answered in the body of the response, as
// Discord takes it (the fake checks the answer as a callback).
func TestEndpointAnswersDiscordsPayloads(t *testing.T) {
	var calls atomic.Int32
	core := coreFunc{
		handle: func(ctx context.Context, req chat.Request, r chat.Replier) error {
			calls.Add(1)
			return r.Reply(ctx, chat.Message{Text: "/risk " + req.Command + " answered"})
		},
		click: func(ctx context.Context, c chat.Click, r chat.Replier) error {
			calls.Add(1)
			return r.Reply(ctx, chat.Message{Text: "clicked " + c.ID})
		},
		autocomplete: func(context.Context, chat.Request, string) []chat.Choice {
			return []chat.Choice{{Name: "Kamchatka", Value: "Kamchatka"}}
		},
	}
	h := newHTTPEnv(t, core)
	for _, tt := range []struct {
		file     string
		callback int
		text     string
	}{
		{"ping", 1, ""},
		{"application_command.json", 4, "I only know /risk"},
		{"application_command_subcommand.CONSTRUCTED.json", 5, "/risk attack answered"},
		{"application_command_autocomplete.json", 8, ""},
		{"risk_attack_autocomplete.CONSTRUCTED.json", 8, ""},
		{"message_component_button.json", 5, "clicked click_one"},
		{"message_component_string_select.json", 4, "That control is not one of mine"},
	} {
		t.Run(tt.file, func(t *testing.T) {
			payload := []byte(`{"id":"` + h.fake.Snowflake() + `","type":1,"application_id":"` + fakediscord.AppID + `","token":"ping","version":1}`)
			if tt.file != "ping" {
				// The application is the fake's, so that the follow-ups
				// reach its webhooks.
				m := template(t, tt.file)
				m["application_id"] = fakediscord.AppID
				payload = encode(t, m)
			}
			delivered, status, body, err := h.fake.DeliverHTTP(h.url, payload)
			if err != nil || status != http.StatusOK {
				t.Fatalf("status %d, %v: %s", status, err, body)
			}
			var head struct {
				ID string `json:"id"`
			}
			json.Unmarshal(delivered, &head)
			if tt.file == "ping" {
				if string(body) != `{"type":1}` {
					t.Fatalf("PING answered %s", body)
				}
				return
			}
			if !fakediscord.Await(5*time.Second, func() bool {
				m, typ := h.fake.Answer(head.ID)
				return typ == tt.callback && (tt.text == "" || m != nil && strings.Contains(m.Content, tt.text))
			}) {
				m, typ := h.fake.Answer(head.ID)
				t.Fatalf("answered with callback %d (%+v), want %d with %q; response body %s", typ, m, tt.callback, tt.text, body)
			}
		})
	}
	h.ep.Wait()
	if v := h.fake.TakeViolations(); len(v) > 0 {
		t.Fatalf("answers broke Discord's rules: %v", v)
	}
	if calls.Load() != 2 {
		t.Fatalf("the core handled %d commands and clicks, want 2", calls.Load())
	}
}

// A request is refused with 401, before anything else, when its signature
// is not the application's, its body changed, a header is missing, its
// timestamp is stale, or it was sent before: the core never sees it.
func TestEndpointRefusesUnsignedRequests(t *testing.T) {
	var calls atomic.Int32
	core := coreFunc{handle: func(ctx context.Context, req chat.Request, r chat.Replier) error {
		calls.Add(1)
		return r.Reply(ctx, chat.Message{Text: "done"})
	}}
	h := newHTTPEnv(t, core)
	other := ed25519.NewKeyFromSeed(bytes.Repeat([]byte{7}, 32))
	body := func() []byte {
		b, err := h.fake.Interaction(slash(t, ann, channel, "help"))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	send := func(body []byte, header map[string]string) int {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(body))
		for k, v := range header {
			if v != "" {
				req.Header.Set(k, v)
			}
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	signed := func(b []byte, at time.Time) map[string]string {
		ts, sig := fakediscord.Sign(at, b)
		return map[string]string{"X-Signature-Timestamp": ts, "X-Signature-Ed25519": sig}
	}
	now := time.Now()
	replayed := body()
	if code := send(replayed, signed(replayed, now)); code != http.StatusOK {
		t.Fatalf("a good request: %d", code)
	}
	for _, tt := range []struct {
		name   string
		body   []byte
		header func(b []byte) map[string]string
	}{
		{"wrong key", body(), func(b []byte) map[string]string {
			ts := strconv.FormatInt(now.Unix(), 10)
			return map[string]string{"X-Signature-Timestamp": ts, "X-Signature-Ed25519": hex.EncodeToString(ed25519.Sign(other, append([]byte(ts), b...)))}
		}},
		{"changed body", body(), func(b []byte) map[string]string {
			h := signed(b, now)
			b[len(b)-2] = ' ' // after signing
			return h
		}},
		{"changed timestamp", body(), func(b []byte) map[string]string {
			h := signed(b, now)
			h["X-Signature-Timestamp"] = strconv.FormatInt(now.Unix()+1, 10)
			return h
		}},
		{"no signature", body(), func(b []byte) map[string]string {
			h := signed(b, now)
			h["X-Signature-Ed25519"] = ""
			return h
		}},
		{"no timestamp", body(), func(b []byte) map[string]string {
			h := signed(b, now)
			h["X-Signature-Timestamp"] = ""
			return h
		}},
		{"garbled signature", body(), func(b []byte) map[string]string {
			h := signed(b, now)
			h["X-Signature-Ed25519"] = "zz" + h["X-Signature-Ed25519"][2:]
			return h
		}},
		{"stale timestamp", body(), func(b []byte) map[string]string { return signed(b, now.Add(-MaxSkew-5*time.Second)) }},
		{"timestamp from the future", body(), func(b []byte) map[string]string { return signed(b, now.Add(MaxSkew+5*time.Second)) }},
		{"replayed", replayed, func(b []byte) map[string]string { return signed(b, now) }},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := calls.Load()
			// The header is made from the body as sent (a change after
			// signing changes the body in place).
			hdr := tt.header(tt.body)
			if code := send(tt.body, hdr); code != http.StatusUnauthorized {
				t.Fatalf("status %d, want 401", code)
			}
			h.ep.Wait()
			if calls.Load() != before {
				t.Fatal("the core saw the request")
			}
		})
	}
	if code := send([]byte(`{}`), nil); code != http.StatusUnauthorized {
		t.Fatalf("no headers at all: %d, want 401", code)
	}
	if resp, err := http.Get(h.url); err != nil || resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET: %v, %v", resp.StatusCode, err)
	}
}

// A match played through the HTTP endpoint with the real core: the first
// answer of each interaction goes back in the response's body (a deferral
// for what writes or renders), the rest through Discord's webhooks, as in
// gateway mode; the map comes as an edit with the PNG.
func TestEndpointPlaysAMatch(t *testing.T) {
	e := newEnv(t, nil, DefaultDeferAfter)
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := &clock{t: time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)}
	core := newCore(t, db, e.a, c.Now, e.a.log.With("part", "core"))
	ctx, cancel := context.WithCancel(context.Background())
	ep, err := e.a.NewEndpoint(ctx, core, e.fake.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(ep)
	t.Cleanup(func() { srv.Close(); cancel(); ep.Wait() })
	do := func(payload []byte) (fakediscord.Message, int) {
		t.Helper()
		delivered, status, body, err := e.fake.DeliverHTTP(srv.URL, payload)
		if err != nil || status != http.StatusOK {
			t.Fatalf("status %d, %v: %s", status, err, body)
		}
		var head struct {
			ID string `json:"id"`
		}
		json.Unmarshal(delivered, &head)
		var m *fakediscord.Message
		var typ int
		fakediscord.Await(10*time.Second, func() bool { m, typ = e.fake.Answer(head.ID); return m != nil && !m.Loading })
		if m == nil {
			t.Fatalf("no answer (callback %d)", typ)
		}
		return *m, typ
	}
	m, typ := do(slash(t, ann, channel, "new", o("thread", "off")))
	if typ != 5 || !m.Ephemeral || !strings.Contains(m.Content, "Your match is open") {
		t.Fatalf("/risk new: callback %d, ephemeral %v, %q", typ, m.Ephemeral, m.Content)
	}
	do(slash(t, bob, channel, "join"))
	m, _ = do(slash(t, ann, channel, "start"))
	wantText(t, m, "The match has started")
	m, _ = do(slash(t, ann, channel, "status"))
	wantMap(t, m)
	h := sha256.Sum256(m.Files[0].Data)
	t.Logf("map %x, %d bytes", h[:4], len(m.Files[0].Data))
	if v := e.fake.TakeViolations(); len(v) > 0 {
		t.Fatalf("answers broke Discord's rules: %v", v)
	}
}
