package bot

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/state"
)

// A chat that loses its messages when it restarts (the page keeps them in
// memory) has each open match told again by Restore: the lobby's living
// message, or the story so far and the living message of the turn in
// progress, with buttons that work; public, pinging nobody; and the
// commands after it edit the messages it posted, not copies of them.
func TestRestore(t *testing.T) {
	for _, c := range []struct {
		name  string
		setup []string // "Who: command opt:value ..."; "*" is whoever is to play
		// live: the text of the last message posted; button: a button of
		// it, clicked by whoever is to play (by Cat in a lobby; "" none).
		live   []string
		button string
		// then: commands after the restore that edit its last message.
		then []string
	}{
		{name: "lobby", setup: []string{"Ann: new"},
			live: []string{"Ann opened a Risk match", "Lobby — 1/6"}, button: "Join", then: []string{"Bob: join"}},
		{name: "initial placement", setup: []string{"Ann: new", "Bob: join", "Ann: start"},
			live: []string{"Everyone places their armies now", "Still placing", "Ann", "Bob"}, button: "Place automatically"},
		{name: "a turn", setup: []string{"Ann: new", "Bob: join", "Ann: start", "Ann: autoplace", "Bob: autoplace"},
			live: []string{"it is your turn", "Deadline"}, button: "Place automatically", then: []string{"*: end"}},
		{name: "a turn half played", setup: []string{"Ann: new", "Bob: join", "Ann: start", "Ann: autoplace", "Bob: autoplace", "*: place"},
			live: []string{"it is your turn", "placed"}, then: []string{"*: end"}},
		{name: "capitals", setup: []string{"Ann: new rules:capitals map:small", "Bob: join", "Ann: start"},
			live: []string{"choose your capital"}},
		{name: "simultaneous round", setup: []string{"Ann: new turns:simultaneous", "Bob: join", "Ann: start", "Ann: place", "Bob: place"},
			live: []string{"Round 1", "give your orders", "0 of 2 ready"}, then: []string{"Ann: place", "Ann: end"}},
		{name: "fog of war", setup: []string{"Ann: new fog:on", "Bob: join", "Ann: start", "Ann: autoplace", "Bob: autoplace"},
			live: []string{"it is your turn", "Fog of war"}, button: "My view"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			const ch = "test:restore"
			for _, line := range c.setup {
				h.line(ch, line)
			}
			h.bot.Wait()
			h.restart()
			h.takePosts()
			if err := h.bot.Restore(context.Background(), ch, 0); err != nil {
				t.Fatal(err)
			}
			posts := h.takePosts()
			if len(posts) == 0 {
				t.Fatal("nothing restored")
			}
			for _, p := range posts {
				if p.channel != ch || p.msg.Private || len(p.msg.Mentions) > 0 {
					t.Errorf("restored in %s, private %v, pinging %v: %q", p.channel, p.msg.Private, p.msg.Mentions, all(p.msg))
				}
			}
			m := h.load(ch)
			if m.Game != nil && !strings.Contains(posts[0].msg.Text, "told again from its log") {
				t.Errorf("the first message restored: %q, want the note that says why", posts[0].msg.Text)
			}
			if m.Game != nil && !strings.Contains(posts[0].msg.Text, m.Game.Commitment()) {
				t.Errorf("the dice commitment is not restored: %q", posts[0].msg.Text)
			}
			last := posts[len(posts)-1]
			wantText(t, last.msg, c.live...)
			if c.button != "" {
				b, ok := buttonLabelled(last.msg, c.button)
				if !ok {
					t.Fatalf("the last message restored has no %q button: %+v", c.button, last.msg.Buttons)
				}
				who := "Cat"
				if m.Game != nil {
					who = "Ann"
				}
				if m.Game != nil && m.Game.State.Phase != state.PhaseSetup {
					who = m.Game.State.Seats[m.Game.State.Current].Name
				}
				if got := h.click(ch, who, b.ID); got.Refused {
					t.Errorf("%s clicks %q: refused: %q", who, c.button, all(got))
				}
			}
			if len(c.then) == 0 {
				return
			}
			_, before := h.postsNow()
			for _, line := range c.then {
				h.line(ch, line)
			}
			now, edits := h.postsNow()
			if edits == before {
				t.Fatalf("%v edited nothing", c.then)
			}
			title := func(p posted) string {
				if p.msg.Embed == nil {
					return ""
				}
				return p.msg.Embed.Title
			}
			for _, p := range now {
				if p.id != last.id && title(p) == title(last) {
					t.Errorf("%v posted a copy of the restored living message %q (as %s), want it edited (%s)", c.then, title(last), p.id, last.id)
				}
			}
		})
	}
}

