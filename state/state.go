package state

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
)

// Neutral is the owner of a territory that belongs to no seat: left behind by
// a surrender (classic) or not yet taken (capitals).
const Neutral = -1

// MaxSeats is the largest number of players in a match.
const MaxSeats = 6

// Phase is the step of the game the match is in.
type Phase uint8

// The phases. Classic turns go Reinforce, Attack (with Occupy after each
// conquest), Fortify; Setup is the simultaneous initial placement. Capitals
// turns go Reinforce, Action, Move; Setup is the choice of capitals, in turn
// order. With simultaneous turns, a round is one phase, Orders, which
// resolves when every player has committed.
const (
	PhaseSetup Phase = iota
	PhaseReinforce
	PhaseAttack
	PhaseOccupy
	PhaseFortify
	PhaseOver
	PhaseAction
	PhaseMove
	PhaseOrders
)

var phaseNames = []string{"setup", "reinforce", "attack", "occupy", "fortify", "over", "action", "move", "orders"}

func (p Phase) String() string { return enumString(phaseNames, p) }

// MarshalText encodes the phase by name.
func (p Phase) MarshalText() ([]byte, error) { return enumText(phaseNames, "phase", p) }

// UnmarshalText decodes the phase by name.
func (p *Phase) UnmarshalText(b []byte) (err error) {
	*p, err = enumParse[Phase](phaseNames, "phase", string(b))
	return err
}

// Status says whether a seat is still in the match.
type Status uint8

// The seat statuses.
const (
	Playing Status = iota
	Eliminated
	Surrendered
)

var statusNames = []string{"playing", "eliminated", "surrendered"}

func (s Status) String() string { return enumString(statusNames, s) }

// MarshalText encodes the status by name.
func (s Status) MarshalText() ([]byte, error) { return enumText(statusNames, "status", s) }

// UnmarshalText decodes the status by name.
func (s *Status) UnmarshalText(b []byte) (err error) {
	*s, err = enumParse[Status](statusNames, "status", string(b))
	return err
}

// RNG is the position of the match's seeded generator. The engine draws from
// it; it is data here so that a state copies, encodes and replays whole.
type RNG struct {
	Seed uint64 `json:"seed"`
	N    uint64 `json:"n"`
}

// Seat is one player of a match, in turn order.
type Seat struct {
	// ID identifies the player to the host (a chat user id, "bot:normal:2").
	ID      string  `json:"id"`
	Name    string  `json:"name"`
	Status  Status  `json:"status"`
	Reserve int     `json:"reserve"` // armies still to place
	Hand    CardSet `json:"hand"`
	// HiddenCards counts cards held but not shown, in a view of another seat.
	HiddenCards int `json:"hidden_cards,omitempty"`
	// HiddenTerritories and HiddenArmies count the seat's territories, and
	// the armies on them, that a view with fog of war does not show.
	HiddenTerritories int `json:"hidden_territories,omitempty"`
	HiddenArmies      int `json:"hidden_armies,omitempty"`
	// Capitals is the seat's part of the capitals rule set; zero in
	// classic matches.
	Capitals CapitalsSeat `json:"capitals,omitzero"`
	// Ready: with simultaneous turns, the seat has committed its orders
	// for the round.
	Ready bool `json:"ready,omitempty"`
	// Traded: with simultaneous turns, the cards the seat traded in the
	// round not yet resolved (a trade is an order: a view of another seat
	// shows them in the hand still). Always on the discard pile too.
	Traded CardSet `json:"traded,omitzero"`
	// Mission is the seat's secret mission in a missions match
	// (victory:missions); MissionHidden in a view of another seat while the
	// match is on. Absent from the JSON of other matches.
	Mission Mission `json:"mission,omitempty"`
	// Team is the seat's team, 1 to the number of teams, in a match with
	// teams (Options.Teams); 0 otherwise.
	Team int `json:"team,omitempty"`
}

