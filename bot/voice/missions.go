package voice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Secret missions (victory:missions) in words. A mission is private: these
// texts go only into answers for its holder, until the match is over.

// IsMissions reports whether s is a match of secret missions.
func IsMissions(s *state.State) bool { return s.Options.Victory == state.Missions }

// MissionText words seat's mission, as its holder reads it (or everyone,
// once the match is over): "conquer Asia and Africa", "destroy all armies
// of 🟨 Cid (yellow)".
func (v Voice) MissionText(s *state.State, seat int) string {
	m := s.Seats[seat].Mission
	if c, ok := m.Target(); ok {
		if !m.Gone() {
			return fmt.Sprintf("destroy all armies of %s (%s)", v.Who(s, c), v.ColorName(c))
		}
		var why string
		switch {
		case c == seat:
			why = "that is your own colour"
		case c >= len(s.Seats):
			why = "nobody plays " + v.ColorName(c)
		case s.Seats[c].Status == state.Surrendered:
			why = s.Seats[c].Name + " surrendered"
		default:
			why = s.Seats[c].Name + " was eliminated by another player"
		}
		return fmt.Sprintf("conquer %d territories (the card said to destroy the %s armies, but %s)", state.MissionTerritories, v.ColorName(c), why)
	}
	return MissionGoal(m)
}

// MissionGoal words a mission other than a destroy card, whose words need
// the match's seats (MissionText).
func MissionGoal(m state.Mission) string {
	switch {
	case m == state.MissionTerritories18:
		return fmt.Sprintf("conquer %d territories and hold each with at least %d armies", state.MissionHeld, state.MissionHeldArmies)
	case m.Territories() > 0:
		return fmt.Sprintf("conquer %d territories", m.Territories())
	}
	names, third := m.Continents()
	switch {
	case len(names) == 0:
		return "a secret mission"
	case third:
		return fmt.Sprintf("conquer %s, %s and a third continent of your choice", names[0], names[1])
	}
	return "conquer " + strings.Join(names, " and ")
}

// MissionProgress says where seat stands on its mission: "you hold Asia;
// Africa still to take".
func (v Voice) MissionProgress(s *state.State, seat int) string {
	m := s.Seats[seat].Mission
	switch {
	case m.Hunting():
		c, _ := m.Target()
		return fmt.Sprintf("%s still holds %d territories", s.Seats[c].Name, s.Owned(c))
	case m == state.MissionTerritories18:
		return fmt.Sprintf("you hold %d territories with at least %d armies", engine.HeldWithArmies(s, seat, state.MissionHeldArmies), state.MissionHeldArmies)
	case m.Territories() > 0:
		return fmt.Sprintf("you hold %d now", s.Owned(seat))
	}
	ids, third := engine.MissionContinents(s.Map, m)
	var held, missing []string
	for _, c := range ids {
		if s.ContinentOwner(c) == seat {
			held = append(held, s.Map.Continents[c].Name)
		} else {
			missing = append(missing, s.Map.Continents[c].Name)
		}
	}
	if third {
		other := ""
		for c := range s.Map.Continents {
			if s.ContinentOwner(c) == seat && !slices.Contains(ids, c) {
				other = s.Map.Continents[c].Name
			}
		}
		if other != "" {
			held = append(held, other+" (your third)")
		} else {
			missing = append(missing, "a third continent")
		}
	}
	switch {
	case len(held) == 0:
		return "you hold none of them yet"
	case len(missing) == 0:
		return "you hold them all"
	}
	return fmt.Sprintf("you hold %s; %s still to take", strings.Join(held, " and "), strings.Join(missing, " and "))
}

// MissionLine is seat's own mission, for its private answers: "🎯 Your
// secret mission: conquer Asia and Africa — you hold Asia; Africa still to
// take. ..."; "" if the match has no missions.
func (v Voice) MissionLine(s *state.State, seat int) string {
	if !IsMissions(s) || seat < 0 || seat >= len(s.Seats) || !s.Seats[seat].Mission.Valid() {
		return ""
	}
	return fmt.Sprintf("🎯 Your secret mission: %s — %s. Only you see it; the first to fulfil theirs wins at once.",
		v.MissionText(s, seat), v.MissionProgress(s, seat))
}

// missionsRevealed lists every seat's mission at the end of a match.
func (v Voice) missionsRevealed(s *state.State) []string {
	var lines []string
	for i := range s.Seats {
		if s.Seats[i].Mission.Valid() {
			lines = append(lines, fmt.Sprintf("🎯 %s's mission: %s", v.Who(s, i), v.MissionText(s, i)))
		}
	}
	return lines
}
