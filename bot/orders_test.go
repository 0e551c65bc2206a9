package bot

import (
	"strings"
	"testing"
)

// Standing orders, chosen with /risk me notify (what they play is the
// clock package's tests): the choice is checked and shown; any command of
// a player away says they are back.
func TestStandingOrders(t *testing.T) {
	h := newHarness(t)
	const ch = "test:orders"
	startedAndPlaced(t, h, ch)
	wantPrivate(t, h.do(ch, "Bob", "notify", "away:soon"), "away takes a number of days")
	set := h.do(ch, "Bob", "notify", "away:3d", "attack:off", "defend:Australia", "caution:bold")
	wantPrivate(t, set, "Standing orders (when your time runs out): defend Australia, no attacks, bold", "Away until")
	// Any command says they are back; notify shows they are no longer away.
	wantText(t, h.do(ch, "Bob", "cards"), "Welcome back")
	if text := all(h.do(ch, "Bob", "notify")); strings.Contains(text, "Away until") || !strings.Contains(text, "defend Australia") {
		t.Errorf("after a command: %q; want the orders kept, no longer away", text)
	}
}
