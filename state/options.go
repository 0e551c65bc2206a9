package state

import "fmt"

// Rules is the rule set of a match.
type Rules uint8

// The rule sets.
const (
	Classic Rules = iota
	Capitals
)

// Victory is the classic victory condition.
type Victory uint8

// The victory conditions. Every way the last player standing wins.
const (
	TwoThirds  Victory = iota // own two thirds of the territories, rounded up
	Domination                // own everything
	Missions                  // fulfil one's secret mission first (classic only; see Mission)
)

// CardMode is how many armies a set of cards is worth.
type CardMode uint8

// The card trade schemes.
const (
	Escalating CardMode = iota // 4, 6, 8, 10, 12, 15, then +5, across the match
	Fixed                      // 3 infantry 4, 3 cavalry 6, 3 artillery 8, one of each 10
)

// FortifyMode is how armies move at the end of a turn.
type FortifyMode uint8

// The fortification variants.
const (
	Connected FortifyMode = iota // one move through owned territories
	Adjacent                     // many moves, one step per army
)

// TurnMode is how the players take their turns.
type TurnMode uint8

// The turn modes (RULES.md section 3).
const (
	Sequential   TurnMode = iota // one player at a time, in turn order
	Simultaneous                 // everyone orders at once; each round resolves when all have committed
)

// Options are the per-match rule settings.
type Options struct {
	Rules   Rules       `json:"rules"`
	Map     string      `json:"map"`
	Victory Victory     `json:"victory"`
	Cards   CardMode    `json:"cards"`
	Fortify FortifyMode `json:"fortify"`
	// Turns is absent from the JSON of sequential matches, as it was
	// before simultaneous turns existed.
	Turns TurnMode `json:"turns,omitempty"`
	// Rounds, if positive, ends the match when round Rounds is over, the
	// winner the seat with the most territories (RoundLimitWinner); 0 plays
	// to the end. A round is one turn of every living seat.
	Rounds int `json:"rounds,omitempty"`
	// Fog hides from each player what lies out of their sight (State.Sight)
	// until the match is over (RULES.md section 3, "Fog of war").
	Fog bool `json:"fog,omitempty"`
	// Teams is the size of the teams (2 or 3), 0 for every player on
	// their own (RULES.md section 3, "Teams"); each seat's team is
	// Seat.Team. Absent from the JSON of matches without teams.
	Teams int `json:"teams,omitempty"`
	// The capitals rule set's options; zero in classic matches. Each
	// neutral territory starts with NeutralMin to NeutralMax troops
	// (fortresses 5 more), and each capital with CapitalTroops.
	NeutralMin    int `json:"neutral_min,omitempty"`
	NeutralMax    int `json:"neutral_max,omitempty"`
	CapitalTroops int `json:"capital_troops,omitempty"`
}

// The capitals rule set's defaults and limits (RULES.md section 2).
const (
	DefaultNeutralMin    = 1
	DefaultNeutralMax    = 5
	DefaultCapitalTroops = 10
	MaxNeutral           = 30
	MaxCapitalTroops     = 50
	FortressTroops       = 5 // the more neutral troops a fortress starts with
)

// TeamSizes lists the team sizes a match may set.
var TeamSizes = []int{2, 3}

// MaxRounds is the largest round limit a match may set.
const MaxRounds = 1000

// CapitalsOptions returns the default options of a capitals match, on a
// generated map of normal size.
func CapitalsOptions() Options {
	return Options{Rules: Capitals, Map: "normal", NeutralMin: DefaultNeutralMin, NeutralMax: DefaultNeutralMax,
		CapitalTroops: DefaultCapitalTroops}
}

// DefaultOptions returns the options of a match nobody configured.
func DefaultOptions() Options {
	return Options{Rules: Classic, Map: "classic", Victory: TwoThirds, Cards: Escalating, Fortify: Connected}
}

var (
	rulesNames   = []string{"classic", "capitals"}
	victoryNames = []string{"two-thirds", "domination", "missions"}
	cardNames    = []string{"escalating", "fixed"}
	fortifyNames = []string{"connected", "adjacent"}
	turnNames    = []string{"sequential", "simultaneous"}
)

