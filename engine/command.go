package engine

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/state"
)

// Command is one player action. The concrete types below are the whole set;
// each encodes to JSON as an object with a "type" field.
type Command interface {
	// Name is the command's type in JSON and in chat ("attack").
	Name() string
}

// Place puts armies from the seat's reserve on one of its territories, during
// the initial placement or the reinforcement of a turn.
type Place struct {
	Territory int `json:"territory"`
	Armies    int `json:"armies"`
}

// AutoPlace places all the seat's remaining reserve at random on its
// territories that border an enemy (or on any of its territories).
type AutoPlace struct{}

// Trade hands in a set of three cards for armies.
type Trade struct {
	Cards [3]state.Card `json:"cards"`
}

// Attack rolls once, with 1 to 3 dice, from one territory against an
// adjacent enemy one.
type Attack struct {
	From int `json:"from"`
	To   int `json:"to"`
	Dice int `json:"dice"`
}

// Blitz attacks repeatedly, with as many dice as allowed, until the target
// falls or the source is down to Keep armies (at least 1). It never rolls so
// many dice that one roll could take the source below Keep.
type Blitz struct {
	From int `json:"from"`
	To   int `json:"to"`
	Keep int `json:"keep"`
}

// Occupy moves armies into a just-conquered territory: in total Armies, at
// least the dice of the last roll, at most all but one of the source.
type Occupy struct {
	Armies int `json:"armies"`
}

// Fortify moves armies between two of the seat's territories.
type Fortify struct {
	From   int `json:"from"`
	To     int `json:"to"`
	Armies int `json:"armies"`
}

// Discard drops a card from a full hand before the end-of-turn draw.
type Discard struct {
	Card state.Card `json:"card"`
}

// EndTurn ends the turn: a seat that conquered this turn draws a card.
type EndTurn struct{}

// Surrender leaves the match; the seat's territories turn neutral.
type Surrender struct{}

// Undo takes back the seat's last action of the turn, up to the last roll of
// dice or draw of a card. Only a Game can undo.
type Undo struct{}

// Capital chooses the seat's capital among the neutral territories, in turn
// order, before the first turn (capitals rules).
type Capital struct {
	Territory int `json:"territory"`
}

// Reinforce sends the turn's reinforcements, 3 troops per territory held,
// to one of the seat's territories (capitals rules).
type Reinforce struct {
	Territory int `json:"territory"`
}

// Capture takes a neutral territory next to From (or reached by sea from
// a port on From), with the troops on it. It is the turn's action
// (capitals rules).
type Capture struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// BuildPort builds a port on one of the seat's coastal territories. It is
// the turn's action, unless the attack-and-port item is in effect
// (capitals rules).
type BuildPort struct {
	Territory int `json:"territory"`
}

// Plan adds an attack from From on the enemy territory To to the turn's
// plan; Launch runs the plan (capitals rules).
type Plan struct {
	From int `json:"from"`
	To   int `json:"to"`
}

// Launch runs the planned attacks in the order they were planned; it is the
// turn's action (capitals rules).
type Launch struct{}

// UseItem puts the seat's kept item in effect for the rest of the turn
// (capitals rules).
type UseItem struct{}

// Move is the turn's one move between two of the seat's territories
// (capitals rules): Quarters (1 to 4) quarters of the troops on From,
// rounded down, one staying unless all go, and the hero with them if Hero.
type Move struct {
	From     int  `json:"from"`
	To       int  `json:"to"`
	Quarters int  `json:"quarters"`
	Hero     bool `json:"hero,omitempty"`
}

// Name implements Command.
func (Place) Name() string     { return "place" }
func (Capital) Name() string   { return "capital" }
func (Reinforce) Name() string { return "reinforce" }
func (Capture) Name() string   { return "capture" }
func (BuildPort) Name() string { return "port" }
func (Plan) Name() string      { return "plan" }
func (Launch) Name() string    { return "launch" }
func (UseItem) Name() string   { return "use" }
func (Move) Name() string      { return "move" }
func (AutoPlace) Name() string { return "autoplace" }
func (Trade) Name() string     { return "trade" }
func (Attack) Name() string    { return "attack" }
func (Blitz) Name() string     { return "blitz" }
func (Occupy) Name() string    { return "occupy" }
func (Fortify) Name() string   { return "fortify" }
func (Discard) Name() string   { return "discard" }
func (EndTurn) Name() string   { return "end" }
func (Surrender) Name() string { return "surrender" }
func (Undo) Name() string      { return "undo" }

