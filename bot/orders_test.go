package bot

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/state"
)

// Standing orders: a player away has their turns played at once by their
// orders (no attack here), and the channel is told; their next command
// says they are back. Orders alone play a turn whose time ran out.
func TestStandingOrders(t *testing.T) {
	h := newHarness(t)
	const ch = "test:orders"
	startedAndPlaced(t, h, ch)
	s := h.load(ch).Game.State
	who := s.Seats[s.Current].Name
	other := s.Seats[1-s.Current].Name
	wantPrivate(t, h.do(ch, other, "notify", "away:soon"), "away takes a number of days")
	set := h.do(ch, other, "notify", "away:3d", "attack:off", "defend:Australia", "caution:bold")
	wantPrivate(t, set, "Standing orders (when your time runs out): defend Australia, no attacks, bold", "Away until")
	h.takePosts()

	// Their turn comes: the orders play it at once (at the next tick).
	h.do(ch, who, "place")
	h.do(ch, who, "end")
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.bot.Wait()
	after := h.load(ch).Game.State
	if after.Seats[after.Current].Name != who {
		t.Fatalf("turn %d is %s's: the orders did not play %s's turn", after.Turn, after.Seats[after.Current].Name, other)
	}
	var record string
	for _, p := range h.takePosts() {
		if strings.Contains(all(p.msg), "is away until") {
			record = all(p.msg)
		}
	}
	if !strings.Contains(record, "🏖️ 🟦 "+other+" is away until") || !strings.Contains(record, "no attacks") {
		t.Fatalf("the channel was not told the orders played: %q", record)
	}
	if strings.Contains(record, "⚔️ 🟦 "+other) {
		t.Errorf("the orders said no attacks, yet: %q", record)
	}
	if m := h.load(ch); m.Meta.Seats[m.Meta.Index(user(other).ID)].Missed != 0 {
		t.Error("a turn played by orders while away counted as missed")
	}

	// Any command says they are back; notify shows they are no longer away.
	wantText(t, h.do(ch, other, "cards"), "Welcome back")
	if text := all(h.do(ch, other, "notify")); strings.Contains(text, "Away until") {
		t.Errorf("still away after a command: %q", text)
	}

	// Back, their orders still play a turn whose time runs out.
	h.do(ch, who, "place")
	h.do(ch, who, "end")
	h.advance(25 * time.Hour)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range h.takePosts() {
		found = found || strings.Contains(all(p.msg), "ran out of time; their standing orders play it (defend Australia, no attacks, bold)")
	}
	if !found {
		t.Error("no word of the orders playing a timed-out turn")
	}
	if h.load(ch).Game.State.Phase == state.PhaseSetup {
		t.Fatal("setup")
	}
}
