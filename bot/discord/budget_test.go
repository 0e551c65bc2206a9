package discord

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/bot/web"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/render"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// The pieces of the turn's budget (budget_bench_test.go): a match of four
// people played through the fake Discord to a turn worth measuring, the
// same turn typed in the page, and what each of them saved, drew and sent.

// budgetPeople are the four players of the budget's matches, people all:
// no computer plays in the background of a turn measured.
var budgetPeople = []person{ann, bob, cat, dan}

// budgetPerson returns the budget's player of a seat's user ID.
func budgetPerson(t testing.TB, id string) person {
	t.Helper()
	for _, p := range budgetPeople {
		if p.userID() == id || web.Prefix+strings.ToLower(p.name) == id {
			return p
		}
	}
	t.Fatalf("seat %s is nobody of the budget", id)
	return person{}
}

// budgetStep is a command of the turn: the same one as a Discord slash
// command and as a line typed in the page.
type budgetStep struct {
	who  person
	sub  string
	opts []opt
}

// line is the step as typed in the page (or the console).
func (st budgetStep) line() string {
	parts := []string{"/risk", st.sub}
	for _, x := range st.opts {
		v := fmt.Sprint(x.value)
		if strings.ContainsAny(v, " \t") {
			v = `"` + v + `"`
		}
		parts = append(parts, x.name+":"+v)
	}
	return strings.Join(parts, " ")
}

// stepOf is the step that plays c for seat in s as a person would type
// it; ok is false for what takes a button (an item used).
func stepOf(s *state.State, p person, c engine.Command) (budgetStep, bool) {
	n := s.Map.TerritoryName
	st := budgetStep{who: p}
	switch c := c.(type) {
	case engine.AutoPlace:
		st.sub = "place"
	case engine.Place:
		st.sub, st.opts = "place", []opt{o("territory", n(c.Territory)), o("armies", c.Armies)}
	case engine.Capital:
		st.sub, st.opts = "place", []opt{o("territory", n(c.Territory))}
	case engine.Reinforce:
		st.sub, st.opts = "place", []opt{o("territory", n(c.Territory))}
	case engine.Trade:
		st.sub = "trade" // the best set, as the bot picks it
	case engine.Attack:
		st.sub, st.opts = "attack", []opt{o("from", n(c.From)), o("to", n(c.To)), o("dice", c.Dice)}
	case engine.Blitz:
		until := "win"
		if c.Keep > 1 {
			until = fmt.Sprint(c.Keep)
		}
		st.sub, st.opts = "attack", []opt{o("from", n(c.From)), o("to", n(c.To)), o("until", until)}
	case engine.Capture:
		st.sub, st.opts = "attack", []opt{o("from", n(c.From)), o("to", n(c.To))}
	case engine.Plan:
		st.sub, st.opts = "attack", []opt{o("from", n(c.From)), o("to", n(c.To))}
	case engine.Launch:
		st.sub = "launch"
	case engine.BuildPort:
		st.sub, st.opts = "port", []opt{o("territory", n(c.Territory))}
	case engine.Occupy:
		st.sub, st.opts = "occupy", []opt{o("armies", c.Armies)}
	case engine.Fortify:
		st.sub, st.opts = "fortify", []opt{o("from", n(c.From)), o("to", n(c.To)), o("armies", c.Armies)}
	case engine.Move:
		hero := "no"
		if c.Hero {
			hero = "yes"
		}
		st.sub, st.opts = "fortify", []opt{o("from", n(c.From)), o("to", n(c.To)), o("ratio", voice.Ratio(c.Quarters)), o("hero", hero)}
	case engine.EndTurn, engine.Discard:
		st.sub = "end" // a discard the bot picks, as it does when none is named
	default:
		return st, false
	}
	return st, true
}

// budgetDB is the store of a budget's bot: SQLite, with each save timed,
// and copied while recording, and the other calls of a turn's path
// counted and timed: the writes (a request answered, posts delivered, a
// setting) and the reads.
type budgetDB struct {
	*sqlite.DB
	mu     sync.Mutex
	record bool
	saves  []storage.Change
	n      int
	took   time.Duration

	writes, reads       int
	writeTook, readTook time.Duration
	calls               map[string]int // by method
}

