package play

import (
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
