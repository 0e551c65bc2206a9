package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

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
