package web

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/cookiejar"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/state"
)

// TestFeed: a living message is replaced in place, and private answers
// reach only the browser that plays their author.
func TestFeed(t *testing.T) {
	s := newEnv(t, Config{}).srv
	ann := &session{id: "a", users: map[string]bool{}}
	bob := &session{id: "b", users: map[string]bool{}}
	ctx := context.Background()
	if err := s.browsers.claim(ctx, ann, "Ann", ""); err != nil {
		t.Fatal(err)
	}
	if err := s.browsers.claim(ctx, bob, "ann", ""); err == nil {
		t.Fatal("a second browser took Ann")
	}
	if err := s.browsers.claim(ctx, bob, "Bob", ""); err != nil {
		t.Fatal(err)
	}
	ch := Prefix + "main"
	sa := &sub{se: ann, ch: make(chan []byte, 8)}
	sb := &sub{se: bob, ch: make(chan []byte, 8)}
	s.feeds.subscribe(ch, sa)
	s.feeds.subscribe(ch, sb)
	id, err := s.Post(ctx, ch, chat.Message{Text: "Turn 1", Embed: &chat.Embed{Title: "Turn 1", Color: 0xff0000}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Edit(ctx, ch, id, chat.Message{Text: "Turn 1, placed"}); err != nil {
		t.Fatal(err)
	}
	pageReplier{pl: s.play, channel: ch, user: chat.User{ID: userID("Ann"), Name: "Ann"}}.Reply(ctx, chat.Message{Private: true, Text: "your cards"})
	read := func(sb *sub) []view {
		var out []view
		for {
			select {
			case b := <-sb.ch:
				var v view
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				out = append(out, v)
			default:
				return out
			}
		}
	}
	got := read(sa)
	if len(got) != 3 || got[1].ID != id || got[1].Rev != 1 || !got[1].Edited || got[0].Embed == nil || got[0].Embed.Color != "#ff0000" {
		t.Fatalf("Ann's page got %+v", got)
	}
	if got[2].To != "Ann" || !strings.Contains(got[2].HTML, "your cards") {
		t.Errorf("Ann's private answer: %+v", got[2])
	}
	for _, v := range read(sb) {
		if strings.Contains(v.HTML, "your cards") {
			t.Error("Bob's page shows Ann's private answer")
		}
	}
	if _, err := s.Post(ctx, "discord:1", chat.Message{Text: "x"}); err == nil {
		t.Error("posted to a channel that is not the page's")
	}
}

// TestConsoleMatchInPage: a match begun in the console (channel
// console:NAME, players console:ann) goes on in the page, as the same
// players, on the same database.
func TestConsoleMatchInPage(t *testing.T) {
	const key = "operator-key-of-this-test-0123456789"
	e := newEnv(t, Config{OperatorKey: key})
	ctx := context.Background()
	r := chat.ReplierFunc(func(context.Context, chat.Message) error { return nil })
	ann := chat.User{ID: "console:ann", Name: "Ann"}
	for _, l := range []string{"/risk new", "/risk addbot level:easy", "/risk start"} {
		cmd, opts, err := parseCommand(l)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.bot.Handle(ctx, chat.Request{Channel: "console:den", User: ann, Command: cmd, Options: opts, Server: "console", Admin: true}, r); err != nil {
			t.Fatal(err)
		}
	}
	e.bot.Wait()
	before, err := e.db.Active(ctx, "console:den")
	if err != nil {
		t.Fatal(err)
	}
	page := openPage(t, e)
	var channels struct{ Channels []string }
	getJSON(t, page.client, e.ts.URL+"/web/channels", &channels)
	if !slices.Contains(channels.Channels, "console:den") {
		t.Errorf("the page's channels %v lack the console's", channels.Channels)
	}
	// A page name is anyone's who names it first: only the operator's
	// browser plays the console's seats.
	stranger := openPage(t, e)
	if status, body := stranger.post("/web/command", `{"channel":"console:den","as":"Ann","line":"/risk place"}`); status != http.StatusForbidden || !strings.Contains(body, "risk console --channel den") {
		t.Errorf("/risk place as Ann in the console's channel from a browser that is not the operator's: %d %s, want 403 and the way to play it", status, body)
	}
	if status, body := page.post("/web/operator", `{"key":"`+key+`"}`); status != http.StatusOK {
		t.Fatalf("the operator's key: %d %s", status, body)
	}
	if status, body := page.post("/web/command", `{"channel":"console:den","as":"Ann","line":"/risk place"}`); status != http.StatusOK {
		t.Fatalf("/risk place from the operator's page: %d %s", status, body)
	}
	e.bot.Wait()
	after, err := e.db.Active(ctx, "console:den")
	if err != nil {
		t.Fatal(err)
	}
	if after.ID != before.ID || after.Game.Version <= before.Game.Version {
		t.Errorf("the console's match did not go on from the page: %d commands, then %d", before.Game.Version, after.Game.Version)
	}
	if after.Game.State.Phase == state.PhaseSetup {
		t.Errorf("Ann (console:ann) did not place her armies from the page")
	}
}

func newJar(t testing.TB) http.CookieJar {
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	return jar
}

func getJSON(t testing.TB, c *http.Client, url string, v any) {
	t.Helper()
	res, err := c.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(v); err != nil {
		t.Fatal(err)
	}
}

// TestLobbyIsOneMessageInPage: the page shows a lobby as one message,
// replaced in place as it fills; the answers to its commands are their
// authors' alone.
func TestLobbyIsOneMessageInPage(t *testing.T) {
	e := newEnv(t, Config{})
	ctx := context.Background()
	ch := Prefix + "lobby"
	watcher := &sub{ch: make(chan []byte, 32)} // a spectator: public messages only
	e.srv.feeds.subscribe(ch, watcher)
	for _, step := range []struct{ who, line string }{
		{"Ann", "/risk new"},
		{"Bob", "/risk join"},
		{"Ann", "/risk addbot level:easy"},
		{"Ann", "/risk settings victory:domination"},
	} {
		cmd, opts, err := parseCommand(step.line)
		if err != nil {
			t.Fatal(err)
		}
		u := chat.User{ID: userID(step.who), Name: step.who}
		if err := e.bot.Handle(ctx, chat.Request{Channel: ch, User: u, Command: cmd, Options: opts, Server: "web", Admin: true}, pageReplier{pl: e.srv.play, channel: ch, user: u}); err != nil {
			t.Fatal(err)
		}
	}
	var seen []view
	for len(watcher.ch) > 0 {
		var v view
		if err := json.Unmarshal(<-watcher.ch, &v); err != nil {
			t.Fatal(err)
		}
		seen = append(seen, v)
	}
	ids := map[string]bool{}
	for _, v := range seen {
		ids[v.ID] = true
	}
	if last := seen[len(seen)-1]; len(ids) != 1 || last.Rev != 3 || !strings.Contains(last.Embed.Title, "Lobby — 3/6 seats") {
		t.Fatalf("the page's public messages: %d (%+v), want the lobby alone, replaced 3 times", len(ids), seen)
	}
}