// newCommand returns a pointer to a zero command of the named type.
func newCommand(name string) (Command, bool) {
	switch name {
	case "place":
		return &Place{}, true
	case "autoplace":
		return &AutoPlace{}, true
	case "trade":
		return &Trade{}, true
	case "attack":
		return &Attack{}, true
	case "blitz":
		return &Blitz{}, true
	case "occupy":
		return &Occupy{}, true
	case "fortify":
		return &Fortify{}, true
	case "discard":
		return &Discard{}, true
	case "end":
		return &EndTurn{}, true
	case "surrender":
		return &Surrender{}, true
	case "undo":
		return &Undo{}, true
	case "capital":
		return &Capital{}, true
	case "reinforce":
		return &Reinforce{}, true
	case "capture":
		return &Capture{}, true
	case "port":
		return &BuildPort{}, true
	case "plan":
		return &Plan{}, true
	case "launch":
		return &Launch{}, true
	case "use":
		return &UseItem{}, true
	case "move":
		return &Move{}, true
	case "assault":
		return &Assault{}, true
	case "rollback":
		return &Rollback{}, true
	}
	return nil, false
}

// deref turns the *T that newCommand made back into the T value.
func deref(c Command) Command {
	switch c := c.(type) {
	case *Place:
		return *c
	case *AutoPlace:
		return *c
	case *Trade:
		return *c
	case *Attack:
		return *c
	case *Blitz:
		return *c
	case *Occupy:
		return *c
	case *Fortify:
		return *c
	case *Discard:
		return *c
	case *EndTurn:
		return *c
	case *Surrender:
		return *c
	case *Undo:
		return *c
	case *Capital:
		return *c
	case *Reinforce:
		return *c
	case *Capture:
		return *c
	case *BuildPort:
		return *c
	case *Plan:
		return *c
	case *Launch:
		return *c
	case *UseItem:
		return *c
	case *Move:
		return *c
	case *Assault:
		return *c
	case *Rollback:
		return *c
	}
	return c
}

// MarshalCommand encodes c as a JSON object with a "type" field.
func MarshalCommand(c Command) ([]byte, error) {
	if c == nil {
		return nil, fmt.Errorf("engine: nil command")
	}
	if _, ok := newCommand(c.Name()); !ok {
		return nil, fmt.Errorf("engine: unknown command type %T", c)
	}
	body, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("engine: encode %s: %w", c.Name(), err)
	}
	head := fmt.Sprintf(`{"type":%q`, c.Name())
	if bytes.Equal(body, []byte("{}")) {
		return []byte(head + "}"), nil
	}
	return append([]byte(head+","), body[1:]...), nil
}

// wireCommand holds the fields of every command type, so that a command
// (and a log entry around it) decodes in a single pass: a replay decodes
// thousands of them.
type wireCommand struct {
	Type      string         `json:"type"`
	Territory *int           `json:"territory"`
	Armies    *int           `json:"armies"`
	Cards     *[3]state.Card `json:"cards"`
	From      *int           `json:"from"`
	To        *int           `json:"to"`
	Dice      *int           `json:"dice"`
	Keep      *int           `json:"keep"`
	Card      *state.Card    `json:"card"`
	Quarters  *int           `json:"quarters"`
	Hero      *bool          `json:"hero"`
	Turn      *int           `json:"turn"`
}

