package bot

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
)

// countingRequests counts the lookups of a user's last request.
type countingRequests struct {
	Store
	n *atomic.Int64
}

func (c countingRequests) LastRequest(ctx context.Context, channel, user string) (*storage.Applied, error) {
	c.n.Add(1)
	return c.Store.LastRequest(ctx, channel, user)
}

// A lost answer is of a request made before the process started: a user's
// is looked for once in a channel, not on every command (the lookup sorts
// their requests there, and grew with the match: 80-130 µs a command in
// a short one). Before, each of Ann's commands looked.
func TestLostAnswerLookedForOnce(t *testing.T) {
	h := newHarness(t)
	var n atomic.Int64
	h.configure = func(c *Config) { c.Store = countingRequests{c.Store, &n} }
	h.restart()
	const ch = "test:sought"
	h.started(ch, []string{"Ann", "Bob"})
	s := h.load(ch).Game.State
	terr := map[string]string{}
	for _, who := range []string{"Ann", "Bob"} {
		for id := range s.Terr {
			if s.Terr[id].Owner == s.SeatByID(user(who).ID) {
				terr[who] = s.Map.Territories[id].Name
				break
			}
		}
	}
	for i, who := range []string{"Ann", "Ann", "Bob", "Ann", "Bob", "Ann"} {
		req := chat.Request{Channel: ch, User: user(who), Command: "place", Options: map[string]string{"territory": terr[who], "armies": "1"}, Key: fmt.Sprint("k", i)}
		var got chat.Message
		if err := h.bot.Handle(context.Background(), req, chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil })); err != nil {
			t.Fatal(err)
		}
		wantPrivate(t, got, "placed 1 on "+terr[who])
	}
	if got := n.Load(); got != 2 {
		t.Errorf("the last requests were looked up %d times, want 2 (Ann's and Bob's, once each)", got)
	}
}
