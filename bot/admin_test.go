package bot

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/lobby"
	"github.com/riskbot/riskbot/storage"
)

// Issue 12, item 11: the host, or an admin, ends a match without a winner
// after confirming with a button; it is kept for history and export, and
// the channel can host another.
func TestAbandon(t *testing.T) {
	h := newHarness(t)
	const ch = "test:abandon"
	h.started(ch, []string{"Ann", "Bob"}, "easy")
	wantPrivate(t, h.do(ch, "Bob", "abandon"), "Only Ann (the host) or an admin")
	ask := h.do(ch, "Ann", "abandon")
	wantPrivate(t, ask, "without a winner?", "expires")
	end, ok := buttonLabelled(ask, "End the match")
	if !ok {
		t.Fatalf("no button to confirm: %+v", ask.Buttons)
	}
	keep, _ := buttonLabelled(ask, "Keep it")
	wantPrivate(t, h.click(ch, "Ann", keep.ID), "goes on")
	// Someone else cannot use the host's confirmation.
	wantPrivate(t, h.click(ch, "Bob", end.ID), "Only the host or an admin")
	h.takePosts()
	wantPrivate(t, h.click(ch, "Ann", end.ID), "the match is ended")
	posts := h.takePosts()
	if len(posts) != 1 || !strings.Contains(all(posts[0].msg), "Ann (the host) ended the match without a winner") {
		t.Errorf("posts %+v", posts)
	}
	m := h.load(ch)
	if m.Status != storage.Abandoned || m.Meta.Finished.IsZero() {
		t.Fatalf("match %s, finished %v", m.Status, m.Meta.Finished)
	}
	// Kept: its status and map stay on view, it exports, and the channel
	// hosts a new match.
	wantPrivate(t, h.do(ch, "Bob", "status"), "ended without a winner by Ann (the host)")
	if r := h.do(ch, "Bob", "map"); r.Image == nil {
		t.Error("no map of the ended match")
	}
	if x, err := h.db.Export(context.Background(), m.ID); err != nil || x.Status != storage.Abandoned || len(x.Record.Log) == 0 {
		t.Errorf("export of the ended match: %v", err)
	}
	wantPrivate(t, h.click(ch, "Ann", end.ID), "There is no match in this channel to end")
	wantOpened(t, h, ch, h.do(ch, "Bob", "new"), "Bob opened a Risk match")
}

// An admin ends any match, the confirmation expires, and a damaged match
// (its data does not load) can be ended too, freeing its channel.
func TestAdminAbandonsAnyMatch(t *testing.T) {
	h := newHarness(t)
	const ch = "test:admin"
	h.do(ch, "Ann", "new")
	ask := h.doAdmin(ch, "Dan", "abandon")
	end, ok := buttonLabelled(ask, "End the match")
	if !ok {
		t.Fatalf("the admin was not asked: %q", ask.Text)
	}
	h.advance(lobby.AbandonConfirm + time.Second)
	wantPrivate(t, h.clickAs(chat.Click{Channel: ch, User: user("Dan"), ID: end.ID, Admin: true}), "expired")
	ask = h.doAdmin(ch, "Dan", "abandon")
	end, _ = buttonLabelled(ask, "End the match")
	wantPrivate(t, h.clickAs(chat.Click{Channel: ch, User: user("Dan"), ID: end.ID, Admin: true}), "the match is ended")
	// The note is posted, and the lobby's message says it is closed,
	// without its buttons.
	if closed := wantLobby(t, h, ch, "This lobby is closed", "Lobby — closed"); len(closed.Buttons) != 0 {
		t.Errorf("the closed lobby keeps its buttons: %+v", closed.Buttons)
	}
	if p := h.takePosts(); len(p) != 2 || !strings.Contains(all(p[1].msg), "Dan (an admin) ended the match") {
		t.Errorf("posts %+v, want the lobby and the note", p)
	}

	const damaged = "test:damaged-admin"
	if _, err := h.db.Create(context.Background(), damaged, json.RawMessage(`[1,2]`), h.clock()); err != nil {
		t.Fatal(err)
	}
	wantPrivate(t, h.do(damaged, "Ann", "new"), "damaged", "/risk host abandon")
	wantPrivate(t, h.do(damaged, "Ann", "abandon"), "or an admin")
	ask = h.doAdmin(damaged, "Dan", "abandon")
	end, _ = buttonLabelled(ask, "End the match")
	wantPrivate(t, h.clickAs(chat.Click{Channel: damaged, User: user("Dan"), ID: end.ID, Admin: true}), "the match is ended")
	wantOpened(t, h, damaged, h.do(damaged, "Ann", "new"), "Ann opened a Risk match")
}

