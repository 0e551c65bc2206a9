package discord

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"log/slog"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
	"github.com/riskbot/riskbot/bot/internal/faketest"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// sharedRenderer is built once for the package's tests: it caches its
// static layers, and is safe for concurrent use.
var sharedRenderer = sync.OnceValue(func() *render.Renderer { return render.New(render.Options{}) })

// newCore wires the real core as risk discord does (cmd/risk newBot):
// SQLite storage, the renderer and the computer players.
func newCore(t testing.TB, db *sqlite.DB, poster chat.Poster, now func() time.Time, log *slog.Logger) *bot.Bot {
	t.Helper()
	var mu sync.Mutex
	seed := uint64(0)
	b, err := bot.New(bot.Standard(bot.Config{
		Store:  db,
		Render: sharedRenderer(),
		Poster: poster,
		Now:    now,
		Seed:   func() uint64 { mu.Lock(); defer mu.Unlock(); seed++; return seed },
		Log:    log,
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	return b
}

// game is the real core behind the adapter, on a SQLite file, against the
// fake Discord.
type game struct {
	*env
	bot   *bot.Bot
	db    *sqlite.DB
	clock *faketest.Clock
	// restartBeforeEnd: playTurn restarts the bot before it clicks End turn.
	restartBeforeEnd bool
}

func newGame(t *testing.T) *game {
	t.Helper()
	e := newEnv(t, nil, DefaultDeferAfter)
	db, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	c := faketest.NewClock(time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC))
	log := e.a.log.With("part", "core")
	b := newCore(t, db, e.a, c.Now, log)
	e.core = b
	return &game{env: e, bot: b, db: db, clock: c}
}

// restart stops the bot and starts a new one on the same database, with a
// new adapter, as a restart of the process would.
func (g *game) restart() {
	g.t.Helper()
	g.bot.Close()
	a, err := New(Config{Token: fakediscord.Token, HTTPClient: g.fake.Client(), Log: g.a.log, DeferAfter: DefaultDeferAfter})
	if err != nil {
		g.t.Fatal(err)
	}
	a.s.State.Application = &discordgo.Application{ID: fakediscord.AppID}
	g.a = a
	g.bot = newCore(g.t, g.db, a, g.clock.Now, a.log.With("part", "core"))
	g.core = g.bot
}

// match loads the channel's match from storage.
func (g *game) match() *storage.Loaded {
	g.t.Helper()
	m, err := g.db.Active(g.ctx, prefix+channel)
	if err != nil {
		g.t.Fatal(err)
	}
	return m
}

// complete asks for suggestions as person p types into an option.
func (g *game) complete(p person, sub, focused, typed string, opts ...opt) []fakediscord.Choice {
	g.t.Helper()
	id := g.do(autocomplete(g.t, p, channel, sub, focused, typed, opts...))
	cs, ok := g.fake.Choices(id)
	if !ok {
		g.t.Fatalf("autocomplete %s.%s not answered", sub, focused)
	}
	return cs
}

// channelPosts returns the messages posted to the channel (not answers).
func (g *game) channelPosts() []fakediscord.Message {
	var out []fakediscord.Message
	for _, m := range g.fake.Messages() {
		if m.Kind == fakediscord.Channel && !m.Closed {
			out = append(out, m)
		}
	}
	return out
}

// lastPost returns the last channel post that says s.
func (g *game) lastPost(s string) (fakediscord.Message, bool) {
	ps := g.channelPosts()
	for i := len(ps) - 1; i >= 0; i-- {
		if strings.Contains(fullText(ps[i]), s) {
			return ps[i], true
		}
	}
	return fakediscord.Message{}, false
}

// wantOnlyMentions checks that a message may notify exactly the people.
func wantOnlyMentions(t testing.TB, m fakediscord.Message, ps ...person) {
	t.Helper()
	var want []string
	for _, p := range ps {
		want = append(want, p.id)
	}
	if m.Mentions == nil || m.Mentions.Parse == nil || len(m.Mentions.Parse) != 0 || len(m.Mentions.Roles) != 0 {
		t.Errorf("allowed mentions %+v: want parse [] and no roles", m.Mentions)
		return
	}
	got := slices.Clone(m.Mentions.Users)
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("message may notify %v, want %v: %.120q", got, want, m.Content)
	}
}

// wantMap checks that a message has the map attached, as a PNG.
func wantMap(t testing.TB, m fakediscord.Message) {
	t.Helper()
	if len(m.Files) != 1 {
		t.Errorf("%d files on %.80q, want the map", len(m.Files), m.Content)
		return
	}
	f := m.Files[0]
	cfg, err := png.DecodeConfig(bytes.NewReader(f.Data))
	if err != nil || f.ContentType != "image/png" || !strings.HasSuffix(f.Name, ".png") || cfg.Width < 800 {
		t.Errorf("file %s (%s, %d bytes): %dx%d, %v", f.Name, f.ContentType, len(f.Data), cfg.Width, cfg.Height, err)
	}
}

var people = []person{ann, bob}

// answerRoute is the fake's route that carries the answer of a command
// that writes: the edit of the deferral it got as soon as it arrived.
const answerRoute = "edit"

func personOf(t testing.TB, id string) person {
	t.Helper()
	for _, p := range people {
		if p.userID() == id {
			return p
		}
	}
	t.Fatalf("seat %s is nobody of the test", id)
	return person{}
}

// A match from the lobby to several turns, through the adapter and the
// real core, storage, renderer and computer player, against the fake
// Discord: commands, autocomplete, button clicks, a stale click, private
// errors and cards, turn posts with the map, pings that notify only the
// next player, and a deadline that runs out.
func TestMatchFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a match")
	}
	g := newGame(t)

	// The lobby is one message of the channel, edited in place: Ann opens
	// it, Bob joins with its button, Ann adds a bot, each answered
	// privately; Bob's press of Start is refused privately.
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new"))), "Your match is open")
	open, ok := g.lastPost("Ann opened a Risk match")
	if !ok {
		t.Fatal("no lobby in the channel")
	}
	wantOnlyMentions(t, open)
	join, ok := buttonByLabel(open, "Join")
	if !ok {
		t.Fatalf("no Join button: %+v", open.Buttons)
	}
	wantPrivate(t, g.answer(g.do(click(t, bob, channel, join.CustomID))), "You joined (2/6 seats)")
	wantPrivate(t, g.answer(g.do(click(t, bob, channel, join.CustomID))), "already in this match")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "addbot", o("level", "easy")))), "(easy bot) takes a seat")
	startButton, ok := buttonByLabel(open, "Start")
	if !ok {
		t.Fatalf("no Start button: %+v", open.Buttons)
	}
	wantPrivate(t, g.answer(g.do(click(t, bob, channel, startButton.CustomID))), "Only Ann (the host) can start")
	var public []fakediscord.Message
	for _, m := range g.fake.Messages() {
		if m.Public() {
			public = append(public, m)
		}
	}
	if len(public) != 1 || public[0].ID != open.ID || public[0].Edits != 2 {
		t.Fatalf("the lobby made %d public messages, want 1 edited twice: %+v", len(public), public)
	}
	wantText(t, public[0], "(easy bot) takes a seat (3/6)", "Lobby — 3/6 seats", "2. Bob")
	wantOnlyMentions(t, public[0])
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "start"))), "Only Ann (the host) can start")

	// The start: public, notifying the two people only, then the map.
	rs := g.fake.Replies(g.do(slash(t, ann, channel, "start")))
	if len(rs) != 2 {
		t.Fatalf("start: %d replies, want the answer with the map and a ping", len(rs))
	}
	start := rs[0]
	wantPublic(t, start, "The match has started!", "<@"+ann.id+">", "<@"+bob.id+">", "<t:")
	wantOnlyMentions(t, start, ann, bob)
	wantMap(t, start)
	wantOnlyMentions(t, rs[1], ann, bob)
	g.bot.Wait()

	// A misspelt territory: a short private answer that helps.
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "place", o("territory", "Kamchakta")))), "you mean Kamchatka?")
	// Initial placement: Ann by command, Bob by the start message's button.
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "autoplace"))), "placed")
	auto, ok := buttonByLabel(start, "Place automatically")
	if !ok {
		t.Fatalf("no autoplace button: %+v", start.Buttons)
	}
	wantPrivate(t, g.answer(g.do(click(t, bob, channel, auto.CustomID))), "placed")
	g.bot.Wait()
	if _, ok := g.lastPost("Initial placement done"); !ok {
		t.Fatal("no post for the end of the initial placement")
	}

	var stale string // a button of an earlier moment
	for turn := 0; turn < 3; turn++ {
		// Buttons keep working after a restart: the first turn is ended
		// with a button posted before one.
		g.restartBeforeEnd = turn == 0
		g.bot.Wait()
		m := g.match()
		if m.Status != storage.Active {
			t.Fatalf("match %s after %d turns", m.Status, turn)
		}
		s := m.Game.State
		p := personOf(t, s.Seats[s.Current].ID)
		// The ping: a new channel message, notifying only the player, with
		// the deadline as a relative time.
		ping, ok := g.lastPost("it is your turn")
		if !ok {
			t.Fatalf("turn %d: no ping", s.Turn)
		}
		wantText(t, ping, "<@"+p.id+">", fmt.Sprintf("<t:%d:R>", m.Timers.Deadline.Unix()), fmt.Sprintf("your turn %d", s.Turn))
		wantOnlyMentions(t, ping, p)

		stale = g.playTurn(p, stale)
	}

	// A click on a button of an earlier moment: a polite private answer.
	g.bot.Wait()
	m := g.match()
	p := personOf(t, m.Game.State.Seats[m.Game.State.Current].ID)
	wantPrivate(t, g.answer(g.do(click(t, p, channel, stale))), "earlier moment")

	// Cards: private, and nothing public shows a hand.
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "cards"))), "card")
	// Status, with the map, to anyone who asks, privately.
	onDemand := g.answer(g.do(slash(t, cat, channel, "status")))
	wantPrivate(t, onDemand, "Turn ", "to play", "Standings")
	wantMap(t, onDemand)

	// The clock: a reminder at three quarters of the turn, notifying only
	// the player; at the deadline a careful bot plays the turn.
	g.clock.Advance(19 * time.Hour)
	if err := g.bot.Tick(g.ctx); err != nil {
		t.Fatal(err)
	}
	remind, ok := g.lastPost("⏰")
	if !ok {
		t.Fatal("no reminder")
	}
	wantText(t, remind, "<@"+p.id+">", fmt.Sprintf("<t:%d:R>", m.Timers.Deadline.Unix()))
	wantOnlyMentions(t, remind, p)
	g.clock.Advance(6 * time.Hour)
	if err := g.bot.Tick(g.ctx); err != nil {
		t.Fatal(err)
	}
	g.bot.Wait()
	if _, ok := g.lastPost(p.name + " ran out of time"); !ok {
		t.Error("no post for the missed deadline")
	}
	if after := g.match(); after.Game.State.Turn <= m.Game.State.Turn {
		t.Errorf("turn %d after the deadline, was %d", after.Game.State.Turn, m.Game.State.Turn)
	}

	// Across the whole match: every turn post carries the map, every
	// channel message notifies at most the player it pings, and no public
	// message shows anyone's cards.
	maps := 0
	for _, msg := range g.channelPosts() {
		if len(msg.Embeds) == 1 && (strings.HasPrefix(msg.Embeds[0].Title, "Turn") || strings.HasPrefix(msg.Embeds[0].Title, "Initial")) {
			if len(msg.Files) > 0 {
				wantMap(t, msg)
				if im := msg.Embeds[0].Image; im == nil || im.URL != "attachment://"+msg.Files[0].Name {
					t.Errorf("the map is not the embed's image: %+v", im)
				}
				maps++
			}
		}
		if len(msg.Mentions.Users) > 1 {
			t.Errorf("a channel post may notify %v: %.80q", msg.Mentions.Users, msg.Content)
		}
	}
	if maps < 4 {
		t.Errorf("%d turn posts with a map, want one per turn batch", maps)
	}
	for _, msg := range g.fake.Messages() {
		for _, c := range msg.History {
			if msg.Public() && strings.Contains(c, "Your cards") {
				t.Errorf("a public message shows a hand: %.80q", c)
			}
		}
	}
	// Nothing failed on the way (a post, a render), and the core never
	// needed its messages cut to fit.
	for _, line := range strings.Split(g.logs.String(), "\n") {
		if strings.Contains(line, "level=ERROR") || strings.Contains(line, "cut to Discord's limits") {
			t.Errorf("log: %s", line)
		}
	}
}

