package engine

import "github.com/riskbot/riskbot/state"

// Event is something that happened when a command was applied. The bot turns
// events into words; the map shows the arrows the state keeps of them.
type Event interface{ event() }

// Placed: Seat put Armies on Territory.
type Placed struct {
	Seat, Territory, Armies int
}

// SetupDone: every seat has placed its starting armies; the first turn begins.
type SetupDone struct{}

// TurnStarted: Seat begins turn Turn with Armies to place.
type TurnStarted struct {
	Seat, Turn, Armies int
	Income             state.Income
}

// Traded: Seat traded three cards for Armies; Bonus armies (0 or 2) went
// onto BonusTerritory.
type Traded struct {
	Seat           int
	Cards          [3]state.Card
	Armies         int
	Bonus          int
	BonusTerritory int
}

// Rolled: one roll of an attack from From (Seat) on To (Defender).
type Rolled struct {
	Seat, Defender int
	From, To       int
	Attack         [3]int // sorted descending; the first NA are used
	Defend         [2]int // sorted descending; the first ND are used
	NA, ND         int
	AttackerLost   int
	DefenderLost   int
}

// AttackDice returns the attacker's dice, highest first.
func (r Rolled) AttackDice() []int { return r.Attack[:r.NA] }

// DefendDice returns the defender's dice, highest first.
func (r Rolled) DefendDice() []int { return r.Defend[:r.ND] }

// Conquered: Seat took To from Defender (Neutral for a neutral territory),
// moving Armies in already (the dice of the last roll).
type Conquered struct {
	Seat, Defender int
	From, To       int
	Armies         int
}

// Occupied: Seat moved Armies in total from From into the conquered To.
type Occupied struct {
	Seat, From, To, Armies int
}

// Fortified: Seat moved Armies from From to To.
type Fortified struct {
	Seat, From, To, Armies int
}

// CardDrawn: Seat drew Card. The card is private to Seat.
type CardDrawn struct {
	Seat int
	Card state.Card
}

// Discarded: Seat dropped Card from a full hand.
type Discarded struct {
	Seat int
	Card state.Card
}

// Reshuffled: the discard pile became the deck.
type Reshuffled struct {
	Cards int
}

// Eliminated: Seat lost its last territory to By, who took Cards cards.
type Eliminated struct {
	Seat, By, Cards int
}

// Surrendered: Seat left the match; its territories are neutral.
type Surrendered struct {
	Seat int
}

// Won: Seat won the match.
type Won struct {
	Seat int
}

// Undone: Seat took back Command.
type Undone struct {
	Seat    int
	Command Command
}

func (Placed) event()      {}
func (SetupDone) event()   {}
func (TurnStarted) event() {}
func (Traded) event()      {}
func (Rolled) event()      {}
func (Conquered) event()   {}
func (Occupied) event()    {}
func (Fortified) event()   {}
func (CardDrawn) event()   {}
func (Discarded) event()   {}
func (Reshuffled) event()  {}
func (Eliminated) event()  {}
func (Surrendered) event() {}
func (Won) event()         {}
func (Undone) event()      {}
