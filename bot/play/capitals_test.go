package play

import (
	"fmt"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// The first hour, item 6: the suggestions for a capital read "coastal,
// coast": the terrain, then the shore, in two words nobody told apart.
// The terrain is said as a terrain, the shore as what it allows.
func TestCapitalChoicesSayTerrainAndShoreApart(t *testing.T) {
	o := state.CapitalsOptions()
	o.Map = "normal"
	s, err := engine.New(engine.Setup{Options: o, Seed: 3, Seats: []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	shores := 0
	for _, c := range capitalsChoices(s, s.Current, chat.Request{Command: "place", Options: map[string]string{"territory": ""}}, "territory") {
		id, err := s.Map.Lookup(c.Value)
		if err != nil {
			t.Fatal(err)
		}
		tr := s.Map.Territories[id]
		if want := ", " + tr.Terrain.String() + " terrain"; !strings.Contains(c.Name, want) {
			t.Errorf("%q does not say %q", c.Name, want)
		}
		if strings.HasSuffix(c.Name, ", coast") || strings.Contains(c.Name, ", coast,") {
			t.Errorf("%q says coast, beside the coastal terrain", c.Name)
		}
		if got := strings.Contains(c.Name, "port possible"); got != tr.Coast {
			t.Errorf("%q: says a port is possible %v, but the shore is %v", c.Name, got, tr.Coast)
		}
		if tr.Coast {
			shores++
		}
	}
	if shores == 0 {
		t.Fatal("no suggestion by the water: the test shows nothing")
	}
}

// TestCapitalChoicesFromTo: the suggestions of a two-territory command
// (attack, fortify): the sources with their troops, the targets of the
// source chosen (or of any) with what decides them, and nothing for an
// option of another command.
func TestCapitalChoicesFromTo(t *testing.T) {
	o := state.CapitalsOptions()
	o.Map = "small"
	s, err := engine.New(engine.Setup{Options: o, Seed: 5, Seats: []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}})
	if err != nil {
		t.Fatal(err)
	}
	// Both choose a capital, then the first to play reinforces it: the
	// action phase, with neutral neighbours to capture.
	for s.Phase == state.PhaseSetup || s.Phase == state.PhaseReinforce {
		var c engine.Command
		for _, l := range engine.Legal(s, s.Current) {
			if _, ok := l.(engine.Capital); ok {
				c = l
				break
			}
			if _, ok := l.(engine.Reinforce); ok {
				c = l
				break
			}
		}
		if c == nil {
			t.Fatalf("no capital nor reinforcement to play in phase %v", s.Phase)
		}
		if _, err := engine.Apply(s, s.Current, c); err != nil {
			t.Fatal(err)
		}
	}
	seat := s.Current
	var capture engine.Capture
	for _, l := range engine.Legal(s, seat) {
		if c, ok := l.(engine.Capture); ok {
			capture = c
			break
		}
	}
	from, to := s.Map.TerritoryName(capture.From), s.Map.TerritoryName(capture.To)
	ask := func(command, focused string, opts map[string]string) []string {
		var got []string
		for _, c := range capitalsChoices(s, seat, chat.Request{Command: command, Options: opts}, focused) {
			got = append(got, c.Name)
		}
		return got
	}
	troops := func(t int) string { return fmt.Sprintf("%d troops", s.Terr[t].Armies) }
	for _, c := range []struct {
		name    string
		got     []string
		want    string // a suggestion wanted
		notWant string // a word no suggestion may say
	}{
		{"attack from", ask("attack", "from", map[string]string{"from": ""}), from + " — " + troops(capture.From), "capture"},
		{"attack to", ask("attack", "to", map[string]string{"from": from, "to": ""}), to + " — ", from},
		{"fortify from, nothing to move", ask("fortify", "from", map[string]string{"from": ""}), "", "—"},
		{"another command", ask("port", "from", map[string]string{"from": ""}), "", "—"},
	} {
		t.Run(c.name, func(t *testing.T) {
			found := c.want == ""
			for _, g := range c.got {
				found = found || strings.HasPrefix(g, c.want)
				if strings.Contains(g, c.notWant) {
					t.Errorf("%q says %q", g, c.notWant)
				}
			}
			if !found {
				t.Errorf("got %q, want a suggestion starting %q", c.got, c.want)
			}
			if c.want == "" && len(c.got) > 0 {
				t.Errorf("got %q, want none", c.got)
			}
		})
	}
}