// CapitalsSeat is what the capitals rule set (RULES.md section 2) keeps per
// seat, beside the classic fields. Territories are stored as id+1 so that
// the zero value means "none" and classic states stay zero; the fields are
// small so that states stay cheap to copy.
type CapitalsSeat struct {
	Capital  int16 `json:"capital,omitempty"`  // the capital's id+1; 0 before it is chosen
	Hero     int16 `json:"hero,omitempty"`     // where the hero stands, id+1; 0 without a hero
	HeroWon  bool  `json:"hero_won,omitempty"` // the hero was unlocked (it never comes back once dead)
	Item     Item  `json:"item,omitempty"`     // the kept item's kind; ItemHidden in views of others
	MoveHero bool  `json:"move_hero,omitempty"`
	// MoveQuarters and MoveHero are the last move's choices (quarters of
	// the troops, and whether the hero went): the next move's defaults.
	MoveQuarters uint8 `json:"move_quarters,omitempty"`
}

// Alive reports whether the seat still plays.
func (s *Seat) Alive() bool { return s.Status == Playing }

// Terr is the changing part of a territory.
type Terr struct {
	Owner  int `json:"owner"` // seat index, or Neutral
	Armies int `json:"armies"`
	// Fog marks a territory out of sight in a view with fog of war: its
	// owner (Neutral here) and armies (0) are unknown.
	Fog bool `json:"fog,omitempty"`
	// Arrived counts armies that reached this territory by fortification this
	// turn; with adjacent fortification they may not move again.
	Arrived int `json:"arrived,omitempty"`
	// The capitals rule set's territory features; zero in classic matches
	// (and small, so that states stay cheap to copy).
	Port    bool  `json:"port,omitempty"`
	Item    Item  `json:"item,omitempty"`     // an item waiting here; ItemHidden in views, unless the fat bonus
	ItemAge uint8 `json:"item_age,omitempty"` // turns it has waited, this one included
}

// Occupy is the move owed after a conquest: at least Min armies (the dice of
// the last roll) are already in To; up to Max may be.
type Occupy struct {
	From int `json:"from"`
	To   int `json:"to"`
	Min  int `json:"min"`
	Max  int `json:"max"`
}

// State is a match at one moment. The engine changes it; everyone else reads.
type State struct {
	Map     *Map    `json:"-"`
	Options Options `json:"options"`
	RNG     RNG     `json:"rng"`
	Phase   Phase   `json:"phase"`
	// Turn counts player turns from 1; it is 0 during setup.
	Turn int `json:"turn"`
	// Round counts rounds from 1, a round being one turn of every living
	// seat (with simultaneous turns, Round is Turn). Matches saved before
	// rounds were counted resume counting from 0.
	Round   int     `json:"round,omitempty"`
	Current int     `json:"current"`
	Seats   []Seat  `json:"seats"`
	Terr    []Terr  `json:"territories"`
	Deck    CardSet `json:"deck"`
	Discard CardSet `json:"discard"`
	// HiddenDeck counts the deck's cards in a view, where the deck is hidden.
	HiddenDeck int `json:"hidden_deck,omitempty"`
	// HiddenDiscard counts the discard pile's cards in a view with fog of
	// war, where the pile is hidden: the cards others traded are theirs.
	HiddenDiscard int `json:"hidden_discard,omitempty"`
	// Trades counts the sets traded in the match (escalating values).
	Trades int    `json:"trades"`
	Occupy Occupy `json:"occupy"`
	// Conquered: the current player took a territory this turn (draws a card).
	Conquered bool `json:"conquered,omitempty"`
	// CardBonus: the current player got a card's territory bonus this turn.
	CardBonus bool `json:"card_bonus,omitempty"`
	// Fortified counts fortification moves this turn.
	Fortified int `json:"fortified,omitempty"`
	Winner    int `json:"winner"`
	// Hidden marks a view (see View); Viewer is the seat it was made for, or
	// -1 for a spectator.
	Hidden bool `json:"hidden,omitempty"`
	Viewer int  `json:"viewer,omitempty"`
	// Last and This are the arrows of the previous and current turns, for
	// the map.
	Last Trail `json:"last"`
	This Trail `json:"this"`
	// Cap is the capitals rule set's part of the turn in play.
	Cap CapitalsTurn `json:"capitals,omitzero"`
	// Orders are the round's orders, with simultaneous turns, in the order
	// given; a view keeps only its seat's. The slice is never changed in
	// place (every change makes a new one), so that clones share it.
	Orders []Order `json:"orders,omitempty"`
	// RoundTrades are the sets traded in the round, with simultaneous
	// turns, in the order traded: orders too, secret until the round
	// resolves and then told with it; a view keeps only its seat's. Like
	// Orders, the slice is never changed in place.
	RoundTrades []Trade `json:"round_trades,omitempty"`
}

