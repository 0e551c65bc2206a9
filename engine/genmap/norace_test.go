//go:build !race

package genmap

const raceEnabled = false
