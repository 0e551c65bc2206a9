package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Issue 12, item 12: a server's admins set defaults for its new matches
// (applied unless the host chooses otherwise), the computer levels
// allowed, who may open matches, and limits; a reset forgets them.
func TestServerDefaultsAndLimits(t *testing.T) {
	h := newHarness(t)
	const server = "test:server"
	do := func(ch, who, command string, admin bool, opts map[string]string) chat.Message {
		t.Helper()
		return h.doReq(chat.Request{Channel: ch, User: user(who), Command: command, Options: opts, Server: server, Admin: admin})
	}
	wantPrivate(t, do("test:a", "Ann", "admin defaults", false, map[string]string{"turn-hours": "48"}), "Only the server's admins")
	wantPrivate(t, do("test:a", "Dan", "admin defaults", true, map[string]string{"bot-levels": "easy wizard"}), "no computer level \"wizard\"")
	wantPrivate(t, do("test:a", "Dan", "admin defaults", true, map[string]string{"turn-hours": "0"}), "between 1 and 720")
	saved := do("test:a", "Dan", "admin defaults", true, map[string]string{"turn-hours": "48", "victory": "domination", "bot-levels": "easy, normal"})
	wantPrivate(t, saved, "Saved.", "48 h per turn", "total domination wins", "Computer levels: easy, normal.")
	wantPrivate(t, do("test:a", "Ann", "admin show", false, nil), "48 h per turn", "Who may open matches: everyone.", "no limit per host")

	// New matches take the defaults; the host's choice wins.
	wantOpened(t, h, "test:a", do("test:a", "Ann", "new", false, nil), "48 h per turn", "total domination wins")
	wantOpened(t, h, "test:b", do("test:b", "Bob", "new", false, map[string]string{"turn-hours": "12"}), "12 h per turn", "total domination wins")
	if m := h.load("test:a"); m.Meta.Settings.TurnHours != 48 || m.Meta.Settings.Options.Victory != state.Domination || m.Meta.Server != server {
		t.Errorf("settings %+v on server %q", m.Meta.Settings, m.Meta.Server)
	}
	// Another server, and the console outside any, keep the bot's.
	wantOpened(t, h, "test:c", h.doReq(chat.Request{Channel: "test:c", User: user("Cat"), Command: "new", Server: "test:other"}), "24 h per turn")
	// Computer levels.
	wantPrivate(t, do("test:a", "Ann", "addbot", false, map[string]string{"level": "hard"}), "computer players are easy or normal only")
	wantPrivate(t, do("test:a", "Ann", "addbot", false, nil), "(normal bot)")
	do("test:a", "Dan", "admin defaults", true, map[string]string{"bot-levels": "easy"})
	wantPrivate(t, do("test:a", "Ann", "addbot", false, nil), "(easy bot)")

	// Who opens, and how many.
	do("test:a", "Dan", "admin defaults", true, map[string]string{"who-starts": "admins"})
	wantPrivate(t, do("test:d", "Cat", "new", false, nil), "only admins open matches")
	do("test:a", "Dan", "admin defaults", true, map[string]string{"who-starts": "everyone"})
	wantPrivate(t, do("test:a", "Dan", "admin limits", true, map[string]string{"per-host": "1", "per-server": "3"}), "1 per host, 3 in the server")
	wantPrivate(t, do("test:d", "Ann", "new", false, nil), "You host 1 open match on this server already")
	wantOpened(t, h, "test:d", do("test:d", "Cat", "new", false, nil), "Cat opened")
	wantPrivate(t, do("test:e", "Eve", "new", false, nil), "This server has 3 open matches")

	// Reset: the bot's rules again.
	wantPrivate(t, do("test:a", "Dan", "admin reset", true, nil), "24 h per turn", "no limit per host")
	wantOpened(t, h, "test:e", do("test:e", "Eve", "new", false, nil), "24 h per turn")
}

// A server's lobby-days closes its lobbies sooner than the bot's rule.
func TestServerLobbyDays(t *testing.T) {
	h := newHarness(t)
	h.doReq(chat.Request{Channel: "test:a", User: user("Dan"), Command: "admin limits", Options: map[string]string{"lobby-days": "2"}, Server: "test:s", Admin: true})
	h.doReq(chat.Request{Channel: "test:a", User: user("Ann"), Command: "new", Server: "test:s"})
	h.doReq(chat.Request{Channel: "test:b", User: user("Bob"), Command: "new", Server: "test:other"})
	h.advance(49 * time.Hour)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	for ch, want := range map[string]storage.Status{"test:a": storage.Abandoned, "test:b": storage.Lobby} {
		if ms, err := h.db.History(context.Background(), ch); err != nil || ms[0].Status != want {
			t.Errorf("%s: %s (%v), want %s", ch, ms[0].Status, err, want)
		}
	}
	// test:a's lobby closed (its message edited), test:b's open; one note.
	wantLobby(t, h, "test:a", "This lobby is closed")
	wantLobby(t, h, "test:b", "Bob opened a Risk match")
	var notes []string
	for _, p := range h.takePosts() {
		if p.msg.Embed == nil {
			notes = append(notes, p.channel+": "+p.msg.Text)
		}
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "test:a: ⌛") || !strings.Contains(notes[0], "after 2 days") {
		t.Errorf("notes %q", notes)
	}
}
