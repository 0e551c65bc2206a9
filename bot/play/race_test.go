//go:build race

package play

const raceEnabled = true