// playTurn plays person p's turn as a person would: place everything, one
// attack picked from the suggestions, move in if it conquered, end the
// turn with its button. It returns a button of an earlier moment of the
// match (stale, or the one given).
func (g *game) playTurn(p person, stale string) string {
	t := g.t
	t.Helper()
	m := g.match()
	s := m.Game.State
	seat := s.SeatByID(p.userID())
	if s.Seats[seat].Hand.Len() >= 5 {
		wantPrivate(t, g.answer(g.do(slash(t, p, channel, "trade"))), "traded")
	}
	wantPrivate(t, g.answer(g.do(slash(t, p, channel, "autoplace"))), "placed")

	// Autocomplete suggests only what is legal for the option now.
	s = g.match().Game.State
	froms := g.complete(p, "attack", "from", "")
	if len(froms) == 0 || len(froms) > 25 {
		t.Fatalf("%d suggestions to attack from", len(froms))
	}
	for _, c := range froms {
		id, err := s.Map.Lookup(c.Value)
		if err != nil || s.Terr[id].Owner != seat || s.Terr[id].Armies < 2 {
			t.Errorf("suggested to attack from %q (%v)", c.Value, err)
		}
	}
	from, _ := s.Map.Lookup(froms[0].Value)
	tos := g.complete(p, "attack", "to", "", o("from", froms[0].Value))
	if len(tos) == 0 {
		t.Fatalf("no suggestion to attack from %s", froms[0].Value)
	}
	for _, c := range tos {
		id, err := s.Map.Lookup(c.Value)
		if err != nil || s.Terr[id].Owner == seat || !s.Map.Adjacent(from, id) {
			t.Errorf("suggested to attack %q from %s (%v)", c.Value, froms[0].Value, err)
		}
	}
	// Typing narrows the suggestions, best match first.
	name := s.Map.Territories[from].Name
	if narrowed := g.complete(p, "attack", "from", strings.ToLower(name[:4])); len(narrowed) == 0 || narrowed[0].Value != name {
		t.Errorf("typing %q suggests %v, want %s first", name[:4], narrowed, name)
	}

	res := g.answer(g.do(slash(t, p, channel, "attack", o("from", froms[0].Value), o("to", tos[0].Value))))
	wantPrivate(t, res, "⚔️")
	if b, ok := buttonByLabel(res, "Move all"); ok {
		moved := g.answer(g.do(click(t, p, channel, b.CustomID)))
		wantPrivate(t, moved, "moved")
		res = moved
	}
	end, ok := buttonByLabel(res, "End turn")
	if !ok {
		t.Fatalf("no End turn button after the attack: %+v", res.Buttons)
	}
	if stale == "" {
		stale = end.CustomID // clicked now, stale from the next turn on
	}
	if g.restartBeforeEnd {
		g.restart()
	}
	wantPrivate(t, g.answer(g.do(click(t, p, channel, end.CustomID))), "ended turn")
	return stale
}

