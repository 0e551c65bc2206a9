package bot

import (
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
)

// doIn runs a command in a channel of a server ("" outside any, as in
// direct messages).
func (h *harness) doIn(server, channel, who, command string, opts ...string) chat.Message {
	h.t.Helper()
	o := map[string]string{}
	for _, kv := range opts {
		k, v, _ := strings.Cut(kv, ":")
		o[k] = v
	}
	return h.doReq(chat.Request{Channel: channel, User: user(who), Command: command, Options: o, Server: server})
}

// Issue 31, item 2: /risk me games lists its author's matches under way,
// in the server asked from (everywhere from direct messages), with whose
// move it is, the deadline and the channel; only to them.
func TestGames(t *testing.T) {
	h := newHarness(t)
	open := func(server, channel string, players ...string) {
		h.doIn(server, channel, players[0], "new", "thread:off")
		for _, p := range players[1:] {
			if p == "bot" {
				h.doIn(server, channel, players[0], "host addbot")
				continue
			}
			h.doIn(server, channel, p, "join")
		}
		wantPublic(t, h.doIn(server, channel, players[0], "start"), "The match has started")
		h.bot.Wait()
		h.advance(time.Hour) // the deadlines in the order of opening
	}
	open("test:s1", "test:a", "Ann", "Bob")
	open("test:s1", "test:b", "Ann", "Cat", "bot")
	open("test:s2", "test:c", "Dan", "Ann")
	h.doIn("test:s1", "test:lobby", "Ann", "new", "thread:off") // a lobby: not listed
	// Ann places everything in test:a: it waits for Bob only there.
	wantDone(t, h.doIn("test:s1", "test:a", "Ann", "place"))

	for _, tt := range []struct {
		name, server, who string
		want, not         []string
		// order are channels in the order listed
		order []string
	}{
		{"in a server", "test:s1", "Ann",
			[]string{"Your matches in this server** (2; 1 waits for you)", "{{channel:test:b}}: placing armies, **your move**, and Cat's, deadline {{time:", "{{channel:test:a}}: placing armies, Bob's move, deadline"},
			[]string{"test:c", "test:lobby"}, []string{"test:b}", "test:a}"}},
		{"from direct messages", "", "Ann",
			[]string{"Your matches on every server** (3; 2 wait for you)", "{{channel:test:a}}", "{{channel:test:b}}", "{{channel:test:c}}: placing armies, **your move**, and Dan's"},
			[]string{"test:lobby"},
			// those waiting for Ann first, each group by deadline
			[]string{"test:b}", "test:c}", "test:a}"}},
		{"another player", "test:s1", "Bob",
			[]string{"(1; 1 waits for you)", "{{channel:test:a}}: placing armies, **your move**"},
			[]string{"test:b", "test:c"}, nil},
		{"the other server", "test:s2", "Dan",
			[]string{"(1; 1 waits for you)", "{{channel:test:c}}"},
			[]string{"test:a"}, nil},
		{"nobody's matches", "test:s1", "Eve",
			[]string{"You play in no match under way in this server", "/risk new"},
			[]string{"{{channel:"}, nil},
		{"matches elsewhere only", "test:s2", "Bob",
			[]string{"You play in no match under way in this server"}, nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, command := range []string{"me games", "games"} {
				m := h.doIn(tt.server, "test:elsewhere", tt.who, command)
				wantPrivate(t, m, tt.want...)
				if m.Refused {
					t.Errorf("/risk %s refused: %q", command, m.Text)
				}
				last := -1
				for _, o := range tt.order {
					i := strings.Index(m.Text, o)
					if i < last {
						t.Errorf("/risk %s lists %s out of the order %v: %q", command, o, tt.order, m.Text)
					}
					last = i
				}
				for _, n := range tt.not {
					if strings.Contains(m.Text, n) {
						t.Errorf("/risk %s names %q: %q", command, n, m.Text)
					}
				}
			}
		})
	}

	// A match that ends leaves the lists.
	b, ok := buttonLabelled(h.doIn("test:s1", "test:a", "Ann", "host abandon"), "End the match")
	if !ok {
		t.Fatal("no End the match button")
	}
	h.click("test:a", "Ann", b.ID)
	wantPrivate(t, h.doIn("test:s1", "test:elsewhere", "Ann", "me games"), "(1; 1 waits for you)", "test:b")
	wantPrivate(t, h.doIn("test:s1", "test:elsewhere", "Bob", "me games"), "You play in no match under way")
}
