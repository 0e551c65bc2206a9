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

// Missions words the secret missions (victory:missions): a seat's own,
// its progress, and all of them once the match is over.
type Missions struct{ v Voice }

// Missions is v wording the secret missions.
func (v Voice) Missions() Missions { return Missions{v} }

// IsMissions reports whether s is a match of secret missions.
func IsMissions(s *state.State) bool { return s.Options.Victory == state.Missions }

// Text words seat's mission, as its holder reads it (or everyone,
// once the match is over): "conquer Asia and Africa", "destroy all armies
// of 🟨 Cid (yellow)".
func (ms Missions) Text(s *state.State, seat int) string {
	m := s.Seats[seat].Mission
	if c, ok := m.Target(); ok {
		if !m.Gone() {
			return ms.v.p.T("voice.mission.destroy", "Player", lang.Text(ms.v.Who(s, c)), "Color", lang.Text(ms.v.ColorName(c)))
		}
		var why lang.Msg
		switch {
		case c == seat:
			why = lang.M("voice.mission.own-colour")
		case c >= len(s.Seats):
			why = lang.M("voice.mission.nobody-plays", "Color", lang.Text(ms.v.ColorName(c)))
		case s.Seats[c].Status == state.Surrendered:
			why = lang.M("voice.mission.surrendered", "Player", lang.Text(s.Seats[c].Name))
		default:
			why = lang.M("voice.mission.eliminated", "Player", lang.Text(s.Seats[c].Name))
		}
		return ms.v.p.T("voice.mission.destroy-gone", "Count", state.MissionTerritories, "Color", lang.Text(ms.v.ColorName(c)), "Why", why)
	}
	return ms.Goal(m)
}

// Goal words a mission other than a destroy card, whose words need
// the match's seats (Text).
func (ms Missions) Goal(m state.Mission) string {
	switch {
	case m == state.MissionTerritories18:
		return ms.v.p.T("voice.mission.hold", "Count", state.MissionHeld, "Armies", state.MissionHeldArmies)
	case m.Territories() > 0:
		return ms.v.p.T("voice.mission.conquer-territories", "Count", m.Territories())
	}
	names, third := m.Continents()
	switch {
	case len(names) == 0:
		return ms.v.p.T("voice.mission.secret")
	case third:
		return ms.v.p.T("voice.mission.conquer-third", "First", lang.Place(names[0]), "Second", lang.Place(names[1]))
	}
	return ms.v.p.T("voice.mission.conquer", "Continents", lang.Text(ms.and(places(names))))
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
func (ms Missions) and(words []any) string {
	s := make([]string, len(words))
	for i, w := range words {
		switch w := w.(type) {
		case lang.Place:
			s[i] = ms.v.p.Place(string(w))
		case lang.Msg:
			s[i] = ms.v.p.Msg(w)
		}
	}
	return strings.Join(s, " "+ms.v.p.T("voice.mission.and")+" ")
}

// Progress says where seat stands on its mission: "you hold Asia;
// Africa still to take".
func (ms Missions) Progress(s *state.State, seat int) string {
	m := s.Seats[seat].Mission
	switch {
	case m.Hunting():
		c, _ := m.Target()
		return ms.v.p.T("voice.mission.still-holds", "Player", lang.Text(s.Seats[c].Name), "Count", s.Owned(c))
	case m == state.MissionTerritories18:
		return ms.v.p.T("voice.mission.held-with", "Count", engine.HeldWithArmies(s, seat, state.MissionHeldArmies), "Armies", state.MissionHeldArmies)
	case m.Territories() > 0:
		return ms.v.p.T("voice.mission.hold-now", "Count", s.Owned(seat))
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
		return ms.v.p.T("voice.mission.none-held")
	case len(missing) == 0:
		return ms.v.p.T("voice.mission.all-held")
	}
	return ms.v.p.T("voice.mission.progress", "Held", lang.Text(ms.and(held)), "Missing", lang.Text(ms.and(missing)))
}

// Line is seat's own mission, for its private answers: "🎯 Your
// secret mission: conquer Asia and Africa — you hold Asia; Africa still to
// take. ..."; "" if the match has no missions.
func (ms Missions) Line(s *state.State, seat int) string {
	if !IsMissions(s) || seat < 0 || seat >= len(s.Seats) || !s.Seats[seat].Mission.Valid() {
		return ""
	}
	return ms.v.p.T("voice.mission.line", "Mission", lang.Text(ms.Text(s, seat)), "Progress", lang.Text(ms.Progress(s, seat)))
}

// revealed lists every seat's mission at the end of a match.
func (ms Missions) revealed(s *state.State) []string {
	var lines []string
	for i := range s.Seats {
		if s.Seats[i].Mission.Valid() {
			lines = append(lines, ms.v.p.T("voice.mission.revealed", "Player", lang.Text(ms.v.Who(s, i)), "Mission", lang.Text(ms.Text(s, i))))
		}
	}
	return lines
}