// A turn summary that is too long for Discord goes out cut, not refused.
func TestLongPostIsCut(t *testing.T) {
	e := newEnv(t, nil, time.Minute)
	long := "**Turn 9 — Ann**\n" + strings.Repeat("⚔️ 🟥 Ann blitzed Kamchatka from Alaska (12 rolls): 🎲 6 5 3 v 4 2 — Ann lost 3, Bob lost 7\n", 40)
	if _, err := e.a.Post(e.ctx, prefix+channel, chat.Message{Text: long}); err != nil {
		t.Fatal(err)
	}
	ms := e.fake.Messages()
	if len(ms) != 1 || !strings.HasSuffix(ms[0].Content, "…") {
		t.Fatalf("messages %+v", ms)
	}
	if !strings.Contains(e.logs.String(), "cut to Discord's limits") {
		t.Error("the cut was not logged")
	}
}

// Discord fails to take a turn's news (a 500 on the post): nothing of it
// is lost. It stays queued, and the bot started next posts it, in order,
// marked late: the summary with the map, then the ping of the next player.
func TestTurnNewsOutlivesAFailedPost(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	g.answer(g.do(slash(t, bob, channel, "join")))
	g.do(slash(t, ann, channel, "start")) // the text, then the map
	g.answer(g.do(slash(t, ann, channel, "autoplace")))
	g.answer(g.do(slash(t, bob, channel, "autoplace")))
	g.bot.Wait()
	s := g.match().Game.State
	p := personOf(t, s.Seats[s.Current].ID)
	next := personOf(t, s.Seats[(s.Current+1)%len(s.Seats)].ID)
	wantPrivate(t, g.answer(g.do(slash(t, p, channel, "autoplace"))), "placed")
	before := len(g.channelPosts())

	g.fake.FailNext("post", http.StatusInternalServerError)
	wantPrivate(t, g.answer(g.do(slash(t, p, channel, "end"))), "ended turn")
	g.bot.Wait()
	if n := len(g.channelPosts()) - before; n != 0 {
		t.Fatalf("%d posts after the failed one, want none (the order is kept)", n)
	}

	g.restart()
	g.clock.Advance(time.Minute)
	if err := g.bot.Tick(g.ctx); err != nil {
		t.Fatal(err)
	}
	posts := g.channelPosts()[before:]
	if len(posts) != 2 {
		t.Fatalf("%d posts after the restart, want the summary and the ping", len(posts))
	}
	wantText(t, posts[0], "Posted late", fmt.Sprintf("Turn %d —", s.Turn))
	wantMap(t, posts[0])
	wantText(t, posts[1], "it is your turn", "<@"+next.id+">")
	wantOnlyMentions(t, posts[1], next)
	if err := g.bot.Tick(g.ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(g.channelPosts()) - before; n != 2 {
		t.Errorf("%d posts after a second tick, want still 2", n)
	}
}

// Issue 12, fault 6: the bot is killed after a command is saved and before
// Discord has its answer (here, Discord fails the answer and the bot
// restarts); the player, answered "interaction failed", types it again.
// It is not applied twice: the restarted bot tells them what was done.
func TestRetypedCommandAfterACrashAppliesOnce(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	g.answer(g.do(slash(t, bob, channel, "join")))
	g.do(slash(t, ann, channel, "start"))
	g.bot.Wait()
	s := g.match().Game.State
	seat := s.SeatByID(ann.userID())
	terr := ""
	for id := range s.Terr {
		if s.Terr[id].Owner == seat {
			terr = s.Map.Territories[id].Name
			break
		}
	}
	reserve := func() int { return g.match().Game.State.Seats[seat].Reserve }
	before := reserve()
	place := slash(t, ann, channel, "place", o("territory", terr), o("armies", 1))

	g.fake.FailNext(answerRoute, http.StatusInternalServerError)
	i := g.deliver(place)
	if err := g.a.handle(g.ctx, g.core, i, time.Now()); err == nil {
		t.Fatal("the answer went out")
	}
	if got := reserve(); got != before-1 {
		t.Fatalf("reserve %d, want %d: the command was not saved", got, before-1)
	}
	g.restart()
	g.clock.Advance(time.Minute)
	wantPrivate(t, g.answer(g.do(place)), "Your last command here, /risk place armies:1", "was carried out", "placed 1 on "+terr)
	if got := reserve(); got != before-1 {
		t.Fatalf("reserve %d after the command was typed again, want %d", got, before-1)
	}
	wantPrivate(t, g.answer(g.do(place)), "placed 1 on "+terr)
	if got := reserve(); got != before-2 {
		t.Fatalf("reserve %d, want %d", got, before-2)
	}
}

// A lobby's message deleted in the channel: Discord refuses its edit, so
// the next change posts it anew, and the new one is edited from then on.
func TestDeletedLobbyIsPostedAnew(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	first, ok := g.lastPost("Ann opened a Risk match")
	if !ok || !g.fake.DeleteMessage(first.ID) {
		t.Fatalf("no lobby to delete: %+v", first)
	}
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "join"))), "You joined")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "addbot"))), "takes a seat")
	var live []fakediscord.Message
	for _, m := range g.channelPosts() {
		if !m.Deleted {
			live = append(live, m)
		}
	}
	if len(live) != 1 || live[0].ID == first.ID || live[0].Edits != 1 {
		t.Fatalf("the channel's lobby messages: %+v, want one posted anew and edited once", live)
	}
	wantText(t, live[0], "Lobby — 3/6 seats", "2. Bob")
	if v := g.fake.TakeViolations(); len(v) != 1 || !strings.Contains(v[0], "Unknown Message") {
		t.Errorf("requests refused: %q, want the edit of the deleted lobby", v)
	}
}

