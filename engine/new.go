package engine

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/riskbot/riskbot/state"
)

// Setup is everything a match starts from: with the command log it
// determines the whole match.
type Setup struct {
	Options state.Options `json:"options"`
	// Seats in the order they joined; New draws the turn order.
	Seats []SeatInfo `json:"seats"`
	Seed  uint64     `json:"seed"`
	// Deal records the turn order and the deal drawn from Seed, so a stored
	// match keeps its deal even if a later engine deals differently. New
	// draws it when it is nil.
	Deal *Deal `json:"deal,omitempty"`
}

// Deal is the random part of a match's start.
type Deal struct {
	// Order[i] is the index in Setup.Seats of the i-th seat in turn order.
	Order []int `json:"order"`
	// Owners[t] is the turn-order seat dealt territory t (classic).
	Owners []int `json:"owners,omitempty"`
	// Troops[t] is the neutral troops territory t starts with (capitals).
	Troops []int `json:"troops,omitempty"`
	// Missions[i] is the mission card (0 to 13, state.MissionCard) dealt
	// to the i-th seat in turn order (victory:missions).
	Missions []int `json:"missions,omitempty"`
}

// SeatInfo names a player.
type SeatInfo struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// Team is the player's team, 1 or more, in a match with teams
	// (Options.Teams); fixed for the whole match.
	Team int `json:"team,omitempty"`
}

// setupFormat is the version of the JSON encoding of a Setup and its log.
const setupFormat = 1

// MarshalJSON encodes the setup with its format version.
func (s Setup) MarshalJSON() ([]byte, error) {
	type plain Setup
	return json.Marshal(struct {
		Format int `json:"format"`
		plain
	}{setupFormat, plain(s)})
}

// sealedJSON is the setup's JSON without the seed, for a sealed record:
// MarshalJSON's, but for a Seed outside plain, which hides plain's (the
// shallower field wins) and, nil, is left out.
func (s Setup) sealedJSON() ([]byte, error) {
	type plain Setup
	return json.Marshal(struct {
		Format int `json:"format"`
		plain
		Seed *uint64 `json:"seed,omitempty"` // nil: hides plain's
	}{Format: setupFormat, plain: plain(s)})
}

