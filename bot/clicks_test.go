package bot

import (
	"slices"
	"testing"

	"github.com/riskbot/riskbot/bot/button"
)

// TestEveryActionHasOneHandler checks the bot's table of clicks against
// the actions buttons can carry: each has a handler (the table refuses a
// second), and the table answers nothing else.
func TestEveryActionHasOneHandler(t *testing.T) {
	h := newHarness(t)
	var got []button.Action
	for a := range h.bot.clicks {
		got = append(got, a)
	}
	want := button.All()
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("the table of clicks answers %v, want the actions %v", got, want)
	}
}