// Trade is a set of cards a seat traded in a simultaneous round not yet
// resolved: for Armies, and Bonus armies (0 or 2) placed on
// BonusTerritory (-1 if none) with the round's placements. (The fields
// are those of the engine's event of a trade.)
type Trade struct {
	Seat           int     `json:"seat"`
	Cards          [3]Card `json:"cards"`
	Armies         int     `json:"armies"`
	Bonus          int     `json:"bonus,omitempty"`
	BonusTerritory int     `json:"bonus_territory"`
}

// OrderKind is what an order of a simultaneous round does.
type OrderKind uint8

// The kinds of orders.
const (
	OrderPlace  OrderKind = iota // armies from the reserve onto To
	OrderAttack                  // Armies from From attack To
	OrderMove                    // Armies move from From to To
)

var orderNames = []string{"place", "attack", "move"}

func (k OrderKind) String() string { return enumString(orderNames, k) }

// MarshalText encodes the kind by name.
func (k OrderKind) MarshalText() ([]byte, error) { return enumText(orderNames, "order", k) }

// UnmarshalText decodes the kind by name.
func (k *OrderKind) UnmarshalText(b []byte) (err error) {
	*k, err = enumParse[OrderKind](orderNames, "order", string(b))
	return err
}

// Order is one order of a seat in a simultaneous round. From is -1 for a
// placement.
type Order struct {
	Seat   int       `json:"seat"`
	Kind   OrderKind `json:"kind"`
	From   int       `json:"from"`
	To     int       `json:"to"`
	Armies int       `json:"armies"`
	// Bonus marks the two armies a traded card's territory gives, which
	// cannot be taken back.
	Bonus bool `json:"bonus,omitempty"`
}

// OrdersOf returns seat's orders of the round, in the order given.
func (s *State) OrdersOf(seat int) []Order {
	var out []Order
	for _, o := range s.Orders {
		if o.Seat == seat {
			out = append(out, o)
		}
	}
	return out
}

// Clone returns a deep copy of s; the Map is shared. It makes three
// allocations, which AI search relies on.
func (s *State) Clone() *State {
	c := new(State)
	*c = *s
	c.Seats = slices.Clone(s.Seats)
	c.Terr = slices.Clone(s.Terr)
	return c
}

// CopyInto makes dst a deep copy of s (the Map shared), reusing dst's
// slices when they are large enough, so that copying into a state kept
// for the purpose allocates nothing: AI search copies a position for
// every playout. It returns dst.
func (s *State) CopyInto(dst *State) *State {
	seats, terr := dst.Seats, dst.Terr
	*dst = *s
	dst.Seats = append(seats[:0], s.Seats...)
	dst.Terr = append(terr[:0], s.Terr...)
	return dst
}

