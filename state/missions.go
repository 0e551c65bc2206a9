package state

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Mission is a secret mission (RULES.md section 3, victory:missions) as a
// seat holds it: one of the classic rule book's 14 mission cards, or, for a
// card that says to destroy a colour that is gone, the "conquer 24
// territories" it turned into. It is one byte so that states stay cheap to
// copy; the zero value is no mission (every match but a missions match).
//
// A colour is a seat: seat i plays the i-th colour of the palette, in turn
// order, so the cards of colours 0 to 5 name seats 0 to 5.
type Mission uint8

// The missions. The card missions run from MissionNorthAmericaAfrica to
// the six destroy cards, in the order of the rule book's deck (MissionCard).
const (
	NoMission     Mission = iota
	MissionHidden         // another seat's mission, in a view while the match is on

	MissionNorthAmericaAfrica      // conquer North America and Africa
	MissionNorthAmericaAustralia   // conquer North America and Australia
	MissionAsiaSouthAmerica        // conquer Asia and South America
	MissionAsiaAfrica              // conquer Asia and Africa
	MissionEuropeSouthAmericaThird // conquer Europe, South America and any third continent
	MissionEuropeAustraliaThird    // conquer Europe, Australia and any third continent
	MissionTerritories24           // conquer 24 territories
	MissionTerritories18           // conquer 18 territories and hold each with at least two armies
	missionDestroy                 // + colour: destroy all armies of that colour
)

// The destroy cards whose colour is gone (+ colour), and the end of the
// values.
const (
	missionDestroyGone = missionDestroy + MaxSeats
	missionEnd         = missionDestroyGone + MaxSeats
)

// MissionCards is the number of cards of the missions deck.
const MissionCards = 14

// The armies and territories of the territory missions.
const (
	MissionTerritories = 24 // conquer 24 territories
	MissionHeld        = 18 // conquer 18 territories...
	MissionHeldArmies  = 2  // ...with at least two armies on each
	missionFirstCard   = MissionNorthAmericaAfrica
)

// MissionCard returns the mission of card i of the deck, 0 to
// MissionCards-1: the six continent cards, 24 territories, 18 territories
// with two armies, then the destroy cards of colours 0 to 5.
func MissionCard(i int) Mission { return missionFirstCard + Mission(i) }

// DestroyMission returns the card that says to destroy the armies of colour
// (seat) c.
func DestroyMission(c int) Mission { return missionDestroy + Mission(c) }

// Card returns the deck index of the card the mission was dealt as, or -1
// for no mission or a hidden one.
func (m Mission) Card() int {
	switch {
	case m >= missionDestroyGone && m < missionEnd:
		return int(m-missionDestroyGone) + int(missionDestroy-missionFirstCard)
	case m >= missionFirstCard && m < missionDestroyGone:
		return int(m - missionFirstCard)
	}
	return -1
}

// Valid reports whether m is a mission a seat can hold (NoMission and
// MissionHidden are not).
func (m Mission) Valid() bool { return m >= missionFirstCard && m < missionEnd }

// Target returns the colour (seat) a destroy card names, and whether m is a
// destroy card, in force or gone.
func (m Mission) Target() (colour int, ok bool) {
	switch {
	case m >= missionDestroyGone && m < missionEnd:
		return int(m - missionDestroyGone), true
	case m >= missionDestroy && m < missionDestroyGone:
		return int(m - missionDestroy), true
	}
	return -1, false
}

// Gone reports whether m is a destroy card whose colour is gone (its own,
// absent, eliminated by another seat, or surrendered): the seat must conquer
// 24 territories instead.
func (m Mission) Gone() bool { return m >= missionDestroyGone && m < missionEnd }

// Hunting reports whether m is a destroy card still in force.
func (m Mission) Hunting() bool { return m >= missionDestroy && m < missionDestroyGone }

// Fallback returns the mission a destroy card turns into when its colour is
// gone; other missions are returned unchanged.
func (m Mission) Fallback() Mission {
	if m.Hunting() {
		return m - missionDestroy + missionDestroyGone
	}
	return m
}

// Territories returns how many territories the mission asks for (24, or 18
// with MissionHeldArmies each), or 0 for a mission of continents or colours.
func (m Mission) Territories() int {
	switch {
	case m == MissionTerritories24 || m.Gone():
		return MissionTerritories
	case m == MissionTerritories18:
		return MissionHeld
	}
	return 0
}

