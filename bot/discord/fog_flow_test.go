package discord

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
)

// TestFogFlow: a match with fog of war through the adapter and the real
// core against the fake Discord. The channel never shows a player's income
// or reserve; each turn's ping has a My view button that answers its
// presser alone with their own map (not the channel's) and what they saw;
// the whole match's replay waits for the end. A player who takes direct
// messages gets their own view with each ping there, unasked. It counts
// the channel's messages of a turn as a server sees them.
func TestFogFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a match")
	}
	g := newGame(t)
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new", o("fog", "on"), o("victory", "domination")))), "Your match is open")
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "join"))), "You joined")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "notify", o("dm", "on")))), "Saved")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "addbot", o("level", "easy")))), "takes a seat")
	g.fake.Replies(g.do(slash(t, ann, channel, "start")))
	g.bot.Wait()
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "autoplace"))), "placed")
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "autoplace"))), "placed")
	g.bot.Wait()
	for turn := 0; turn < 4; turn++ {
		s := g.match().Game.State
		p := ann
		if s.Current == s.SeatByID(bob.userID()) {
			p = bob
		} else if s.Current != s.SeatByID(ann.userID()) {
			t.Fatalf("turn %d: the computer player did not play on", s.Turn)
		}
		ping, ok := g.lastPost("it is your turn")
		if !ok {
			t.Fatalf("turn %d: no ping", s.Turn)
		}
		wantText(t, ping, "Fog of war")
		view, ok := buttonByLabel(ping, "My view")
		if !ok {
			t.Fatalf("turn %d: the ping has no My view button: %+v", s.Turn, ping.Buttons)
		}
		mine := g.answer(g.do(click(t, p, channel, view.CustomID)))
		wantPrivate(t, mine, "Standings", "income")
		if len(mine.Files) != 1 || !strings.HasSuffix(mine.Files[0].Name, "-view.png") {
			t.Fatalf("turn %d: My view's answer has files %v, want the player's own map", s.Turn, mine.Files)
		}
		if _, err := png.Decode(bytes.NewReader(mine.Files[0].Data)); err != nil {
			t.Fatalf("turn %d: My view's map: %v", s.Turn, err)
		}
		// Ann takes direct messages: her ping came there too, with her own
		// view; Bob does not.
		if dms := g.fake.DMs(p.id); p == ann {
			if len(dms) == 0 {
				t.Fatalf("turn %d: Ann got no direct message", s.Turn)
			}
			dm := dms[len(dms)-1]
			wantText(t, dm, "🔔 In <#"+channel+">", "it is your turn", "Standings", "income")
			if len(dm.Files) != 1 || !bytes.Equal(dm.Files[0].Data, mine.Files[0].Data) {
				t.Errorf("turn %d: Ann's direct message has files %v, want her own map", s.Turn, dm.Files)
			}
		} else if len(dms) != 0 {
			t.Errorf("turn %d: Bob, who takes no direct messages, got %d", s.Turn, len(dms))
		}
		// Someone else pressing it gets their own view, or a spectator's.
		other := g.answer(g.do(click(t, cat, channel, view.CustomID)))
		wantPrivate(t, other, "Standings")
		if len(other.Files) == 1 && bytes.Equal(other.Files[0].Data, mine.Files[0].Data) {
			t.Errorf("turn %d: a spectator got the player's own map", s.Turn)
		}
		before := g.newPublic(0)
		wantPrivate(t, g.answer(g.do(slash(t, p, channel, "autoplace"))), "placed")
		wantPrivate(t, g.answer(g.do(slash(t, p, channel, "end"))), "ended turn")
		g.bot.Wait()
		// The turn's post completed, the computer's turn, the next ping.
		n := g.newPublic(before)
		t.Logf("turn %d: %d new public messages", s.Turn, n)
		if n < 1 || n > 4 {
			t.Errorf("turn %d: %d new public messages", s.Turn, n)
		}
	}
	pub := g.publicText()
	for _, bad := range []string{"receives", "Reinforcements", "to place.", "Cards traded", "Since your last turn"} {
		if strings.Contains(pub, bad) {
			t.Errorf("the channel was told %q", bad)
		}
	}
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "history", o("show", "replay")))), "fog of war lifts when the match ends")
}
