package bot

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
)

// Issue 12, item 14: a player's choices, shown and refused as typed.
func TestNotifyChoices(t *testing.T) {
	h := newHarness(t)
	const ch = "test:notify"
	wantPrivate(t, h.do(ch, "Ann", "notify"), "Direct message when it is your turn: off. Reminders: on. Quiet hours: none.")
	wantPrivate(t, h.do(ch, "Ann", "notify", "dm:on", "quiet:22-7", "utc-offset:+5:30"), "Saved", "turn: on", "22:00 to 07:00 (UTC+5:30)")
	wantPrivate(t, h.do(ch, "Ann", "notify", "reminders:off"), "Reminders: off", "turn: on")
	wantPrivate(t, h.do(ch, "Ann", "notify", "quiet:25-3"), "quiet takes two different hours")
	wantPrivate(t, h.do(ch, "Ann", "notify", "quiet:7-7"), "quiet takes two different hours")
	wantPrivate(t, h.do(ch, "Ann", "notify", "utc-offset:Paris"), "utc-offset takes hours from UTC")
	wantPrivate(t, h.do(ch, "Ann", "notify", "quiet:off", "dm:off", "reminders:on"), "Quiet hours: none.", "turn: off")
}

// Issue 12, item 14: the turn's ping reaches a player as they chose: a
// direct message too; nothing in their quiet hours, which their clock
// skips; no reminder if they want none.
func TestPingsFollowPlayersChoices(t *testing.T) {
	h := newHarness(t)
	const ch = "test:pings"
	h.started(ch, []string{"Ann", "Bob"})
	h.do(ch, "Ann", "autoplace")
	h.do(ch, "Bob", "autoplace")
	h.takePosts()
	for _, p := range []string{"Ann", "Bob"} {
		h.do(ch, p, "notify", "dm:on", "quiet:22-7")
	}
	// now: Nov 25 12:00 UTC. The first turn ends at 13:00: the next
	// player is pinged, in the channel and directly.
	cur := func() string { s := h.load(ch).Game.State; return s.Seats[s.Current].Name }
	h.advance(time.Hour)
	first := cur()
	h.do(ch, first, "autoplace")
	h.do(ch, first, "end")
	next := cur()
	ping, dm := pingOf(t, h.takePosts(), next)
	if !slices.Contains(ping.Mentions, user(next).ID) {
		t.Errorf("the ping does not notify %s: %+v", next, ping)
	}
	if dm == nil || !strings.Contains(dm.Text, "In {{channel:"+ch+"}}") || !strings.Contains(dm.Text, "it is your turn") {
		t.Errorf("direct message %+v", dm)
	}
	// 23:00: in the quiet hours. The ping names the player but notifies
	// nobody, no direct message; the clock starts at 07:00 tomorrow.
	h.advance(10 * time.Hour)
	h.do(ch, next, "autoplace")
	h.do(ch, next, "end")
	ping, dm = pingOf(t, h.takePosts(), first)
	if len(ping.Mentions) != 0 || dm != nil {
		t.Errorf("pinged in the quiet hours: %+v, %+v", ping.Mentions, dm)
	}
	m := h.load(ch)
	if want := time.Date(2026, 11, 27, 16, 0, 0, 0, time.UTC); !m.Timers.Deadline.Equal(want) {
		t.Errorf("deadline %v, want %v (24 h outside 22:00-07:00)", m.Timers.Deadline, want)
	}
	if want := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC); !m.Timers.Remind.Equal(want) {
		t.Errorf("reminder %v, want %v", m.Timers.Remind, want)
	}
	// The reminder pings them, out of their quiet hours; with reminders
	// off, there is none.
	h.advance(11*time.Hour + time.Minute) // Nov 26 10:01, before the reminder
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	if p := h.takePosts(); len(p) != 0 {
		t.Errorf("posts before the reminder: %+v", p)
	}
	h.do(ch, first, "notify", "reminders:off")
	h.advance(24 * time.Hour) // Nov 27 10:01
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, p := range h.takePosts() {
		if strings.Contains(all(p.msg), "⏰") {
			t.Errorf("a reminder for someone who wants none: %+v", p)
		}
	}
}

// pingOf finds the ping of a player's turn among posts, and the direct
// message sent to them, if any.
func pingOf(t *testing.T, posts []posted, who string) (chat.Message, *chat.Message) {
	t.Helper()
	var ping *chat.Message
	var dm *chat.Message
	for _, p := range posts {
		if strings.Contains(all(p.msg), "it is your turn") && p.channel != "dm:"+user(who).ID {
			ping = &p.msg
		}
		if p.channel == "dm:"+user(who).ID {
			dm = &p.msg
		}
	}
	if ping == nil {
		t.Fatalf("no ping for %s in %+v", who, posts)
	}
	return *ping, dm
}
