package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/storage"
)

// channelCount counts what a lobby puts in its channel: every public
// answer is a message of the channel, as is every post; edits are not.
type channelCount struct {
	t       *testing.T
	h       *harness
	channel string
	// answers are the public answers to commands and clicks.
	answers []chat.Message
}

// do runs a command and counts its answer if it is public.
func (c *channelCount) do(who, command string, opts ...string) chat.Message {
	c.t.Helper()
	return c.count(c.h.do(c.channel, who, command, opts...))
}

// click presses the button labelled label of the channel's newest message
// that has one, and counts the answer if it is public.
func (c *channelCount) click(who, label string) chat.Message {
	c.t.Helper()
	b, ok := c.button(label)
	if !ok {
		c.t.Fatalf("no %q button in the channel", label)
	}
	return c.count(c.h.click(c.channel, who, b.ID))
}

func (c *channelCount) count(m chat.Message) chat.Message {
	if !m.Private {
		c.answers = append(c.answers, m)
	}
	return m
}

// button finds the button labelled label on the channel's newest post
// that has one, else on its newest public answer that has one.
func (c *channelCount) button(label string) (chat.Button, bool) {
	msgs := c.messages()
	for i := len(msgs) - 1; i >= 0; i-- {
		if b, ok := buttonLabelled(msgs[i].msg, label); ok {
			return b, true
		}
	}
	for i := len(c.answers) - 1; i >= 0; i-- {
		if b, ok := buttonLabelled(c.answers[i], label); ok {
			return b, true
		}
	}
	return chat.Button{}, false
}

// messages returns the channel's messages as they now are: its posts,
// edited in place.
func (c *channelCount) messages() []posted {
	posts, _ := c.h.postsNow()
	var out []posted
	for _, p := range posts {
		if p.channel == c.channel {
			out = append(out, p)
		}
	}
	return out
}

// The first hour, item 4: every join and every bot reposted the whole
// lobby, with its own Join button, and the host had no Start button. A
// lobby is one message: posted by /risk new, edited by every join, bot,
// removal and setting, while each author is answered privately.
func TestLobbyIsOneMessage(t *testing.T) {
	h := newHarness(t)
	c := &channelCount{t: t, h: h, channel: "test:onelobby"}
	wantPrivate(t, c.do("Ann", "new"), "Your match is open")
	steps := []struct {
		who, command string
		opts         []string
		click        bool // the command is a press of the lobby's button
		want         string
	}{
		{who: "Bob", command: "join", want: "You joined (2/6 seats)"},
		{who: "Cat", command: "Join", click: true, want: "You joined (3/6 seats)"},
		{who: "Dan", command: "join", want: "You joined (4/6 seats)"},
		{who: "Ann", command: "addbot", opts: []string{"level:easy", "name:Boney"}, want: "Boney (easy bot) takes a seat (5/6)"},
		{who: "Ann", command: "addbot", want: "(normal bot) takes a seat (6/6)"},
		{who: "Ann", command: "settings", opts: []string{"victory:domination"}, want: "total domination wins"},
	}
	for _, s := range steps {
		var got chat.Message
		if s.click {
			got = c.click(s.who, s.command)
		} else {
			got = c.do(s.who, s.command, s.opts...)
		}
		wantPrivate(t, got, s.want)
	}
	msgs := c.messages()
	_, edits := h.postsNow()
	if n := len(msgs) + len(c.answers); n != 1 || edits != len(steps) {
		t.Fatalf("the lobby made %d messages in the channel (%d posts, %d public answers) and %d edits, want 1 message edited %d times",
			n, len(msgs), len(c.answers), edits, len(steps))
	}
	lobby := msgs[0].msg
	wantText(t, lobby, "Lobby — 6/6 seats", "Ann (host)", "Bob", "Cat", "Dan", "Boney (bot, easy)", "(bot, normal)", "total domination wins")
	var labels []string
	for _, row := range lobby.Buttons {
		for _, b := range row {
			labels = append(labels, b.Label)
		}
	}
	// Full: nobody can join, no bot can be added; the host can start.
	if strings.Join(labels, ",") != "Start" {
		t.Errorf("the full lobby's buttons are %v, want [Start]", labels)
	}
}

