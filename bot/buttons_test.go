package bot

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
)

// buttonLabelled finds a button of a message by the start of its label.
func buttonLabelled(m chat.Message, label string) (chat.Button, bool) {
	for _, row := range m.Buttons {
		for _, b := range row {
			if strings.HasPrefix(b.Label, label) {
				return b, true
			}
		}
	}
	return chat.Button{}, false
}

// Issue 12, fault 9: a "Place automatically" button acts only for the
// placement it was posted for. The start message's button placed a later
// turn's reinforcements, and so did a ping's button turns later.
func TestOldAutoplaceButtonsDoNotActLater(t *testing.T) {
	h := newHarness(t)
	const ch = "test:oldbuttons"
	h.do(ch, "Ann", "new")
	h.do(ch, "Bob", "join")
	start := h.do(ch, "Ann", "start")
	setup, ok := buttonLabelled(start, "Place automatically")
	if !ok {
		t.Fatalf("no autoplace button on the start: %+v", start.Buttons)
	}
	h.do(ch, "Ann", "autoplace")
	wantPrivate(t, h.click(ch, "Bob", setup.ID), "placed") // in time: it works
	h.bot.Wait()

	// pingButton returns the autoplace button of the last ping posted.
	pingButton := func() chat.Button {
		t.Helper()
		posts := h.takePosts()
		for i := len(posts) - 1; i >= 0; i-- {
			if b, ok := buttonLabelled(posts[i].msg, "Place automatically"); ok {
				return b
			}
		}
		t.Fatal("no ping with an autoplace button")
		return chat.Button{}
	}
	reserve := func() int {
		s := h.load(ch).Game.State
		return s.Seats[s.Current].Reserve
	}
	current := func() string {
		s := h.load(ch).Game.State
		return s.Seats[s.Current].Name
	}
	first := pingButton()
	who := current()
	before := reserve()
	wantPrivate(t, h.click(ch, who, setup.ID), "initial placement", "no longer applies")
	if got := reserve(); got != before {
		t.Fatalf("the setup's button placed turn 1's armies: reserve %d, was %d", got, before)
	}
	wantDone(t, h.click(ch, who, first.ID), "placed")
	wantDone(t, h.do(ch, who, "end"), "ended turn")
	// Turn 2: the other player; turn 3: the first again, with turn 1's
	// ping button still in the channel.
	pingButton()
	other := current()
	h.do(ch, other, "autoplace")
	h.do(ch, other, "end")
	pingButton()
	if current() != who {
		t.Fatalf("turn 3 is %s's, want %s's", current(), who)
	}
	before = reserve()
	wantPrivate(t, h.click(ch, who, first.ID), "turn 1", "no longer applies")
	if got := reserve(); got != before {
		t.Fatalf("turn 1's button placed turn 3's armies: reserve %d, was %d", got, before)
	}
}