// TestRestoreKeepsTheNewest: a long match restored within a bound keeps
// its newest turns, the turn in progress last, and its note first.
func TestRestoreKeepsTheNewest(t *testing.T) {
	h := newHarness(t)
	const ch = "test:restore-long"
	for _, line := range []string{"Ann: new", "Bob: join", "Ann: start", "Ann: autoplace", "Bob: autoplace"} {
		h.line(ch, line)
	}
	for range 6 {
		h.line(ch, "*: place")
		h.line(ch, "*: end")
	}
	h.bot.Wait()
	m := h.load(ch)
	h.takePosts()
	if err := h.bot.Restore(context.Background(), ch, 0); err != nil {
		t.Fatal(err)
	}
	whole := h.takePosts()
	const limit = 5
	if err := h.bot.Restore(context.Background(), ch, limit); err != nil {
		t.Fatal(err)
	}
	cut := h.takePosts()
	if len(whole) <= limit || len(cut) != limit {
		t.Fatalf("%d messages restored in all, %d within %d", len(whole), len(cut), limit)
	}
	// The note and the lobby's card, then the newest.
	for i := range limit {
		want := whole[len(whole)-limit+i]
		if i < 2 {
			want = whole[i]
		}
		if got := all(cut[i].msg); got != all(want.msg) {
			t.Errorf("message %d of %d: got %q, want %q", i+1, limit, got, all(want.msg))
		}
	}
	if !strings.HasPrefix(cut[0].msg.Text, voice.RecapNote[:20]) {
		t.Errorf("the first message within the bound: %q, want the note", cut[0].msg.Text)
	}
	wantText(t, cut[limit-1].msg, "Turn "+strconv.Itoa(m.Game.State.Turn)+" — ")
}

// TestRestoreWithoutMatch: a channel without an open match gets nothing.
func TestRestoreWithoutMatch(t *testing.T) {
	h := newHarness(t)
	if err := h.bot.Restore(context.Background(), "test:nothing", 0); err != nil {
		t.Fatal(err)
	}
	if p := h.takePosts(); len(p) != 0 {
		t.Errorf("restored %d messages in a channel without a match", len(p))
	}
}

// line runs "Who: command opt:value ..." in channel; "*" is whoever is to
// play.
func (h *harness) line(channel, line string) chat.Message {
	h.t.Helper()
	who, rest, _ := strings.Cut(line, ": ")
	f := strings.Fields(rest)
	if who == "*" {
		s := h.load(channel).Game.State
		who = s.Seats[s.Current].Name
	}
	r := h.do(channel, who, f[0], f[1:]...)
	h.bot.Wait()
	return r
}

// BenchmarkRestore is what a page's restart costs for one match of 100
// turns: its log read and told again, the messages written (their maps
// are drawn only when a page asks for them).
func BenchmarkRestore(b *testing.B) {
	h := newHarness(b)
	const ch = "test:restore-bench"
	for _, line := range []string{"Ann: new", "Bob: join", "Ann: start", "Ann: autoplace", "Bob: autoplace"} {
		h.line(ch, line)
	}
	for range 100 {
		h.line(ch, "*: place")
		h.line(ch, "*: end")
	}
	h.takePosts()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := h.bot.Restore(ctx, ch, 300); err != nil {
			b.Fatal(err)
		}
		h.takePosts()
	}
}
