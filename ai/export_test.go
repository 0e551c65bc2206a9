package ai

// RaceEnabled tells the external tests (package ai_test) whether the race
// detector is on.
const RaceEnabled = raceEnabled