// UnmarshalJSON decodes a setup, refusing formats it does not know.
func (s *Setup) UnmarshalJSON(b []byte) error {
	type plain Setup
	var v struct {
		Format int `json:"format"`
		plain
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Format != setupFormat {
		return fmt.Errorf("engine: setup format %d not supported (this version reads %d)", v.Format, setupFormat)
	}
	*s = Setup(v.plain)
	return nil
}

// StartingArmies returns the armies each player starts with on the
// classic board, by player count.
func StartingArmies(players int) int {
	switch players {
	case 2:
		return 40
	case 3:
		return 35
	case 4:
		return 30
	case 5:
		return 25
	}
	return 20
}

// StartingArmiesOn returns the armies each player starts with on a drawn
// map (a library map) of this many territories: Domination's rule, (10 - players) armies for
// every 0.12 of the territories (rounded), which is the rule book's table
// on the classic board's 42 and scales to any drawn map; and at least one
// more than the territories a player is dealt, so that everyone has armies
// to place (92 territories between two players would leave nothing to
// place with the table's 40).
func StartingArmiesOn(territories, players int) int {
	per := max(1, int(math.Round(0.12*float64(territories))))
	return max(max(1, 10-players)*per, (territories+players-1)/players+1)
}

// New creates the initial state of a match: turn order drawn at random,
// territories dealt round-robin with one army each, and the seats' starting
// reserves to place.
func New(setup Setup) (*state.State, error) {
	n := len(setup.Seats)
	if n < 2 || n > state.MaxSeats {
		return nil, fmt.Errorf("engine: a match needs 2 to %d players, not %d", state.MaxSeats, n)
	}
	ids := map[string]bool{}
	for _, p := range setup.Seats {
		if p.ID == "" || ids[p.ID] {
			return nil, fmt.Errorf("engine: seat ids must be unique and not empty (%q)", p.ID)
		}
		ids[p.ID] = true
	}
	if setup.Options.Turns == state.Simultaneous && setup.Options.Rules != state.Classic {
		// Capitals turns are one action each (a plan launched, a capture or
		// a port), with items and a hero acting in turn: docs/rules.md.
		return nil, fmt.Errorf("engine: simultaneous turns are played with the classic rules only")
	}
	if r := setup.Options.Rounds; r < 0 || r > state.MaxRounds {
		return nil, fmt.Errorf("engine: a round limit of %d: want 1 to %d, or 0 for none", r, state.MaxRounds)
	}
	if setup.Options.Turns > state.Simultaneous {
		return nil, fmt.Errorf("engine: unknown turn mode %d", setup.Options.Turns)
	}
	if setup.Options.Victory > state.Missions {
		return nil, fmt.Errorf("engine: unknown victory condition %d", setup.Options.Victory)
	}
	if setup.Options.Victory == state.Missions && setup.Options.Rules != state.Classic {
		// Checked here, before the capitals map is generated; the rest with
		// the classic map (checkMissionSetup).
		return nil, fmt.Errorf("engine: secret missions are played with the classic rules only")
	}
	if err := checkSetupTeams(setup); err != nil {
		return nil, err
	}
	if setup.Options.Rules == state.Capitals {
		o := setup.Options
		o.Map = MatchMap(o.Map, setup.Seed)
		m, err := LoadMap(o.Map)
		if err != nil {
			return nil, fmt.Errorf("engine: %w", err)
		}
		setup.Options = o
		return newCapitals(setup, m)
	}
	if setup.Options.Rules != state.Classic {
		return nil, fmt.Errorf("engine: unknown rule set %d", setup.Options.Rules)
	}
	// A classic match on generated islands plays on its seed's map, its
	// sea links made borders (ClassicMatchMap).
	setup.Options.Map = ClassicMatchMap(setup.Options.Map, setup.Seed)
	m, err := LoadMap(setup.Options.Map)
	if err != nil {
		return nil, fmt.Errorf("engine: %w", err)
	}
	if m.Len() < n {
		return nil, fmt.Errorf("engine: map %s has %d territories for %d players", m.Name, m.Len(), n)
	}
	missions := setup.Options.Victory == state.Missions
	if missions {
		if err := checkMissionSetup(setup.Options, n, m); err != nil {
			return nil, err
		}
	}
	s := &state.State{
		Map:     m,
		Options: setup.Options,
		RNG:     state.RNG{Seed: setup.Seed},
		Phase:   state.PhaseSetup,
		Winner:  -1,
		Seats:   make([]state.Seat, n),
		Terr:    make([]state.Terr, m.Len()),
		Deck:    state.FullDeck(m.NumCards()),
	}
	deal := drawDeal(&s.RNG, n, m.Len())
	if missions {
		// Drawn after the territories, so that matches without missions
		// draw as they always did.
		deal.Missions = drawMissions(&s.RNG, n)
	}
	if setup.Deal != nil {
		if err := checkDeal(setup.Deal, n, m.Len()); err != nil {
			return nil, err
		}
		if err := checkMissionCards(setup.Deal.Missions, n, missions); err != nil {
			return nil, err
		}
		deal = *setup.Deal
	}
	for i, p := range deal.Order {
		s.Seats[i] = state.Seat{ID: setup.Seats[p].ID, Name: setup.Seats[p].Name, Team: setup.Seats[p].Team}
	}
	for t, o := range deal.Owners {
		s.Terr[t] = state.Terr{Owner: o, Armies: 1}
	}
	dealMissions(s, deal.Missions)
	start := StartingArmies(n)
	if IsLibraryName(m.Name) {
		// Drawn maps come in every size; the built-in and generated ones
		// keep the table their matches were started with.
		start = StartingArmiesOn(m.Len(), n)
	}
	for i := range s.Seats {
		s.Seats[i].Reserve = max(0, start-s.Owned(i))
	}
	return s, nil
}

// drawDeal draws the turn order and deals the territories round-robin.
func drawDeal(r *state.RNG, seats, territories int) Deal {
	d := Deal{Order: make([]int, seats), Owners: make([]int, territories)}
	for i := range d.Order {
		d.Order[i] = i
	}
	shuffle(r, d.Order)
	terr := make([]int, territories)
	for i := range terr {
		terr[i] = i
	}
	shuffle(r, terr)
	for i, t := range terr {
		d.Owners[t] = i % seats
	}
	return d
}

// checkDealCommon checks what a recorded deal of either rule set holds: a
// turn order that is a permutation of the seats, one entry a territory in
// dealt (the rule set's part of the deal), nothing in other (the other's).
func checkDealCommon(d *Deal, seats, territories int, dealt, other []int) error {
	if len(d.Order) != seats || len(dealt) != territories || len(other) != 0 {
		return fmt.Errorf("engine: the recorded deal is for %d seats and %d territories, not %d and %d", len(d.Order), len(dealt), seats, territories)
	}
	seen := make([]bool, seats)
	for _, p := range d.Order {
		if p < 0 || p >= seats || seen[p] {
			return fmt.Errorf("engine: the recorded turn order %v is not a permutation", d.Order)
		}
		seen[p] = true
	}
	return nil
}

func checkDeal(d *Deal, seats, territories int) error {
	if err := checkDealCommon(d, seats, territories, d.Owners, d.Troops); err != nil {
		return err
	}
	count := make([]int, seats)
	for _, o := range d.Owners {
		if o < 0 || o >= seats {
			return fmt.Errorf("engine: the recorded deal names seat %d", o)
		}
		count[o]++
	}
	for i, c := range count {
		if c == 0 {
			return fmt.Errorf("engine: the recorded deal gives seat %d no territory", i)
		}
	}
	return nil
}

// shuffle permutes a in place (Fisher–Yates).
func shuffle(r *state.RNG, a []int) {
	for i := len(a) - 1; i > 0; i-- {
		j := uniform(r, i+1)
		a[i], a[j] = a[j], a[i]
	}
}
