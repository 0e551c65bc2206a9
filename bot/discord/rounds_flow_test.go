package discord

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/state"
)

// publicText is everything the channel was ever shown: every public
// message's every content, embeds included.
func (g *game) publicText() string {
	var b strings.Builder
	for _, m := range g.fake.Messages() {
		if m.Public() {
			b.WriteString(strings.Join(m.History, "\n"))
			b.WriteString("\n")
			b.WriteString(fullText(m))
			b.WriteString("\n")
		}
	}
	return b.String()
}

// newPublic counts the public messages the channel got since before.
func (g *game) newPublic(before int) int {
	n := 0
	for _, m := range g.fake.Messages() {
		if m.Public() {
			n++
		}
	}
	return n - before
}

// TestRoundsFlow: a match of simultaneous rounds through the adapter and
// the real core against the fake Discord: orders answered privately and
// never shown in the channel before the round resolves; who is ready, in
// the round's message; two new public messages a round (the resolution,
// with the map, posted below the talk of the round while the round's
// message is closed, then the next round's, which pings those who have to
// order); a reminder to those not ready; at
// the deadline a careful bot orders for whoever is late, and the round
// resolves.
func TestRoundsFlow(t *testing.T) {
	if testing.Short() {
		t.Skip("plays a match")
	}
	g := newGame(t)
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "new", o("turns", "simultaneous")))), "Your match is open")
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "join"))), "You joined")
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "addbot", o("level", "easy")))), "takes a seat")
	g.fake.Replies(g.do(slash(t, ann, channel, "start")))
	g.bot.Wait()
	wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "autoplace"))), "placed")
	wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "autoplace"))), "placed")
	g.bot.Wait()
	ping, ok := g.lastPost("Round 1:")
	if !ok {
		t.Fatal("no ping for round 1")
	}
	// (Its allowed mentions are those of its last edit, which notifies
	// nobody again: Discord notifies on the post.)
	wantText(t, ping, "<@"+ann.id+">", "<@"+bob.id+">", "Ready")

	for round := 1; round <= 2; round++ {
		g.bot.Wait()
		s := g.match().Game.State
		if s.Phase != state.PhaseOrders || s.Turn != round {
			t.Fatalf("round %d: the match is in %s, round %d", round, s.Phase, s.Turn)
		}
		before := g.newPublic(0)
		// Ann orders: place, an attack with a number of armies, a move; all
		// private, and nothing of them in the channel.
		seat := s.SeatByID(ann.userID())
		from, to := -1, -1
		for t := range s.Terr {
			if s.Terr[t].Owner != seat {
				continue
			}
			for _, n := range s.Map.Territories[t].Adj {
				if s.Terr[n].Owner != seat && from < 0 {
					from, to = t, n
				}
			}
		}
		name := s.Map.TerritoryName
		wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "place", o("territory", name(from))))), "Order: place")
		wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "attack", o("from", name(from)), o("to", name(to)), o("armies", 2)))), "Order: 2 from "+name(from)+" attack "+name(to), "only you see them")
		wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "attack", o("from", name(from)), o("to", name(to)), o("dice", 3)))), "an attack is an order")
		wantPrivate(t, g.answer(g.do(slash(t, ann, channel, "end"))), "Your orders are in", "waiting for", "Bob")
		g.bot.Wait()
		if pub := g.publicText(); strings.Contains(pub, "Order:") || strings.Contains(pub, "attack "+name(to)) {
			t.Fatalf("round %d: an order shows in the channel before the round resolves", round)
		}
		if live, ok := g.lastPost("Round " + itoa(round)); !ok || !strings.Contains(fullText(live), "Ann is ready") {
			t.Errorf("round %d: the round's message does not say Ann is ready: %q", round, fullText(live))
		}
		if round == 2 {
			// Bob is late: reminded at three quarters of the round, alone;
			// at the deadline a careful bot orders for him.
			g.clock.Advance(19 * time.Hour)
			if err := g.bot.Tick(g.ctx); err != nil {
				t.Fatal(err)
			}
			remind, ok := g.lastPost("⏰")
			if !ok {
				t.Fatal("no reminder")
			}
			wantOnlyMentions(t, remind, bob)
			g.clock.Advance(6 * time.Hour)
			if err := g.bot.Tick(g.ctx); err != nil {
				t.Fatal(err)
			}
			g.bot.Wait()
		} else {
			wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "place"))), "Order: place")
			wantPrivate(t, g.answer(g.do(slash(t, bob, channel, "end"))), "the round resolved")
			g.bot.Wait()
		}
		if s := g.match().Game.State; s.Turn != round+1 {
			t.Fatalf("round %d did not resolve: %s, round %d", round, s.Phase, s.Turn)
		}
		resolved, ok := g.lastPost("The orders run one per player at a time")
		if !ok {
			t.Fatalf("round %d: no resolution in the channel", round)
		}
		wantMap(t, resolved)
		wantText(t, resolved, "Round "+itoa(round), "placed")
		// Two new public messages a round (its result and the next
		// round's), besides the reminder; the round's record says a bot
		// ordered for Bob; the round's own message says the result follows.
		extra := 0
		if round == 2 {
			extra = 1
			wantText(t, resolved, "Bob ran out of time")
		}
		if live, ok := g.lastPost("Round " + itoa(round) + " is over"); !ok || strings.Contains(fullText(live), "The orders run") {
			t.Errorf("round %d: its living message is not closed with a pointer to the result: %q", round, fullText(live))
		}
		if n := g.newPublic(before); n != 2+extra {
			var texts []string
			for _, m := range g.fake.Messages()[len(g.fake.Messages())-n:] {
				texts = append(texts, fullText(m))
			}
			t.Errorf("round %d made %d public messages, want %d: %q", round, n, 2+extra, texts)
		}
	}
}

func itoa(n int) string { return strconv.Itoa(n) }
