package voice

import (
	"slices"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
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
			return v.p.T("voice.mission.destroy", "Player", lang.Text(v.Who(s, c)), "Color", lang.Text(v.ColorName(c)))
		}
		var why lang.Msg
		switch {
		case c == seat:
			why = lang.M("voice.mission.own-colour")
		case c >= len(s.Seats):
			why = lang.M("voice.mission.nobody-plays", "Color", lang.Text(v.ColorName(c)))
		case s.Seats[c].Status == state.Surrendered:
			why = lang.M("voice.mission.surrendered", "Player", lang.Text(s.Seats[c].Name))
		default:
			why = lang.M("voice.mission.eliminated", "Player", lang.Text(s.Seats[c].Name))
		}
		return v.p.T("voice.mission.destroy-gone", "Count", state.MissionTerritories, "Color", lang.Text(v.ColorName(c)), "Why", why)
	}
	return v.MissionGoal(m)
}

// MissionGoal words a mission other than a destroy card, whose words need
// the match's seats (MissionText).
func MissionGoal(m state.Mission) string { return Voice{}.MissionGoal(m) }

// MissionGoal is the package's MissionGoal in the voice's language.
func (v Voice) MissionGoal(m state.Mission) string {
	switch {
	case m == state.MissionTerritories18:
		return v.p.T("voice.mission.hold", "Count", state.MissionHeld, "Armies", state.MissionHeldArmies)
	case m.Territories() > 0:
		return v.p.T("voice.mission.conquer-territories", "Count", m.Territories())
	}
	names, third := m.Continents()
	switch {
	case len(names) == 0:
		return v.p.T("voice.mission.secret")
	case third:
		return v.p.T("voice.mission.conquer-third", "First", lang.Place(names[0]), "Second", lang.Place(names[1]))
	}
	return v.p.T("voice.mission.conquer", "Continents", lang.Text(v.and(places(names))))
}

// places are names of territories or continents, as sentences use them.
func places(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = lang.Place(n)
	}
	return out
}

// and joins places and messages with "and" alone: "A and B and C".
func (v Voice) and(words []any) string {
	s := make([]string, len(words))
	for i, w := range words {
		switch w := w.(type) {
		case lang.Place:
			s[i] = v.p.Place(string(w))
		case lang.Msg:
			s[i] = v.p.Msg(w)
		}
	}
	return strings.Join(s, " "+v.p.T("voice.mission.and")+" ")
}

// MissionProgress says where seat stands on its mission: "you hold Asia;
// Africa still to take".
func (v Voice) MissionProgress(s *state.State, seat int) string {
	m := s.Seats[seat].Mission
	switch {
	case m.Hunting():
		c, _ := m.Target()
		return v.p.T("voice.mission.still-holds", "Player", lang.Text(s.Seats[c].Name), "Count", s.Owned(c))
	case m == state.MissionTerritories18:
		return v.p.T("voice.mission.held-with", "Count", engine.HeldWithArmies(s, seat, state.MissionHeldArmies), "Armies", state.MissionHeldArmies)
	case m.Territories() > 0:
		return v.p.T("voice.mission.hold-now", "Count", s.Owned(seat))
	}
	ids, third := engine.MissionContinents(s.Map, m)
	var held, missing []any
	for _, c := range ids {
		if s.ContinentOwner(c) == seat {
			held = append(held, lang.Place(s.Map.Continents[c].Name))
		} else {
			missing = append(missing, lang.Place(s.Map.Continents[c].Name))
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
			held = append(held, lang.M("voice.mission.your-third", "Place", lang.Place(other)))
		} else {
			missing = append(missing, lang.M("voice.mission.a-third"))
		}
	}
	switch {
	case len(held) == 0:
		return v.p.T("voice.mission.none-held")
	case len(missing) == 0:
		return v.p.T("voice.mission.all-held")
	}
	return v.p.T("voice.mission.progress", "Held", lang.Text(v.and(held)), "Missing", lang.Text(v.and(missing)))
}

// MissionLine is seat's own mission, for its private answers: "🎯 Your
// secret mission: conquer Asia and Africa — you hold Asia; Africa still to
// take. ..."; "" if the match has no missions.
func (v Voice) MissionLine(s *state.State, seat int) string {
	if !IsMissions(s) || seat < 0 || seat >= len(s.Seats) || !s.Seats[seat].Mission.Valid() {
		return ""
	}
	return v.p.T("voice.mission.line", "Mission", lang.Text(v.MissionText(s, seat)), "Progress", lang.Text(v.MissionProgress(s, seat)))
}

// missionsRevealed lists every seat's mission at the end of a match.
func (v Voice) missionsRevealed(s *state.State) []string {
	var lines []string
	for i := range s.Seats {
		if s.Seats[i].Mission.Valid() {
			lines = append(lines, v.p.T("voice.mission.revealed", "Player", lang.Text(v.Who(s, i)), "Mission", lang.Text(v.MissionText(s, i))))
		}
	}
	return lines
}
