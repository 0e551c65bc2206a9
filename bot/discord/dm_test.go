package discord

import (
	"encoding/json"
	"testing"
)

// dm is a /risk command typed in a direct message with the bot: no
// server, no member, the user alone.
func dm(t testing.TB, p person, sub string, opts ...opt) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(slash(t, p, "700000000000000001", sub, opts...), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "guild_id")
	m["user"] = p.member()["user"]
	delete(m, "member")
	return encode(t, m)
}

// TestDirectMessages: in a DM with the bot, /risk me games lists a
// player's matches in every server, with a link to each channel, and
// /risk help answers; anything else is refused with a word on where it is
// played, and opens nothing.
func TestDirectMessages(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	g.answer(g.do(slash(t, bob, channel, "join")))
	g.fake.Replies(g.do(slash(t, ann, channel, "start")))
	g.bot.Wait()
	wantPrivate(t, g.answer(g.do(dm(t, ann, "me games"))), "<#"+channel+">")
	wantPrivate(t, g.answer(g.do(dm(t, ann, "help"))), "/risk")
	before := len(g.channelPosts())
	for _, sub := range []string{"new", "place", "show status"} {
		wantPrivate(t, g.answer(g.do(dm(t, ann, sub))), "in a direct message", "server's channels")
	}
	if n := len(g.channelPosts()); n != before {
		t.Errorf("commands refused in a DM posted %d messages", n-before)
	}
	// Registered globally, /risk may be used in the bot's DMs; /risk-admin
	// may not.
	for _, c := range Commands(g.bot.Specs(), true) {
		dms := c.Contexts != nil && len(*c.Contexts) == 2
		if dms != (c.Name == "risk") {
			t.Errorf("/%s: contexts %v", c.Name, *c.Contexts)
		}
	}
}