// missionContinents are the continents each continent mission names.
var missionContinents = [...][]string{
	MissionNorthAmericaAfrica:      {"North America", "Africa"},
	MissionNorthAmericaAustralia:   {"North America", "Australia"},
	MissionAsiaSouthAmerica:        {"Asia", "South America"},
	MissionAsiaAfrica:              {"Asia", "Africa"},
	MissionEuropeSouthAmericaThird: {"Europe", "South America"},
	MissionEuropeAustraliaThird:    {"Europe", "Australia"},
}

// Continents returns the names of the continents the mission asks for, and
// whether it asks for a third continent of the seat's choice (any other).
func (m Mission) Continents() (names []string, third bool) {
	if int(m) >= len(missionContinents) {
		return nil, false
	}
	// A copy: the table is shared.
	return slices.Clone(missionContinents[m]), m == MissionEuropeSouthAmericaThird || m == MissionEuropeAustraliaThird
}

// MissionContinentNames lists the continents the continent missions name:
// a map must have them all for a missions match.
func MissionContinentNames() []string {
	return []string{"North America", "South America", "Europe", "Africa", "Asia", "Australia"}
}

// missionNames are the missions' names in JSON, by value from
// MissionHidden; the destroy cards are "destroy-C" and "destroy-C-gone".
var missionNames = []string{"hidden", "north-america+africa", "north-america+australia", "asia+south-america",
	"asia+africa", "europe+south-america+third", "europe+australia+third", "24-territories", "18-territories-2-armies"}

func (m Mission) String() string {
	b, err := m.MarshalText()
	if err != nil {
		return strconv.Itoa(int(m))
	}
	return string(b)
}

// MarshalText encodes the mission by name.
func (m Mission) MarshalText() ([]byte, error) {
	switch {
	case m == NoMission:
		return []byte("none"), nil
	case m.Gone():
		c, _ := m.Target()
		return fmt.Appendf(nil, "destroy-%d-gone", c), nil
	case m.Hunting():
		c, _ := m.Target()
		return fmt.Appendf(nil, "destroy-%d", c), nil
	case m < missionDestroy:
		return []byte(missionNames[m-MissionHidden]), nil
	}
	return nil, fmt.Errorf("state: invalid mission %d", m)
}

// UnmarshalText decodes the mission by name.
func (m *Mission) UnmarshalText(b []byte) error {
	s := string(b)
	if s == "none" {
		*m = NoMission
		return nil
	}
	for i, n := range missionNames {
		if n == s {
			*m = MissionHidden + Mission(i)
			return nil
		}
	}
	if rest, ok := strings.CutPrefix(s, "destroy-"); ok {
		rest, gone := strings.CutSuffix(rest, "-gone")
		c, err := strconv.Atoi(rest)
		if err == nil && c >= 0 && c < MaxSeats {
			*m = DestroyMission(c)
			if gone {
				*m = m.Fallback()
			}
			return nil
		}
	}
	return fmt.Errorf("state: unknown mission %q", s)
}

// checkMissions checks the seats' missions against the match's options: a
// missions match deals one to every seat, no other match any; a destroy
// card in force names another seat of the match.
func (s *State) checkMissions(bad func(format string, args ...any)) {
	missions := s.Options.Victory == Missions
	if missions && s.Options.Rules != Classic {
		bad("secret missions in a %s match", s.Options.Rules)
	}
	for i, seat := range s.Seats {
		m := seat.Mission
		switch {
		case !missions && m != NoMission:
			bad("seat %d holds a mission in a %s match", i, s.Options.Victory)
		case !missions:
		case m == MissionHidden && s.Hidden && i != s.Viewer:
		case !m.Valid():
			bad("seat %d holds mission %v", i, m)
		case m.Hunting():
			c, _ := m.Target()
			switch {
			case c == i || c >= len(s.Seats):
				bad("seat %d hunts colour %d, which is not another seat's", i, c)
			case s.Seats[c].Status != Playing && s.Phase != PhaseOver:
				// Its hunter won, or another seat took it out first and
				// the card fell back to 24 territories.
				bad("seat %d still hunts colour %d, which is out", i, c)
			}
		}
	}
}
