package ai

import (
	"fmt"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// newCapitalsMatch starts a capitals match of n seats on a map generated
// from the seed.
func newCapitalsMatch(t testing.TB, n int, seed uint64, opts state.Options) *state.State {
	t.Helper()
	seats := make([]engine.SeatInfo, n)
	for i := range seats {
		seats[i] = engine.SeatInfo{ID: fmt.Sprintf("s%d", i), Name: fmt.Sprintf("seat %d", i)}
	}
	s, err := engine.New(engine.Setup{Options: opts, Seats: seats, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
