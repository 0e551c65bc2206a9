package racetest

import "testing"

// TestSkipManyGames checks that SkipManyGames skips exactly under the
// race detector.
func TestSkipManyGames(t *testing.T) {
	skipped := false
	t.Run("inner", func(t *testing.T) {
		defer func() { skipped = t.Skipped() }()
		SkipManyGames(t)
	})
	if skipped != Enabled {
		t.Errorf("skipped = %v under the race detector = %v", skipped, Enabled)
	}
}