// called counts a call other than Save, of method name, begun at t.
func (d *budgetDB) called(write bool, name string, t time.Time) {
	took := time.Since(t)
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.calls == nil {
		d.calls = map[string]int{}
	}
	d.calls[name]++
	if write {
		d.writes++
		d.writeTook += took
	} else {
		d.reads++
		d.readTook += took
	}
}

func (d *budgetDB) Answered(ctx context.Context, key string, now time.Time) error {
	defer d.called(true, "Answered", time.Now())
	return d.DB.Answered(ctx, key, now)
}

func (d *budgetDB) Delivered(ctx context.Context, id, version int64) error {
	defer d.called(true, "Delivered", time.Now())
	return d.DB.Delivered(ctx, id, version)
}

func (d *budgetDB) SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error {
	defer d.called(true, "SetSetting", time.Now())
	return d.DB.SetSetting(ctx, scope, id, value, now)
}

func (d *budgetDB) Setting(ctx context.Context, scope, id string) (json.RawMessage, error) {
	defer d.called(false, "Setting", time.Now())
	return d.DB.Setting(ctx, scope, id)
}

func (d *budgetDB) Applied(ctx context.Context, key string) (*storage.Applied, error) {
	defer d.called(false, "Applied", time.Now())
	return d.DB.Applied(ctx, key)
}

func (d *budgetDB) LastRequest(ctx context.Context, channel, user string) (*storage.Applied, error) {
	defer d.called(false, "LastRequest", time.Now())
	return d.DB.LastRequest(ctx, channel, user)
}

func (d *budgetDB) Head(ctx context.Context, id int64) (storage.Head, error) {
	defer d.called(false, "Head", time.Now())
	return d.DB.Head(ctx, id)
}

func (d *budgetDB) OpenHead(ctx context.Context, channel string) (storage.Head, error) {
	defer d.called(false, "OpenHead", time.Now())
	return d.DB.OpenHead(ctx, channel)
}

func (d *budgetDB) Active(ctx context.Context, channel string) (*storage.Loaded, error) {
	defer d.called(false, "Active", time.Now())
	return d.DB.Active(ctx, channel)
}

func (d *budgetDB) Load(ctx context.Context, id int64) (*storage.Loaded, error) {
	defer d.called(false, "Load", time.Now())
	return d.DB.Load(ctx, id)
}

func (d *budgetDB) Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error) {
	t := time.Now()
	v, err := d.DB.Save(ctx, id, version, c, now)
	took := time.Since(t)
	d.mu.Lock()
	defer d.mu.Unlock()
	d.n++
	d.took += took
	if d.record && err == nil {
		d.saves = append(d.saves, cloneChange(c))
	}
	return v, err
}

// reset starts counting (and recording, if record) anew.
func (d *budgetDB) reset(record bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.record, d.saves, d.n, d.took = record, nil, 0, 0
	d.writes, d.reads, d.writeTook, d.readTook, d.calls = 0, 0, 0, 0, nil
}

// cloneChange copies a change deep enough to save it again later: the bot
// plays on the game it saved.
func cloneChange(c storage.Change) storage.Change {
	out := c
	out.Entries = slices.Clone(c.Entries)
	for i := range out.Entries {
		out.Entries[i].Rand = slices.Clone(out.Entries[i].Rand)
	}
	if c.Game != nil {
		out.Game = c.Game.Clone()
	}
	out.Meta = slices.Clone(c.Meta)
	out.Posts = slices.Clone(c.Posts)
	if c.Timers != nil {
		t := *c.Timers
		out.Timers = &t
	}
	if c.Request != nil {
		r := *c.Request
		out.Request = &r
	}
	if c.Claim != nil {
		cl := *c.Claim
		out.Claim = &cl
	}
	return out
}

