package bot

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/hosted"

	"github.com/riskbot/riskbot/state"
)

// The ping of a person's turn opens with what happened to them since
// their last turn: territories lost and to whom, a continent no longer
// held, threats on their borders, who leads; at most five lines, the
// losses first.
func TestDigestSinceYourLastTurn(t *testing.T) {
	h := newHarness(t)
	const ch = "test:digest"
	startedAndPlaced(t, h, ch)
	m := h.load(ch)
	s := m.Game.State
	ann := s.SeatByID(user("Ann").ID)
	bob := 1 - ann
	if got := h.bot.look.Voice(m).Digest(m, ann); got != nil {
		t.Fatalf("a digest before the first turn: %q", got)
	}
	// Ann held Australia whole at the end of her last turn; Bob has taken
	// two of it since, and masses next to her.
	au := -1
	for c, cont := range s.Map.Continents {
		if cont.Name == "Australia" {
			au = c
		}
	}
	var held []int
	for t := range s.Terr {
		if s.Terr[t].Owner == ann {
			held = append(held, t)
		}
	}
	for _, t := range s.Map.Continents[au].Territories {
		s.Terr[t].Owner = ann
		held = append(held, t)
	}
	lost := s.Map.Continents[au].Territories[:2]
	for _, t := range lost {
		s.Terr[t].Owner = bob
		s.Terr[t].Armies = 30
	}
	m.Meta.Seats[m.Meta.Index(user("Ann").ID)].Held = held
	got := h.bot.look.Voice(m).Digest(m, ann)
	text := strings.Join(got, "\n")
	if len(got) == 0 || len(got) > 5 || !strings.HasPrefix(got[0], "**Since your last turn:** 🔻 You lost ") {
		t.Fatalf("digest %q", got)
	}
	for _, want := range []string{s.Map.TerritoryName(lost[0]), s.Map.TerritoryName(lost[1]), "to 🟦 Bob", "You no longer hold all of Australia (+2)", "⚠️ 30 armies of 🟦 Bob on "} {
		if !strings.Contains(text, want) {
			t.Errorf("digest lacks %q:\n%s", want, text)
		}
	}
	if strings.Index(text, "You lost") > strings.Index(text, "⚠️") {
		t.Errorf("a threat ranks above a loss:\n%s", text)
	}
	// A seat that lost nothing gets no loss line.
	m.Meta.Seats[m.Meta.Index(user("Ann").ID)].Held = hosted.HeldBy(s, ann)
	if text := strings.Join(h.bot.look.Voice(m).Digest(m, ann), "\n"); strings.Contains(text, "lost") {
		t.Errorf("a loss without one: %s", text)
	}
	if s.Phase == state.PhaseSetup {
		t.Fatal("setup")
	}
}
