package web

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

// restart stops the server and starts another on the same database and
// address, as `risk web` run again does: the channels restored before it
// serves.
func (e *testEnv) restart(t testing.TB) *testEnv {
	t.Helper()
	e.bot.Wait()
	addr := e.ts.Listener.Addr().String()
	e.stop()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Fatalf("listen again on %s: %v", addr, err)
	}
	return newEnvOn(t, Config{}, bot.Config{}, e.path, ln, func(n *testEnv) {
		if err := n.srv.Restore(context.Background()); err != nil {
			t.Fatalf("restore: %v", err)
		}
	})
}

// backlog is what a page following channel is sent first: as a spectator
// (se nil), or as the browser of session se.
func (e *testEnv) backlog(t testing.TB, channel string, se *session) []view {
	t.Helper()
	sb := &sub{se: se, ch: make(chan []byte, 1)}
	raw := e.srv.feeds.subscribe(channel, sb)
	e.srv.feeds.unsubscribe(channel, sb)
	var out []view
	for _, b := range raw {
		var v view
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}

// text is the whole text of a message as the page shows it.
func (v view) text() string {
	s := v.HTML
	if v.Embed != nil {
		s += "\n" + v.Embed.Title + "\n" + v.Embed.Description
		for _, f := range v.Embed.Fields {
			s += "\n" + f.Name + ": " + f.Value
		}
		s += "\n" + v.Embed.Footer
	}
	return s
}

// turnTitles are the titles of the turns' records among messages.
func turnTitles(vs []view) []string {
	var out []string
	for _, v := range vs {
		if v.Embed != nil && (strings.HasPrefix(v.Embed.Title, "Turn ") || strings.HasPrefix(v.Embed.Title, "Initial placement done")) {
			out = append(out, v.Embed.Title)
		}
	}
	return out
}

// TestRestart: after the server restarts on the same database, each
// channel shows its match as it stands: the story so far (the same turns
// as before), then the turn in progress with buttons that work; no private
// answer comes back, for anyone; a console's match is shown too; a team's
// chat opens again to its members alone.
func TestRestart(t *testing.T) {
	e := newEnv(t, Config{})
	ctx := context.Background()
	ann := openPage(t, e)
	if status, body := ann.post("/web/names", `{"name":"Ann"}`); status != http.StatusOK {
		t.Fatalf("claim Ann: %d %s", status, body)
	}
	for _, l := range []string{"/risk new", "/risk addbot level:easy", "/risk addbot level:easy", "/risk start", "/risk place", "/risk place", "/risk end", "/risk show cards"} {
		b, _ := json.Marshal(map[string]string{"channel": "caps", "as": "Ann", "line": l})
		if status, body := ann.post("/web/command", string(b)); status != http.StatusOK {
			t.Fatalf("%s: %d %s", l, status, body)
		}
		e.bot.Wait()
	}
	// A console's match, and a match of teams with their chats.
	r := chat.ReplierFunc(func(context.Context, chat.Message) error { return nil })
	for _, l := range []string{"/risk new", "/risk addbot level:easy", "/risk start"} {
		cmd, opts, err := parseCommand(l)
		if err != nil {
			t.Fatal(err)
		}
		if err := e.bot.Handle(ctx, chat.Request{Channel: "console:den", User: chat.User{ID: "console:ann", Name: "Ann"}, Command: cmd, Options: opts, Server: "console", Admin: true}, r); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range []string{"Ann: /risk new teams:2 thread:off", "Bob: /risk join team:1", "Ann: /risk join team:1", "Cat: /risk join", "Ann: /risk host addbot level:easy", "Ann: /risk start"} {
		who, line, _ := strings.Cut(l, ": ")
		e.do(t, "duo", who, line)
	}
	e.bot.Wait()
	annSe := func(e *testEnv) *session {
		se := e.srv.browsers.known(ctx, cookieOf(t, ann, e))
		if se == nil {
			t.Fatal("Ann's browser is not known")
		}
		return se
	}
	before := e.backlog(t, Prefix+"caps", annSe(e))
	if !slices.ContainsFunc(before, func(v view) bool { return v.To == "Ann" }) {
		t.Fatal("Ann got no private answer before the restart: the test shows nothing")
	}

	n := e.restart(t)
	// The page's script asks for its token again after a restart.
	var names struct{ Token string }
	getJSON(t, ann.client, ann.base+"/web/names", &names)
	ann.token = names.Token

	for _, who := range []struct {
		name string
		se   *session
	}{{"a spectator", nil}, {"Ann", annSe(n)}} {
		after := n.backlog(t, Prefix+"caps", who.se)
		if len(after) == 0 {
			t.Fatalf("%s sees nothing in #caps after the restart", who.name)
		}
		if !strings.Contains(after[0].HTML, "told again from its log") {
			t.Errorf("%s's first message: %q, want the note that the match is told again", who.name, after[0].HTML)
		}
		for _, v := range after {
			if v.To != "" || strings.Contains(v.text(), "Your cards") {
				t.Errorf("%s sees a private answer after the restart: %q (to %q)", who.name, v.text(), v.To)
			}
		}
		if got, want := turnTitles(after), turnTitles(before); !slices.Equal(got, want) {
			t.Errorf("%s's turns after the restart: %q, want those before it: %q", who.name, got, want)
		}
	}
	after := n.backlog(t, Prefix+"caps", nil)
	live := after[len(after)-1]
	if !strings.Contains(live.text(), "it is your turn") || live.Embed == nil || !strings.HasPrefix(live.Embed.Title, "Turn ") {
		t.Fatalf("the last message after the restart: %q, want Ann's turn", live.text())
	}

	// The turn goes on: its button works, and Ann's commands edit the
	// turn's message restored.
	var place string
	for _, row := range live.Buttons {
		for _, b := range row {
			if b.Label == "Place automatically" {
				place = b.ID
			}
		}
	}
	if place == "" {
		t.Fatalf("Ann's turn restored without its button: %+v", live.Buttons)
	}
	b, _ := json.Marshal(map[string]string{"channel": "caps", "as": "Ann", "message": live.ID, "button": place})
	if status, body := ann.post("/web/click", string(b)); status != http.StatusOK {
		t.Fatalf("Place automatically after the restart: %d %s", status, body)
	}
	n.bot.Wait()
	if placed := n.backlog(t, Prefix+"caps", nil); !slices.ContainsFunc(placed, func(v view) bool { return v.ID == live.ID && strings.Contains(v.text(), "placed") }) {
		t.Fatal("Place automatically after the restart placed nothing in the turn's message")
	}
	if status, body := ann.post("/web/command", `{"channel":"caps","as":"Ann","line":"/risk end"}`); status != http.StatusOK {
		t.Fatalf("/risk end after the restart: %d %s", status, body)
	}
	n.bot.Wait()
	now := n.backlog(t, Prefix+"caps", nil)
	var done *view
	for i := range now {
		if now[i].ID == live.ID {
			done = &now[i]
		}
		if i > 0 && now[i].Embed != nil && now[i].Embed.Title == live.Embed.Title && now[i].ID != live.ID {
			t.Errorf("the turn's message was posted again (%s), not edited (%s): %q", now[i].ID, live.ID, now[i].text())
		}
	}
	if done == nil || done.Rev == 0 || !strings.Contains(done.text(), "ended") && done.Image == "" {
		t.Errorf("the turn's message restored was not completed: %+v", done)
	}

	// The console's match is shown too.
	if den := n.backlog(t, "console:den", nil); len(den) == 0 || !strings.Contains(den[0].HTML, "told again") {
		t.Errorf("#console:den after the restart: %d messages", len(den))
	}

	// The teams' chats: listed to their members alone, open to them.
	bob := openPage(t, n)
	if status, body := bob.post("/web/names", `{"name":"Bob"}`); status != http.StatusOK {
		t.Fatalf("claim Bob: %d %s", status, body)
	}
	cat := openPage(t, n)
	if status, body := cat.post("/web/names", `{"name":"Cat"}`); status != http.StatusOK {
		t.Fatalf("claim Cat: %d %s", status, body)
	}
	listed := func(p *pageClient) []string {
		var ch struct{ Channels []string }
		getJSON(t, p.client, p.base+"/web/channels", &ch)
		return ch.Channels
	}
	if got := listed(bob); !slices.Contains(got, "duo-team-1") || slices.Contains(got, "duo-team-2") {
		t.Errorf("Bob's channels after the restart: %v, want duo-team-1 and not duo-team-2", got)
	}
	if got := listed(cat); !slices.Contains(got, "duo-team-2") || slices.Contains(got, "duo-team-1") {
		t.Errorf("Cat's channels after the restart: %v, want duo-team-2 and not duo-team-1", got)
	}
	if status, body := bob.post("/web/say", `{"channel":"duo-team-1","as":"Bob","text":"Brazil first"}`); status != http.StatusOK {
		t.Errorf("Bob says in his team's chat after the restart: %d %s", status, body)
	}
	if status, _ := cat.post("/web/say", `{"channel":"duo-team-1","as":"Cat","text":"hello"}`); status == http.StatusOK {
		t.Error("Cat said something in the other team's chat")
	}
	for _, v := range n.backlog(t, Prefix+"duo-team-1", nil) {
		t.Errorf("a spectator reads team 1's chat: %q", v.text())
	}
}

// cookieOf is the session cookie of a page's client.
func cookieOf(t testing.TB, p *pageClient, e *testEnv) string {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.ts.URL, nil)
	for _, c := range p.client.Jar.Cookies(req.URL) {
		if c.Name == cookieName {
			return c.Value
		}
	}
	t.Fatalf("no %s cookie", cookieName)
	return ""
}

// TestEditOfAnEarlierRun: the bot keeps the IDs of the messages it edits
// later in the database; after a restart, an ID of the earlier run edits
// no message of this one (it is posted anew).
func TestEditOfAnEarlierRun(t *testing.T) {
	ctx := context.Background()
	ch := Prefix + "runs"
	first := New(Config{})
	old, err := first.Post(ctx, ch, chat.Message{Text: "Turn 7, as the earlier run posted it"})
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{}) // the server again
	mine, err := s.Post(ctx, ch, chat.Message{Text: "the lobby of this run"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Edit(ctx, ch, old, chat.Message{Text: "Turn 7, ended"}); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, p := range s.feeds.channels[ch].posts {
		got[p.v.ID] = p.v.HTML
	}
	if got[mine] != "the lobby of this run" || len(got) != 2 {
		t.Errorf("after an edit of message %s of the earlier run: %q, want this run's message %s kept, and the edit posted anew", old, got, mine)
	}
}

// TestRestartTellsWhatWasTold: the turns a channel shows after a restart
// are those it showed before, word for word, as anyone may read them: with
// fog of war (what every player saw, no more), and in simultaneous rounds
// (no order before its round resolves).
func TestRestartTellsWhatWasTold(t *testing.T) {
	for _, c := range []struct{ name, options string }{
		{"classic", ""},
		{"fog of war", " fog:on"},
		{"simultaneous", " turns:simultaneous"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e := newEnv(t, Config{})
			const ch = "told"
			lines := []string{"Ann: /risk new" + c.options, "Bob: /risk join", "Ann: /risk addbot level:easy", "Ann: /risk addbot level:easy",
				"Ann: /risk start", "Ann: /risk place", "Bob: /risk place", "Ann: /risk place", "Bob: /risk place", "Ann: /risk end", "Bob: /risk end", "Ann: /risk place"}
			for _, l := range lines {
				who, line, _ := strings.Cut(l, ": ")
				e.do(t, ch, who, line) // refusals (not their turn) change nothing
			}
			records := func(vs []view) []string {
				var out []string
				for _, v := range vs {
					if v.Embed == nil || v.Embed.Title == "" || strings.HasPrefix(v.Embed.Title, "Lobby") {
						continue
					}
					out = append(out, v.text())
				}
				return out
			}
			before := records(e.backlog(t, Prefix+ch, nil))
			if len(before) < 2 {
				t.Fatalf("%d turns told before the restart: the test shows nothing", len(before))
			}
			n := e.restart(t)
			if got := records(n.backlog(t, Prefix+ch, nil)); !slices.Equal(got, before) {
				t.Errorf("after the restart the channel tells\n%s\nwant what it told before\n%s", strings.Join(got, "\n---\n"), strings.Join(before, "\n---\n"))
			}
		})
	}
}

// TestRestartEnded: after the server restarts, a channel whose latest
// match is over shows its end as everyone saw it, not the welcome of a
// new channel: a match won, its last turn and the victory post, whose
// Rematch button opens the rematch; a match ended without a winner, the
// end said with the map; a lobby closed, its card. The channels closed
// last are restored (and listed) at once, any other when a page opens
// it. No private answer comes back.
func TestRestartEnded(t *testing.T) {
	e := newEnv(t, Config{})
	// The oldest closed lobby, then as many as the server restores at
	// once, each closed after it, then the two matches.
	lobbies := []string{"gone"}
	for i := range restoreClosed - 2 {
		lobbies = append(lobbies, fmt.Sprintf("gone%d", i))
	}
	for _, ch := range lobbies {
		e.do(t, ch, "Ann", "/risk new")
		q := e.ask(t, ch, "Ann", "/risk host abandon")
		if len(q) != 1 {
			t.Fatalf("#%s: the abandon asked %+v", ch, q)
		}
		e.press(t, ch, "Ann", q[0], "End the match")
	}
	ann := openPage(t, e)
	if status, body := ann.post("/web/names", `{"name":"Ann"}`); status != http.StatusOK {
		t.Fatalf("claim Ann: %d %s", status, body)
	}
	for _, l := range []string{"Ann: /risk new", "Bob: /risk join", "Ann: /risk start", "Ann: /risk place", "Bob: /risk place", "Ann: /risk show cards"} {
		who, line, _ := strings.Cut(l, ": ")
		if who == "Bob" {
			e.do(t, "won", who, line)
			continue
		}
		b, _ := json.Marshal(map[string]string{"channel": "won", "as": "Ann", "line": line})
		if status, body := ann.post("/web/command", string(b)); status != http.StatusOK {
			t.Fatalf("%s: %d %s", line, status, body)
		}
		e.bot.Wait()
	}
	if q := e.ask(t, "won", "Bob", "/risk surrender"); len(q) == 1 {
		e.press(t, "won", "Bob", q[0], "Give up")
	} else {
		t.Fatalf("Bob's surrender asked %+v", q)
	}
	for _, l := range []string{"/risk new", "/risk addbot level:easy", "/risk start", "/risk place"} {
		e.do(t, "quit", "Ann", l)
	}
	abandon := func(ch string) {
		t.Helper()
		q := e.ask(t, ch, "Ann", "/risk host abandon")
		if len(q) != 1 {
			t.Fatalf("#%s: the abandon asked %+v", ch, q)
		}
		e.press(t, ch, "Ann", q[0], "End the match")
	}
	abandon("quit")
	e.bot.Wait()
	feedOf := func(e *testEnv, ch string) []post {
		e.srv.feeds.mu.Lock()
		defer e.srv.feeds.mu.Unlock()
		var out []post
		if fd, ok := e.srv.feeds.channels[Prefix+ch]; ok {
			for _, p := range fd.posts {
				out = append(out, *p)
			}
		}
		return out
	}
	if !slices.ContainsFunc(feedOf(e, "won"), func(p post) bool { return p.to != "" }) {
		t.Fatal("no private answer in #won before the restart: the test shows nothing")
	}
	before := e.backlog(t, Prefix+"won", nil)
	ends := func(vs []view) []string {
		var out []string
		for i, v := range vs {
			if v.Embed != nil && strings.HasPrefix(v.Embed.Title, "🏆") && i > 0 {
				out = append(out, vs[i-1].text(), v.text())
			}
		}
		return out
	}
	if len(ends(before)) != 2 {
		t.Fatalf("#won before the restart ends %q, want a turn and the victory", ends(before))
	}

	n := e.restart(t)
	for _, ch := range []string{"won", "quit", "gone", lobbies[len(lobbies)-1]} {
		for _, p := range feedOf(n, ch) {
			if p.to != "" {
				t.Errorf("#%s: a private answer after the restart: %q (to %s)", ch, p.v.text(), p.to)
			}
		}
	}
	won := n.backlog(t, Prefix+"won", nil)
	if len(won) == 0 || !strings.Contains(won[0].HTML, "told again from its log") {
		t.Fatalf("#won after the restart: %d messages, want the note first", len(won))
	}
	if got, want := ends(won), ends(before); !slices.Equal(got, want) {
		t.Errorf("#won ends after the restart\n%q\nwant as before\n%q", got, want)
	}
	victory := won[len(won)-1]
	if victory.Image == "" {
		t.Error("the victory post restored has no map")
	}
	quit := n.backlog(t, Prefix+"quit", nil)
	if last := quit[len(quit)-1]; !strings.Contains(last.text(), "ended without a winner by Ann (the host)") || last.Image == "" || len(last.Buttons) > 0 {
		t.Errorf("#quit ends after the restart with %q (map %q, buttons %v), want the end said with the map", last.text(), last.Image, last.Buttons)
	}
	newest := lobbies[len(lobbies)-1]
	if got := n.backlog(t, Prefix+newest, nil); len(got) != 1 || !strings.Contains(got[0].text(), "This lobby is closed") {
		t.Errorf("#%s after the restart: %d messages, want its lobby's card, closed", newest, len(got))
	}

	// Listed as before: the channels closed last; the oldest is not
	// restored yet, and opening it restores it.
	var listed struct{ Channels []string }
	getJSON(t, http.DefaultClient, n.ts.URL+"/web/channels", &listed)
	for _, ch := range []string{"won", "quit", newest} {
		if !slices.Contains(listed.Channels, ch) {
			t.Errorf("#%s is not listed after the restart: %v", ch, listed.Channels)
		}
	}
	if got := n.backlog(t, Prefix+"gone", nil); len(got) != 0 {
		t.Fatalf("#gone, beyond the %d channels restored at once, has %d messages before a page opens it", restoreClosed, len(got))
	}
	status, stop := openStream(t, http.DefaultClient, n.ts.URL+"/web/events?channel=gone")
	if status != http.StatusOK {
		t.Fatalf("open #gone: %d", status)
	}
	stop()
	if got := n.backlog(t, Prefix+"gone", nil); len(got) != 1 || !strings.Contains(got[0].text(), "This lobby is closed") {
		t.Errorf("#gone, opened after the restart: %d messages, want its lobby's card, closed", len(got))
	}
	if status, stop := openStream(t, http.DefaultClient, n.ts.URL+"/web/events?channel=gone"); status == http.StatusOK {
		stop()
	}
	if got := n.backlog(t, Prefix+"gone", nil); len(got) != 1 {
		t.Errorf("#gone, opened twice after the restart: %d messages, want its card once", len(got))
	}

	// The Rematch button works: Ann's page asks for the rematch. (The
	// page's script asks for its token again after a restart.)
	var names struct{ Token string }
	getJSON(t, ann.client, ann.base+"/web/names", &names)
	ann.token = names.Token
	var rematch string
	for _, row := range victory.Buttons {
		for _, b := range row {
			if b.Label == "Rematch" {
				rematch = b.ID
			}
		}
	}
	if rematch == "" {
		t.Fatalf("the victory post restored has no Rematch button: %+v", victory.Buttons)
	}
	b, _ := json.Marshal(map[string]string{"channel": "won", "as": "Ann", "message": victory.ID, "button": rematch})
	if status, body := ann.post("/web/click", string(b)); status != http.StatusOK {
		t.Fatalf("Rematch after the restart: %d %s", status, body)
	}
	n.bot.Wait()
	if l, err := n.db.Active(context.Background(), Prefix+"won"); err != nil || l.Status != storage.Lobby {
		t.Fatalf("#won after Rematch: %v, want the rematch's lobby", err)
	}
	after := n.backlog(t, Prefix+"won", nil)
	if i := slices.IndexFunc(after, func(v view) bool { return v.ID == victory.ID }); i < 0 || !slices.ContainsFunc(after[i+1:], func(v view) bool {
		return v.Embed != nil && strings.HasPrefix(v.Embed.Title, "Lobby — 1/")
	}) {
		t.Error("#won after Rematch: no lobby after the victory post")
	}
}