// View returns what seat may see of s: the generator, the deck and the
// other seats' hands are hidden (hand and deck sizes stay visible), and so
// are the kinds of the items of others and of those lying on the map, but
// for the fat bonus (that there is an item stays visible). The other
// seats' secret missions are hidden until the match is over. A seat of
// -1 gives a spectator's view.
//
// During the classic initial placement, which every seat plays at once,
// the armies the other seats have placed so far are hidden too: their
// territories show the one army each started with, so that nobody (person
// or program) sees the others' choices before everyone has placed. Their
// reserves (how many they still have to place) stay visible, as in the
// chat's status.
func (s *State) View(seat int) *State {
	return s.Clone().hide(seat)
}

// ViewInto is View writing into dst, reusing its memory as CopyInto does:
// AI search takes a seat's view of the positions it plays. It returns
// dst.
func (s *State) ViewInto(dst *State, seat int) *State {
	return s.CopyInto(dst).hide(seat)
}

// hide turns s, a copy of a full state, into seat's view (View), in
// place.
func (s *State) hide(seat int) *State {
	if s.Phase == PhaseSetup && s.Options.Rules == Classic {
		for t := range s.Terr {
			if o := s.Terr[t].Owner; o != seat && o >= 0 {
				s.Terr[t].Armies = min(s.Terr[t].Armies, 1)
			}
		}
	}
	if s.HasFog() {
		// A seat out of the match, like a spectator, sees what every
		// player sees.
		v := s.PublicSight()
		if seat >= 0 && seat < len(s.Seats) && s.Seats[seat].Alive() {
			v = s.Sight(seat)
		}
		s.fog(seat, v)
	}
	if s.Phase == PhaseOrders {
		s.hideOrders(seat)
	}
	s.RNG = RNG{}
	s.Hidden = true
	s.Viewer = max(seat, -1)
	if len(s.Orders) > 0 {
		s.Orders = s.OrdersOf(seat)
	}
	s.HiddenDeck = s.Deck.Len() + s.HiddenDeck
	s.Deck = CardSet{}
	for i := range s.Seats {
		if i != seat {
			s.Seats[i].HiddenCards += s.Seats[i].Hand.Len()
			s.Seats[i].Hand = CardSet{}
			if s.Seats[i].Capitals.Item != NoItem {
				s.Seats[i].Capitals.Item = ItemHidden
			}
			// At the end every mission is revealed, the winner's first.
			if s.Seats[i].Mission != NoMission && s.Phase != PhaseOver {
				s.Seats[i].Mission = MissionHidden
			}
		}
	}
	for t := range s.Terr {
		if it := s.Terr[t].Item; it != NoItem && it != ItemFat {
			s.Terr[t].Item = ItemHidden
		}
	}
	return s
}

// IsView reports whether s is a view with hidden information.
func (s *State) IsView() bool { return s.Hidden }

// HandSize returns the number of cards seat holds, shown or hidden.
func (s *State) HandSize(seat int) int { return s.Seats[seat].Hand.Len() + s.Seats[seat].HiddenCards }

// DeckSize returns the number of cards left to draw.
func (s *State) DeckSize() int { return s.Deck.Len() + s.HiddenDeck }

// Owned returns the number of territories seat owns (in a view with fog of
// war, those out of sight included).
func (s *State) Owned(seat int) int {
	n := 0
	if seat >= 0 {
		n = s.Seats[seat].HiddenTerritories
	}
	for i := range s.Terr {
		if s.Terr[i].Owner == seat {
			n++
		}
	}
	return n
}

// Armies returns the number of armies seat has on the map (in a view with
// fog of war, those out of sight included).
func (s *State) Armies(seat int) int {
	n := 0
	if seat >= 0 {
		n = s.Seats[seat].HiddenArmies
	}
	for i := range s.Terr {
		if s.Terr[i].Owner == seat {
			n += s.Terr[i].Armies
		}
	}
	return n
}

// BordersEnemy reports whether territory t borders a territory of another
// owner (an enemy or a neutral), a teammate's not counting.
func (s *State) BordersEnemy(t int) bool {
	for _, n := range s.Map.Territories[t].Adj {
		if !s.Sides().Same(s.Terr[n].Owner, s.Terr[t].Owner) {
			return true
		}
	}
	return false
}

