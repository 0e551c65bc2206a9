//go:build race

package web

// raceEnabled: the tests run under the race detector, some ten times slower.
const raceEnabled = true
