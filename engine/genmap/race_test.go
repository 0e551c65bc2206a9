//go:build race

package genmap

const raceEnabled = true
