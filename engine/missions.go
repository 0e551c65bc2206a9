package engine

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/riskbot/riskbot/state"
)

// Secret missions (victory:missions, RULES.md section 3; docs/rules.md):
// each seat is dealt one of the classic rule book's 14 mission cards after
// the territories, and the first to fulfil theirs wins at once. The cards
// are dealt, checked and changed here; checkVictory calls missionWinner.

// MinMissionSeats is the fewest players of a missions match. With two, the
// 18-territory mission is complete after the initial placement (each seat
// starts with 21 territories and 40 armies) and a destroy card is the last
// player standing: the classic rule book's mission game is for three and
// more.
const MinMissionSeats = 3

// checkMissionSetup refuses a missions match the rule book does not cover:
// capitals, two players, a map without the missions' continents.
func checkMissionSetup(o state.Options, seats int, m *state.Map) error {
	if o.Rules != state.Classic {
		return fmt.Errorf("engine: secret missions are played with the classic rules only")
	}
	if seats < MinMissionSeats {
		return fmt.Errorf("engine: secret missions need at least %d players, not %d", MinMissionSeats, seats)
	}
	names := state.MissionContinentNames()
	for _, c := range names {
		if continentByName(m, c) < 0 {
			// The title: a generated or library map's name is a hash.
			return fmt.Errorf("engine: secret missions need a map with the classic continents (%s); %s has no %s",
				strings.Join(names, ", "), m.Title, c)
		}
	}
	if m.Len() < state.MissionTerritories {
		// A drawn map may name the six continents with fewer territories
		// than the territory missions ask for.
		return fmt.Errorf("engine: secret missions need a map of at least %d territories (a mission asks for %d); %s has %d",
			state.MissionTerritories, state.MissionTerritories, m.Title, m.Len())
	}
	return nil
}

// drawMissions deals one card of the 14 to each seat, in turn order, face
// down: each seat draws a uniformly random card of those left. All 14 are
// in the deck whatever the number of players (the classic rule book's way):
// a destroy card of a colour nobody plays falls back to 24 territories.
func drawMissions(r *state.RNG, seats int) []int {
	deck := make([]int, state.MissionCards)
	for i := range deck {
		deck[i] = i
	}
	cards := make([]int, seats)
	for i := range cards {
		j := uniform(r, len(deck))
		cards[i] = deck[j]
		deck = slices.Delete(deck, j, j+1)
	}
	return cards
}

// checkMissionCards checks a recorded deal's missions: one distinct card
// per seat in a missions match, none otherwise.
func checkMissionCards(cards []int, seats int, missions bool) error {
	if !missions {
		if len(cards) != 0 {
			return fmt.Errorf("engine: the recorded deal has missions for a match without them")
		}
		return nil
	}
	if len(cards) != seats {
		return fmt.Errorf("engine: the recorded deal has %d missions for %d seats", len(cards), seats)
	}
	seen := make([]bool, state.MissionCards)
	for _, c := range cards {
		if c < 0 || c >= state.MissionCards || seen[c] {
			return fmt.Errorf("engine: the recorded deal's missions %v are not distinct cards of the %d", cards, state.MissionCards)
		}
		seen[c] = true
	}
	return nil
}

// dealMissions gives each seat its card. A destroy card of the seat's own
// colour, or of a colour nobody plays, is 24 territories from the start.
func dealMissions(s *state.State, cards []int) {
	for i, c := range cards {
		m := state.MissionCard(c)
		if t, ok := m.Target(); ok && (t == i || t >= len(s.Seats)) {
			m = m.Fallback()
		}
		s.Seats[i].Mission = m
	}
}

// continentByName returns the id of the continent of m with this name,
// or -1. Case, spaces and punctuation do not count: a drawn map of the
// classic world may spell it "North-America".
func continentByName(m *state.Map, name string) int {
	for c := range m.Continents {
		if sameName(m.Continents[c].Name, name) {
			return c
		}
	}
	return -1
}

