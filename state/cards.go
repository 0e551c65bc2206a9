package state

import (
	"encoding/json"
	"fmt"
	"math/bits"
)

// Card is a card of the deck. Cards 0..n-1 show territory n's picture (for a
// map of n territories); cards n and n+1 are the wild cards.
type Card uint8

// Kind is the picture class of a card.
type Kind uint8

// The card kinds.
const (
	Infantry Kind = iota
	Cavalry
	Artillery
	Wild
)

var kindNames = [...]string{"infantry", "cavalry", "artillery", "wild"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", uint8(k))
}

// NumCards returns the size of the deck: one card per territory and two wilds.
func (m *Map) NumCards() int { return len(m.Territories) + 2 }

// CardKind returns the kind of card c. Territory cards cycle through infantry,
// cavalry and artillery in territory order, which spreads the kinds evenly.
func (m *Map) CardKind(c Card) Kind {
	if int(c) >= len(m.Territories) {
		return Wild
	}
	return Kind(int(c) % 3)
}

// CardTerritory returns the territory shown on card c, and false for a wild.
func (m *Map) CardTerritory(c Card) (int, bool) {
	if int(c) >= len(m.Territories) {
		return -1, false
	}
	return int(c), true
}

// CardName describes card c for people: "Alaska (infantry)" or "wild".
func (m *Map) CardName(c Card) string {
	if t, ok := m.CardTerritory(c); ok {
		return fmt.Sprintf("%s (%s)", m.Territories[t].Name, m.CardKind(c))
	}
	return "wild"
}

// CardSet is a set of cards as a bitset; it is a value, so copying a State
// copies hands and piles without allocating.
type CardSet [2]uint64

// FullDeck returns the set of every card of a deck of n cards.
func FullDeck(n int) CardSet {
	var s CardSet
	for c := range n {
		s = s.Add(Card(c))
	}
	return s
}

// Has reports whether c is in the set.
func (s CardSet) Has(c Card) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// Add returns the set with c added.
func (s CardSet) Add(c Card) CardSet { s[c>>6] |= 1 << (c & 63); return s }

// Remove returns the set without c.
func (s CardSet) Remove(c Card) CardSet { s[c>>6] &^= 1 << (c & 63); return s }

// Union returns the cards in s or t.
func (s CardSet) Union(t CardSet) CardSet { return CardSet{s[0] | t[0], s[1] | t[1]} }

// Intersect returns the cards in both s and t.
func (s CardSet) Intersect(t CardSet) CardSet { return CardSet{s[0] & t[0], s[1] & t[1]} }

// Len returns the number of cards in the set.
func (s CardSet) Len() int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// Empty reports whether the set has no cards.
func (s CardSet) Empty() bool { return s[0]|s[1] == 0 }

// Nth returns the i-th card of the set in ascending order.
func (s CardSet) Nth(i int) Card {
	for w := range 2 {
		x := s[w]
		if n := bits.OnesCount64(x); i >= n {
			i -= n
			continue
		}
		for ; i > 0; i-- {
			x &= x - 1
		}
		return Card(w*64 + bits.TrailingZeros64(x))
	}
	panic("state: CardSet.Nth out of range")
}

// Cards returns the cards of the set in ascending order.
func (s CardSet) Cards() []Card {
	out := make([]Card, 0, s.Len())
	for w := range 2 {
		for x := s[w]; x != 0; x &= x - 1 {
			out = append(out, Card(w*64+bits.TrailingZeros64(x)))
		}
	}
	return out
}

// MarshalJSON encodes the set as a list of card numbers.
func (s CardSet) MarshalJSON() ([]byte, error) {
	out := make([]int, 0, s.Len())
	for _, c := range s.Cards() {
		out = append(out, int(c))
	}
	return json.Marshal(out)
}

// UnmarshalJSON decodes a list of card numbers.
func (s *CardSet) UnmarshalJSON(b []byte) error {
	var cs []int
	if err := json.Unmarshal(b, &cs); err != nil {
		return err
	}
	*s = CardSet{}
	for _, c := range cs {
		if c < 0 || c >= 128 {
			return fmt.Errorf("state: card %d out of range", c)
		}
		*s = s.Add(Card(c))
	}
	return nil
}