// The host starts the match with the lobby's Start button: the start is a
// new message that pings the players, with the map, and the lobby's
// message says the match started, without its buttons.
func TestLobbyStartButton(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	lobby, _ := g.lastPost("Ann opened a Risk match")
	join, _ := buttonByLabel(lobby, "Join")
	start, ok := buttonByLabel(lobby, "Start")
	if !ok {
		t.Fatalf("no Start button: %+v", lobby.Buttons)
	}
	wantPrivate(t, g.answer(g.do(click(t, ann, channel, start.CustomID))), "at least 2 players")
	wantPrivate(t, g.answer(g.do(click(t, bob, channel, join.CustomID))), "You joined")
	rs := g.fake.Replies(g.do(click(t, ann, channel, start.CustomID)))
	if len(rs) != 1 {
		t.Fatalf("the start: %d replies, want 1: %+v", len(rs), rs)
	}
	wantPublic(t, rs[0], "The match has started!", "<@"+ann.id+">", "<@"+bob.id+">")
	wantOnlyMentions(t, rs[0], ann, bob)
	wantMap(t, rs[0])
	g.bot.Wait()
	for _, m := range g.channelPosts() {
		if m.ID == lobby.ID {
			wantText(t, m, "The match has started!", "Lobby — started, 2 seats")
			if len(m.Buttons) != 0 {
				t.Errorf("the started lobby keeps its buttons: %+v", m.Buttons)
			}
		}
	}
	if g.match().Status != storage.Active {
		t.Errorf("the match is %s", g.match().Status)
	}
}

