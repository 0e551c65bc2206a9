package outbox

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/internal/faketest"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/storage"
)

// t0 is when every test starts, and its process with it.
var t0 = time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)

// The store's methods the outbox uses are the fake's.
var _ Store = (*faketest.Store)(nil)

// lease is how long a claim of the tests' process lasts.
const lease = 2 * time.Minute

// env is an Outbox over a store and a chat in memory, with a clock the
// test moves.
type env struct {
	t     *testing.T
	store *faketest.Store
	chat  *faketest.Chat
	pp    *people.People
	ms    *hosted.Matches
	ob    *Outbox

	*faketest.Clock
	mu    sync.Mutex
	since time.Time // when the process started: its claims before are void
}

func newEnv(t *testing.T) *env {
	return newEnvWith(t, func(*Config) {})
}

// newEnvWith is newEnv with the Outbox's config changed by change.
func newEnvWith(t *testing.T, change func(*Config)) *env {
	e := &env{t: t, store: faketest.NewStore(), chat: &faketest.Chat{}, Clock: faketest.NewClock(t0), since: t0}
	log := slog.New(slog.DiscardHandler)
	e.pp = people.New(e.store, e.Now, log)
	e.ms = hosted.NewMatches(e.store, e.pp, e.Now, log, e.claim)
	colors, rgb := look.PaletteColors(render.Default)
	cfg := Config{Store: e.store, Poster: e.chat, Matches: e.ms, People: e.pp,
		Look:  look.New(nil, look.Palette{Colors: colors, RGB: rgb, Render: &faketest.Renderer{}}),
		Locks: &hosted.Locks{}, Claim: e.claim, Instance: "test", Scope: "test:",
		Serves: func(ch string) bool { return strings.HasPrefix(ch, "test:") }, Now: e.Now, Log: log}
	change(&cfg)
	e.ob = New(cfg)
	return e
}

// restart is the process started again now: what it claimed before is
// its own no longer.
func (e *env) restart() {
	now := e.Now()
	e.mu.Lock()
	defer e.mu.Unlock()
	e.since = now
}

// claim is the process's claim on work, now.
func (e *env) claim() storage.Claim {
	now := e.Now()
	e.mu.Lock()
	defer e.mu.Unlock()
	return storage.Claim{Holder: "test", Started: e.since, Now: now, Until: now.Add(lease)}
}

// user is a test player: ID "test:NAME".
func user(name string) string { return "test:" + strings.ToLower(name) }

// started stores a match of Ann (its host) and Bob in channel, past its
// initial placement, in language code ("" for English); none of it is
// news.
func (e *env) started(channel, code string) *hosted.Match {
	e.t.Helper()
	ctx := context.Background()
	meta := hosted.Meta{Host: user("Ann"), Settings: hosted.DefaultSettings()}
	meta.Settings.Lang = code
	setup := engine.Setup{Options: meta.Settings.Options, Seed: 1}
	for _, name := range []string{"Ann", "Bob"} {
		meta.Seats = append(meta.Seats, hosted.Seat{ID: user(name), Name: name})
		setup.Seats = append(setup.Seats, engine.SeatInfo{ID: user(name), Name: name})
	}
	row, err := e.store.Create(ctx, channel, meta.Encode(), e.Now())
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := e.store.Save(ctx, row.ID, row.Version, storage.Change{Start: &setup}, e.Now()); err != nil {
		e.t.Fatal(err)
	}
	m, err := e.ms.ByID(ctx, row.ID)
	if err != nil {
		e.t.Fatal(err)
	}
	for i := range m.Game.State.Seats {
		e.play(m, i, nil, engine.AutoPlace{})
	}
	return m
}

// play has seat of m play commands, saved with news n (nil: none).
func (e *env) play(m *hosted.Match, seat int, n *news.News, cmds ...engine.Command) {
	e.t.Helper()
	var entries []engine.Entry
	for _, c := range cmds {
		entry, _, err := m.Game.Apply(seat, c)
		if err != nil {
			e.t.Fatalf("seat %d: %#v: %v", seat, c, err)
		}
		entries = append(entries, entry)
	}
	c := storage.Change{Entries: entries, Game: m.Game}
	if n != nil {
		t := e.ms.TurnTimers(context.Background(), m)
		c.Timers = &t
	}
	if err := e.ms.SaveNews(context.Background(), m, c, n); err != nil {
		e.t.Fatal(err)
	}
}

// endTurn has the player to move in m place and end their turn, saved
// with its news, and returns the batch of that news, the player who
// played and the one to play next.
func (e *env) endTurn(m *hosted.Match) (bt news.Batch, who, next string) {
	e.t.Helper()
	s := m.Game.State
	seat, turn := s.Current, s.Turn
	who = s.Seats[seat].Name
	n := &news.News{Turns: []news.TurnRecord{{Turn: turn, Seat: seat, Lines: []string{who + " placed their armies."}}}}
	e.play(m, seat, n, engine.AutoPlace{}, engine.EndTurn{})
	return e.ob.Batch(m, n), who, m.Game.State.Seats[m.Game.State.Current].Name
}

// texts are the whole texts of messages: their text, then their embed's.
func texts(sent []faketest.Sent) []string {
	var out []string
	for _, s := range sent {
		out = append(out, all(s.Msg))
	}
	return out
}

// all is the whole text of a message: its text, then its embed's.
func all(m chat.Message) string {
	if m.Embed == nil {
		return m.Text
	}
	return strings.TrimPrefix(m.Text+"\n"+m.Embed.Text(), "\n")
}

// pingOf is the post among sent that pings who that it is their turn,
// in English or French.
func pingOf(sent []faketest.Sent, who string) (chat.Message, bool) {
	for _, s := range sent {
		yourTurn := strings.Contains(all(s.Msg), "it is your turn") || strings.Contains(all(s.Msg), "c'est ton tour")
		if yourTurn && len(s.Msg.Mentions) == 1 && s.Msg.Mentions[0] == user(who) {
			return s.Msg, true
		}
	}
	return chat.Message{}, false
}

// down is the error of a chat that cannot be reached.
var down = &chatDown{}

type chatDown struct{}

func (*chatDown) Error() string { return "faketest: the chat is down" }

// downFor makes e's chat refuse every post with err (nil: take them).
func (e *env) downFor(err error) {
	if err == nil {
		e.chat.Refuse(nil)
		return
	}
	e.chat.Refuse(func(string) error { return err })
}

// fr is the French printer.
var fr = lang.For(lang.French)

// note is the word a command's answer in channel gets (ChannelNote), the
// channel's alert read as the bot reads it (AlertKey, Alert).
func (e *env) note(channel string, lacks []string, t lang.Tag) string {
	ctx := context.Background()
	k := AlertKey(channel)
	raw, err := e.store.Setting(ctx, k.Scope, k.ID)
	if errors.Is(err, storage.ErrNotFound) {
		raw, err = nil, nil
	}
	return e.ob.ChannelNote(ctx, channel, Alert(channel, raw, err), lacks, t)
}
