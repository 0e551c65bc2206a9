package engine

import (
	"bytes"
	"encoding/json"
	"fmt"

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

// Name implements Command.
func (Place) Name() string     { return "place" }
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
	case *Fortify:
		allowed = from | to | armies
	case *Discard:
		allowed = card
	}
	for i, f := range []struct {
		name string
		set  bool
	}{{"territory", w.Territory != nil}, {"armies", w.Armies != nil}, {"cards", w.Cards != nil}, {"from", w.From != nil},
		{"to", w.To != nil}, {"dice", w.Dice != nil}, {"keep", w.Keep != nil}, {"card", w.Card != nil}} {
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
	case *Discard:
		var d Discard
		if w.Card != nil {
			d.Card = *w.Card
		}
		return d, nil
	}
	return deref(c), nil
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

// Describe renders c for people, naming territories and cards on map m:
// "attack Alaska → Kamchatka with 3 dice".
func Describe(m *state.Map, c Command) string {
	n := m.TerritoryName
	switch c := c.(type) {
	case Place:
		return fmt.Sprintf("place %d on %s", c.Armies, n(c.Territory))
	case Trade:
		return fmt.Sprintf("trade %s, %s and %s", m.CardName(c.Cards[0]), m.CardName(c.Cards[1]), m.CardName(c.Cards[2]))
	case Attack:
		return fmt.Sprintf("attack %s → %s with %d dice", n(c.From), n(c.To), c.Dice)
	case Blitz:
		if c.Keep <= 1 {
			return fmt.Sprintf("blitz %s → %s", n(c.From), n(c.To))
		}
		return fmt.Sprintf("blitz %s → %s keeping %d", n(c.From), n(c.To), c.Keep)
	case Occupy:
		return fmt.Sprintf("occupy with %d", c.Armies)
	case Fortify:
		return fmt.Sprintf("fortify %s → %s with %d", n(c.From), n(c.To), c.Armies)
	case Discard:
		return fmt.Sprintf("discard %s", m.CardName(c.Card))
	case nil:
		return "nothing"
	}
	return c.Name()
}
