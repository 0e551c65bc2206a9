// Package racetest tells tests whether they run under the race detector,
// so that a test of many games or renders in one goroutine can skip or
// shrink itself there: the detector has nothing to find in one
// goroutine, and finds it five to ten times slower. CI runs those
// packages without the detector too (.ci/run).
package racetest

import "testing"

// SkipManyGames skips t under the race detector: t plays many games in
// one goroutine, which CI also runs without the detector.
func SkipManyGames(t testing.TB) {
	t.Helper()
	if Enabled {
		t.Skip("many games in one goroutine: run without -race (CI does)")
	}
}
