package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/tokens"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// placeBody is the body of a POST of one army placed on terr after
// version commands.
func placeBody(version, terr int) string {
	return fmt.Sprintf(`{"version":%d,"command":{"type":"place","territory":%d,"armies":1}}`, version, terr)
}

// TestPostFollowsOtherProcesses: a POSTed command is played on the match
// and the token's seat this server keeps in memory, with no read of
// either, and yet whatever another process sharing the database did is
// heeded at once: a match it moved on is played at its version (and a
// command meant for the version before is stale), a token it revoked
// plays nothing more and is told so, whatever the request, and a token it
// made after plays.
func TestPostFollowsOtherProcesses(t *testing.T) {
	e := newEnv(t, Config{})
	p := newPlacer(t, e)
	ctx := context.Background()
	other, err := sqlite.Open(ctx, e.path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	path := fmt.Sprintf("/api/matches/%d/commands", p.id)
	post := func(tok, body string) (int, string) {
		t.Helper()
		var out struct {
			Error string `json:"error"`
		}
		return (&client{t: t, base: e.ts.URL, token: tok}).post(path, body, &out), out.Error
	}
	version := func() int {
		t.Helper()
		h, err := other.Head(ctx, p.id)
		if err != nil {
			t.Fatal(err)
		}
		return h.Commands
	}
	// The server reads the match and the token once.
	if st, msg := post(p.tok, placeBody(p.version, p.terr)); st != http.StatusOK {
		t.Fatalf("the first placement: %d %s", st, msg)
	}
	p.version++

	// The other process plays one of Ann's armies.
	l, err := other.Load(ctx, p.id)
	if err != nil {
		t.Fatal(err)
	}
	en, _, err := l.Game.Apply(l.Game.State.SeatByID(userID("Ann")), engine.Place{Territory: p.terr, Armies: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := other.Save(ctx, p.id, l.Version, storage.Change{Entries: []engine.Entry{en}, Game: l.Game}, time.Now()); err != nil {
		t.Fatal(err)
	}
	if st, msg := post(p.tok, placeBody(p.version, p.terr)); st != http.StatusConflict {
		t.Errorf("a placement meant for the version before the other process's: %d %s, want 409", st, msg)
	}
	if st, msg := post(p.tok, placeBody(p.version+1, p.terr)); st != http.StatusOK {
		t.Errorf("a placement at the version the other process left: %d %s, want 200", st, msg)
	}
	if got, want := version(), p.version+2; got != want {
		t.Fatalf("the log holds %d commands, want %d", got, want)
	}

	// The other process revokes Ann's tokens.
	if err := tokens.Revoke(ctx, other, p.id, userID("Ann"), time.Now()); err != nil {
		t.Fatal(err)
	}
	at := version()
	for _, tt := range []struct{ name, body string }{
		{"a placement", placeBody(at, p.terr)},
		{"a stale placement", placeBody(at-1, p.terr)},
		{"a placement on another's territory", placeBody(at, -1)},
		{"a body that is no command", `{"version":1}`},
	} {
		if st, msg := post(p.tok, tt.body); st != http.StatusUnauthorized || !strings.Contains(msg, "revoked") {
			t.Errorf("%s with the revoked token: %d %q, want 401 saying it was revoked", tt.name, st, msg)
		}
	}
	if got := version(); got != at {
		t.Fatalf("the revoked token played: the log holds %d commands, want %d", got, at)
	}
	tok, err := tokens.New(ctx, other, p.id, chat.User{ID: userID("Ann"), Name: "Ann"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if st, msg := post(tok, placeBody(at, p.terr)); st != http.StatusOK {
		t.Errorf("the token made after: %d %s, want 200", st, msg)
	}
}

// storeCalls is a store that records the calls a test is about.
type storeCalls struct {
	*sqlite.DB
	mu    sync.Mutex
	calls []string
}

func (c *storeCalls) call(name string) {
	c.mu.Lock()
	c.calls = append(c.calls, name)
	c.mu.Unlock()
}

// take returns the calls recorded since the last take, sorted.
func (c *storeCalls) take() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := slices.Sorted(slices.Values(c.calls))
	c.calls = nil
	return out
}

func (c *storeCalls) Setting(ctx context.Context, scope, id string) (json.RawMessage, error) {
	c.call("Setting " + scope)
	return c.DB.Setting(ctx, scope, id)
}

func (c *storeCalls) SettingsOf(ctx context.Context, keys ...storage.Setting) ([]storage.Setting, error) {
	name := "SettingsOf"
	for _, k := range keys {
		name += " " + k.Scope
	}
	c.call(name)
	return c.DB.SettingsOf(ctx, keys...)
}

func (c *storeCalls) Head(ctx context.Context, id int64) (storage.Head, error) {
	c.call("Head")
	return c.DB.Head(ctx, id)
}

func (c *storeCalls) OpenHead(ctx context.Context, channel string) (storage.Head, error) {
	c.call("OpenHead")
	return c.DB.OpenHead(ctx, channel)
}

func (c *storeCalls) Load(ctx context.Context, id int64) (*storage.Loaded, error) {
	c.call("Load")
	return c.DB.Load(ctx, id)
}

func (c *storeCalls) Active(ctx context.Context, channel string) (*storage.Loaded, error) {
	c.call("Active")
	return c.DB.Active(ctx, channel)
}

func (c *storeCalls) Save(ctx context.Context, id, version int64, ch storage.Change, now time.Time) (int64, error) {
	name := "Save"
	if ch.Requires != nil {
		name += " requiring " + ch.Requires.Scope
	}
	if ch.Reads != nil {
		name += " reading"
		for _, k := range ch.Reads.Keys {
			name += " " + k.Scope
		}
	}
	c.call(name)
	return c.DB.Save(ctx, id, version, ch, now)
}

// TestPostReadsOnlyItsSave: a placement POSTed on a match the server
// keeps, with a token it used before, asks the database for one thing:
// its save, which checks in its transaction the match's version and the
// token's generation, and reads what the answer may add (whether the
// channel refuses the bot, whether the player is back). Before, it read
// the token's seat and generation, the match's head twice (by id, then by
// channel), then saved, then read the two asides: seven calls, one after
// the other.
func TestPostReadsOnlyItsSave(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	db, err := sqlite.Open(ctx, t.TempDir()+"/risk.db")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	st := &storeCalls{DB: db}
	srv := New(Config{Store: st, Rate: 1e6, Burst: 1e6})
	b, err := bot.New(bot.Standard(bot.Config{Store: st, Poster: srv, Scope: Prefix, Seed: func() uint64 { return 41 }}))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	srv.SetBot(b)
	e := &testEnv{srv: srv, bot: b, db: db}
	e.ts = httptest.NewServer(srv.Handler())
	t.Cleanup(e.ts.Close)
	p := newPlacer(t, e)
	c := &client{t: t, base: e.ts.URL, token: p.tok}
	path := fmt.Sprintf("/api/matches/%d/commands", p.id)
	for i := range 3 {
		st.take()
		var out struct {
			Error string `json:"error"`
		}
		if code := c.post(path, placeBody(p.version, p.terr), &out); code != http.StatusOK {
			t.Fatalf("placement %d: %d %s", i+1, code, out.Error)
		}
		p.version++
		got := st.take()
		want := []string{"Save requiring web-token-gen reading channel player"}
		if i == 0 {
			// The first reads the token's seat and the match.
			continue
		}
		if !slices.Equal(got, want) {
			t.Errorf("placement %d asked the store %q, want %q", i+1, got, want)
		}
	}
}
