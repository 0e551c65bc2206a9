package engine

import (
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

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
	// Round is the round the turn belongs to (state.State.Round).
	Round int
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

// Won: Seat won the match; in a match with teams, with its Team (1 or
// more), every teammate winning with it, whether still playing or not.
type Won struct {
	Seat int
	Team int
}

// MissionFulfilled: Seat fulfilled its secret Mission (victory:missions);
// Won follows. It reveals the mission.
type MissionFulfilled struct {
	Seat    int
	Mission state.Mission
}

// MissionChanged: Seat's destroy card, Was, became Now (24 territories):
// its colour, Target, was taken out by By (-1: it surrendered). Private to
// Seat, whose mission it tells.
type MissionChanged struct {
	Seat, Target, By int
	Was, Now         state.Mission
}

// Undone: Seat took back Command.
type Undone struct {
	Seat    int
	Command Command
}

// CapitalChosen: Seat made Territory its capital, now holding Troops.
type CapitalChosen struct {
	Seat, Territory, Troops int
}

// Captured: Seat took the neutral To from From, with the Troops on it.
type Captured struct {
	Seat, From, To, Troops int
}

// PortBuilt: Seat built a port on Territory.
type PortBuilt struct {
	Seat, Territory int
}

// AttackPlanned: Seat planned an attack from From on To, the Order-th of
// the turn (from 1), with Attack against Defence (totals in
// state.PowerUnits, with the plan as it now stands). With fog of war
// Defence is what Seat sees of it (0 for a target out of sight), as the
// plan was checked: the launch applies the whole.
type AttackPlanned struct {
	Seat, From, To, Order int
	Attack, Defence       int
	Reach                 state.Reach
}

// Struck: an attack of the plan was launched: Seat's From on To (held by
// Defender), Attack against Defence (in state.PowerUnits), the luck drawn
// (800 to 1200, thousandths) and the Damage done; Left troops remain (0 if it
// fell).
type Struck struct {
	Seat, Defender, From, To, Order int
	Attack, Defence                 int
	Reach                           state.Reach
	Luck, Damage, Left              int
}

// AttackSkipped: a planned attack was not launched: Why says what changed.
type AttackSkipped struct {
	Seat, From, To, Order int
	// Why says why, worded in the reader's language.
	Why lang.Msg
}

// CapitalTaken: Seat took Defender's capital and with it every one of
// Defender's Territories (Defender is eliminated).
type CapitalTaken struct {
	Seat, Defender, Capital, Territories int
}

// Moved: Seat moved Troops from From to To, and its hero with them if Hero.
type Moved struct {
	Seat, From, To, Troops int
	Hero                   bool
}

// HeroUnlocked: Seat holds 4 terrains; its hero appears on Territory.
type HeroUnlocked struct {
	Seat, Territory int
}

// HeroDied: Seat's hero fell with Territory; the seat's troops are halved
// everywhere.
type HeroDied struct {
	Seat, Territory int
}

// ItemSpawned: an item appeared on Territory at the start of the turn. Its
// kind is secret (but for the fat bonus): the bot shows only that there is one.
type ItemSpawned struct {
	Territory int
	Kind      state.Item
}

// ItemVanished: the item on Territory waited its time and is gone.
type ItemVanished struct {
	Territory int
}

// ItemCollected: Seat collected the item on Territory. A kept item's kind is
// private to Seat; items that act at once are followed by their effects.
type ItemCollected struct {
	Seat, Territory int
	Kind            state.Item
}

// ItemUsed: Seat put its kept item in effect for the rest of the turn.
type ItemUsed struct {
	Seat int
	Kind state.Item
}

// TroopsScaled: Seat's troops changed by Percent on every territory
// (troop bonus or malus), Change troops in all.
type TroopsScaled struct {
	Seat, Percent, Change int
}

// TerritoryLost: Seat lost Territory to neutral (the lose-territory malus).
type TerritoryLost struct {
	Seat, Territory int
}

// Seized: Seat took Territory, with Troops, from Victim (the fat bonus).
type Seized struct {
	Seat, Victim, Territory, Troops int
}

func (CapitalChosen) event() {}
func (Captured) event()      {}
func (PortBuilt) event()     {}
func (AttackPlanned) event() {}
func (Struck) event()        {}
func (AttackSkipped) event() {}
func (CapitalTaken) event()  {}
func (Moved) event()         {}
func (HeroUnlocked) event()  {}
func (HeroDied) event()      {}
func (ItemSpawned) event()   {}
func (ItemVanished) event()  {}
func (ItemCollected) event() {}
func (ItemUsed) event()      {}
func (TroopsScaled) event()  {}
func (TerritoryLost) event() {}
func (Seized) event()        {}

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

func (MissionFulfilled) event() {}
func (MissionChanged) event()   {}
func (Undone) event()           {}

// The events of simultaneous rounds (turns:simultaneous).

// Ordered: Seat gave Order for the round (seen by Seat alone until the
// round resolves).
type Ordered struct {
	Seat  int
	Order state.Order
}

// Unordered: Seat took back Order.
type Unordered struct {
	Seat  int
	Order state.Order
}

// Committed: Seat's orders for Round are in.
type Committed struct {
	Seat, Round int
}

// RoundResolved: every seat committed; Round's orders run, one attack or
// move of each seat at a time, the seats in Order (drawn for the round).
// Trades are the sets traded in the round, in the order traded, by the
// seats still in it: secret until now (state.State.RoundTrades), they
// show as the round resolves.
type RoundResolved struct {
	Round  int
	Order  []int
	Trades []Traded
}

// RoundLimit: the match's last round, Round, is over; Won follows, with
// the seat RoundLimitWinner ranks first.
type RoundLimit struct {
	Round int
}

// RoundStarted: Round begins; a TurnStarted follows for each living seat,
// with its reinforcements.
type RoundStarted struct {
	Round int
}

// SkipReason says why an order was not played.
type SkipReason uint8

// The reasons an order is skipped when its round resolves.
const (
	SkipSourceLost SkipReason = iota + 1 // the order's source is no longer the seat's
	SkipNoArmies                         // the source has no army to spare
	SkipTargetLost                       // a move's destination is no longer the seat's
)

// OrderSkipped: Order of Seat was not played, for Why.
type OrderSkipped struct {
	Seat  int
	Order state.Order
	Why   SkipReason
}

// Transferred: Seat moved Armies from From to its To when the round
// resolved; Attack if it was an attack on a territory the seat had taken
// earlier in the round.
type Transferred struct {
	Seat, From, To, Armies int
	Attack                 bool
}

func (Ordered) event()       {}
func (Unordered) event()     {}
func (Committed) event()     {}
func (RoundResolved) event() {}
func (RoundStarted) event()  {}
func (RoundLimit) event()    {}
func (OrderSkipped) event()  {}
func (Transferred) event()   {}