// command turns the decoded fields into the command of their type,
// refusing fields that belong to another type.
func (w *wireCommand) command() (Command, error) {
	c, ok := newCommand(w.Type)
	if !ok {
		if w.Type == "" {
			return nil, fmt.Errorf("engine: decode command: no type")
		}
		return nil, fmt.Errorf("engine: unknown command type %q", w.Type)
	}
	// Refuse fields of another command type: each type allows a set of
	// them (one bit per field, in the order of wireCommand).
	const (
		territory = 1 << iota
		armies
		cards
		from
		to
		dice
		keep
		card
		quarters
		hero
		turn
	)
	var allowed int
	switch c.(type) {
	case *Place:
		allowed = territory | armies
	case *Trade:
		allowed = cards
	case *Attack:
		allowed = from | to | dice
	case *Blitz:
		allowed = from | to | keep
	case *Occupy:
		allowed = armies
	case *Fortify, *Assault:
		allowed = from | to | armies
	case *Discard:
		allowed = card
	case *Capital, *Reinforce, *BuildPort:
		allowed = territory
	case *Capture, *Plan:
		allowed = from | to
	case *Move:
		allowed = from | to | quarters | hero
	case *Rollback:
		allowed = turn
	}
	for i, f := range []struct {
		name string
		set  bool
	}{{"territory", w.Territory != nil}, {"armies", w.Armies != nil}, {"cards", w.Cards != nil}, {"from", w.From != nil},
		{"to", w.To != nil}, {"dice", w.Dice != nil}, {"keep", w.Keep != nil}, {"card", w.Card != nil},
		{"quarters", w.Quarters != nil}, {"hero", w.Hero != nil}, {"turn", w.Turn != nil}} {
		if f.set && allowed&(1<<i) == 0 {
			return nil, fmt.Errorf("engine: decode %s: unknown field %q", w.Type, f.name)
		}
	}
	n := func(p *int) int {
		if p == nil {
			return 0
		}
		return *p
	}
	switch c.(type) {
	case *Place:
		return Place{Territory: n(w.Territory), Armies: n(w.Armies)}, nil
	case *Trade:
		var t Trade
		if w.Cards != nil {
			t.Cards = *w.Cards
		}
		return t, nil
	case *Attack:
		return Attack{From: n(w.From), To: n(w.To), Dice: n(w.Dice)}, nil
	case *Blitz:
		return Blitz{From: n(w.From), To: n(w.To), Keep: n(w.Keep)}, nil
	case *Occupy:
		return Occupy{Armies: n(w.Armies)}, nil
	case *Fortify:
		return Fortify{From: n(w.From), To: n(w.To), Armies: n(w.Armies)}, nil
	case *Assault:
		return Assault{From: n(w.From), To: n(w.To), Armies: n(w.Armies)}, nil
	case *Discard:
		var d Discard
		if w.Card != nil {
			d.Card = *w.Card
		}
		return d, nil
	case *Capital:
		return Capital{Territory: n(w.Territory)}, nil
	case *Reinforce:
		return Reinforce{Territory: n(w.Territory)}, nil
	case *BuildPort:
		return BuildPort{Territory: n(w.Territory)}, nil
	case *Capture:
		return Capture{From: n(w.From), To: n(w.To)}, nil
	case *Plan:
		return Plan{From: n(w.From), To: n(w.To)}, nil
	case *Move:
		return Move{From: n(w.From), To: n(w.To), Quarters: n(w.Quarters), Hero: w.Hero != nil && *w.Hero}, nil
	case *Rollback:
		return Rollback{Turn: n(w.Turn)}, nil
	}
	return deref(c), nil
}

// quartersText names a move's share of the troops.
func quartersText(q int) string {
	switch q {
	case 1:
		return "1/4"
	case 2:
		return "1/2"
	case 3:
		return "3/4"
	case 4:
		return "all"
	}
	return fmt.Sprintf("%d/4", q)
}

// UnmarshalCommand decodes a command encoded by MarshalCommand. Unknown
// types and unknown fields are errors, so that a typo in a stored log is not
// silently lost.
func UnmarshalCommand(b []byte) (Command, error) {
	var w wireCommand
	if err := strictUnmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("engine: decode command: %w", err)
	}
	return w.command()
}