// An admin removes any seat, the host's included: in the lobby the seat
// goes and the host's role passes on; in a started match a computer plays
// the seat.
func TestAdminRemovesAnySeat(t *testing.T) {
	h := newHarness(t)
	const ch = "test:kick"
	h.do(ch, "Ann", "new")
	h.do(ch, "Bob", "join")
	h.do(ch, "Cat", "join")
	wantPrivate(t, h.do(ch, "Bob", "kick", "player:Ann"), "Only Ann (the host) can remove players", "An admin")
	wantPrivate(t, h.doAdmin(ch, "Dan", "kick", "player:Ann"), "Ann was removed", "Bob is the host now")
	wantLobby(t, h, ch, "Ann was removed", "1. Bob (host)")
	if m := h.load(ch); m.Meta.Host != user("Bob").ID || m.Meta.Index(user("Ann").ID) >= 0 {
		t.Fatalf("host %s, seats %+v", m.Meta.Host, m.Meta.Seats)
	}
	h.do(ch, "Bob", "start")
	h.bot.Wait()
	// In a match under way, removing a person asks first, with a button
	// that only the host or an admin may press, and that expires.
	ask := h.doAdmin(ch, "Dan", "kick", "player:Bob")
	wantPrivate(t, ask, "Remove Bob from the match?", "{{time:")
	if len(ask.Buttons) != 1 || len(ask.Buttons[0]) != 2 {
		t.Fatalf("buttons %+v", ask.Buttons)
	}
	yes, no := ask.Buttons[0][0], ask.Buttons[0][1]
	wantPrivate(t, h.click(ch, "Dan", no.ID), "Nobody was removed")
	wantPrivate(t, h.click(ch, "Cat", yes.ID), "Only Bob (the host)")
	wantPrivate(t, h.click(ch, "Bob", yes.ID), "You cannot remove yourself")
	if sm := h.load(ch).Meta.Seats[h.load(ch).Meta.Index(user("Bob").ID)]; sm.IsBot() {
		t.Fatal("the question removed Bob before it was answered")
	}
	wantPublic(t, h.clickAs(chat.Click{Channel: ch, User: user("Dan"), ID: yes.ID, Admin: true}), "Bob was removed; a", "Cat is the host now")
	h.bot.Wait()
	m := h.load(ch)
	if sm := m.Meta.Seats[m.Meta.Index(user("Bob").ID)]; !sm.IsBot() || m.Meta.Host != user("Cat").ID {
		t.Errorf("Bob's seat %+v, host %s", sm, m.Meta.Host)
	}
}

// Lobbies that never start close after Config.LobbyTTL without a change,
// saying so; a lobby in use, and a started match, stay.
func TestIdleLobbiesExpire(t *testing.T) {
	h := newHarness(t)
	h.configure = func(c *Config) { c.LobbyTTL = 72 * time.Hour }
	h.restart()
	h.do("test:idle", "Ann", "new")
	h.do("test:busy", "Bob", "new")
	h.started("test:started", []string{"Cat"}, "easy")
	h.advance(48 * time.Hour)
	h.do("test:busy", "Dan", "join")
	h.advance(25 * time.Hour)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	// The idle lobby's message says it is closed; the note says why.
	wantLobby(t, h, "test:idle", "This lobby is closed")
	wantLobby(t, h, "test:busy", "Dan joined")
	var said []string
	for _, p := range h.takePosts() {
		if p.channel == "test:idle" && p.msg.Embed == nil {
			said = append(said, all(p.msg))
		}
	}
	if len(said) != 1 || !strings.Contains(said[0], "its lobby closed after 3 days") {
		t.Errorf("notes in the idle channel: %q", said)
	}
	for ch, want := range map[string]storage.Status{"test:idle": storage.Abandoned, "test:busy": storage.Lobby, "test:started": storage.Active} {
		ms, err := h.db.History(context.Background(), ch)
		if err != nil || len(ms) == 0 || ms[0].Status != want {
			t.Errorf("%s: %+v, %v; want %s", ch, ms, err, want)
		}
	}
	wantOpened(t, h, "test:idle", h.do("test:idle", "Ann", "new"), "Ann opened a Risk match")
}

// Issue 12, item 13: a match won in its own thread: every post is in the
// thread, which is archived once the victory is told.
func TestWonMatchArchivesItsThread(t *testing.T) {
	h := newHarness(t)
	const ch = "test:threads"
	may := []string{} // the bot may open threads here
	wantPrivate(t, h.doReq(chat.Request{Channel: ch, User: user("Ann"), Command: "new", ThreadLacks: may}), "Your match is open in its own thread")
	if len(h.threads) != 1 {
		t.Fatalf("threads %v", h.threads)
	}
	thread := h.threads[0]
	// The channel keeps one line of the match; its lobby is in the thread.
	if opened := h.takePosts(); len(opened) != 2 || opened[0].channel != thread || opened[1].channel != ch ||
		!strings.Contains(all(opened[1].msg), "It is played in its own thread") {
		t.Fatalf("posts of /risk new: %+v, want the lobby in the thread, then a line in the channel", opened)
	}
	h.do(thread, "Ann", "addbot", "level:easy")
	h.do(thread, "Ann", "addbot", "level:easy")
	h.do(thread, "Ann", "leave")
	h.do(thread, "Ann", "start")
	posts := h.takePosts()
	if m := h.load(thread); m.Status != storage.Finished || m.Meta.Parent != ch {
		t.Fatalf("match %s in %s, parent %q", m.Status, m.Channel, m.Meta.Parent)
	}
	for _, p := range posts {
		if p.channel != thread {
			t.Errorf("a post in %s: %.60q", p.channel, all(p.msg))
		}
	}
	if len(h.archived) != 1 || h.archived[0] != thread {
		t.Errorf("archived %v, want %s", h.archived, thread)
	}
	// A console (no threads) plays in the channel.
	h.doReq(chat.Request{Channel: "test:plain", User: user("Ann"), Command: "new"})
	if len(h.threads) != 1 {
		t.Errorf("a thread without the permissions being said: %v", h.threads)
	}
}
