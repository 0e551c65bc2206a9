package web

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// counting is the database with its reads counted: the matches loaded
// (with their games), their heads read alone, and the log entries read.
// A load may be made slow, as a busy database's is.
type counting struct {
	*sqlite.DB
	loads, heads, entries atomic.Int64
	slow                  atomic.Int64 // a load's delay, in ns
}

func (c *counting) Load(ctx context.Context, id int64) (*storage.Loaded, error) {
	c.loads.Add(1)
	time.Sleep(time.Duration(c.slow.Load()))
	return c.DB.Load(ctx, id)
}

func (c *counting) Active(ctx context.Context, channel string) (*storage.Loaded, error) {
	c.loads.Add(1)
	return c.DB.Active(ctx, channel)
}

func (c *counting) Head(ctx context.Context, id int64) (storage.Head, error) {
	c.heads.Add(1)
	return c.DB.Head(ctx, id)
}

func (c *counting) OpenHead(ctx context.Context, channel string) (storage.Head, error) {
	c.heads.Add(1)
	return c.DB.OpenHead(ctx, channel)
}

func (c *counting) Export(ctx context.Context, id int64) (*storage.Export, error) {
	x, err := c.DB.Export(ctx, id)
	if err == nil {
		c.entries.Add(int64(len(x.Record.Log)))
	}
	return x, err
}

func (c *counting) ExportLog(ctx context.Context, id int64, after, limit int) (*storage.Export, int, error) {
	x, n, err := c.DB.ExportLog(ctx, id, after, limit)
	if err == nil {
		c.entries.Add(int64(len(x.Record.Log)))
	}
	return x, n, err
}

// newCountingEnv is newEnv on a database whose reads are counted, its
// spectators' matches looked at every `every`.
func newCountingEnv(t *testing.T, every time.Duration) (*testEnv, *counting) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	path := filepath.Join(t.TempDir(), "risk.db")
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	c := &counting{DB: db}
	srv := New(Config{Store: c, Rate: 1e6, Burst: 1e6, ClientStreams: 32})
	srv.watchers.every = every
	seed := uint64(41)
	b, err := bot.New(bot.Standard(bot.Config{Store: c, Poster: srv, Scope: Prefix, Seed: func() uint64 { seed++; return seed }}))
	if err != nil {
		t.Fatal(err)
	}
	srv.SetBot(b)
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	e := &testEnv{srv: srv, bot: b, db: db, ts: ts, path: path}
	e.stop = sync.OnceFunc(func() {
		cancel()
		ts.Close()
		b.Close()
		db.Close()
	})
	t.Cleanup(e.stop)
	ts.Start()
	return e, c
}

// follow opens a spectator's page of match id as watch.js does: on each
// "state" event of its stream, it reads the match (GET /api/matches/{id})
// and sends the version it read on seen.
func follow(t *testing.T, e *testEnv, id int64, seen chan<- int64) {
	t.Helper()
	res, err := e.ts.Client().Get(fmt.Sprintf("%s/watch/%d/events", e.ts.URL, id))
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /watch/%d/events: %d", id, res.StatusCode)
	}
	t.Cleanup(func() { res.Body.Close() })
	go func() {
		sc := bufio.NewScanner(res.Body)
		state := false
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "event: state":
				state = true
			case state && strings.HasPrefix(line, "data: "):
				state = false
				r, err := e.ts.Client().Get(fmt.Sprintf("%s/api/matches/%d", e.ts.URL, id))
				if err != nil {
					return
				}
				var m matchJSON
				err = json.NewDecoder(r.Body).Decode(&m)
				r.Body.Close()
				if err != nil || r.StatusCode != http.StatusOK {
					seen <- -1
					continue
				}
				seen <- m.Version
			}
		}
	}()
}

