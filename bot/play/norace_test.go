//go:build !race

package play

const raceEnabled = false
