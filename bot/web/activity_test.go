package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/discord"
	"github.com/riskbot/riskbot/bot/discord/discordtest"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// activityEnv is the Activity's server as risk discord --activity wires
// it, against the fake Discord: a real SQLite file, the standard bot
// posting to Discord through the real adapter (its posts shown on the page
// while it is open), and the sign-in exchanging codes with the fake.
type activityEnv struct {
	fake *discordtest.Server
	srv  *Server
	bot  *bot.Bot
	db   *sqlite.DB
	ts   *httptest.Server
	// base is the server's address by the name localhost, where a browser
	// keeps its Secure cookies over plain HTTP.
	base string
}

// The Discord users of the tests, and the channel the Activity runs in.
var (
	annD = discordtest.User{ID: "100000000000000001", Username: "ann", GlobalName: "Ann"}
	bobD = discordtest.User{ID: "100000000000000002", Username: "bob", GlobalName: "Bob"}
)

const activityCh = "645027906669510667"

// mirror is the Discord adapter whose posts the page shows too (cmd/risk's
// mirrored).
type mirror struct {
	*discord.Adapter
	page *Server
}

func (m mirror) Post(ctx context.Context, channel string, msg chat.Message) (string, error) {
	id, err := m.Adapter.Post(ctx, channel, msg)
	if err == nil {
		m.page.Mirror(channel, id, msg)
	}
	return id, err
}

func (m mirror) Edit(ctx context.Context, channel, id string, msg chat.Message) error {
	err := m.Adapter.Edit(ctx, channel, id, msg)
	if err == nil {
		m.page.Mirror(channel, id, msg)
	}
	return err
}

// newActivityEnv starts the Activity's server; extra, if set, serves the
// test's own pages beside it (the fake Discord client), on the same origin.
func newActivityEnv(t testing.TB, extra map[string]http.HandlerFunc) *activityEnv {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	fake := discordtest.New(t)
	fake.EnableActivities()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "risk.db"))
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.DiscardHandler)
	a, err := discord.New(discord.Config{Token: discordtest.Token, HTTPClient: fake.Client(), Log: log})
	if err != nil {
		t.Fatal(err)
	}
	who := &discord.Activity{ClientID: discordtest.AppID, ClientSecret: discordtest.ClientSecret, Token: discordtest.Token, API: fake.URL() + "/api/v10"}
	srv := New(Config{Store: db, Log: log, Rate: 1e6, Burst: 1e6, Activity: &ActivityConfig{
		ClientID: discordtest.AppID,
		Identify: func(ctx context.Context, code, instance string) (ActivityPlayer, error) {
			p, err := who.Identify(ctx, code, instance)
			if errors.Is(err, discord.ErrRefused) {
				return ActivityPlayer{}, fmt.Errorf("%w: %w", ErrNotSignedIn, err)
			}
			if err != nil {
				return ActivityPlayer{}, err
			}
			return ActivityPlayer{UserID: p.UserID, Name: p.Name, AccessToken: p.AccessToken, Channel: p.Channel, Guild: p.Guild}, nil
		},
		Poster: a,
	}})
	seed := uint64(41)
	var mu sync.Mutex
	b, err := bot.New(bot.Standard(bot.Config{Store: db, Poster: mirror{Adapter: a, page: srv}, Scope: "discord:", PlayOnMap: true, Log: log,
		Seed: func() uint64 { mu.Lock(); defer mu.Unlock(); seed++; return seed }}))
	if err != nil {
		t.Fatal(err)
	}
	srv.SetBot(b)
	mux := http.NewServeMux()
	for p, h := range extra {
		mux.HandleFunc(p, h)
	}
	mux.Handle("/", srv.Handler())
	ts := httptest.NewUnstartedServer(mux)
	ts.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	ts.Start()
	t.Cleanup(func() {
		cancel()
		ts.Close()
		b.Close()
		db.Close()
	})
	_, port, _ := net.SplitHostPort(ts.Listener.Addr().String())
	return &activityEnv{fake: fake, srv: srv, bot: b, db: db, ts: ts, base: "http://localhost:" + port}
}

// as runs a command in the Activity's channel as a Discord user, as typed
// in Discord, and waits for the computer players.
func (e *activityEnv) as(t testing.TB, u discordtest.User, line string) {
	t.Helper()
	cmd, opts, err := parseCommand(line)
	if err != nil {
		t.Fatal(err)
	}
	r := chat.ReplierFunc(func(_ context.Context, m chat.Message) error {
		if m.Refused {
			t.Logf("%s: %s: %s", u.Username, line, m.Text)
		}
		return nil
	})
	req := chat.Request{Channel: discordPrefix + activityCh, User: chat.User{ID: discordPrefix + u.ID, Name: u.GlobalName}, Command: cmd, Options: opts,
		Server: discordPrefix + discordtest.GuildID}
	if err := e.bot.Handle(context.Background(), req, r); err != nil {
		t.Fatal(err)
	}
	e.bot.Wait()
}