// ContinentOwner returns the seat that owns all of continent c, or Neutral.
func (s *State) ContinentOwner(c int) int {
	ts := s.Map.Continents[c].Territories
	owner := s.Terr[ts[0]].Owner
	for _, t := range ts[1:] {
		if s.Terr[t].Owner != owner {
			return Neutral
		}
	}
	return owner
}

// Income is what a seat would receive at the start of its turn.
type Income struct {
	Territories int   // from the number of territories held
	Continents  []int // continents held whole
	Bonus       int   // their bonuses
	Total       int
}

// Income returns the reinforcement seat receives at the start of a turn
// (before any card trade): max(3, territories/3) plus the bonus of every
// continent it holds whole.
func (s *State) Income(seat int) Income {
	var in Income
	in.Territories = max(3, s.Owned(seat)/3)
	for c := range s.Map.Continents {
		if s.ContinentOwner(c) == seat {
			in.Continents = append(in.Continents, c)
			in.Bonus += s.Map.Continents[c].Bonus
		}
	}
	in.Total = in.Territories + in.Bonus
	return in
}

// AliveSeats returns the number of seats still playing.
func (s *State) AliveSeats() int {
	n := 0
	for i := range s.Seats {
		if s.Seats[i].Alive() {
			n++
		}
	}
	return n
}

// SeatByID returns the index of the seat with this id, or -1.
func (s *State) SeatByID(id string) int {
	for i := range s.Seats {
		if s.Seats[i].ID == id {
			return i
		}
	}
	return -1
}

// VictoryTarget returns how many territories win the match. With secret
// missions no share of the map wins by itself (the two-thirds rule does not
// apply): holding every territory is the last player standing.
func (s *State) VictoryTarget() int {
	n := len(s.Terr)
	if s.Options.Victory == Domination || s.Options.Victory == Missions {
		return n
	}
	return (2*n + 2) / 3
}

