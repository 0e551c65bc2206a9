package bot

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/internal/faketest"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// sharedRenderer is built once: its static layers are cached per map, and
// it is safe for concurrent use.
var sharedRenderer = sync.OnceValue(func() *render.Renderer { return render.New(render.Options{}) })

// harness is a bot wired to real storage (a SQLite file in a temporary
// folder), the real renderer and the real computer players, with a clock
// the test moves.
type harness struct {
	t   testing.TB
	db  *sqlite.DB
	bot *Bot
	dir string

	clk *faketest.Clock

	mu     sync.Mutex
	posts  []posted
	edits  int // posts edited in place
	nextID int
	seed   uint64
	// down makes every post fail with this error, as when Discord is
	// unreachable (nil: posts succeed).
	down error
	// onPost, if set, runs before each post.
	onPost func()
	// scope is the Config.Scope of the bots opened from now on.
	scope string
	// configure, if set, changes the Config of the bots opened from now on.
	configure func(*Config)
	// threads opened and archived (Threader).
	threads, archived []string
}

type posted struct {
	channel string
	msg     chat.Message
	id      string
}

func newHarness(t testing.TB) *harness {
	t.Helper()
	h := unopened(t)
	h.open()
	return h
}

// unopened is a harness whose bot is not started yet.
func unopened(t testing.TB) *harness {
	return &harness{t: t, dir: t.TempDir(), clk: faketest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)), seed: 1}
}

// open (re)starts the bot on the harness's database, as a restart would.
func (h *harness) open() {
	h.t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(h.dir, "risk.db"))
	if err != nil {
		h.t.Fatal(err)
	}
	cfg := Config{
		Store:  db,
		Render: sharedRenderer(),
		Poster: h,
		Now:    h.clock,
		Seed:   func() uint64 { h.mu.Lock(); defer h.mu.Unlock(); h.seed++; return h.seed },
		Scope:  h.scope,
	}
	if h.configure != nil {
		h.configure(&cfg)
	}
	b, err := New(Standard(cfg))
	if err != nil {
		h.t.Fatal(err)
	}
	h.db, h.bot = db, b
	h.t.Cleanup(h.close)
}

func (h *harness) close() {
	if h.bot != nil {
		h.bot.Close()
		h.db.Close()
		h.bot = nil
	}
}

// restart closes the bot and opens a new one on the same database.
func (h *harness) restart() {
	h.close()
	h.open()
}

func (h *harness) clock() time.Time { return h.clk.Now() }

func (h *harness) advance(d time.Duration) { h.clk.Advance(d) }

// Post implements Poster, recording.
func (h *harness) Post(_ context.Context, channel string, m chat.Message) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.onPost != nil {
		h.onPost()
	}
	if h.down != nil {
		return "", h.down
	}
	h.nextID++
	id := fmt.Sprint(h.nextID)
	h.posts = append(h.posts, posted{channel: channel, msg: m, id: id})
	return id, nil
}

// Edit implements Editor: the post is replaced in place, and counted.
func (h *harness) Edit(_ context.Context, channel, id string, m chat.Message) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.down != nil {
		return h.down
	}
	h.edits++
	for i := range h.posts {
		if h.posts[i].id == id {
			h.posts[i].msg = m
			return nil
		}
	}
	// The test forgot the posts before: the edit stands for the post.
	h.posts = append(h.posts, posted{channel: channel, msg: m, id: id})
	return nil
}

// OpenThread implements Threader: thread N of a channel is "CHANNEL/N".
func (h *harness) OpenThread(_ context.Context, channel, name string) (string, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.threads = append(h.threads, channel+"/"+fmt.Sprint(len(h.threads)+1))
	return h.threads[len(h.threads)-1], nil
}

// ArchiveThread implements Threader, recording.
func (h *harness) ArchiveThread(_ context.Context, thread string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.archived = append(h.archived, thread)
	return nil
}

// DM implements DirectPoster, recording as a post to "dm:USER".
func (h *harness) DM(ctx context.Context, user string, m chat.Message) error {
	_, err := h.Post(ctx, "dm:"+user, m)
	return err
}

// errDown is the failure of a post while the chat is down.
var errDown = errors.New("harness: the chat is down")

// setDown makes posts fail with err (errDown: the chat is down), or
// succeed again (nil).
func (h *harness) setDown(err error) {
	h.bot.Wait()
	h.mu.Lock()
	h.down = err
	h.mu.Unlock()
}

// queued returns the outbox: the posts not yet delivered.
func (h *harness) queued() []storage.Post {
	h.t.Helper()
	ps, err := h.db.Outbox(context.Background(), "", h.clock().Add(time.Hour), 100)
	if err != nil {
		h.t.Fatal(err)
	}
	return ps
}

// takePosts returns and forgets the posts so far.
func (h *harness) takePosts() []posted {
	h.bot.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.posts
	h.posts = nil
	return p
}

// user is a test player: ID "test:NAME".
func user(name string) chat.User { return chat.User{ID: "test:" + strings.ToLower(name), Name: name} }