// sameName reports whether a and b spell the same letters and digits,
// whatever their case, spaces and punctuation. It compares in place:
// the missions' continents are looked up after every command of a
// missions match and at each leaf of hard's search.
func sameName(a, b string) bool {
	next := func(s string) (rune, string) {
		for s != "" {
			r, n := utf8.DecodeRuneInString(s)
			s = s[n:]
			if unicode.IsLetter(r) || unicode.IsDigit(r) {
				return unicode.ToLower(r), s
			}
		}
		return -1, ""
	}
	for {
		ra, resta := next(a)
		rb, restb := next(b)
		if ra != rb {
			return false
		}
		if ra < 0 {
			return true
		}
		a, b = resta, restb
	}
}

// MissionContinents returns the continents of s's map that mission m asks
// for, and whether it asks for a third one of the seat's choice.
func MissionContinents(m *state.Map, ms state.Mission) (ids []int, third bool) {
	names, third := ms.Continents()
	for _, n := range names {
		if c := continentByName(m, n); c >= 0 {
			ids = append(ids, c)
		}
	}
	return ids, third
}

// HeldWithArmies counts seat's territories with at least armies armies.
func HeldWithArmies(s *state.State, seat, armies int) int {
	n := 0
	for t := range s.Terr {
		if s.Terr[t].Owner == seat && s.Terr[t].Armies >= armies {
			n++
		}
	}
	return n
}

// MissionDone reports whether seat's mission is fulfilled in s. A hidden
// mission is never done (a view cannot tell).
func MissionDone(s *state.State, seat int) bool {
	m := s.Seats[seat].Mission
	switch {
	case m.Hunting():
		// Only the hunter's own conquest takes a colour out while the card
		// is in force: any other end of the colour turns it to 24
		// territories (missionTargetOut).
		c, _ := m.Target()
		return s.Seats[c].Status == state.Eliminated
	case m == state.MissionTerritories18:
		return HeldWithArmies(s, seat, state.MissionHeldArmies) >= state.MissionHeld
	case m.Territories() > 0:
		return s.Owned(seat) >= m.Territories()
	}
	ids, third := MissionContinents(s.Map, m)
	if len(ids) == 0 {
		return false
	}
	for _, c := range ids {
		if s.ContinentOwner(c) != seat {
			return false
		}
	}
	if !third {
		return true
	}
	for c := range s.Map.Continents {
		if !slices.Contains(ids, c) && s.ContinentOwner(c) == seat {
			return true
		}
	}
	return false
}

// missionWinner returns the first seat whose mission is done, looking at
// first (the seat that just acted) and then the others in turn order, or
// -1. Only the seat that acts can usually fulfil a mission; a card that
// fell back to 24 territories can be fulfilled at once, by another's
// elimination of its colour.
func missionWinner(s *state.State, first int) int {
	if first < 0 || first >= len(s.Seats) {
		first = s.Current
	}
	for i := range s.Seats {
		p := (first + i) % len(s.Seats)
		if s.Seats[p].Alive() && s.Seats[p].Mission.Valid() && MissionDone(s, p) {
			return p
		}
	}
	return -1
}

// missionTargetOut turns to 24 territories every destroy card that names
// out, a colour just taken out of the match by another seat than the card's
// holder (by, or -1 for a surrender: nobody destroyed it). The seats still
// playing are told, privately.
func missionTargetOut(s *state.State, out, by int) []Event {
	if s.Options.Victory != state.Missions {
		return nil
	}
	var ev []Event
	for i := range s.Seats {
		m := s.Seats[i].Mission
		if c, _ := m.Target(); i == by || !m.Hunting() || c != out {
			continue
		}
		s.Seats[i].Mission = m.Fallback()
		if s.Seats[i].Alive() {
			ev = append(ev, MissionChanged{Seat: i, Was: m, Now: m.Fallback(), Target: out, By: by})
		}
	}
	return ev
}

// checkMissions ends a missions match if a seat's mission is done, after a
// command of seat (RULES.md: checked after each command).
func checkMissions(s *state.State, seat int) []Event {
	if s.Options.Victory != state.Missions || s.Phase == state.PhaseOver || s.Phase == state.PhaseSetup {
		return nil
	}
	return checkVictory(s, seat)
}
