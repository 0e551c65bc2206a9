package state

import "testing"

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