// budgetRenderer is the renderer of a budget's bot: the real one, with
// each map timed and the states drawn kept while recording.
type budgetRenderer struct {
	r      *render.Renderer
	mu     sync.Mutex
	record bool
	states []*state.State
	n      int
	took   time.Duration
}

func (br *budgetRenderer) Render(ctx context.Context, s *state.State) ([]byte, error) {
	t := time.Now()
	png, err := br.r.Render(ctx, s)
	took := time.Since(t)
	br.mu.Lock()
	defer br.mu.Unlock()
	br.n++
	br.took += took
	if br.record {
		br.states = append(br.states, s) // (look draws a copy of the state)
	}
	return png, err
}

func (br *budgetRenderer) reset(record bool) {
	br.mu.Lock()
	defer br.mu.Unlock()
	br.record, br.states, br.n, br.took = record, nil, 0, 0
}

// budgetTransport counts and times the requests to the fake Discord.
type budgetTransport struct {
	base http.RoundTripper
	mu   sync.Mutex
	n    int
	took time.Duration
}

func (bt *budgetTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	t := time.Now()
	res, err := bt.base.RoundTrip(r)
	if err == nil {
		// The answer is read by the caller: read it here, so that the
		// time is the whole exchange's.
		body, rerr := io.ReadAll(res.Body)
		res.Body.Close()
		res.Body = io.NopCloser(bytes.NewReader(body))
		err = rerr
	}
	took := time.Since(t)
	bt.mu.Lock()
	bt.n++
	bt.took += took
	bt.mu.Unlock()
	return res, err
}

func (bt *budgetTransport) reset() {
	bt.mu.Lock()
	defer bt.mu.Unlock()
	bt.n, bt.took = 0, 0
}

// sent is a message the bot posted or edited in a channel.
type sent struct {
	edit bool
	msg  chat.Message
}

// budgetPoster is the adapter as the bot's Poster, keeping what the bot
// sends while recording, step by step.
type budgetPoster struct {
	*Adapter
	rec *budgetRec
}

func (p budgetPoster) Post(ctx context.Context, channel string, m chat.Message) (string, error) {
	p.rec.add(sent{msg: m})
	return p.Adapter.Post(ctx, channel, m)
}

func (p budgetPoster) Edit(ctx context.Context, channel, id string, m chat.Message) error {
	p.rec.add(sent{edit: true, msg: m})
	return p.Adapter.Edit(ctx, channel, id, m)
}

// budgetCore is the bot behind the adapter, keeping its answers while
// recording.
type budgetCore struct {
	*bot.Bot
	rec *budgetRec
}

func (c budgetCore) Handle(ctx context.Context, req chat.Request, r chat.Replier) error {
	return c.Bot.Handle(ctx, req, chat.ReplierFunc(func(ctx context.Context, m chat.Message) error {
		c.rec.answer(m)
		return r.Reply(ctx, m)
	}))
}

// budgetRec is what the bot answered and sent at each step of a turn.
type budgetRec struct {
	mu      sync.Mutex
	on      bool
	answers []chat.Message
	sent    [][]sent // by step: what followed its answer
}

func (r *budgetRec) reset(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.on, r.answers, r.sent = on, nil, nil
}

func (r *budgetRec) answer(m chat.Message) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on {
		r.answers = append(r.answers, m)
		r.sent = append(r.sent, nil)
	}
}

func (r *budgetRec) add(s sent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.on && len(r.sent) > 0 {
		r.sent[len(r.sent)-1] = append(r.sent[len(r.sent)-1], s)
	}
}

// budgetClock is the bots' clock: a fixed moment (the turn clocks they set
// are never due).
func budgetClock() time.Time { return time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC) }

// budgetLog is the bots' and adapters' log, at the level a server runs
// with; it is printed if the benchmark fails.
func budgetLog(t testing.TB) *slog.Logger {
	buf := &logBuffer{}
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("log:\n%s", buf)
		}
	})
	return slog.New(slog.NewTextHandler(buf, &slog.HandlerOptions{Level: slog.LevelInfo}))
}