// TestSpectatorsAskTheVersionAndShareOneLoad follows a match with five
// spectators' pages. While it does not change, the server asks the
// database for its head (its version) once a look, whatever the number of
// spectators, and loads nothing; when another process changes it, the
// pages all ask for it at once, and one load answers them all, though
// the database is slow.
func TestSpectatorsAskTheVersionAndShareOneLoad(t *testing.T) {
	const every = 20 * time.Millisecond
	e, c := newCountingEnv(t, every)
	id := startMatch(t, e, "watched")
	ctx := context.Background()
	const spectators = 5
	seen := make(chan int64, 4*spectators)
	for range spectators {
		follow(t, e, id, seen)
	}
	wait := func(want int64) {
		t.Helper()
		for i := range spectators {
			select {
			case v := <-seen:
				if v != want {
					t.Fatalf("spectator %d read version %d, want %d", i, v, want)
				}
			case <-time.After(10 * time.Second):
				t.Fatalf("%d of %d spectators read the match", i, spectators)
			}
		}
	}
	h, err := e.db.Head(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	wait(h.Version)

	c.loads.Store(0)
	c.heads.Store(0)
	start := time.Now()
	time.Sleep(10 * every)
	loads, heads, looks := c.loads.Load(), c.heads.Load(), int64(time.Since(start)/every)
	if loads != 0 {
		t.Errorf("nothing changed: %d loads, want 0", loads)
	}
	if heads < 1 || heads > looks+2 {
		t.Errorf("nothing changed for %d looks: %d heads read, want 1 to %d (one a look, whatever the spectators)", looks, heads, looks+2)
	}
	select {
	case v := <-seen:
		t.Fatalf("nothing changed: a spectator read the match again (version %d)", v)
	default:
	}

	// Another process changes the match: the bot's cache does not have
	// it.
	c.slow.Store(int64(100 * time.Millisecond))
	l, err := e.db.Load(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	v, err := e.db.Save(ctx, id, l.Version, storage.Change{Meta: l.Meta}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	c.loads.Store(0)
	wait(v)
	if loads := c.loads.Load(); loads != 1 {
		t.Errorf("the match changed: %d spectators read it with %d loads, want 1", spectators, loads)
	}
}

// TestViewsReadOnlyWhatIsNew plays on a long match and, after each few
// commands, asks for the views that tell its log again (what Ann saw
// since her last turn, the history, a page of the API's log): each ask
// reads from the database only the entries added since the last ask
// (and the page's own), never the whole log.
func TestViewsReadOnlyWhatIsNew(t *testing.T) {
	e, c := newCountingEnv(t, time.Second)
	fog := newLong(t, e, "fog", "fog:on")
	clear := newLong(t, e, "clear", "")
	fog.playTo(20)
	clear.playTo(20)
	h := e.srv.Handler()
	page := func(n int) func(t *testing.T) {
		return func(t *testing.T) {
			req := httptest.NewRequest(http.MethodGet, fmt.Sprintf("/api/matches/%d/commands?after=%d", clear.id, max(0, n-5)), nil)
			req.Header.Set("Authorization", "Bearer "+clear.tok)
			req.Host = "127.0.0.1"
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Fatalf("GET commands: %d %s", rec.Code, rec.Body)
			}
		}
	}
	for turn := 21; turn <= 26; turn++ {
		before := map[*long]int{fog: fog.game().Commands, clear: clear.game().Commands}
		fog.playTo(turn)
		clear.playTo(turn)
		n := clear.game().Commands
		for _, ask := range []struct {
			name string
			lm   *long
			do   func(t *testing.T)
			page int // entries the view reads for itself
		}{
			{"since", fog, func(t *testing.T) { e.do(t, fog.ch, "Ann", "/risk show status") }, 0},
			{"history", fog, func(t *testing.T) { e.do(t, fog.ch, "Ann", "/risk show history") }, 0},
			{"log page", clear, page(n), 5},
		} {
			c.entries.Store(0)
			ask.do(t)
			if turn == 21 {
				continue // the first ask tells the whole log
			}
			added := ask.lm.game().Commands - before[ask.lm]
			if got, want := c.entries.Load(), int64(added+ask.page); got > want {
				t.Errorf("turn %d, %s: %d log entries read, want at most %d (%d added since the last ask; the log has %d)",
					turn, ask.name, got, want, added, ask.lm.game().Commands)
			}
		}
	}
}

// reply is the answer to line, typed by user in channel.
func reply(t *testing.T, b *bot.Bot, channel, user, line string) []byte {
	t.Helper()
	cmd, opts, err := parseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	var got chat.Message
	r := chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil })
	req := chat.Request{Channel: Prefix + channel, User: chat.User{ID: userID(user), Name: user}, Command: cmd, Options: opts, Server: "web"}
	if err := b.Handle(context.Background(), req, r); err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(struct {
		Text    string
		Embed   *chat.Embed
		Buttons [][]chat.Button
	}{got.Text, got.Embed, got.Buttons})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestViewsToldOnAreViewsToldAnew follows a long match with fog of war
// and one without, asking after every turn for the views that tell its
// log again, told on from the asks before: each is what a server that
// never saw the match (another process on the same database) answers,
// and the API's log is the whole log told anew to its reader
// (engine.Record.Tell).
func TestViewsToldOnAreViewsToldAnew(t *testing.T) {
	e := newEnv(t, Config{})
	fog := newLong(t, e, "fog", "fog:on")
	clear := newLong(t, e, "clear", "")
	ctx := context.Background()
	for turn := 1; turn <= 24; turn++ {
		fog.playTo(turn)
		clear.playTo(turn)
		lines := []string{"/risk show status", "/risk show history"}
		if turn%6 == 0 {
			lines = append(lines, "/risk show history turn:2")
		}
		var kept [][]byte
		for _, l := range lines {
			kept = append(kept, reply(t, e.bot, fog.ch, "Ann", l))
		}
		fresh := newEnvOn(t, Config{}, bot.Config{}, e.path, nil)
		for i, l := range lines {
			if want := reply(t, fresh.bot, fog.ch, "Ann", l); !bytes.Equal(kept[i], want) {
				t.Errorf("turn %d, %s: told on\n%s\ntold anew\n%s", turn, l, kept[i], want)
			}
		}
		fresh.stop()

		var got commandsJSON
		ann := &client{t: t, base: e.ts.URL, token: clear.tok}
		if status := ann.get(fmt.Sprintf("/api/matches/%d/commands", clear.id), &got); status != http.StatusOK || got.Audience == nil {
			t.Fatalf("GET commands: %d, audience %v", status, got.Audience)
		}
		x, err := e.db.Export(ctx, clear.id)
		if err != nil {
			t.Fatal(err)
		}
		want, err := x.Record.Tell(*got.Audience)
		if err != nil {
			t.Fatal(err)
		}
		if got.Commands != len(want.Log) || len(got.Entries) != len(want.Log) {
			t.Fatalf("turn %d: the API tells %d of %d entries, want %d", turn, len(got.Entries), got.Commands, len(want.Log))
		}
		for i, en := range got.Entries {
			cmd, err := engine.MarshalCommand(want.Log[i].Cmd)
			if err != nil {
				t.Fatal(err)
			}
			g, _ := json.Marshal(en)
			w, _ := json.Marshal(entryJSON{Index: i + 1, Seat: want.Log[i].Seat, Cmd: cmd, Rand: want.Log[i].Rand, Seen: want.Log[i].Seen})
			if !bytes.Equal(g, w) {
				t.Fatalf("turn %d, entry %d: told on %s, told anew %s", turn, i+1, g, w)
			}
		}
	}
}
