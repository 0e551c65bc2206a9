package state

import (
	"encoding/json"
	"slices"
)

// ArrowKind is what an arrow on the map shows.
type ArrowKind uint8

// The arrow kinds.
const (
	ArrowAttack   ArrowKind = iota // attacked without taking the territory
	ArrowConquest                  // attacked and took it
	ArrowFortify                   // moved armies between own territories
)

// Arrow is one move of a turn, drawn on the map after it. Its fields are
// small so that the two trails a State carries copy cheaply.
type Arrow struct {
	From  int16     `json:"from"`
	To    int16     `json:"to"`
	Kind  ArrowKind `json:"kind"`
	Seat  int8      `json:"seat"`
	Count int32     `json:"count"` // rolls for attacks, armies for fortifications
}

// trailCap bounds the arrows kept per turn; more are dropped (a map with
// more arrows than this is unreadable anyway).
const trailCap = 32

// Trail is the arrows of one turn. It is a fixed-size value so that cloning a
// State does not allocate for it.
type Trail struct {
	n int
	a [trailCap]Arrow
}

// Add records an arrow, merging it with an earlier one between the same
// territories: a conquest supersedes the attacks before it.
func (t *Trail) Add(a Arrow) {
	for i := range t.n {
		b := &t.a[i]
		if b.From == a.From && b.To == a.To && (b.Kind == a.Kind || (b.Kind == ArrowAttack && a.Kind == ArrowConquest)) {
			b.Kind = a.Kind
			b.Count += a.Count
			return
		}
	}
	if t.n < trailCap {
		t.a[t.n] = a
		t.n++
	}
}

// Arrows returns the arrows in the order they were first drawn.
func (t *Trail) Arrows() []Arrow { return append([]Arrow(nil), t.a[:t.n]...) }

// Len returns the number of arrows.
func (t *Trail) Len() int { return t.n }

// drop removes the arrows for which out is true.
func (t *Trail) drop(out func(Arrow) bool) { t.n = len(slices.DeleteFunc(t.a[:t.n], out)) }

// Reset removes every arrow.
func (t *Trail) Reset() { *t = Trail{} }

// MarshalJSON encodes the trail as a list of arrows.
func (t Trail) MarshalJSON() ([]byte, error) {
	if t.n == 0 {
		return []byte("[]"), nil
	}
	return json.Marshal(t.a[:t.n])
}

// UnmarshalJSON decodes a list of arrows.
func (t *Trail) UnmarshalJSON(b []byte) error {
	var as []Arrow
	if err := json.Unmarshal(b, &as); err != nil {
		return err
	}
	*t = Trail{}
	for _, a := range as {
		t.Add(a)
	}
	return nil
}