// strictUnmarshal decodes JSON, refusing unknown fields and trailing data.
func strictUnmarshal(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("unexpected data after the value")
	}
	return nil
}

// Describe renders c for people, in English, naming territories and cards
// on map m: "attack Alaska → Kamchatka with 3 dice".
func Describe(m *state.Map, c Command) string { return DescribeMsg(m, c).String() }

// DescribeMsg is c as the catalogue words it, in any language.
func DescribeMsg(m *state.Map, c Command) lang.Msg {
	at := func(t int) any { return lang.Place(m.TerritoryName(t)) }
	end := func(t int) any { return lang.Label(m.TerritoryName(t)) }
	card := func(k state.Card) lang.Msg {
		if t, ok := m.CardTerritory(k); ok {
			return lang.M("engine.describe.card", "Place", lang.Label(m.Territories[t].Name), "Kind", cardKind(m.CardKind(k)))
		}
		return lang.M("engine.card.wild")
	}
	switch c := c.(type) {
	case Place:
		return lang.M("engine.describe.place", "Armies", c.Armies, "Where", at(c.Territory))
	case Trade:
		return lang.M("engine.describe.trade", "A", card(c.Cards[0]), "B", card(c.Cards[1]), "C", card(c.Cards[2]))
	case Attack:
		return lang.M("engine.describe.attack", "From", end(c.From), "To", end(c.To), "Dice", lang.M("engine.describe.dice", "Count", c.Dice))
	case Blitz:
		if c.Keep <= 1 {
			return lang.M("engine.describe.blitz", "From", end(c.From), "To", end(c.To))
		}
		return lang.M("engine.describe.blitz-keep", "From", end(c.From), "To", end(c.To), "Keep", c.Keep)
	case Occupy:
		return lang.M("engine.describe.occupy", "Armies", c.Armies)
	case Fortify:
		return lang.M("engine.describe.fortify", "From", end(c.From), "To", end(c.To), "Armies", c.Armies)
	case Assault:
		return lang.M("engine.describe.assault", "Armies", c.Armies, "From", end(c.From), "To", end(c.To))
	case Discard:
		return lang.M("engine.describe.discard", "Card", card(c.Card))
	case Capital:
		return lang.M("engine.describe.capital", "Where", at(c.Territory))
	case Reinforce:
		return lang.M("engine.describe.reinforce", "Where", at(c.Territory))
	case Capture:
		return lang.M("engine.describe.capture", "To", at(c.To), "From", at(c.From))
	case BuildPort:
		return lang.M("engine.describe.port", "Where", at(c.Territory))
	case Plan:
		return lang.M("engine.describe.plan", "From", end(c.From), "To", end(c.To))
	case Launch:
		return lang.M("engine.describe.launch")
	case UseItem:
		return lang.M("engine.describe.use")
	case Move:
		if c.Hero {
			return lang.M("engine.describe.move-hero", "Share", quarters(c.Quarters), "From", at(c.From), "To", at(c.To))
		}
		return lang.M("engine.describe.move", "Share", quarters(c.Quarters), "From", at(c.From), "To", at(c.To))
	case Rollback:
		return lang.M("engine.describe.rollback", "Turn", c.Turn)
	case nil:
		return lang.M("engine.describe.nothing")
	}
	return lang.M("engine.describe.other", "Name", lang.Text(c.Name()))
}

// Territories returns the territories command c names, in the order of its
// fields (none for a command that names none).
func Territories(c Command) []int {
	switch c := deref(c).(type) {
	case Place:
		return []int{c.Territory}
	case Capital:
		return []int{c.Territory}
	case Reinforce:
		return []int{c.Territory}
	case BuildPort:
		return []int{c.Territory}
	case Attack:
		return []int{c.From, c.To}
	case Blitz:
		return []int{c.From, c.To}
	case Fortify:
		return []int{c.From, c.To}
	case Capture:
		return []int{c.From, c.To}
	case Plan:
		return []int{c.From, c.To}
	case Move:
		return []int{c.From, c.To}
	case Assault:
		return []int{c.From, c.To}
	}
	return nil
}
