package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

// Issue 12, item 11: a match ended without a winner stays on view: its
// status says how it ended, its map shows, it exports, and the channel
// hosts a new match. (The question and its buttons are the lobby
// package's tests.)
func TestAbandonedMatchStaysOnView(t *testing.T) {
	h := newHarness(t)
	const ch = "test:abandon"
	h.started(ch, []string{"Ann", "Bob"}, "easy")
	end, ok := buttonLabelled(h.do(ch, "Ann", "abandon"), "End the match")
	if !ok {
		t.Fatal("no button to confirm")
	}
	wantPrivate(t, h.click(ch, "Ann", end.ID), "the match is ended")
	m := h.load(ch)
	if m.Status != storage.Abandoned {
		t.Fatalf("match %s", m.Status)
	}
	wantPrivate(t, h.do(ch, "Bob", "status"), "ended without a winner by Ann (the host)")
	if r := h.do(ch, "Bob", "map"); r.Image == nil {
		t.Error("no map of the ended match")
	}
	if x, err := h.db.Export(context.Background(), m.ID); err != nil || x.Status != storage.Abandoned || len(x.Record.Log) == 0 {
		t.Errorf("export of the ended match: %v", err)
	}
	wantOpened(t, h, ch, h.do(ch, "Bob", "new"), "Bob opened a Risk match")
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
