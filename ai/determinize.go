package ai

import (
	"math/rand/v2"

	"github.com/riskbot/riskbot/state"
)

// determinize turns seat's view into a full state the engine can play:
// the cards it cannot see (other hands, the deck) are dealt at random from
// the ones it does not know the place of (all cards but its own hand and
// the discard pile), each hand getting as many as it is known to hold, and
// the generator is seeded from rng. It never reads the real hidden cards
// or the real generator (the view has neither); it is one guess at them.
func determinize(view *state.State, seat int, rng *rand.Rand) *state.State {
	if !view.Hidden {
		view = view.View(seat)
	}
	s := view.Clone()
	unknown := state.FullDeck(s.Map.NumCards())
	unknown = minus(unknown, s.Discard)
	for i := range s.Seats {
		unknown = minus(unknown, s.Seats[i].Hand)
	}
	cards := unknown.Cards()
	rng.Shuffle(len(cards), func(i, j int) { cards[i], cards[j] = cards[j], cards[i] })
	for i := range s.Seats {
		n := min(s.Seats[i].HiddenCards, len(cards))
		for _, c := range cards[:n] {
			s.Seats[i].Hand = s.Seats[i].Hand.Add(c)
		}
		cards = cards[n:]
		s.Seats[i].HiddenCards = 0
	}
	s.Deck = state.CardSet{}
	for _, c := range cards {
		s.Deck = s.Deck.Add(c)
	}
	s.HiddenDeck = 0
	s.Hidden = false
	s.Viewer = seat
	s.RNG = state.RNG{Seed: rng.Uint64()}
	return s
}

// minus returns the cards of a that are not in b.
func minus(a, b state.CardSet) state.CardSet { return state.CardSet{a[0] &^ b[0], a[1] &^ b[1]} }
