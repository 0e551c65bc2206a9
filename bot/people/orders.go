package people

import (
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
)

// Standing orders (/risk me notify away: defend: attack: caution:) say how a
// player's seat is played when they are not there: when their turn's time
// runs out, and, while they are away (until a date), at once when their
// turn starts. The channel is told the orders played. Any command of
// theirs in a match says they are back: away ends (the orders stay, for
// the next time out).

// Orders are a player's standing orders, part of their choices (Prefs).
type Orders struct {
	// Defend names a continent (a region on generated maps) whose borders
	// get the reinforcements first.
	Defend string `json:"defend,omitempty"`
	// NoAttack: the seat never attacks (it still places and fortifies).
	NoAttack bool `json:"no_attack,omitempty"`
	// Caution is "careful" (the default, as "": the careful bot that
	// plays timed-out turns), "balanced" or "bold".
	Caution string `json:"caution,omitempty"`
}

// Given reports whether any order is given.
func (o Orders) Given() bool { return o != Orders{} }

// Text words the orders in English: "defend Europe, no attacks, careful".
func (o Orders) Text() string { return o.In(lang.For(lang.English)) }

// In words the orders in p's language.
func (o Orders) In(p lang.Printer) string {
	var parts []string
	if o.Defend != "" {
		parts = append(parts, p.T("people.orders.defend", "Continent", lang.Place(o.Defend)))
	}
	if o.NoAttack {
		parts = append(parts, p.T("people.orders.no-attacks"))
	}
	if o.Caution != "" {
		parts = append(parts, o.Caution)
	}
	if len(parts) == 0 {
		return p.T("people.orders.none")
	}
	return strings.Join(parts, ", ")
}

// Level is the computer level the orders play with.
func (o Orders) Level() string {
	switch o.Caution {
	case "bold":
		return "bold"
	case "balanced":
		return "normal"
	}
	return "cautious"
}