// started opens a match in the channel with Ann, Bob and a computer,
// places everyone's setup armies, and plays until it is Ann's turn.
func (e *activityEnv) started(t testing.TB) *storage.Loaded {
	t.Helper()
	e.as(t, annD, "/risk new")
	e.as(t, bobD, "/risk join")
	e.as(t, annD, "/risk host addbot level:easy")
	e.as(t, annD, "/risk start")
	// The setup's armies, placed by everyone at once; then the turns until
	// Ann's (Bob's placed for him, and ended).
	e.as(t, annD, "/risk place")
	e.as(t, bobD, "/risk place")
	for i := 0; i < 10; i++ {
		l := e.match(t)
		s := l.Game.State
		switch s.Seats[s.Current].ID {
		case discordPrefix + annD.ID:
			return l
		case discordPrefix + bobD.ID:
			e.as(t, bobD, "/risk place")
			e.as(t, bobD, "/risk end")
		default:
			e.bot.Wait()
		}
	}
	t.Fatal("the match never came to Ann's turn")
	return nil
}

// match loads the channel's match.
func (e *activityEnv) match(t testing.TB) *storage.Loaded {
	t.Helper()
	l, err := e.db.Active(context.Background(), discordPrefix+activityCh)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// signIn signs u in through the Activity's instance in, with a code of
// Discord's, and returns the answer's status and body.
func (e *activityEnv) signIn(t testing.TB, code, instance string) (int, map[string]any) {
	t.Helper()
	body, _ := json.Marshal(map[string]string{"code": code, "instance": instance})
	res, err := http.Post(e.ts.URL+"/web/activity", "application/json", strings.NewReader(string(body)))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

// request sends a request with a session in the header (or "" for none)
// and returns its status and body.
func (e *activityEnv) request(t testing.TB, method, path, session, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequest(method, e.ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if session != "" {
		req.Header.Set(activityHeader, session)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

// TestActivitySignIn: the code is exchanged with Discord for the player,
// who must be in the Activity's instance; the session answered plays that
// player in that channel, and a forged code, a code used twice, an
// instance the player is not in, or a session tampered with get nothing.
func TestActivitySignIn(t *testing.T) {
	e := newActivityEnv(t, nil)
	in := e.fake.Launch(activityCh, annD.ID)
	used := e.fake.Authorize(annD)
	status, good := e.signIn(t, used, in)
	if status != http.StatusOK {
		t.Fatalf("signing in answered %d %v, want 200", status, good)
	}
	if good["channel"] != discordPrefix+activityCh || good["access_token"] == "" || good["user"].(map[string]any)["name"] != "Ann" {
		t.Errorf("signing in answered %v, want Ann in channel %s with an access token", good, activityCh)
	}
	if strings.Contains(strings.ToLower(asJSON(good)), strings.ToLower(discordtest.ClientSecret)) {
		t.Error("the answer carries the client secret")
	}
	for _, c := range []struct {
		name, code, instance string
	}{
		{"a forged code", "code-of-nobody", in},
		{"a code used twice", used, in},
		{"a player not in the instance", e.fake.Authorize(bobD), in},
		{"an instance not running", e.fake.Authorize(annD), "i-gone"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if status, out := e.signIn(t, c.code, c.instance); status != http.StatusUnauthorized {
				t.Errorf("got %d %v, want 401", status, out)
			}
		})
	}
	session := good["session"].(string)
	tampered := strings.Replace(session, session[:8], "AAAAAAAA", 1)
	for _, c := range []struct {
		name, session string
		want          int
	}{
		{"the session", session, http.StatusOK},
		{"no session", "", http.StatusUnauthorized},
		{"a tampered session", tampered, http.StatusUnauthorized},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got, body := e.request(t, http.MethodGet, "/web/channel?channel=discord:"+activityCh, c.session, ""); got != c.want {
				t.Errorf("GET /web/channel answered %d %s, want %d", got, body, c.want)
			}
		})
	}
}

func asJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestActivityPlaysAsItsPlayerOnly: a session plays its Discord user in its
// channel, whatever player or channel a request names; another user's
// session cannot act for them, a cookie alone changes nothing, and the
// Activity serves nothing of other channels, nor the page's names,
// channels, spectators or API beyond its channel's map.
func TestActivityPlaysAsItsPlayerOnly(t *testing.T) {
	e := newActivityEnv(t, nil)
	l := e.started(t)
	seats := l.Game.State
	ann, bob := seats.SeatByID(discordPrefix+annD.ID), seats.SeatByID(discordPrefix+bobD.ID)
	in := e.fake.Launch(activityCh, annD.ID, bobD.ID)
	_, a := e.signIn(t, e.fake.Authorize(annD), in)
	_, b := e.signIn(t, e.fake.Authorize(bobD), in)
	annS, bobS := a["session"].(string), b["session"].(string)
	ch := discordPrefix + activityCh
	place := func(as string) string {
		return `{"channel":"` + ch + `","as":"` + as + `","line":"/risk place territory:` + firstOwned(l, ann) + ` armies:1"}`
	}
	version := func() int { return e.match(t).Game.Version }

	// Bob's session, naming Ann: the command is Bob's, and refused (not
	// his turn); Ann's match is unchanged.
	v0 := version()
	if got, body := e.request(t, http.MethodPost, "/web/command", bobS, place(annD.ID)); got != http.StatusOK {
		t.Fatalf("Bob's command answered %d %s", got, body)
	}
	if v := version(); v != v0 {
		t.Fatalf("Bob's session naming Ann played: the match went from %d to %d commands", v0, v)
	}
	// A cookie alone (as another site's form would carry it) plays nothing.
	req, _ := http.NewRequest(http.MethodPost, e.ts.URL+"/web/command", strings.NewReader(place(annD.ID)))
	req.Header.Set("Content-Type", "application/json")
	req.AddCookie(&http.Cookie{Name: activityCookie, Value: annS})
	if res, err := http.DefaultClient.Do(req); err != nil || res.StatusCode != http.StatusForbidden {
		t.Errorf("a POST with the cookie alone answered %v %v, want 403", res.Status, err)
	}
	// Another channel, named by Ann's session.
	other := strings.Replace(place(annD.ID), activityCh, "645027906669510668", 1)
	if got, body := e.request(t, http.MethodPost, "/web/command", annS, other); got != http.StatusForbidden {
		t.Errorf("Ann's session in another channel answered %d %s, want 403", got, body)
	}
	if v := version(); v != v0 {
		t.Fatalf("the match moved (%d to %d commands) before Ann played", v0, v)
	}
	// Ann's session, naming Bob: the command is Ann's.
	if got, body := e.request(t, http.MethodPost, "/web/command", annS, place(bobD.ID)); got != http.StatusOK {
		t.Fatalf("Ann's command answered %d %s", got, body)
	}
	after := e.match(t)
	if after.Game.Version != v0+1 {
		t.Fatalf("Ann's place left the match at %d commands, want %d", after.Game.Version, v0+1)
	}
	if x, err := e.db.Export(context.Background(), after.ID); err != nil || x.Record.Log[len(x.Record.Log)-1].Seat != ann {
		t.Errorf("the last command was not Ann's seat %d (Bob's is %d): %v", ann, bob, err)
	}

	// What the Activity serves a session, and what not.
	id := "/api/matches/" + itoa(l.ID)
	for _, c := range []struct {
		method, path string
		want         int
	}{
		{"GET", "/web/board?channel=" + ch + "&as=" + annD.ID, http.StatusOK},
		{"GET", "/web/board?channel=discord:645027906669510668&as=" + annD.ID, http.StatusForbidden},
		{"GET", id + "/regions", http.StatusOK},
		{"GET", "/api/matches/999/regions", http.StatusNotFound},
		{"GET", id, http.StatusNotFound},
		{"GET", id + "/commands", http.StatusNotFound},
		{"GET", "/watch/" + itoa(l.ID), http.StatusNotFound},
		{"GET", "/web/channels", http.StatusNotFound},
		{"GET", "/web/board?channel=main&as=ann", http.StatusForbidden},
		{"POST", "/web/names", http.StatusNotFound},
	} {
		if got, body := e.request(t, c.method, c.path, annS, ""); got != c.want {
			t.Errorf("%s %s answered %d %.200s, want %d", c.method, c.path, got, body, c.want)
		}
	}
}

// firstOwned names a territory seat holds, as a command names it.
func firstOwned(l *storage.Loaded, seat int) string {
	s := l.Game.State
	for i, tr := range s.Terr {
		if tr.Owner == seat {
			n := s.Map.Territories[i].Name
			if strings.Contains(n, " ") {
				return `\"` + n + `\"`
			}
			return n
		}
	}
	return ""
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestActivityOff: a server that is not the Activity serves none of it: no
// SDK, no sign-in, no channel of Discord's, and its page frames nowhere.
func TestActivityOff(t *testing.T) {
	e := newEnv(t, Config{})
	p := openPage(t, e)
	for _, c := range []struct {
		method, path, body string
		want               int
	}{
		{"GET", "/static/discord-sdk.mjs", "", http.StatusNotFound},
		{"GET", "/web/activity", "", http.StatusNotFound},
		{"POST", "/web/activity", `{"code":"x","instance":"y"}`, http.StatusNotFound},
		{"GET", "/web/board?channel=discord:" + activityCh, "", http.StatusBadRequest},
		{"GET", "/web/channel?channel=discord:" + activityCh, "", http.StatusBadRequest},
	} {
		req, _ := http.NewRequest(c.method, e.ts.URL+c.path, strings.NewReader(c.body))
		if c.body != "" {
			p.dress(req)
		}
		res, err := p.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("%s %s answered %d, want %d", c.method, c.path, res.StatusCode, c.want)
		}
	}
	if got, _ := p.post("/web/command", `{"channel":"discord:`+activityCh+`","as":"Ann","line":"/risk new"}`); got != http.StatusBadRequest {
		t.Errorf("a command in a channel of Discord's answered %d, want 400", got)
	}
	res, err := http.Get(e.ts.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("the page's CSP is %q, want frame-ancestors 'none'", csp)
	}
}
