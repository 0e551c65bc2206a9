package discord

import (
	"strings"
	"testing"
)

// playPlain plays the turn of whoever is to play: everything placed
// automatically, then the end of the turn.
func (g *game) playPlain() {
	g.t.Helper()
	s := g.match().Game.State
	p := personOf(g.t, s.Seats[s.Current].ID)
	wantPrivate(g.t, g.answer(g.do(slash(g.t, p, channel, "place"))), "placed")
	wantPrivate(g.t, g.answer(g.do(slash(g.t, p, channel, "end"))), "ended turn")
	g.bot.Wait()
}

// Issue 43: the host rolls a match back through Discord. Bob (a player,
// not the host) is refused privately; Ann's /risk host rollback turn:2
// asks privately, saying what is lost, with a button; its click tells the
// channel who rolled back to which turn, notifying Ann and Bob and no one
// else, with the map; the living message of the turn left says it was
// rolled back; and the turn gone back to is posted afresh, notifying its
// player only.
func TestRollbackThroughDiscord(t *testing.T) {
	g := newGame(t)
	g.answer(g.do(slash(t, ann, channel, "new")))
	g.answer(g.do(slash(t, bob, channel, "join")))
	g.fake.Replies(g.do(slash(t, ann, channel, "start")))
	g.answer(g.do(slash(t, ann, channel, "autoplace")))
	g.answer(g.do(slash(t, bob, channel, "autoplace")))
	g.bot.Wait()
	for range 3 {
		g.playPlain()
	}
	s := g.match().Game.State
	cur := personOf(t, s.Seats[s.Current].ID)
	wantPrivate(t, g.answer(g.do(slash(t, cur, channel, "place"))), "placed")
	g.bot.Wait()
	living, ok := g.lastPost("Turn 4 —")
	if !ok {
		t.Fatal("no living message of turn 4")
	}

	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "host rollback", o("turn", 2)))), "Only Ann (the host) or an admin (Manage Server, or Manage Channels here) can roll the match back")
	ask := g.answer(g.do(slash(t, ann, channel, "host rollback", o("turn", 2))))
	wantPrivate(t, ask, "Take the match back to the start of turn 2", "Lost: 5 commands of turns 2 to 4")
	back, ok := buttonByLabel(ask, "Go back to turn 2")
	if !ok {
		t.Fatalf("no confirmation button: %+v", ask.Buttons)
	}
	wantPrivate(t, g.answer(g.do(click(t, ann, channel, back.CustomID))), "Done: the match is back at the start of turn 2")
	g.bot.Wait()

	note, ok := g.lastPost("rolled the match back")
	if !ok {
		t.Fatal("the channel was not told")
	}
	wantPublic(t, note, "↩️ Ann (the host) rolled the match back to the start of turn 2 (5 commands undone)", "<@"+ann.id+">", "<@"+bob.id+">")
	wantOnlyMentions(t, note, ann, bob)
	wantMap(t, note)
	for _, m := range g.fake.Messages() {
		if m.ID == living.ID && !strings.Contains(fullText(m), "↩️ Rolled back: the match went back to the start of turn 2") {
			t.Errorf("the living message of turn 4 does not say it was rolled back: %.300q", fullText(m))
		}
	}
	if got := g.match().Game.State.Turn; got != 2 {
		t.Fatalf("got turn %d, want 2", got)
	}
	s = g.match().Game.State
	fresh, ok := g.lastPost("Turn 2 again, after a rollback")
	if !ok || fresh.ID == note.ID {
		t.Fatal("turn 2 was not posted afresh")
	}
	wantOnlyMentions(t, fresh, personOf(t, s.Seats[s.Current].ID))
	// The match plays on from there.
	g.playPlain()
	if got := g.match().Game.State.Turn; got != 3 {
		t.Errorf("got turn %d after one more, want 3", got)
	}
}
