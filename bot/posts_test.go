package bot

import (
	"strconv"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// postsNow returns the posts so far, as edited, without forgetting them.
func (h *harness) postsNow() ([]posted, int) {
	h.bot.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]posted(nil), h.posts...), h.edits
}

// A person's turn is one message: posted when the turn starts (pinging
// them), edited by each of their commands (whose answers are theirs
// alone), without what they undid, and completed with the map at the end;
// the next turn gets its own. /risk history tells any turn again from the
// log.
func TestTurnIsOneLivingMessage(t *testing.T) {
	h := newHarness(t)
	const ch = "test:living"
	startedAndPlaced(t, h, ch)
	s := h.load(ch).Game.State
	who := s.Seats[s.Current].Name
	other := s.Seats[1-s.Current].Name

	// startedAndPlaced took the first turn's message: watch the next one.
	wantDone(t, h.do(ch, who, "place"))
	wantDone(t, h.do(ch, who, "end"), "ended turn")
	posts, _ := h.postsNow()
	if len(posts) < 2 {
		t.Fatalf("%d posts at the end of a turn, want its record and the next one's message", len(posts))
	}
	live := posts[len(posts)-1]
	wantText(t, live.msg, "it is your turn", "Turn "+strconv.Itoa(s.Turn+1)+" — ")
	if len(live.msg.Mentions) != 1 || live.msg.Mentions[0] != user(other).ID || live.msg.Embed == nil {
		t.Fatalf("the turn's message: %+v", live.msg)
	}

	// The next player plays: their answers are private, the message grows.
	place := h.do(ch, other, "place")
	wantPrivate(t, place, "placed")
	posts, edits := h.postsNow()
	if n := len(posts); posts[n-1].id != live.id || edits == 0 {
		t.Fatalf("the turn's message was not edited: %d posts, %d edits", n, edits)
	}
	wantText(t, posts[len(posts)-1].msg, "placed")
	if b := posts[len(posts)-1].msg.Buttons; len(b) != 0 {
		t.Errorf("the placement's button outlived the placement: %+v", b)
	}

	// A move taken back leaves the record.
	s = h.load(ch).Game.State
	seat := s.Current
	from, to := -1, -1
	for f := range s.Terr {
		if s.Terr[f].Owner != seat || s.Terr[f].Armies < 2 {
			continue
		}
		for _, n := range s.Map.Territories[f].Adj {
			if s.Terr[n].Owner == seat {
				from, to = f, n
			}
		}
	}
	if from < 0 {
		t.Skip("no move to make in this deal")
	}
	moved := h.do(ch, other, "fortify", "from:"+s.Map.Territories[from].Name, "to:"+s.Map.Territories[to].Name, "armies:1")
	wantPrivate(t, moved, "moved 1 from")
	posts, _ = h.postsNow()
	wantText(t, posts[len(posts)-1].msg, "moved 1 from")
	wantPrivate(t, h.do(ch, other, "undo"), "took back")
	posts, _ = h.postsNow()
	if text := all(posts[len(posts)-1].msg); strings.Contains(text, "moved 1 from") || strings.Contains(text, "took back") {
		t.Errorf("the record keeps an undone move: %q", text)
	}

	// The end completes the same message, with the map.
	wantDone(t, h.do(ch, other, "end"), "ended turn")
	posts, _ = h.postsNow()
	var done *posted
	for i := range posts {
		if posts[i].id == live.id {
			done = &posts[i]
		}
	}
	if done == nil || done.msg.Image == nil || len(done.msg.Buttons) != 0 || done.msg.Text != "" {
		t.Fatalf("the turn's message was not completed with the map: %+v", done)
	}
	if m := h.load(ch); len(m.Loaded.Meta) > 2000 {
		t.Errorf("match data of %d bytes", len(m.Loaded.Meta))
	}

	// History: any turn, paged, from the log.
	turn := strconv.Itoa(s.Turn)
	hist := h.do(ch, who, "history", "turn:"+turn)
	wantPrivate(t, hist, "Turn "+turn+" — ", "placed")
	if strings.Contains(all(hist), "/risk history") || strings.Contains(all(hist), "moved 1 from") {
		t.Errorf("history: %q", all(hist))
	}
	if len(hist.Buttons) == 0 {
		t.Fatal("no buttons to page through the history")
	}
	back := h.click(ch, other, hist.Buttons[0][0].ID)
	wantText(t, back, "Turn "+strconv.Itoa(s.Turn-1)+" — ")
	wantPrivate(t, h.do(ch, who, "history", "turn:999"), "no turn 999")
	if s.Phase == state.PhaseSetup {
		t.Fatal("still in the setup")
	}
}
