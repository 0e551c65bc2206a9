package bot

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
)

// Issue 12, fault 6: a request delivered twice (a replayed event, a second
// process) is applied once: its key is recorded with the change.
func TestRequestWithTheSameKeyAppliesOnce(t *testing.T) {
	h := newHarness(t)
	const ch = "test:dup"
	h.started(ch, []string{"Ann", "Bob"})
	s := h.load(ch).Game.State
	terr := ""
	for id := range s.Terr {
		if s.Terr[id].Owner == s.SeatByID(user("Ann").ID) {
			terr = s.Map.Territories[id].Name
			break
		}
	}
	req := chat.Request{Channel: ch, User: user("Ann"), Command: "place", Options: map[string]string{"territory": terr, "armies": "1"}, Key: "test:interaction:1"}
	reserve := func() int { return h.load(ch).Game.State.Seats[s.SeatByID(user("Ann").ID)].Reserve }
	before := reserve()
	var replies []chat.Message
	for range 2 {
		if err := h.bot.Handle(context.Background(), req, chat.ReplierFunc(func(_ context.Context, m chat.Message) error { replies = append(replies, m); return nil })); err != nil {
			t.Fatal(err)
		}
	}
	if got := reserve(); got != before-1 {
		t.Fatalf("reserve %d after the same request twice, want %d", got, before-1)
	}
	wantPrivate(t, replies[0], "placed")
	wantPrivate(t, replies[1], "This was done already", "/risk place armies:1 territory:", "placed 1 on "+terr)
	// The second answer is marked, so that an adapter never lets it
	// change the first one's (TestEndpointReplayToAnotherProcess).
	if replies[0].Again || !replies[1].Again {
		t.Errorf("Again: %v then %v, want false then true", replies[0].Again, replies[1].Again)
	}
}

// Issue 12, fault 6: a process that stops between saving a command and
// answering it leaves its author without an answer; they type it again.
// The next process tells them what was done instead of doing it twice,
// once; the command after that applies.
func TestLostAnswerIsToldNotAppliedTwice(t *testing.T) {
	h := newHarness(t)
	const ch = "test:lost"
	h.started(ch, []string{"Ann", "Bob"})
	ann := h.load(ch).Game.State.SeatByID(user("Ann").ID)
	reserve := func() int { return h.load(ch).Game.State.Seats[ann].Reserve }
	s := h.load(ch).Game.State
	terr := ""
	for id := range s.Terr {
		if s.Terr[id].Owner == ann {
			terr = s.Map.Territories[id].Name
			break
		}
	}
	place := func(key string) chat.Request {
		return chat.Request{Channel: ch, User: user("Ann"), Command: "place", Options: map[string]string{"territory": terr, "armies": "2"}, Key: key}
	}
	before := reserve()
	crash := errors.New("killed")
	err := h.bot.Handle(context.Background(), place("k1"), chat.ReplierFunc(func(context.Context, chat.Message) error { return crash }))
	if !errors.Is(err, crash) {
		t.Fatalf("handle: %v", err)
	}
	h.restart()
	h.advance(time.Minute)
	var got chat.Message
	reply := chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil })
	if err := h.bot.Handle(context.Background(), place("k2"), reply); err != nil {
		t.Fatal(err)
	}
	wantPrivate(t, got, "Your last command here, /risk place armies:2", "was carried out", "placed 2 on "+terr, "Nothing else was done now")
	if got.Again {
		t.Error("the answer to a new request is marked as a request delivered again")
	}
	if r := reserve(); r != before-2 {
		t.Fatalf("reserve %d, want %d: the command was applied again", r, before-2)
	}
	// Told once: typed again, it applies.
	if err := h.bot.Handle(context.Background(), place("k3"), reply); err != nil {
		t.Fatal(err)
	}
	wantPrivate(t, got, "placed 2 on "+terr)
	if r := reserve(); r != before-4 {
		t.Fatalf("reserve %d, want %d", r, before-4)
	}
	// An answer that went out is not told again, and others are not
	// stopped by someone's lost answer.
	if r := h.do(ch, "Bob", "autoplace"); r.Text == "" || !r.Private {
		t.Errorf("Bob: %+v", r)
	}
}