// RulesNames, VictoryNames, CardModeNames and FortifyNames list the accepted
// spellings of each option, for help texts and command choices.
func RulesNames() []string    { return append([]string(nil), rulesNames...) }
func VictoryNames() []string  { return append([]string(nil), victoryNames...) }
func CardModeNames() []string { return append([]string(nil), cardNames...) }
func FortifyNames() []string  { return append([]string(nil), fortifyNames...) }

// TurnModeNames lists the accepted spellings of the turn modes.
func TurnModeNames() []string { return append([]string(nil), turnNames...) }

// enumString, enumParse and enumText are the String, parsing and text
// encoding of a small enumeration whose values are named, in order, by names.
func enumString[T ~uint8](names []string, v T) string {
	if int(v) < len(names) {
		return names[v]
	}
	return fmt.Sprintf("%d", uint8(v))
}

func enumParse[T ~uint8](names []string, what, s string) (T, error) {
	for i, n := range names {
		if n == s {
			return T(i), nil
		}
	}
	return 0, fmt.Errorf("unknown %s %q (want %s)", what, s, orList(names))
}

func enumText[T ~uint8](names []string, what string, v T) ([]byte, error) {
	if int(v) >= len(names) {
		return nil, fmt.Errorf("state: invalid %s %d", what, v)
	}
	return []byte(names[v]), nil
}

func (r Rules) String() string       { return enumString(rulesNames, r) }
func (v Victory) String() string     { return enumString(victoryNames, v) }
func (c CardMode) String() string    { return enumString(cardNames, c) }
func (f FortifyMode) String() string { return enumString(fortifyNames, f) }
func (t TurnMode) String() string    { return enumString(turnNames, t) }

// ParseRules, ParseVictory, ParseCardMode and ParseFortify read an option
// value by name.
func ParseRules(s string) (Rules, error) { return enumParse[Rules](rulesNames, "rule set", s) }
func ParseVictory(s string) (Victory, error) {
	return enumParse[Victory](victoryNames, "victory condition", s)
}
func ParseCardMode(s string) (CardMode, error) {
	return enumParse[CardMode](cardNames, "card scheme", s)
}
func ParseFortify(s string) (FortifyMode, error) {
	return enumParse[FortifyMode](fortifyNames, "fortify rule", s)
}

// ParseTurnMode reads a turn mode by name.
func ParseTurnMode(s string) (TurnMode, error) { return enumParse[TurnMode](turnNames, "turn mode", s) }

// MarshalText encodes the option by name.
func (r Rules) MarshalText() ([]byte, error) { return enumText(rulesNames, "rules", r) }

// MarshalText encodes the option by name.
func (v Victory) MarshalText() ([]byte, error) {
	return enumText(victoryNames, "victory", v)
}

// MarshalText encodes the option by name.
func (c CardMode) MarshalText() ([]byte, error) { return enumText(cardNames, "cards", c) }

// MarshalText encodes the option by name.
func (f FortifyMode) MarshalText() ([]byte, error) {
	return enumText(fortifyNames, "fortify", f)
}

// UnmarshalText decodes the option by name.
func (r *Rules) UnmarshalText(b []byte) (err error) { *r, err = ParseRules(string(b)); return }

// UnmarshalText decodes the option by name.
func (v *Victory) UnmarshalText(b []byte) (err error) { *v, err = ParseVictory(string(b)); return }

// UnmarshalText decodes the option by name.
func (c *CardMode) UnmarshalText(b []byte) (err error) { *c, err = ParseCardMode(string(b)); return }

// UnmarshalText decodes the option by name.
func (f *FortifyMode) UnmarshalText(b []byte) (err error) { *f, err = ParseFortify(string(b)); return }

// MarshalText encodes the option by name.
func (t TurnMode) MarshalText() ([]byte, error) { return enumText(turnNames, "turns", t) }

// UnmarshalText decodes the option by name.
func (t *TurnMode) UnmarshalText(b []byte) (err error) { *t, err = ParseTurnMode(string(b)); return }
