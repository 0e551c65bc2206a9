package discord

import (
	"strings"
	"testing"
)

// TestEachReadsTheirLanguage: on a French server, Ann's Discord speaks
// French and Bob's English. Each reads their own private answers in their
// language; the channel reads the server's.
func TestEachReadsTheirLanguage(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a lobby and a turn")
	}
	g := newGame(t)
	annFR, bobEN := ann, bob
	annFR.locale, annFR.guild = "fr", "fr"
	bobEN.locale, bobEN.guild = "en-US", "fr"

	wantPrivate(t, g.answer(g.do(slash(t, annFR, channel, "new"))), "Ta partie est ouverte")
	lobby, ok := g.lastPost("Ann ouvre une partie de Risk")
	if !ok {
		t.Fatal("no French lobby in the French server's channel")
	}
	join, ok := buttonByLabel(lobby, "Rejoindre")
	if !ok {
		t.Fatalf("no Rejoindre button: %+v", lobby.Buttons)
	}
	wantPrivate(t, g.answer(g.do(click(t, bobEN, channel, join.CustomID))), "You joined (2/6 seats)")
	wantPrivate(t, g.answer(g.do(slash(t, bobEN, channel, "start"))), "Only Ann (the host) can start")
	wantPrivate(t, g.answer(g.do(slash(t, annFR, channel, "help"))), "conquiers le monde")
	wantPrivate(t, g.answer(g.do(slash(t, bobEN, channel, "help"))), "conquer the world")

	// Bob takes direct messages, in his language; the ping inside them is
	// the channel's.
	wantPrivate(t, g.answer(g.do(slash(t, bobEN, channel, "notify", o("dm", "on")))), "Saved")
	wantPrivate(t, g.answer(g.do(slash(t, annFR, channel, "notify", o("dm", "on")))), "Enregistré")

	rs := g.fake.Replies(g.do(slash(t, annFR, channel, "start")))
	if len(rs) == 0 {
		t.Fatal("start: no answer")
	}
	wantPublic(t, rs[0], "La partie commence")
	g.bot.Wait()

	// A misspelt territory, answered to each in their language; typed in
	// French, a name is understood.
	wantPrivate(t, g.answer(g.do(slash(t, bobEN, channel, "attack", o("from", "Brazl"), o("to", "Peru")))), "is not a territory")
	wantPrivate(t, g.answer(g.do(slash(t, annFR, channel, "attack", o("from", "Bresill"), o("to", "Pérou")))), "n'est pas un territoire", "Brésil")

	// Everyone places; the first turn's ping reaches its player by direct
	// message too, all of it in their own language.
	wantPrivate(t, g.answer(g.do(slash(t, annFR, channel, "place"))), "a placé")
	wantPrivate(t, g.answer(g.do(slash(t, bobEN, channel, "place"))), "placed")
	g.bot.Wait()
	s := g.match().Game.State
	current, want, ping := annFR, "🔔 Dans ", "c'est ton tour"
	if s.Current == s.SeatByID(bobEN.userID()) {
		current, want, ping = bobEN, "🔔 In ", "your turn"
	}
	dms := g.fake.DMs(current.id)
	if len(dms) == 0 {
		t.Fatalf("%s got no direct message for their turn", current.name)
	}
	if text := fullText(dms[len(dms)-1]); !strings.HasPrefix(text, want) || !strings.Contains(text, ping) {
		t.Errorf("%s's direct message: %.200q, want %q and %q: all in their language", current.name, text, want, ping)
	}
	// The other plays next: their ping comes too, in theirs (Bob's in
	// English, though the channel's is French).
	g.do(slash(t, current, channel, "place"))
	g.do(slash(t, current, channel, "end"))
	g.bot.Wait()
	next, want, ping := bobEN, "🔔 In ", "your turn"
	if current == bobEN {
		next, want, ping = annFR, "🔔 Dans ", "c'est ton tour"
	}
	dms = g.fake.DMs(next.id)
	if len(dms) == 0 {
		t.Fatalf("%s got no direct message for their turn", next.name)
	}
	if text := fullText(dms[len(dms)-1]); !strings.HasPrefix(text, want) || !strings.Contains(text, ping) {
		t.Errorf("%s's direct message: %.200q, want %q and %q: all in their language", next.name, text, want, ping)
	}

	french := 0
	for _, m := range g.fake.Messages() {
		if !m.Public() {
			continue
		}
		all := fullText(m)
		if strings.Contains(all, "The match") || strings.Contains(all, "opened a Risk match") {
			t.Errorf("a post of the French server's channel in English: %.200q", all)
		}
		if strings.Contains(all, "partie") {
			french++
		}
	}
	if french == 0 {
		t.Error("no post of the channel reads French")
	}
}