// Issue 12, item 10: /risk new (and /risk start) check the bot's
// permissions in the channel, from the interaction's app_permissions, and
// refuse with exactly the ones missing.
func TestPermissionSelfCheck(t *testing.T) {
	const all = fakediscord.PermViewChannel | fakediscord.PermSendMessages | fakediscord.PermEmbedLinks | fakediscord.PermAttachFiles
	for _, tt := range []struct {
		name  string
		perms int64
		want  string // "" opens the match
	}{
		{"all it needs", all, ""},
		{"administrator", fakediscord.PermAdministrator, ""},
		{"no attachments or embeds", fakediscord.PermViewChannel | fakediscord.PermSendMessages, "I lack Embed Links and Attach Files here"},
		{"read only", fakediscord.PermViewChannel | fakediscord.PermReadMessageHistory, "I lack Send Messages, Embed Links and Attach Files here"},
		{"no access", fakediscord.PermSendMessages, "I lack View Channel, Embed Links and Attach Files here"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t)
			g.fake.SetBotPermissions(channel, tt.perms)
			got := g.answer(g.do(slash(t, ann, channel, "new")))
			if tt.want == "" {
				wantPrivate(t, got, "Your match is open")
				if _, ok := g.lastPost("Ann opened a Risk match"); !ok {
					t.Error("no lobby posted")
				}
				return
			}
			wantPrivate(t, got, "I cannot host a match in this channel: "+tt.want)
			if _, err := g.db.Active(g.ctx, prefix+channel); err == nil {
				t.Error("the match was opened")
			}
		})
	}
	// Taken away between the lobby and the start: the start is refused.
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	g.answer(g.do(slash(t, ann, channel, "addbot")))
	g.fake.SetBotPermissions(channel, fakediscord.PermViewChannel|fakediscord.PermSendMessages|fakediscord.PermEmbedLinks)
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "start"))), "I lack Attach Files here")
}

