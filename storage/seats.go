package storage

import "github.com/riskbot/riskbot/engine"

// SeatChange is what a change does to the index of seats, the table that
// lists each person's matches under way without reading every open match
// (the stores' Seated): the seats a match's start fills (every seat of
// the setup, people and computers alike: the store does not tell them
// apart), and whether the change closes the match, which empties its
// seats so that a player's list reads only their open matches, however
// many they played before.
func SeatChange(c Change) (seats []string, closes bool) {
	if c.Start != nil {
		seats = SetupSeats(c.Start)
	}
	return seats, c.Status == Finished || c.Status == Abandoned
}

// SetupSeats lists the IDs of a setup's seats, each once.
func SetupSeats(s *engine.Setup) []string {
	seen := make(map[string]bool, len(s.Seats))
	var ids []string
	for _, e := range s.Seats {
		if e.ID != "" && !seen[e.ID] {
			seen[e.ID] = true
			ids = append(ids, e.ID)
		}
	}
	return ids
}
