package bot

import (
	"fmt"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/engine"
)

// Placements of one seat in a row make one line, each territory once.
func TestDescribeMergesPlacements(t *testing.T) {
	h := newHarness(t)
	m := h.started("test:describe", []string{"Ann", "Bob"})
	s := m.Game.State
	name := s.Map.TerritoryName
	placed := func(seat, terr, n int) engine.Event {
		return engine.Placed{Seat: seat, Territory: terr, Armies: n}
	}
	tests := []struct {
		name   string
		events []engine.Event
		want   []string
	}{
		{"one", []engine.Event{placed(0, 1, 3)},
			[]string{fmt.Sprintf("placed 3 on %s", name(1))}},
		{"same territory", []engine.Event{placed(0, 1, 5), placed(0, 2, 3), placed(0, 2, 2), placed(0, 1, 1)},
			[]string{fmt.Sprintf("placed 6 on %s, 5 on %s", name(1), name(2))}},
		{"two seats", []engine.Event{placed(0, 1, 2), placed(1, 3, 4), placed(1, 3, 1)},
			[]string{fmt.Sprintf("placed 2 on %s", name(1)), fmt.Sprintf("placed 5 on %s", name(3))}},
		{"many", []engine.Event{placed(0, 1, 1), placed(0, 2, 1), placed(0, 3, 1), placed(0, 4, 1), placed(0, 5, 2), placed(0, 5, 1)},
			[]string{"placed 7 armies on 5 territories"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := h.bot.look.Voice(m).Describe(s, tt.events)
			if len(got) != len(tt.want) {
				t.Fatalf("lines %q, want %d", got, len(tt.want))
			}
			for i, w := range tt.want {
				if !strings.HasSuffix(got[i], w) {
					t.Errorf("line %d: %q, want it to end %q", i, got[i], w)
				}
			}
		})
	}
}