// discordSide is a bot on a SQLite file behind the adapter, against the
// fake Discord: the Discord half of the budget.
type discordSide struct {
	t    testing.TB
	ctx  context.Context
	e    *env
	bot  *bot.Bot
	db   *budgetDB
	draw *budgetRenderer
	http *budgetTransport
	rec  *budgetRec
}

func newDiscordSide(t testing.TB, r *render.Renderer) *discordSide {
	t.Helper()
	ctx := context.Background()
	log := budgetLog(t)
	fake := fakediscord.New(t)
	tr := &budgetTransport{base: fake.Client().Transport}
	client := fake.Client()
	client.Transport = tr
	a, err := New(Config{Token: fakediscord.Token, HTTPClient: client, Log: log, DeferAfter: DefaultDeferAfter})
	if err != nil {
		t.Fatal(err)
	}
	a.s.State.Application = &discordgo.Application{ID: fakediscord.AppID}
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	d := &discordSide{t: t, ctx: ctx, db: &budgetDB{DB: db}, draw: &budgetRenderer{r: r}, http: tr, rec: &budgetRec{}}
	seed := uint64(0)
	var mu sync.Mutex
	b, err := bot.New(bot.Standard(bot.Config{
		Store: d.db, Render: d.draw, Poster: budgetPoster{Adapter: a, rec: d.rec}, Now: budgetClock,
		Seed: func() uint64 { mu.Lock(); defer mu.Unlock(); seed++; return seed },
		Log:  log.With("part", "core"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	d.bot = b
	d.e = &env{t: t, ctx: ctx, fake: fake, a: a, core: budgetCore{Bot: b, rec: d.rec}}
	return d
}

// interaction registers the step's interaction in channel with the fake,
// as just delivered, and returns it as the gateway would hand it over.
func (d *discordSide) interaction(channel string, st budgetStep) []byte {
	raw, err := d.e.fake.Interaction(slash(d.t, st.who, channel, st.sub, st.opts...))
	if err != nil {
		d.t.Fatal(err)
	}
	return raw
}

// handle decodes an interaction as delivered and handles it to the end.
func (d *discordSide) handle(raw []byte) {
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		d.t.Fatal(err)
	}
	if err := d.e.a.handle(d.ctx, d.e.core, &i, time.Now()); err != nil {
		d.t.Fatalf("handle: %v", err)
	}
}

// do plays a step in channel and waits for what it started.
func (d *discordSide) do(channel string, st budgetStep) {
	d.handle(d.interaction(channel, st))
	d.bot.Wait()
}

// click presses a button as p.
func (d *discordSide) click(channel string, p person, customID string) {
	raw, err := d.e.fake.Interaction(click(d.t, p, channel, customID))
	if err != nil {
		d.t.Fatal(err)
	}
	d.handle(raw)
	d.bot.Wait()
}

// lastAnswer is the visible answer of the channel's last interaction.
func (d *discordSide) lastAnswer(channel string) fakediscord.Message {
	ms := d.e.fake.Messages()
	for i := len(ms) - 1; i >= 0; i-- {
		if ms[i].ChannelID == channel && ms[i].Kind != fakediscord.Channel && !ms[i].Deleted {
			return ms[i]
		}
	}
	d.t.Fatalf("no answer in %s", channel)
	return fakediscord.Message{}
}

// match is the open match of channel, from the store.
func (d *discordSide) match(channel string) *storage.Loaded {
	l, err := d.db.Active(d.ctx, prefix+channel)
	if err != nil {
		d.t.Fatal(err)
	}
	return l
}

// copyOf imports x as a new match in a new channel and gets it ready to
// be played on as its old channel was: its turn's living message posted
// (the one each command edits), the match read into the bot's cache, and
// the renderer's last frame of it that of x. It returns the channel.
func (d *discordSide) copyOf(x *storage.Export) string {
	ch := d.e.fake.Snowflake()
	if err := d.db.ImportCopies(d.ctx, x, []string{prefix + ch}, budgetClock()); err != nil {
		d.t.Fatal(err)
	}
	if err := d.bot.Restore(d.ctx, prefix+ch, 1, nil); err != nil {
		d.t.Fatal(err)
	}
	l, err := d.bot.Matches().Active(d.ctx, prefix+ch)
	if err != nil {
		d.t.Fatal(err)
	}
	if _, err := d.draw.r.Render(d.ctx, l.Game.State.View(-1)); err != nil {
		d.t.Fatal(err)
	}
	return ch
}

// pageSide is a bot on a SQLite file behind the web page: the page's half
// of the budget.
type pageSide struct {
	t    testing.TB
	ctx  context.Context
	srv  *web.Server
	bot  *bot.Bot
	db   *budgetDB
	draw *budgetRenderer
	ts   *httptest.Server
	n    int
	// browsers are the pages the players opened, by name.
	browsers map[string]*budgetBrowser
}

// budgetBrowser is a page opened in a browser: its session's cookie and
// its anti-forgery token.
type budgetBrowser struct {
	client *http.Client
	token  string
}

func newPageSide(t testing.TB, r *render.Renderer) *pageSide {
	t.Helper()
	ctx := context.Background()
	log := budgetLog(t)
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p := &pageSide{t: t, ctx: ctx, db: &budgetDB{DB: db}, draw: &budgetRenderer{r: r}, browsers: map[string]*budgetBrowser{}}
	p.srv = web.New(web.Config{Store: p.db, Now: budgetClock, Log: log, Rate: 1e6, Burst: 1e6})
	seed := uint64(0)
	var mu sync.Mutex
	b, err := bot.New(bot.Standard(bot.Config{
		Store: p.db, Render: p.draw, Poster: p.srv, Now: budgetClock, Scope: web.Prefix,
		Seed: func() uint64 { mu.Lock(); defer mu.Unlock(); seed++; return seed },
		Log:  log.With("part", "core"),
	}))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	p.bot = b
	p.srv.SetBot(b)
	p.ts = httptest.NewServer(p.srv.Handler())
	t.Cleanup(p.ts.Close)
	for _, who := range budgetPeople {
		jar, err := cookiejar.New(nil)
		if err != nil {
			t.Fatal(err)
		}
		br := &budgetBrowser{client: &http.Client{Jar: jar}}
		var names struct {
			Token string `json:"token"`
		}
		p.getJSON(br.client, "/web/names", &names)
		br.token = names.Token
		p.browsers[who.name] = br
	}
	return p
}

func (p *pageSide) getJSON(c *http.Client, path string, v any) {
	res, err := c.Get(p.ts.URL + path)
	if err != nil {
		p.t.Fatal(err)
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		p.t.Fatalf("GET %s: %s", path, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		p.t.Fatalf("GET %s: %v", path, err)
	}
}

// get reads path to the end and returns its size.
func (p *pageSide) get(path string) int {
	res, err := p.ts.Client().Get(p.ts.URL + path)
	if err != nil {
		p.t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != http.StatusOK {
		p.t.Fatalf("GET %s: %s %v", path, res.Status, err)
	}
	return int(n)
}

// body is what the page POSTs to /web/command for step st in channel (the
// channel's name without the page's prefix).
func (p *pageSide) body(name string, st budgetStep) []byte {
	b, err := json.Marshal(map[string]string{"channel": name, "as": st.who.name, "line": st.line()})
	if err != nil {
		p.t.Fatal(err)
	}
	return b
}

// command POSTs a command as the page of its player does.
func (p *pageSide) command(who string, body []byte) {
	br := p.browsers[who]
	req, err := http.NewRequest(http.MethodPost, p.ts.URL+"/web/command", strings.NewReader(string(body)))
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", p.ts.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	req.Header.Set("X-Risk-Token", br.token)
	res, err := br.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	answer, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		p.t.Fatalf("POST /web/command %s: %s %s", body, res.Status, answer)
	}
}

// copyOf imports x (a Discord match: its players become the page's) as a
// new match of a new channel of the page and gets it ready as
// discordSide.copyOf does. It returns the channel's name and the match.
func (p *pageSide) copyOf(x *storage.Export) (string, *storage.Loaded) {
	p.n++
	name := fmt.Sprintf("turn%d", p.n)
	if err := p.db.ImportCopies(p.ctx, pageExport(p.t, x), []string{web.Prefix + name}, budgetClock()); err != nil {
		p.t.Fatal(err)
	}
	if err := p.bot.Restore(p.ctx, web.Prefix+name, 1, nil); err != nil {
		p.t.Fatal(err)
	}
	l, err := p.bot.Matches().Active(p.ctx, web.Prefix+name)
	if err != nil {
		p.t.Fatal(err)
	}
	if _, err := p.draw.r.Render(p.ctx, l.Game.State.View(-1)); err != nil {
		p.t.Fatal(err)
	}
	return name, l
}

// pageExport is a Discord match's export with its players the page's
// people of the same names.
func pageExport(t testing.TB, x *storage.Export) *storage.Export {
	t.Helper()
	b, err := json.Marshal(x)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, p := range budgetPeople {
		s = strings.ReplaceAll(s, `"`+p.userID()+`"`, `"`+web.Prefix+strings.ToLower(p.name)+`"`)
		if strings.Contains(s, p.id) {
			t.Fatalf("the export names %s other than as a user", p.name)
		}
	}
	var out storage.Export
	if err := json.Unmarshal([]byte(s), &out); err != nil {
		t.Fatal(err)
	}
	out.Origin = nil
	return &out
}

// budgetTurn is the turn measured: a person's whole turn of a match of
// four people, played through the fake Discord, and what it did.
type budgetTurn struct {
	rules string
	// start is the match as the turn begins, end as it ends; entries are
	// the log entries the turn added.
	start, end *storage.Export
	steps      []budgetStep
	entries    []engine.Entry
	// game is the game as the turn begins, as the bot loads it.
	game *engine.Game
	// discordSaves and pageSaves are the changes each bot saved;
	// answers and sent what the Discord bot answered and sent, by step.
	discordSaves, pageSaves []storage.Change
	answers                 []chat.Message
	sent                    [][]sent
	// maps are the maps drawn (the turn's end, once).
	maps []*state.State
	// requests are the requests to the fake Discord the turn took.
	requests int
}

// budgetMinTurn is the first turn the budget may measure: the third
// round of four players, once the match is under way.
const budgetMinTurn = 9

// playBudgetTurn plays a match of four people through the fake Discord,
// each command chosen by a normal computer player and typed as a person
// would, until a turn worth measuring has been played: from turn
// budgetMinTurn, a turn with reinforcements, at least two attacks, a
// conquest and a move (classic: occupy and fortify; capitals: a capture
// or launched plan, and the turn's move), all typed. It returns that turn.
func playBudgetTurn(t testing.TB, d *discordSide, rules string) *budgetTurn {
	t.Helper()
	ch := d.e.fake.Snowflake()
	first := []opt{o("thread", "off")}
	if rules == "capitals" {
		first = append(first, o("rules", "capitals"))
	}
	d.do(ch, budgetStep{who: ann, sub: "new", opts: first})
	for _, p := range budgetPeople[1:] {
		d.do(ch, budgetStep{who: p, sub: "join"})
	}
	d.do(ch, budgetStep{who: ann, sub: "start"})
	minds := map[string]ai.Player{}
	for i, p := range budgetPeople {
		m, err := ai.New("normal", ai.Options{Seed: uint64(i + 7)})
		if err != nil {
			t.Fatal(err)
		}
		minds[p.name] = m
	}
	for range 200 {
		l := d.match(ch)
		s := l.Game.State
		if l.Status != storage.Active || s.Phase == state.PhaseOver {
			t.Fatalf("the match ended before a turn worth measuring (turn %d)", s.Turn)
		}
		if s.Phase == state.PhaseSetup && rules == "classic" {
			for i, seat := range s.Seats {
				if seat.Reserve > 0 {
					d.do(ch, budgetStep{who: budgetPerson(t, s.Seats[i].ID), sub: "place"})
				}
			}
			continue
		}
		start, err := d.db.Export(d.ctx, l.ID)
		if err != nil {
			t.Fatal(err)
		}
		seat, turn := s.Current, s.Turn
		p := budgetPerson(t, s.Seats[seat].ID)
		d.db.reset(true)
		d.draw.reset(true)
		d.rec.reset(true)
		d.http.reset()
		typed := true
		var steps []budgetStep
		for range 80 {
			l := d.match(ch)
			s := l.Game.State
			if l.Status != storage.Active || s.Phase == state.PhaseOver || s.Current != seat || s.Turn != turn || s.Phase == state.PhaseSetup && rules == "classic" {
				break
			}
			c, err := minds[p.name].Act(d.ctx, s.View(seat), seat)
			if err != nil {
				t.Fatal(err)
			}
			st, ok := stepOf(s, p, c)
			if !ok {
				typed = false
				d.useItem(ch, p)
				continue
			}
			steps = append(steps, st)
			d.do(ch, st)
			if d.match(ch).Version == l.Version {
				// Refused (it happens: a move that would empty a
				// capital is asked about): the turn ends here.
				typed = false
				d.do(ch, budgetStep{who: p, sub: "end"})
			}
		}
		d.bot.Wait()
		l = d.match(ch)
		end, err := d.db.Export(d.ctx, l.ID)
		if err != nil {
			t.Fatal(err)
		}
		if s.Phase == state.PhaseSetup || !typed || turn < budgetMinTurn {
			continue
		}
		bt := &budgetTurn{rules: rules, start: start, end: end, steps: steps, entries: end.Record.Log[len(start.Record.Log):]}
		if !bt.worth() {
			continue
		}
		bt.discordSaves = d.db.saves
		bt.maps = d.draw.states
		bt.answers, bt.sent = d.rec.answers, d.rec.sent
		bt.requests = d.http.n
		d.db.reset(false)
		d.draw.reset(false)
		d.rec.reset(false)
		if len(bt.answers) != len(bt.steps) {
			t.Fatalf("%d answers to %d commands", len(bt.answers), len(bt.steps))
		}
		return bt
	}
	t.Fatal("no turn worth measuring in 200")
	return nil
}

// useItem uses p's item, with the button of /risk cards.
func (d *discordSide) useItem(channel string, p person) {
	d.do(channel, budgetStep{who: p, sub: "cards"})
	use, ok := buttonByLabel(d.lastAnswer(channel), "Use it now")
	if !ok {
		d.t.Fatal("no Use button")
	}
	d.click(channel, p, use.CustomID)
}

// worth reports whether the turn is one a player really plays: see
// playBudgetTurn.
func (bt *budgetTurn) worth() bool {
	n := map[string]int{}
	for _, e := range bt.entries {
		n[e.Cmd.Name()]++
	}
	if bt.rules == "capitals" {
		return n["reinforce"] > 0 && n["capture"]+n["plan"] >= 2 && n["capture"]+n["launch"] > 0 && n["move"] > 0
	}
	return n["place"]+n["autoplace"] > 0 && n["attack"]+n["blitz"] >= 2 && n["occupy"] > 0 && n["fortify"] > 0
}

// String sums the turn up: its commands as typed.
func (bt *budgetTurn) String() string {
	var lines []string
	for _, st := range bt.steps {
		lines = append(lines, st.line())
	}
	var names []string
	for _, e := range bt.entries {
		names = append(names, e.Cmd.Name())
	}
	return fmt.Sprintf("%s, turn %d, %s: %d commands (%s), %d log entries (%s)", bt.rules, bt.game.State.Turn, bt.steps[0].who.name,
		len(bt.steps), strings.Join(lines, " · "), len(bt.entries), strings.Join(names, ", "))
}

// sameEntries checks that a turn played again added the entries the turn
// measured did, dice included: the same turn.
func sameEntries(t testing.TB, what string, want, got []engine.Entry) {
	t.Helper()
	a, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	if string(a) != string(b) {
		t.Fatalf("%s played another turn:\n got %s\nwant %s", what, b, a)
	}
}

// errNoMap: a turn drew no map.
var errNoMap = errors.New("the turn drew no map")
