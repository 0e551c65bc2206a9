package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/voice"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// Issue 31, item 2: /risk me games lists its author's matches under way,
// in the server asked from (everywhere from direct messages), with whose
// move it is, the deadline and the channel; only to them.
func TestGames(t *testing.T) {
	e := newEnv(t, "test:")
	ctx := context.Background()
	// The deadlines in the order of opening.
	a := e.open("test:s1", "test:a", 1*time.Hour, "Ann", "Bob")
	b := e.open("test:s1", "test:b", 2*time.Hour, "Ann", "Cat", "bot:1 normal")
	e.open("test:s2", "test:c", 3*time.Hour, "Dan", "Ann")
	if _, err := e.store.Create(ctx, "test:lobby", []byte(`{"host":"test:ann","server":"test:s1","seats":[{"id":"test:ann","name":"Ann"}]}`), e.now); err != nil {
		t.Fatal(err) // a lobby: not listed
	}
	// Ann places everything in test:a: it waits for Bob only there. The
	// computer of test:b has placed.
	e.play(a, seatOf(a, "Ann"), engine.AutoPlace{})
	e.play(b, b.Game.State.SeatByID("bot:1"), engine.AutoPlace{})

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
			e.t = t
			got, refused := e.do(chat.Request{Channel: "test:elsewhere", User: chat.User{ID: "test:" + strings.ToLower(tt.who), Name: tt.who}, Command: "me games", Server: tt.server})
			if refused {
				t.Fatalf("refused: %q", got)
			}
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("got %q, want %q in it", got, w)
				}
			}
			last := -1
			for _, o := range tt.order {
				i := strings.Index(got, o)
				if i < last {
					t.Errorf("%s listed out of the order %v: %q", o, tt.order, got)
				}
				last = i
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("got %q, which names %q", got, n)
				}
			}
		})
	}

	// A match that ends leaves the lists.
	e.t = t
	if _, err := e.store.Save(ctx, a.ID, a.Version, storage.Change{Status: storage.Abandoned}, e.now); err != nil {
		t.Fatal(err)
	}
	for who, want := range map[string]string{"ann": "(1; 1 waits for you)", "bob": "You play in no match under way"} {
		if got, _ := e.do(chat.Request{Channel: "test:elsewhere", User: chat.User{ID: "test:" + who}, Command: "me games", Server: "test:s1"}); !strings.Contains(got, want) {
			t.Errorf("%s's matches once test:a ended: %q, want %q", who, got, want)
		}
	}
}

// TestGamesSaysWhatItCannotRead: a match whose log no longer replays is
// listed as damaged, and the others still are (it failed the whole list:
// the store's *storage.CorruptError went up as an error); a seat a bot
// plays says so; a match of another platform is not listed.
func TestGamesSaysWhatItCannotRead(t *testing.T) {
	e := newEnv(t, "test:")
	damaged := e.open("", "test:a", time.Hour, "Ann", "Bob")
	e.store.Break(damaged.ID)
	auto := e.open("", "test:b", 2*time.Hour, "Ann", "Bob")
	auto.Meta.Seats[0].Autopilot = true
	if err := e.ms.Save(context.Background(), auto, storage.Change{}); err != nil {
		t.Fatal(err)
	}
	e.open("", "other:c", 3*time.Hour, "Ann", "Bob")
	got, _ := e.do(chat.Request{Channel: "dm", User: chat.User{ID: "test:ann"}, Command: "me games"})
	for _, w := range []string{"{{channel:test:a}}: damaged, it cannot be loaded", "{{channel:test:b}}: placing armies", "a bot plays your seat"} {
		if !strings.Contains(got, w) {
			t.Errorf("got %q, want %q in it", got, w)
		}
	}
	if strings.Contains(got, "other:c") {
		t.Errorf("a match of another platform is listed: %q", got)
	}
}

// TestGamesShowsTheSoonest: a long list shows the matches of the soonest
// deadlines and counts the rest.
func TestGamesShowsTheSoonest(t *testing.T) {
	e := newEnv(t, "test:")
	for i := range voice.GamesShown + 2 {
		e.open("test:s", fmt.Sprintf("test:%02d", i), time.Duration(i+1)*time.Hour, "Bob", "Ann")
	}
	got, _ := e.do(chat.Request{Channel: "test:x", User: chat.User{ID: "test:ann"}, Command: "me games", Server: "test:s"})
	if !strings.Contains(got, "{{channel:test:09}}") || strings.Contains(got, "{{channel:test:10}}") || !strings.Contains(got, "…and 2 more, with later deadlines.") {
		t.Errorf("got %q, want the first %d matches and 2 more", got, voice.GamesShown)
	}
}
