package discord

import (
	"testing"

	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
	"github.com/riskbot/riskbot/storage"
)

// publicPosts counts the channel's public messages (posts and public
// answers; edits are not messages).
func (g *game) publicPosts() []fakediscord.Message {
	var out []fakediscord.Message
	for _, m := range g.fake.Messages() {
		if m.Public() {
			out = append(out, m)
		}
	}
	return out
}

// Issue 31, item 3, through Discord: the host invites a member (a user
// option), the invitation pings them alone with Accept and Decline, a
// press by someone else is refused privately, theirs seats them, and the
// host starts. The channel gets the lobby (edited), the invitation, and
// the start: three messages.
func TestInviteFlow(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	lobby, ok := g.lastPost("Ann opened a Risk match")
	if !ok {
		t.Fatal("no lobby")
	}
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "invite", o("player", cat)))), "Only Ann (the host) can invite players")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "invite", o("player", bob)))), "You invited <@"+bob.id+">", "held until <t:")
	inv, ok := g.lastPost("invites you to a Risk match")
	if !ok {
		t.Fatal("no invitation posted")
	}
	wantOnlyMentions(t, inv, bob)
	accept, ok := buttonByLabel(inv, "Accept")
	if !ok {
		t.Fatalf("no Accept button: %+v", inv.Buttons)
	}
	if _, ok := buttonByLabel(inv, "Decline"); !ok {
		t.Fatalf("no Decline button: %+v", inv.Buttons)
	}
	wantPrivate(t, g.answer(g.do(click(t, cat, channel, accept.CustomID))), "This invitation is not for you")
	wantPrivate(t, g.answer(g.do(click(t, bob, channel, accept.CustomID))), "You joined (2/6 seats)")
	start, _ := buttonByLabel(lobby, "Start")
	rs := g.fake.Replies(g.do(click(t, ann, channel, start.CustomID)))
	if len(rs) != 1 {
		t.Fatalf("the start: %d replies, want 1", len(rs))
	}
	wantPublic(t, rs[0], "The match has started!")
	g.bot.Wait()
	if public := g.publicPosts(); len(public) != 3 {
		t.Errorf("the channel has %d messages, want 3 (the lobby, the invitation, the start): %+v", len(public), public)
	}
	if m := g.match(); m.Status != storage.Active || len(m.Game.State.Seats) != 2 {
		t.Errorf("the match is %s with %d seats", m.Status, len(m.Game.State.Seats))
	}
}

// Issue 31, item 3, through Discord: the victory post's Rematch button,
// pressed twice, opens one lobby (and one invitation to the other player)
// in the channel.
func TestRematchFlow(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	lobby, _ := g.lastPost("Ann opened a Risk match")
	join, _ := buttonByLabel(lobby, "Join")
	g.answer(g.do(click(t, bob, channel, join.CustomID)))
	g.answer(g.do(slash(t, ann, channel, "addbot", o("level", "easy"))))
	g.fake.Replies(g.do(slash(t, ann, channel, "start")))
	g.bot.Wait()
	for _, p := range []person{bob, ann} {
		ask := g.answer(g.do(slash(t, p, channel, "surrender")))
		give, ok := buttonByLabel(ask, "Give up")
		if !ok {
			t.Fatalf("%s: no Give up button: %+v", p.name, ask)
		}
		g.fake.Replies(g.do(click(t, p, channel, give.CustomID)))
		g.bot.Wait()
	}
	victory, ok := g.lastPost("wins after")
	if !ok {
		t.Fatal("no victory post")
	}
	rematch, ok := buttonByLabel(victory, "Rematch")
	if !ok {
		t.Fatalf("no Rematch button: %+v", victory.Buttons)
	}
	before := len(g.publicPosts())
	wantPrivate(t, g.answer(g.do(click(t, cat, channel, rematch.CustomID))), "Only the players of this match")
	wantPrivate(t, g.answer(g.do(click(t, ann, channel, rematch.CustomID))), "Your rematch is open")
	wantPrivate(t, g.answer(g.do(click(t, ann, channel, rematch.CustomID))), "The rematch is open already")
	wantPrivate(t, g.answer(g.do(click(t, bob, channel, rematch.CustomID))), "The rematch is open already")
	after := g.publicPosts()
	if len(after)-before != 2 {
		t.Fatalf("the rematch made %d messages, want 2 (its lobby, the invitation): %+v", len(after)-before, after[before:])
	}
	wantText(t, after[before], "Ann asked for a rematch", "Lobby — 2/6 seats, 1 held")
	wantOnlyMentions(t, after[before])
	wantText(t, after[before+1], "asks for a rematch")
	wantOnlyMentions(t, after[before+1], bob)
	if m := g.match(); m.Status != storage.Lobby {
		t.Errorf("the channel's match is %s, want a lobby", m.Status)
	}
}