// Issue 12, item 10: a channel that stops taking the bot's posts (its
// permissions were taken away) does not stop a match silently: the host is
// told directly, and every player's next command there says what is
// missing, until the bot may post again.
func TestRefusedChannelIsSaidSo(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	g.answer(g.do(slash(t, bob, channel, "join")))
	g.do(slash(t, ann, channel, "start"))
	g.answer(g.do(slash(t, ann, channel, "autoplace")))
	g.fake.SetBotPermissions(channel, fakediscord.PermViewChannel) // no more Send Messages
	g.answer(g.do(slash(t, bob, channel, "autoplace")))            // the setup ends: its post is refused
	g.bot.Wait()
	if _, ok := g.lastPost("Initial placement done"); ok {
		t.Fatal("the fake took a post the bot may not make")
	}
	dms := g.fake.DMs(ann.id)
	if len(dms) != 1 {
		t.Fatalf("the host got %d direct messages, want 1", len(dms))
	}
	wantText(t, dms[0], "I could not post in <#"+channel+">, where you host a Risk match", "Missing Permissions", "/risk host abandon")
	if len(g.fake.DMs(bob.id)) != 0 {
		t.Error("a player who does not host was sent a direct message")
	}
	// Every answer in the channel says what is missing now.
	for _, p := range []person{bob, ann} {
		wantText(t, g.answer(g.do(slash(t, p, channel, "status"))), "I cannot post in this channel", "I lack Send Messages, Embed Links and Attach Files")
	}
	// Another refused post does not tell the host again.
	s := g.match().Game.State
	cur := personOf(t, s.Seats[s.Current].ID)
	g.answer(g.do(slash(t, cur, channel, "autoplace")))
	g.answer(g.do(slash(t, cur, channel, "end")))
	g.bot.Wait()
	if n := len(g.fake.DMs(ann.id)); n != 1 {
		t.Errorf("the host got %d direct messages, want still 1", n)
	}
	// Given back: no more word of it.
	g.fake.SetBotPermissions(channel, fakediscord.DefaultBotPermissions)
	if got := g.answer(g.do(slash(t, bob, channel, "status"))); strings.Contains(got.Content, "⚠️") {
		t.Errorf("still warned after the permissions came back: %q", got.Content)
	}
	if got := g.answer(g.do(slash(t, ann, channel, "status"))); strings.Contains(got.Content, "⚠️") {
		t.Errorf("warned again: %q", got.Content)
	}
}

