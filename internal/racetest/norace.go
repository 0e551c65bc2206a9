//go:build !race

package racetest

// Enabled says the race detector is on.
const Enabled = false
