package web

import (
	"context"
	"net"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// testEnv is a server on a real SQLite file, with the standard bot (the
// real renderer and computer players), listening on a loopback port.
type testEnv struct {
	srv *Server
	bot *bot.Bot
	db  *sqlite.DB
	ts  *httptest.Server
	// path is the database's file.
	path string
	// stop stops the server and closes the bot and the database, once.
	stop func()
}

// newEnv starts a server; cfg may set the rate limits.
func newEnv(t testing.TB, cfg Config) *testEnv {
	t.Helper()
	return newEnvBot(t, cfg, bot.Config{})
}

// newEnvBot is newEnv with a bot's config (its palettes, say) of the
// caller's; the database, poster, scope and seeds are the test's.
func newEnvBot(t testing.TB, cfg Config, bc bot.Config) *testEnv {
	t.Helper()
	return newEnvOn(t, cfg, bc, filepath.Join(t.TempDir(), "risk.db"), nil)
}

// newEnvOn is newEnvBot on the database at path, listening on ln (nil: a
// loopback port of its own); prepare, if set, runs before the server
// serves.
func newEnvOn(t testing.TB, cfg Config, bc bot.Config, path string, ln net.Listener, prepare ...func(*testEnv)) *testEnv {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	db, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Store = db
	if cfg.Rate == 0 {
		cfg.Rate, cfg.Burst = 1e6, 1e6
	}
	srv := New(cfg)
	seed := uint64(41)
	bc.Store, bc.Poster, bc.Scope, bc.Seed = db, srv, Prefix, func() uint64 { seed++; return seed }
	b, err := bot.New(bot.Standard(bc))
	if err != nil {
		t.Fatal(err)
	}
	srv.SetBot(b)
	ts := httptest.NewUnstartedServer(srv.Handler())
	if ln != nil {
		ts.Listener.Close()
		ts.Listener = ln
	}
	// The event streams end with the test.
	ts.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	e := &testEnv{srv: srv, bot: b, db: db, ts: ts, path: path}
	e.stop = sync.OnceFunc(func() {
		cancel()
		ts.Close()
		b.Close()
		db.Close()
	})
	t.Cleanup(e.stop)
	for _, f := range prepare {
		f(e)
	}
	ts.Start()
	return e
}

// do runs a command as a page player would, and waits for the computer
// players.
func (e *testEnv) do(t testing.TB, channel, user, line string) {
	t.Helper()
	cmd, opts, err := parseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	u := chat.User{ID: userID(user), Name: user}
	r := chat.ReplierFunc(func(context.Context, chat.Message) error { return nil })
	if err := e.bot.Handle(context.Background(), chat.Request{Channel: Prefix + channel, User: u, Command: cmd, Options: opts, Server: "web", Admin: true}, r); err != nil {
		t.Fatal(err)
	}
	e.bot.Wait()
}
