// Package state holds a Risk match as plain data: the map (territories,
// continents, borders, terrain), the seats, armies, cards and the position of
// the seeded generator, with read-only queries and a JSON encoding.
//
// It does no I/O and draws no random numbers: the engine package changes a
// State by applying commands, and everything else (AI, renderer, bot) reads it.
package state