// Issue 12, item 11, through Discord: who is an admin comes from the
// member's permissions in the channel. Dan (Manage Server) ends Ann's
// match with /risk abandon and its confirmation button; Bob (a member)
// cannot.
func TestAdminEndsAMatchThroughDiscord(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	g.answer(g.do(slash(t, bob, channel, "join")))
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "abandon"))), "Only Ann (the host) or an admin")
	ask := g.answer(g.do(slash(t, dan, channel, "abandon")))
	wantPrivate(t, ask, "without a winner?")
	end, ok := buttonByLabel(ask, "End the match")
	if !ok {
		t.Fatalf("no confirmation button: %+v", ask.Buttons)
	}
	wantPrivate(t, g.answer(g.do(click(t, dan, channel, end.CustomID))), "the match is ended")
	g.bot.Wait()
	if _, ok := g.lastPost("Dan (an admin) ended the match without a winner"); !ok {
		t.Error("the channel was not told")
	}
	if closed, ok := g.lastPost("This lobby is closed"); !ok || len(closed.Buttons) != 0 {
		t.Errorf("the lobby was not closed: %+v", closed)
	}
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "new"))), "Your match is open")
	if _, ok := g.lastPost("Bob opened a Risk match"); !ok {
		t.Error("no lobby posted")
	}
}

