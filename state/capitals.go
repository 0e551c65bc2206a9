package state

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Item is the kind of an item of the capitals rule set (RULES.md section
// 2, "Items"). Kinds 1 to 4 are kept in the inventory until used; the others
// act the moment they are collected.
type Item uint8

// The item kinds, and ItemHidden, which stands in a view for an item whose
// kind the viewer may not know.
const (
	NoItem         Item = iota
	ItemDistant         // attack a distant territory (not a capital)
	ItemFullPower       // several attacks at full power
	ItemAttackPort      // attack and build a port in the same turn
	ItemTwoTurns        // play two turns in a row
	ItemTroopBonus      // +10% troops on every territory, at once
	ItemTroopMalus      // -10% troops on every territory, at once
	ItemLoseLand        // lose one territory, at once
	ItemFat             // the fat bonus, at once
	NumItems            = int(iota)

	ItemHidden Item = 255
)

var itemNames = [NumItems]string{"", "distant-attack", "full-power", "attack-and-port", "two-turns",
	"troop-bonus", "troop-malus", "lose-territory", "fat-bonus"}

var itemTitles = [NumItems]string{"", "Distant attack", "Full power", "Attack and port", "Two turns",
	"Troop bonus", "Troop malus", "Lost territory", "Fat bonus"}

// Kept reports whether the item goes to the inventory, to be used later.
func (i Item) Kept() bool { return i >= ItemDistant && i <= ItemTwoTurns }

// Known reports whether i is a real item kind (not none, not hidden).
func (i Item) Known() bool { return i > NoItem && int(i) < NumItems }

func (i Item) String() string {
	switch {
	case i == ItemHidden:
		return "hidden"
	case int(i) < NumItems:
		return itemNames[i]
	}
	return "item(" + strconv.Itoa(int(i)) + ")"
}

// Title is the item's name for people ("Two turns").
func (i Item) Title() string {
	switch {
	case i == ItemHidden:
		return "An item"
	case i.Known():
		return itemTitles[i]
	}
	return "No item"
}

// MarshalText encodes the item by name.
func (i Item) MarshalText() ([]byte, error) {
	if i != ItemHidden && int(i) >= NumItems {
		return nil, fmt.Errorf("state: invalid item %d", uint8(i))
	}
	return []byte(i.String()), nil
}

// UnmarshalText decodes an item name.
func (i *Item) UnmarshalText(b []byte) error {
	for k, n := range itemNames {
		if k > 0 && n == string(b) {
			*i = Item(k)
			return nil
		}
	}
	if string(b) == "hidden" {
		*i = ItemHidden
		return nil
	}
	return fmt.Errorf("unknown item %q", b)
}

// ItemLife is how many turns an item waits on a territory nobody owns
// (counted at the start of each turn, the turn it appeared included).
const ItemLife = 4

// MaxPlan bounds the attacks a player may plan in one turn. Every planned
// attack divides the power of all of them, so more would never pass the
// strictly-greater rule anyway.
const MaxPlan = 8

// Planned is one attack planned during a capitals turn.
type Planned struct {
	From int16 `json:"from"`
	To   int16 `json:"to"`
}

// dropPlans removes the planned attacks for which out is true.
func (c *CapitalsTurn) dropPlans(out func(Planned) bool) {
	c.NPlan = uint8(len(slices.DeleteFunc(c.Plan[:c.NPlan], out)))
}

// CapitalsTurn is what the capitals rule set keeps of the turn in play.
// It is a fixed-size value so that cloning a State does not allocate for it.
type CapitalsTurn struct {
	Plan  [MaxPlan]Planned `json:"-"`
	NPlan uint8            `json:"-"`
	// Active holds the items in effect for the rest of the turn, one bit
	// per kind.
	Active uint16 `json:"active,omitempty"`
	// Ported: a port was built this turn (with the attack-and-port item,
	// the action phase goes on).
	Ported bool `json:"ported,omitempty"`
	// Moved: the turn's one move is done.
	Moved bool `json:"moved,omitempty"`
	// Again: the player plays the next turn too (two-turns item).
	Again bool `json:"again,omitempty"`
}

// Planned returns the planned attacks in launch order.
func (c *CapitalsTurn) Planned() []Planned { return append([]Planned(nil), c.Plan[:c.NPlan]...) }

// Has reports whether item kind k is in effect this turn.
func (c *CapitalsTurn) Has(k Item) bool { return k.Known() && c.Active&(1<<k) != 0 }

// Capital returns seat's capital, or -1 before it is chosen or once the
// seat is out.
func (s *State) Capital(seat int) int { return int(s.Seats[seat].Capitals.Capital) - 1 }

// Hero returns the territory seat's hero stands on, or -1 without a living
// hero.
func (s *State) Hero(seat int) int { return int(s.Seats[seat].Capitals.Hero) - 1 }

// IsCapital reports whether territory t is some seat's capital.
func (s *State) IsCapital(t int) bool {
	for i := range s.Seats {
		if s.Capital(i) == t {
			return true
		}
	}
	return false
}

// Terrains counts the distinct terrains of seat's territories (the hero
// comes with 4).
func (s *State) Terrains(seat int) int {
	var seen uint32
	for t := range s.Terr {
		if s.Terr[t].Owner == seat {
			seen |= 1 << s.Map.Territories[t].Terrain
		}
	}
	n := 0
	for ; seen != 0; seen &= seen - 1 {
		n++
	}
	return n
}

// HeroTerrains is how many distinct terrains unlock the hero.
const HeroTerrains = 4

// PowerUnit is the fraction of a troop in which attack and defence totals
// are counted: 1680 is divisible by every planned-attack count up to
// MaxPlan, by 2 for the sea and by 5 for the hero's 20%, so totals and the
// strictly-greater rule are exact integers on every platform.
const PowerUnit = 1680

// HeroPower returns the power of seat's hero, in PowerUnits: 20% of all
// the seat's troops on the map. It is 0 without a living hero.
func (s *State) HeroPower(seat int) int {
	if s.Hero(seat) < 0 {
		return 0
	}
	return s.Armies(seat) * PowerUnit / 5
}

// Attack is an attack total and how it was reached.
type Attack struct {
	Total int   // in PowerUnits
	Reach Reach // by land or by sea; NoReach if from cannot attack to
}

// AttackTotal returns the attack total of from on to with n attacks
// planned (RULES.md section 2, "Combat"), in PowerUnits: the troops on from,
// divided by n unless the full-power item is in effect, halved by sea, plus
// the hero's power if the hero stands on from. With the distant-attack item
// a territory out of reach is attacked as by land, unless it is a capital.
func (s *State) AttackTotal(from, to, n int) Attack {
	seat := s.Terr[from].Owner
	reach := s.Map.Reach(from, to, s.Terr[from].Port)
	if reach == NoReach && s.Cap.Has(ItemDistant) && !s.IsCapital(to) {
		reach = ByLand
	}
	if reach == NoReach || seat < 0 {
		return Attack{}
	}
	if s.Cap.Has(ItemFullPower) || n < 1 {
		n = 1
	}
	div := n
	if reach == BySea {
		div *= 2
	}
	total := s.Terr[from].Armies * PowerUnit / div
	if s.Hero(seat) == from {
		total += s.HeroPower(seat)
	}
	return Attack{Total: total, Reach: reach}
}

// DefenceTotal returns the defence total of territory t, in PowerUnits: its
// troops, plus the troops of every territory of the same owner that borders
// it, plus half those of the owner's territories whose port reaches it by
// sea, plus the owner's hero's power if the hero stands on one of them.
func (s *State) DefenceTotal(t int) int {
	owner := s.Terr[t].Owner
	total := s.Terr[t].Armies * PowerUnit
	if owner < 0 {
		return total
	}
	hero := s.Hero(owner)
	withHero := hero == t
	for _, n := range s.Map.Territories[t].Adj {
		if s.Terr[n].Owner == owner {
			total += s.Terr[n].Armies * PowerUnit
			withHero = withHero || hero == n
		}
	}
	for _, n := range s.Map.Territories[t].Sea {
		if s.Terr[n].Owner == owner && s.Terr[n].Port {
			total += s.Terr[n].Armies * PowerUnit / 2
			withHero = withHero || hero == n
		}
	}
	if withHero {
		total += s.HeroPower(owner)
	}
	return total
}

// FormatPower writes a total in PowerUnits as troops with at most one
// decimal, rounded down: "14", "12.5".
func FormatPower(units int) string {
	tenths := units * 10 / PowerUnit
	if tenths%10 == 0 {
		return strconv.Itoa(tenths / 10)
	}
	return fmt.Sprintf("%d.%d", tenths/10, tenths%10)
}

// MoveDefault returns seat's default move: the quarters of the troops
// (1 to 4) and whether the hero goes, as last chosen; 1/2 without the hero
// before the first move.
func (s *State) MoveDefault(seat int) (quarters int, hero bool) {
	c := s.Seats[seat].Capitals
	if c.MoveQuarters == 0 {
		return 2, false
	}
	return int(c.MoveQuarters), c.MoveHero
}

// MoveCount returns how many troops a move of quarters (1 to 4) takes from
// a territory holding armies: rounded down, and one stays unless all go.
func MoveCount(armies, quarters int) int {
	if quarters >= 4 {
		return armies
	}
	return max(0, min(armies*quarters/4, armies-1))
}

// checkCapitals verifies the capitals rule set's invariants.
func (s *State) checkCapitals(bad func(string, ...any)) {
	for i, seat := range s.Seats {
		c := seat.Capitals
		capital, hero := int(c.Capital)-1, int(c.Hero)-1
		if capital >= len(s.Terr) || hero >= len(s.Terr) {
			bad("seat %d has capital %d, hero %d of %d territories", i, capital, hero, len(s.Terr))
			continue
		}
		if !seat.Alive() {
			if capital >= 0 || hero >= 0 || c.Item != NoItem {
				bad("seat %d is out but keeps a capital, hero or item", i)
			}
			continue
		}
		if (s.Phase != PhaseSetup && s.Phase != PhaseOver) || capital >= 0 {
			if capital < 0 {
				bad("seat %d plays without a capital", i)
			} else if s.Terr[capital].Owner != i && !s.Terr[capital].Fog {
				bad("seat %d's capital %s belongs to %d", i, s.Map.TerritoryName(capital), s.Terr[capital].Owner)
			}
		}
		if hero >= 0 && (!c.HeroWon || s.Terr[hero].Owner != i) {
			bad("seat %d's hero stands on %s, which it does not hold", i, s.Map.TerritoryName(hero))
		}
		if c.Item != NoItem && c.Item != ItemHidden && !c.Item.Kept() {
			bad("seat %d keeps %s, which acts at once", i, c.Item)
		}
	}
	for t, tr := range s.Terr {
		if tr.Item != NoItem {
			if tr.Owner != Neutral {
				bad("%s is owned but holds an item", s.Map.TerritoryName(t))
			}
			if tr.ItemAge < 1 || tr.ItemAge > ItemLife {
				bad("%s holds an item aged %d turns", s.Map.TerritoryName(t), tr.ItemAge)
			}
		}
		if tr.Port && !s.Map.Territories[t].Coast {
			bad("%s has a port but no shore", s.Map.TerritoryName(t))
		}
	}
	if int(s.Cap.NPlan) > MaxPlan {
		bad("%d attacks planned", s.Cap.NPlan)
	}
}

// capitalsTurnJSON is the JSON form of a CapitalsTurn: the plan as a list.
type capitalsTurnJSON struct {
	Plan   []Planned `json:"plan,omitempty"`
	Active uint16    `json:"active,omitempty"`
	Ported bool      `json:"ported,omitempty"`
	Moved  bool      `json:"moved,omitempty"`
	Again  bool      `json:"again,omitempty"`
}

// MarshalJSON encodes the turn with its plan as a list.
func (c CapitalsTurn) MarshalJSON() ([]byte, error) {
	return json.Marshal(capitalsTurnJSON{c.Planned(), c.Active, c.Ported, c.Moved, c.Again})
}

// UnmarshalJSON decodes a turn.
func (c *CapitalsTurn) UnmarshalJSON(b []byte) error {
	var v capitalsTurnJSON
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if len(v.Plan) > MaxPlan {
		return fmt.Errorf("state: %d planned attacks, at most %d", len(v.Plan), MaxPlan)
	}
	*c = CapitalsTurn{Active: v.Active, Ported: v.Ported, Moved: v.Moved, Again: v.Again, NPlan: uint8(len(v.Plan))}
	copy(c.Plan[:], v.Plan)
	return nil
}
