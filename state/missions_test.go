package state

import (
	"slices"
	"testing"
)

// Every mission a seat can hold is written by name and read back.
func TestMissionText(t *testing.T) {
	for c := range MissionCards {
		m := MissionCard(c)
		for _, x := range []Mission{m, m.Fallback()} {
			b, err := x.MarshalText()
			if err != nil {
				t.Fatal(err)
			}
			var back Mission
			if err := back.UnmarshalText(b); err != nil || back != x {
				t.Errorf("%s decodes to %v (%v)", b, back, err)
			}
			if x.Card() != c {
				t.Errorf("%v is card %d, want %d", x, x.Card(), c)
			}
		}
	}
}

// TestMissionContinents: the continents of each mission card, and none for
// the others; a caller may change the names it is given.
func TestMissionContinents(t *testing.T) {
	want := map[Mission][]string{
		MissionNorthAmericaAfrica:      {"North America", "Africa"},
		MissionNorthAmericaAustralia:   {"North America", "Australia"},
		MissionAsiaSouthAmerica:        {"Asia", "South America"},
		MissionAsiaAfrica:              {"Asia", "Africa"},
		MissionEuropeSouthAmericaThird: {"Europe", "South America", "third"},
		MissionEuropeAustraliaThird:    {"Europe", "Australia", "third"},
	}
	for m := NoMission; m < missionEnd; m++ {
		names, third := m.Continents()
		if third {
			names = append(names, "third")
		}
		if !slices.Equal(names, want[m]) {
			t.Errorf("%v: got %q, want %q", m, names, want[m])
		}
	}
	names, _ := MissionAsiaAfrica.Continents()
	names[0] = "Mars"
	if again, _ := MissionAsiaAfrica.Continents(); again[0] != "Asia" {
		t.Errorf("after changing a copy: got %q, want Asia", again[0])
	}
}