// The lobby's buttons: anyone joins; only the host adds a bot or starts,
// and only with 2 seats or more; the others are told privately who can.
// Once started, the lobby says so and keeps no button.
func TestLobbyButtons(t *testing.T) {
	h := newHarness(t)
	c := &channelCount{t: t, h: h, channel: "test:lobbybuttons"}
	c.do("Ann", "new")
	for _, label := range []string{"Join", "Add a bot", "Start"} {
		if _, ok := c.button(label); !ok {
			t.Fatalf("the lobby has no %s button", label)
		}
	}
	wantPrivate(t, c.click("Ann", "Start"), "at least 2 players")
	wantPrivate(t, c.click("Bob", "Join"), "You joined (2/6 seats)")
	wantPrivate(t, c.click("Bob", "Join"), "already in this match")
	wantPrivate(t, c.click("Bob", "Start"), "Only Ann (the host) can start the match")
	wantPrivate(t, c.click("Bob", "Add a bot"), "Only Ann (the host) can add bots")
	wantPrivate(t, c.click("Ann", "Add a bot"), "(normal bot) takes a seat (3/6)")
	if m := h.load(c.channel); m.Status != storage.Lobby || len(m.Meta.Seats) != 3 {
		t.Fatalf("after refused presses: %s with %d seats", m.Status, len(m.Meta.Seats))
	}
	if n := len(c.messages()) + len(c.answers); n != 1 {
		t.Fatalf("%d messages in the channel before the start, want the lobby alone", n)
	}

	start := c.click("Ann", "Start")
	wantPublic(t, start, "The match has started!")
	if start.Image == nil || len(start.Mentions) != 2 {
		t.Errorf("the start: image %v, mentions %v; want the map, and Ann and Bob pinged", start.Image != nil, start.Mentions)
	}
	h.bot.Wait()
	if m := h.load(c.channel); m.Status != storage.Active || len(m.Game.State.Seats) != 3 {
		t.Fatalf("after the start: %s", m.Status)
	}
	lobby := c.messages()[0].msg
	wantText(t, lobby, "The match has started")
	if len(lobby.Buttons) != 0 {
		t.Errorf("the started lobby keeps its buttons: %+v", lobby.Buttons)
	}
	wantPrivate(t, h.click(c.channel, "Dan", hostedLobbyButton(t, h, c.channel, button.Join)), "already started")
	wantPrivate(t, h.click(c.channel, "Ann", hostedLobbyButton(t, h, c.channel, button.Start)), "already started")
}

// hostedLobbyButton is the ID of a lobby button of the channel's match,
// as the lobby posted it before it started.
func hostedLobbyButton(t *testing.T, h *harness, channel string, action button.Action) string {
	t.Helper()
	return button.ID(h.load(channel).ID, 0, action)
}

// The lobby's message lost, it is posted anew, once, and edited from then
// on: deleted in the chat (its edit is refused), or its place forgotten
// (a lobby opened by an earlier version of the bot). A restart loses
// nothing: the place is kept in the database.
func TestLobbyMessageLostIsPostedAnew(t *testing.T) {
	tests := []struct {
		name string
		lose func(t *testing.T, h *harness, channel string, lobby posted)
		// posts made in all, and messages left in the channel
		posts, left int
	}{
		{"restart", func(_ *testing.T, h *harness, _ string, _ posted) { h.restart() }, 1, 1},
		{"deleted", func(_ *testing.T, h *harness, _ string, p posted) { h.delete(p.id) }, 2, 1},
		{"forgotten", func(t *testing.T, h *harness, channel string, _ posted) {
			if err := h.db.SetSetting(context.Background(), "post", news.LobbyRef(h.load(channel).ID), nil, h.clock()); err != nil {
				t.Fatal(err)
			}
		}, 2, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHarness(t)
			c := &channelCount{t: t, h: h, channel: "test:lost"}
			c.do("Ann", "new")
			first := c.messages()
			if len(first) != 1 {
				t.Fatalf("%d messages after /risk new, want the lobby", len(first))
			}
			tt.lose(t, h, c.channel, first[0])
			c.do("Bob", "join")
			c.do("Cat", "join")
			msgs := c.messages()
			if posts := h.postsMade(); posts != tt.posts || len(msgs) != tt.left || len(c.answers) != 0 {
				t.Fatalf("%d posts made, %d messages left, %d public answers; want %d posts, %d left, no public answer",
					posts, len(msgs), len(c.answers), tt.posts, tt.left)
			}
			wantText(t, msgs[len(msgs)-1].msg, "Lobby — 3/6 seats", "Cat")
		})
	}
}

// lobbyOf returns the channel's lobby message as it now is: the newest
// post that carries a lobby's card.
func (h *harness) lobbyOf(channel string) (chat.Message, bool) {
	posts, _ := h.postsNow()
	for i := len(posts) - 1; i >= 0; i-- {
		if e := posts[i].msg.Embed; posts[i].channel == channel && e != nil && strings.HasPrefix(e.Title, "Lobby — ") {
			return posts[i].msg, true
		}
	}
	return chat.Message{}, false
}

// wantLobby fails unless the channel has a lobby message that contains
// every part, and returns it.
func wantLobby(t *testing.T, h *harness, channel string, parts ...string) chat.Message {
	t.Helper()
	m, ok := h.lobbyOf(channel)
	if !ok {
		t.Fatalf("no lobby message in %s", channel)
	}
	wantPublic(t, m, parts...)
	return m
}

// wantOpened fails unless the answer to /risk new says the match is open
// (privately: the lobby is its public message), and the lobby posted in
// the channel contains every part.
func wantOpened(t *testing.T, h *harness, channel string, answer chat.Message, parts ...string) {
	t.Helper()
	wantPrivate(t, answer, "Your match is open")
	if answer.Refused {
		t.Errorf("/risk new refused: %q", answer.Text)
		return
	}
	wantLobby(t, h, channel, parts...)
}
