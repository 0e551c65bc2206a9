package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
	"unicode"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
	"github.com/riskbot/riskbot/bot/internal/faketest"
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
	return newHTTPEnvWith(t, core, func(*Endpoint) {})
}

// newHTTPEnvWith is newHTTPEnv with the endpoint set up by set before it
// serves (its clock, its limits).
func newHTTPEnvWith(t *testing.T, core Core, set func(*Endpoint)) *httpEnv {
	t.Helper()
	e := newEnv(t, core, DefaultDeferAfter)
	ctx, cancel := context.WithCancel(context.Background())
	ep, err := e.a.NewEndpoint(ctx, core, e.fake.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	set(ep)
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

// post sends a body to the endpoint with the headers given (an empty
// value is left out) and returns the status and the response's body.
func post(t *testing.T, url string, body []byte, header map[string]string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	for k, v := range header {
		if v != "" {
			req.Header.Set(k, v)
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// signedHeader is the header of a body signed as Discord signs it.
func signedHeader(ts, sig string) map[string]string {
	return map[string]string{"X-Signature-Timestamp": ts, "X-Signature-Ed25519": sig}
}

// changes lists what the fake holds of every message that is not as it
// was in before (nil for the first call): a message made, edited or
// deleted.
func changes(f *fakediscord.Server, before map[string]string) (now map[string]string, changed []string) {
	now = map[string]string{}
	for _, m := range f.Messages() {
		now[m.ID] = fmt.Sprintf("%s %s of %s: edits %d, deleted %v, %q", m.ID, m.Kind, m.Interaction, m.Edits, m.Deleted, m.Content)
		if before != nil && before[m.ID] != now[m.ID] {
			changed = append(changed, now[m.ID])
		}
	}
	return now, changed
}

// Security issue, item 4: the replay check compared the signature header as
// text, and hex has two cases: a signed command or click sent again with
// its signature in upper or mixed case was taken as new. Its request key
// stopped it from applying twice, but its answer ("This was done
// already", private) went out with the first one's token, and so edited
// (and deleted) the first one's public answer, or the message whose
// button was clicked. Now a replay is known by the signature's bytes and
// by the interaction's ID, however the header spells them, and is refused
// before the adapter sees it: nothing of the first one changes.
func TestEndpointRefusesReplaysHoweverSpelled(t *testing.T) {
	var calls atomic.Int32
	var mu sync.Mutex
	applied := map[string]bool{}
	// first says whether a request key is new, as the core's record of
	// requests does.
	first := func(key string) bool {
		mu.Lock()
		defer mu.Unlock()
		seen := applied[key]
		applied[key] = true
		return !seen
	}
	done := chat.Message{Private: true, Text: "This was done already: /risk new."}
	core := coreFunc{
		handle: func(ctx context.Context, req chat.Request, r chat.Replier) error {
			calls.Add(1)
			switch {
			case !first(req.Key):
				return r.Reply(ctx, done)
			case req.Command == "attack":
				id := req.Options["from"]
				return r.Reply(ctx, chat.Message{Private: true, Text: "Attacked.", Buttons: [][]chat.Button{{{ID: id, Label: "Attack again"}}}})
			}
			return r.Reply(ctx, chat.Message{Text: "Ann opened a match."})
		},
		click: func(ctx context.Context, c chat.Click, r chat.Replier) error {
			calls.Add(1)
			if !first(c.Key) {
				return r.Reply(ctx, done)
			}
			return r.Reply(ctx, chat.Message{Private: true, Text: "Attacked again."})
		},
	}
	h := newHTTPEnv(t, core)
	mixed := func(s string) string {
		b := []byte(s)
		for i := range b {
			if i%2 == 0 {
				b[i] = byte(unicode.ToUpper(rune(b[i])))
			}
		}
		return string(b)
	}
	spellings := []struct {
		name  string
		spell func(string) string
	}{
		{"as sent", func(s string) string { return s }},
		{"upper case", strings.ToUpper},
		{"mixed case", mixed},
		{"spaces around", func(s string) string { return " " + s + "\t" }},
	}
	deliver := func(t *testing.T, payload []byte) (delivered []byte, id string) {
		t.Helper()
		delivered, status, body, err := h.fake.DeliverHTTP(h.url, payload)
		if err != nil || status != http.StatusOK {
			t.Fatalf("status %d, %v: %s", status, err, body)
		}
		var head struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(delivered, &head); err != nil {
			t.Fatal(err)
		}
		h.ep.Wait() // answered to the end
		return delivered, head.ID
	}
	for n, sp := range spellings {
		for _, kind := range []string{"command", "click"} {
			t.Run(kind+"/"+sp.name, func(t *testing.T) {
				payload := slash(t, ann, channel, "new")
				if kind == "click" {
					button := "again-" + strconv.Itoa(n)
					deliver(t, slash(t, ann, channel, "attack", o("from", button), o("to", "Kamchatka")))
					payload = click(t, ann, channel, button)
				}
				delivered, id := deliver(t, payload)
				before, _ := changes(h.fake, nil)
				handled := calls.Load()
				ts, sig := h.fake.Signed(id)
				if code, body := post(t, h.url, delivered, signedHeader(ts, sp.spell(sig))); code != http.StatusUnauthorized {
					t.Errorf("the replay: status %d (%s), want 401", code, strings.TrimSpace(body))
				}
				h.ep.Wait()
				if got := calls.Load(); got != handled {
					t.Errorf("the core saw the replay")
				}
				if _, changed := changes(h.fake, before); len(changed) > 0 {
					t.Errorf("the replay changed messages:\n%s", strings.Join(changed, "\n"))
				}
			})
		}
	}
	if v := h.fake.TakeViolations(); len(v) > 0 {
		t.Fatalf("answers broke Discord's rules: %v", v)
	}
}

// A replay sent to another process behind the load balancer, within the
// skew: that process has not seen it, and the core (through the database)
// knows the request only as carried out already. Its answer, marked
// Again, must not go through the token, which is the first delivery's
// too: before, it edited and deleted the first one's answer.
func TestEndpointReplayToAnotherProcess(t *testing.T) {
	var mu sync.Mutex
	applied := map[string]bool{}
	first := func(key string) bool {
		mu.Lock()
		defer mu.Unlock()
		seen := applied[key]
		applied[key] = true
		return !seen
	}
	again := chat.Message{Private: true, Text: "This was done already: /risk new.", Again: true}
	core := coreFunc{
		handle: func(ctx context.Context, req chat.Request, r chat.Replier) error {
			switch {
			case !first(req.Key):
				return r.Reply(ctx, again)
			case req.Command == "attack":
				return r.Reply(ctx, chat.Message{Private: true, Text: "Attacked.", Buttons: [][]chat.Button{{{ID: "again", Label: "Attack again"}}}})
			}
			return r.Reply(ctx, chat.Message{Text: "Ann opened a match."})
		},
		click: func(ctx context.Context, c chat.Click, r chat.Replier) error {
			if !first(c.Key) {
				return r.Reply(ctx, again)
			}
			return r.Reply(ctx, chat.Message{Private: true, Text: "Attacked again."})
		},
	}
	h := newHTTPEnv(t, core)
	// The second process: its own adapter and endpoint, the same Discord.
	log, _ := testLog(t)
	a, err := New(Config{Token: fakediscord.Token, HTTPClient: h.fake.Client(), Log: log, DeferAfter: DefaultDeferAfter})
	if err != nil {
		t.Fatal(err)
	}
	a.s.State.Application = &discordgo.Application{ID: fakediscord.AppID}
	ctx, cancel := context.WithCancel(context.Background())
	other, err := a.NewEndpoint(ctx, core, h.fake.PublicKey())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(other)
	t.Cleanup(func() { srv.Close(); cancel(); other.Wait() })

	deliver := func(t *testing.T, payload []byte) (delivered []byte, id string) {
		t.Helper()
		delivered, status, body, err := h.fake.DeliverHTTP(h.url, payload)
		if err != nil || status != http.StatusOK {
			t.Fatalf("status %d, %v: %s", status, err, body)
		}
		var head struct {
			ID string `json:"id"`
		}
		if err := json.Unmarshal(delivered, &head); err != nil {
			t.Fatal(err)
		}
		h.ep.Wait()
		return delivered, head.ID
	}
	for _, kind := range []string{"command", "click"} {
		t.Run(kind, func(t *testing.T) {
			payload := slash(t, ann, channel, "new")
			if kind == "click" {
				deliver(t, slash(t, ann, channel, "attack"))
				payload = click(t, ann, channel, "again")
			}
			delivered, id := deliver(t, payload)
			before, _ := changes(h.fake, nil)
			ts, sig := h.fake.Signed(id)
			code, body := post(t, srv.URL, delivered, signedHeader(ts, sig))
			other.Wait()
			// The replayer gets an acknowledgement, and nothing more.
			if code != http.StatusOK || !strings.Contains(body, `"type":`) {
				t.Errorf("the replay: status %d, %s", code, body)
			}
			if _, changed := changes(h.fake, before); len(changed) > 0 {
				t.Errorf("the replay changed messages:\n%s", strings.Join(changed, "\n"))
			}
		})
	}
	if v := h.fake.TakeViolations(); len(v) > 0 {
		t.Fatalf("answers broke Discord's rules: %v", v)
	}
}

// Security issue, item 7: a signed interaction of a type the bot does not
// handle (a modal's submission: the bot shows none; a type Discord may
// add) waited 2.5 s for an answer that never came, then got 503. It is
// refused at once with 400 and a reason, before the adapter sees it;
// PING still gets PONG (TestEndpointAnswersDiscordsPayloads).
func TestEndpointRefusesUnhandledTypes(t *testing.T) {
	var calls atomic.Int32
	count := func(context.Context, chat.Request, chat.Replier) error { calls.Add(1); return nil }
	h := newHTTPEnv(t, coreFunc{handle: count, click: func(context.Context, chat.Click, chat.Replier) error { calls.Add(1); return nil }})
	for _, tt := range []struct {
		name string
		typ  int
	}{
		{"modal submit", 5},
		{"unknown", 99},
	} {
		t.Run(tt.name, func(t *testing.T) {
			m := template(t, "message_component_button.json")
			retarget(m, ann, channel)
			m["type"] = tt.typ
			m["data"] = map[string]any{"custom_id": "form", "components": []any{}}
			delete(m, "message")
			delivered, status, body, err := h.fake.DeliverHTTP(h.url, encode(t, m))
			if err != nil {
				t.Fatal(err)
			}
			if want := fmt.Sprintf("interaction type %d is not handled", tt.typ); status != http.StatusBadRequest || !strings.Contains(string(body), want) {
				t.Fatalf("status %d, %q; want 400, %q", status, body, want)
			}
			var head struct {
				ID string `json:"id"`
			}
			json.Unmarshal(delivered, &head)
			h.ep.Wait()
			if m, typ := h.fake.Answer(head.ID); m != nil || typ != 0 {
				t.Errorf("answered with callback %d: %+v", typ, m)
			}
		})
	}
	if calls.Load() != 0 {
		t.Errorf("the core saw %d of them", calls.Load())
	}
}

// The requests remembered against replays are bounded: each is forgotten
// once its timestamp is stale (a replay is refused as stale from then
// on), and when too many are fresh at once the endpoint refuses new ones
// (503) rather than forget a fresh one early, which would let its replay
// in.
func TestEndpointBoundsWhatItRemembers(t *testing.T) {
	c := faketest.NewClock(time.Now())
	h := newHTTPEnvWith(t, replyWith(chat.Message{Text: "done"}), func(ep *Endpoint) {
		ep.now = c.Now
		ep.maxSeen = 4 // two requests: each is remembered under two keys
	})
	ping := func() []byte {
		return []byte(`{"id":"` + h.fake.Snowflake() + `","type":1,"application_id":"` + fakediscord.AppID + `","token":"ping","version":1}`)
	}
	send := func(body []byte) int {
		t.Helper()
		code, _ := post(t, h.url, body, signedHeader(fakediscord.Sign(c.Now(), body)))
		return code
	}
	first := ping()
	for i, tt := range []struct {
		body []byte
		want int
	}{
		{first, http.StatusOK},
		{ping(), http.StatusOK},
		{ping(), http.StatusServiceUnavailable}, // full
		{first, http.StatusUnauthorized},        // still remembered
	} {
		if got := send(tt.body); got != tt.want {
			t.Fatalf("request %d: status %d, want %d", i+1, got, tt.want)
		}
	}
	c.Advance(MaxSkew + sweepEvery + time.Second)
	if got := send(ping()); got != http.StatusOK {
		t.Fatalf("once the first ones are stale: status %d, want 200", got)
	}
	h.ep.mu.Lock()
	n := len(h.ep.seen)
	h.ep.mu.Unlock()
	if n != 2 {
		t.Errorf("%d keys remembered, want the last request's 2", n)
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
	c := faketest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
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