// do runs "/risk COMMAND opt:value ..." for a user in a channel and
// returns the reply. Option values may not contain spaces here; use doOpts.
func (h *harness) do(channel, who, command string, opts ...string) chat.Message {
	h.t.Helper()
	o := map[string]string{}
	for _, kv := range opts {
		k, v, ok := strings.Cut(kv, ":")
		if !ok {
			h.t.Fatalf("bad option %q", kv)
		}
		o[k] = v
	}
	return h.doOpts(channel, who, command, o)
}

func (h *harness) doOpts(channel, who, command string, opts map[string]string) chat.Message {
	h.t.Helper()
	return h.doReq(chat.Request{Channel: channel, User: user(who), Command: command, Options: opts})
}

// doAdmin is do by an admin of the channel.
func (h *harness) doAdmin(channel, who, command string, opts ...string) chat.Message {
	h.t.Helper()
	o := map[string]string{}
	for _, kv := range opts {
		k, v, _ := strings.Cut(kv, ":")
		o[k] = v
	}
	return h.doReq(chat.Request{Channel: channel, User: user(who), Command: command, Options: o, Admin: true})
}

// doReq handles a request and returns its one reply.
func (h *harness) doReq(req chat.Request) chat.Message {
	h.t.Helper()
	var got []chat.Message
	command, who := req.Command, req.User.Name
	err := h.bot.Handle(context.Background(), req,
		chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = append(got, m); return nil }))
	if err != nil {
		h.t.Fatalf("%s /risk %s: %v", who, command, err)
	}
	if len(got) != 1 {
		h.t.Fatalf("%s /risk %s: %d replies, want 1", who, command, len(got))
	}
	return got[0]
}

// meaning answers a question the bot asked instead of doing a command
// (the move empties the capital; the end drops the reinforcements) as a
// player who means it does: with the button that does it anyway. Other
// replies are returned as they are; label is the button's, or "".
func (h *harness) meaning(channel, who string, reply chat.Message) (_ chat.Message, label string) {
	h.t.Helper()
	if !reply.Refused {
		return reply, ""
	}
	for _, l := range []string{"Move anyway", "End anyway"} {
		if b, ok := buttonLabelled(reply, l); ok {
			return h.click(channel, who, b.ID), l
		}
	}
	return reply, ""
}

func (h *harness) click(channel, who, id string) chat.Message {
	h.t.Helper()
	return h.clickAs(chat.Click{Channel: channel, User: user(who), ID: id})
}

// clickAs handles a click and returns its one reply.
func (h *harness) clickAs(c chat.Click) chat.Message {
	h.t.Helper()
	var got []chat.Message
	id := c.ID
	err := h.bot.HandleClick(context.Background(), c,
		chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = append(got, m); return nil }))
	if err != nil || len(got) != 1 {
		h.t.Fatalf("click %s: %v, %d replies", id, err, len(got))
	}
	return got[0]
}

// load returns the channel's match as stored.
func (h *harness) load(channel string) *hosted.Match {
	h.t.Helper()
	m, err := h.bot.matches.Latest(context.Background(), channel)
	if err != nil {
		h.t.Fatalf("load %s: %v", channel, err)
	}
	return m
}

// wantDone fails unless the command was carried out (its answer, public
// or private, is no refusal) and the answer contains every part.
func wantDone(t testing.TB, m chat.Message, parts ...string) {
	t.Helper()
	if m.Refused {
		t.Errorf("refused, want done: %q", m.Text)
	}
	wantText(t, m, parts...)
}

// wantPublic fails unless the reply is public and contains every part.
func wantPublic(t testing.TB, m chat.Message, parts ...string) {
	t.Helper()
	if m.Private {
		t.Errorf("reply is private, want public: %q", m.Text)
	}
	wantText(t, m, parts...)
}

// wantPrivate fails unless the reply is private and contains every part.
func wantPrivate(t testing.TB, m chat.Message, parts ...string) {
	t.Helper()
	if !m.Private {
		t.Errorf("reply is public, want private: %q", m.Text)
	}
	wantText(t, m, parts...)
}

func wantText(t testing.TB, m chat.Message, parts ...string) {
	t.Helper()
	for _, p := range parts {
		if !strings.Contains(all(m), p) {
			t.Errorf("reply %q lacks %q", all(m), p)
		}
	}
}

// lobby makes a started match in channel: Ann hosts, with the given bots
// and human players.
func (h *harness) started(channel string, humans []string, bots ...string) *hosted.Match {
	h.t.Helper()
	h.do(channel, humans[0], "new")
	for _, p := range humans[1:] {
		h.do(channel, p, "join")
	}
	for _, level := range bots {
		h.do(channel, humans[0], "addbot", "level:"+level)
	}
	wantPublic(h.t, h.do(channel, humans[0], "start"), "The match has started")
	h.bot.Wait()
	return h.load(channel)
}

// placed starts a match of humans in channel, as started does, and has
// each place their initial armies automatically: the match at its first
// turn.
func (h *harness) placed(channel string, humans ...string) *hosted.Match {
	h.t.Helper()
	h.started(channel, humans)
	for _, p := range humans {
		h.do(channel, p, "place")
	}
	h.bot.Wait()
	return h.load(channel)
}

// all is the whole text of a message: its text, then its embed's.
func all(m chat.Message) string {
	if m.Embed == nil {
		return m.Text
	}
	return strings.TrimPrefix(m.Text+"\n"+m.Embed.Text(), "\n")
}
