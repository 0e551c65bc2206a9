package bot

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
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
			if err := h.bot.Restore(context.Background(), ch, 0, nil); err != nil {
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
	if err := h.bot.Restore(context.Background(), ch, 0, nil); err != nil {
		t.Fatal(err)
	}
	whole := h.takePosts()
	const limit = 5
	if err := h.bot.Restore(context.Background(), ch, limit, nil); err != nil {
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
	if !strings.HasPrefix(cut[0].msg.Text, "📜 _This channel's messages were lost") {
		t.Errorf("the first message within the bound: %q, want the note", cut[0].msg.Text)
	}
	wantText(t, cut[limit-1].msg, "Turn "+strconv.Itoa(m.Game.State.Turn)+" — ")
}

// TestRestoreEnded: a channel whose latest match is over gets its end
// again, as the channel saw it: a match won, its story, its last turn and
// the victory post with the map and a Rematch button that works; a match
// ended without a winner, its story, what was done of its last turn, and
// the end said with the map; a lobby closed before it started, its card,
// closed. Public, pinging nobody, with no button but the Rematch. A
// channel whose ended match was followed by another gets that one.
func TestRestoreEnded(t *testing.T) {
	// press clicks the button labelled label of who's answer to command.
	press := func(h *harness, ch, who, command, label string) {
		b, ok := buttonLabelled(h.do(ch, who, command), label)
		if !ok {
			t.Fatalf("%s /risk %s: no %q button", who, command, label)
		}
		if got := h.click(ch, who, b.ID); got.Refused {
			t.Fatalf("%s clicks %q: refused: %q", who, label, all(got))
		}
		h.bot.Wait()
	}
	started := []string{"Ann: new", "Bob: join", "Ann: start", "Ann: autoplace", "Bob: autoplace"}
	for _, c := range []struct {
		name  string
		setup func(h *harness, ch string)
		// story: a match started, told again with the note first.
		story bool
		// live: the texts of the last message; image: it has the map;
		// button: its one button, clicked by Ann, who played.
		live   []string
		image  bool
		button string
		// also: the texts of the message before the last.
		also []string
	}{
		{name: "won", setup: func(h *harness, ch string) {
			for _, l := range append(started, "*: place", "*: end") {
				h.line(ch, l)
			}
			press(h, ch, "Bob", "surrender", "Give up")
		}, story: true, live: []string{"Ann wins", "Fair dice", "Rematch"}, image: true, button: "Rematch"},
		{name: "ended without a winner", setup: func(h *harness, ch string) {
			for _, l := range append(started, "*: place") {
				h.line(ch, l)
			}
			press(h, ch, "Ann", "host abandon", "End the match")
		}, story: true, live: []string{"ended without a winner by Ann (the host), at turn 1", "Start another with /risk new"}, image: true,
			also: []string{"Turn 1", "placed"}},
		{name: "lobby closed", setup: func(h *harness, ch string) {
			h.line(ch, "Ann: new")
			press(h, ch, "Ann", "host abandon", "End the match")
		}, live: []string{"This lobby is closed", "by Ann (the host)", "Lobby — closed"}},
		{name: "followed by another", setup: func(h *harness, ch string) {
			h.line(ch, "Ann: new")
			press(h, ch, "Ann", "host abandon", "End the match")
			h.line(ch, "Bob: new")
		}, live: []string{"Bob opened a Risk match"}, button: "Join"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newHarness(t)
			const ch = "test:ended"
			c.setup(h, ch)
			h.bot.Wait()
			told := h.takePosts()
			h.restart()
			if err := h.bot.Restore(context.Background(), ch, 0, nil); err != nil {
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
			if got := strings.Contains(posts[0].msg.Text, "told again from its log"); got != c.story {
				t.Errorf("the first message restored: %q; the note that the match is told again: %v, want %v", posts[0].msg.Text, got, c.story)
			}
			last := posts[len(posts)-1]
			wantText(t, last.msg, c.live...)
			if got := last.msg.Image != nil; got != c.image {
				t.Errorf("the last message restored has a map: %v, want %v", got, c.image)
			}
			if len(c.also) > 0 {
				wantText(t, posts[len(posts)-2].msg, c.also...)
			}
			for _, p := range posts {
				for _, row := range p.msg.Buttons {
					for _, b := range row {
						if c.name != "followed by another" && (b.Label != c.button || p.id != last.id) {
							t.Errorf("a restored message offers %q: %q", b.Label, all(p.msg))
						}
					}
				}
			}
			if c.name == "won" {
				// The end as it was posted: the last turn, then the victory.
				var ends []string
				for _, p := range told {
					if p.msg.Embed != nil && strings.HasPrefix(p.msg.Embed.Title, "🏆") {
						ends = append(ends, all(told[len(told)-2].msg), all(p.msg))
					}
				}
				got := []string{all(posts[len(posts)-2].msg), all(last.msg)}
				if len(ends) != 2 || got[0] != ends[0] || got[1] != ends[1] {
					t.Errorf("the end restored:\n%q\nwant as it was posted:\n%q", got, ends)
				}
			}
			if c.button == "" {
				return
			}
			b, ok := buttonLabelled(last.msg, c.button)
			if !ok {
				t.Fatalf("the last message restored has no %q button: %+v", c.button, last.msg.Buttons)
			}
			who := "Ann"
			if c.button == "Join" {
				who = "Cat"
			}
			if got := h.click(ch, who, b.ID); got.Refused {
				t.Errorf("%s clicks %q: refused: %q", who, c.button, all(got))
			}
		})
	}
}

// TestRestoreWithoutMatch: a channel without an open match gets nothing.
func TestRestoreWithoutMatch(t *testing.T) {
	h := newHarness(t)
	if err := h.bot.Restore(context.Background(), "test:nothing", 0, nil); err != nil {
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
		if err := h.bot.Restore(ctx, ch, 300, nil); err != nil {
			b.Fatal(err)
		}
		h.takePosts()
	}
}

// BenchmarkRestoreEnded is what a page's restart costs for a channel
// whose match of 100 turns is over: its log read and told again, the
// luck of its dice for the victory post, the messages written.
func BenchmarkRestoreEnded(b *testing.B) {
	h := newHarness(b)
	const ch = "test:restore-ended"
	for _, line := range []string{"Ann: new", "Bob: join", "Ann: start", "Ann: autoplace", "Bob: autoplace"} {
		h.line(ch, line)
	}
	for range 100 {
		h.line(ch, "*: place")
		h.line(ch, "*: end")
	}
	g, ok := buttonLabelled(h.do(ch, "Bob", "surrender"), "Give up")
	if !ok {
		b.Fatal("no Give up button")
	}
	h.click(ch, "Bob", g.ID)
	h.takePosts()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if err := h.bot.Restore(ctx, ch, 300, nil); err != nil {
			b.Fatal(err)
		}
		if p := h.takePosts(); len(p) == 0 || p[len(p)-1].msg.Embed == nil || !strings.HasPrefix(p[len(p)-1].msg.Embed.Title, "🏆") {
			b.Fatal("the victory post was not restored")
		}
	}
}