// Check verifies the invariants every state between commands must satisfy;
// tests run it after every command, and decoding runs it on stored states.
func (s *State) Check() error {
	var errs []error
	bad := func(format string, args ...any) { errs = append(errs, fmt.Errorf(format, args...)) }
	if s.Map == nil {
		return errors.New("state: no map")
	}
	if len(s.Terr) != s.Map.Len() {
		return fmt.Errorf("state: %d territories for a map of %d", len(s.Terr), s.Map.Len())
	}
	if len(s.Seats) < 1 || len(s.Seats) > MaxSeats {
		return fmt.Errorf("state: %d seats", len(s.Seats))
	}
	owned := make([]int, len(s.Seats))
	for i, t := range s.Terr {
		name := s.Map.Territories[i].Name
		switch {
		case t.Owner < Neutral || t.Owner >= len(s.Seats):
			bad("%s has owner %d", name, t.Owner)
		case t.Armies < 0:
			bad("%s has %d armies", name, t.Armies)
		case t.Owner != Neutral && t.Armies < 1 && s.Options.Rules == Classic:
			bad("%s is owned with %d armies", name, t.Armies)
		case t.Arrived < 0 || t.Arrived > t.Armies:
			bad("%s has %d arrived of %d armies", name, t.Arrived, t.Armies)
		case t.Fog && !s.Hidden:
			bad("%s is fogged in a full state", name)
		}
		if t.Owner >= 0 && t.Owner < len(s.Seats) {
			owned[t.Owner]++
		}
	}
	if s.Options.Rules == Classic {
		all := FullDeck(s.Map.NumCards())
		seen := s.Deck.Union(s.Discard)
		total := s.Deck.Len() + s.Discard.Len() + s.HiddenDeck + s.HiddenDiscard
		if !s.Deck.Intersect(s.Discard).Empty() {
			bad("a card is both in the deck and the discard pile")
		}
		for i, seat := range s.Seats {
			if !seen.Intersect(seat.Hand).Empty() {
				bad("seat %d holds a card that is also elsewhere", i)
			}
			seen = seen.Union(seat.Hand)
			total += seat.Hand.Len() + seat.HiddenCards
			if seat.Status != Playing && seat.Hand.Len()+seat.HiddenCards > 0 {
				bad("seat %d is out but holds cards", i)
			}
			if seat.Traded.Intersect(s.Discard) != seat.Traded && s.HiddenDiscard == 0 {
				bad("seat %d traded cards that are not on the discard pile", i)
			}
		}
		for _, tr := range s.RoundTrades {
			if tr.Seat < 0 || tr.Seat >= len(s.Seats) {
				bad("a set traded in the round by seat %d, of %d", tr.Seat, len(s.Seats))
				continue
			}
			if tr.Bonus != 0 && (tr.BonusTerritory < 0 || tr.BonusTerritory >= len(s.Terr)) {
				bad("seat %d traded a set for a bonus on territory %d, of %d", tr.Seat, tr.BonusTerritory, len(s.Terr))
			}
			for _, c := range tr.Cards {
				if int(c) >= s.Map.NumCards() || !s.Seats[tr.Seat].Traded.Has(c) {
					bad("seat %d traded card %d in the round, yet it is not among its cards traded", tr.Seat, c)
				}
			}
		}
		if total != all.Len() || seen.Union(all) != all {
			bad("%d cards in play, want %d", total, all.Len())
		}
	}
	for i, seat := range s.Seats {
		if seat.Reserve < 0 {
			bad("seat %d has reserve %d", i, seat.Reserve)
		}
		if (seat.HiddenTerritories != 0 || seat.HiddenArmies != 0) && !s.Hidden {
			bad("seat %d has territories out of sight in a full state", i)
		}
		owned[i] += seat.HiddenTerritories
		// A capitals match abandoned during the choice of capitals can be
		// won by a seat that holds nothing yet.
		if s.Phase != PhaseSetup && s.Phase != PhaseOver && seat.Status == Playing && owned[i] == 0 {
			bad("seat %d plays but owns nothing", i)
		}
		if seat.Status == Eliminated && owned[i] > 0 {
			bad("seat %d is eliminated but owns %d territories", i, owned[i])
		}
	}
	if s.Current < 0 || s.Current >= len(s.Seats) {
		bad("current seat %d out of range", s.Current)
	} else if s.Phase != PhaseOver && s.Phase != PhaseSetup && !s.Seats[s.Current].Alive() {
		bad("seat %d is to play but is out", s.Current)
	}
	if s.Phase == PhaseOver && (s.Winner < 0 || s.Winner >= len(s.Seats)) {
		bad("the match is over without a winner")
	}
	if s.Options.Rules == Capitals {
		s.checkCapitals(bad)
	}
	s.checkMissions(bad)
	s.checkTeams(bad)
	if s.Phase == PhaseOccupy {
		o := s.Occupy
		if o.From < 0 || o.From >= len(s.Terr) || o.To < 0 || o.To >= len(s.Terr) || o.Min > o.Max {
			bad("bad pending occupation %+v", o)
		}
	}
	return errors.Join(errs...)
}

// stateFormat is the version of the JSON encoding of a State.
const stateFormat = 1

type stateJSON State

// MarshalJSON encodes the state with its format version.
func (s *State) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Format int `json:"format"`
		*stateJSON
	}{stateFormat, (*stateJSON)(s)})
}

// UnmarshalJSON decodes a state. The caller attaches the Map (found by
// s.Options.Map) and should then call Check.
func (s *State) UnmarshalJSON(b []byte) error {
	var v struct {
		Format int `json:"format"`
		*stateJSON
	}
	v.stateJSON = (*stateJSON)(s)
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if v.Format != stateFormat {
		return fmt.Errorf("state: format %d not supported (this version reads %d)", v.Format, stateFormat)
	}
	return nil
}