// Issue 12, item 13: where the bot may open threads, each match gets one:
// the channel keeps one line per match, the lobby and every post of the
// match go to the thread, where it is played, and the thread is archived
// when the match ends. Without the permissions the match stays in the
// channel; asked for, a thread is refused naming them.
func TestThreadPerMatch(t *testing.T) {
	g := newGame(t)
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new", o("thread", "on")))),
		"I cannot open a thread for the match here: I lack Create Public Threads and Send Messages in Threads")
	g.fake.SetBotPermissions(channel, fakediscord.DefaultBotPermissions|fakediscord.ThreadPermissions)
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new"))), "Your match is open in its own thread")
	ths := g.fake.Threads()
	if len(ths) != 1 || ths[0].Parent != channel || ths[0].AutoArchive != 10080 {
		t.Fatalf("threads %+v", ths)
	}
	thread := ths[0].ID
	line, ok := g.lastPost("Ann opened a Risk match!")
	if !ok || line.ChannelID != channel {
		t.Fatalf("the channel has no line of the match: %+v", line)
	}
	wantPublic(t, line, "in its own thread, <#"+thread+">")
	if len(line.Buttons) != 0 {
		t.Errorf("the channel's line has buttons: %+v", line.Buttons)
	}
	lobby, ok := g.lastPost("happens in this thread")
	if !ok || lobby.ChannelID != thread {
		t.Fatalf("the lobby was not posted in the thread: %+v", lobby)
	}
	join, ok := buttonByLabel(lobby, "Join")
	if !ok {
		t.Fatal("no Join button in the thread")
	}
	wantPrivate(t, g.answer(g.do(click(t, bob, thread, join.CustomID))), "You joined")
	if edited, _ := g.lastPost("Bob joined (2/6 seats)"); edited.ID != lobby.ID || !strings.Contains(fullText(edited), "2. Bob") {
		t.Errorf("the lobby in the thread was not edited: %+v", edited)
	}
	g.do(slash(t, ann, thread, "start"))
	g.answer(g.do(slash(t, ann, thread, "autoplace")))
	g.answer(g.do(slash(t, bob, thread, "autoplace")))
	g.bot.Wait()
	if p, ok := g.lastPost("Initial placement done"); !ok || p.ChannelID != thread {
		t.Errorf("the turn post is not in the thread: %+v", p)
	}
	// A second match in the same channel: another thread.
	wantPrivate(t, g.answer(g.do(slash(t, cat, channel, "new"))), "Your match is open in its own thread")
	if n := len(g.fake.Threads()); n != 2 {
		t.Errorf("%d threads, want 2", n)
	}
	// The end: the thread is archived, after the word of it.
	ask := g.answer(g.do(slash(t, ann, thread, "abandon")))
	end, _ := buttonByLabel(ask, "End the match")
	g.answer(g.do(click(t, ann, thread, end.CustomID)))
	g.bot.Wait()
	if p, ok := g.lastPost("ended the match without a winner"); !ok || p.ChannelID != thread {
		t.Errorf("the end is not told in the thread: %+v", p)
	}
	for _, th := range g.fake.Threads() {
		if (th.ID == thread) != th.Archived {
			t.Errorf("thread %s archived %v", th.Name, th.Archived)
		}
	}
	// The channel keeps one line per match.
	var lines []string
	for _, m := range g.fake.Messages() {
		if m.ChannelID == channel && m.Public() {
			lines = append(lines, m.Content)
		}
	}
	if len(lines) != 2 || !strings.Contains(lines[0], "Ann opened") || !strings.Contains(lines[1], "Cat opened") {
		t.Errorf("the channel's messages: %q, want a line for each match", lines)
	}
	// Without a thread, as asked: in the channel.
	g.fake.SetBotPermissions(channel, fakediscord.DefaultBotPermissions|fakediscord.ThreadPermissions)
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "new", o("thread", "off")))), "Your match is open: its lobby, below")
	if lobby, ok := g.lastPost("Bob opened a Risk match!"); !ok || lobby.ChannelID != channel {
		t.Errorf("the lobby is not in the channel: %+v", lobby)
	}
	if _, err := g.db.Active(g.ctx, prefix+channel); err != nil {
		t.Errorf("the match is not in the channel: %v", err)
	}
}
