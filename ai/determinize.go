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
	return determinizeInto(new(state.State), nil, view, seat, rng)
}

// determinizeInto is determinize writing into dst, reusing its memory and
// that of *cards (a scratch slice), so that the playouts of a search
// allocate nothing for it. It returns dst.
func determinizeInto(dst *state.State, cards *[]state.Card, view *state.State, seat int, rng *rand.Rand) *state.State {
	var s *state.State
	if view.Hidden {
		s = view.CopyInto(dst)
	} else {
		s = view.ViewInto(dst, seat)
	}
	if s.Fogged() {
		// A view with fog of war (hard's, hardFog): each sample draws the
		// board the fog hides as well as the cards.
		guessFog(s, rng)
	}
	unknown := state.FullDeck(s.Map.NumCards())
	unknown = minus(unknown, s.Discard)
	for i := range s.Seats {
		unknown = minus(unknown, s.Seats[i].Hand)
	}
	var buf []state.Card
	if cards != nil {
		buf = (*cards)[:0]
	}
	for c := range state.Card(s.Map.NumCards()) {
		if unknown.Has(c) {
			buf = append(buf, c)
		}
	}
	if cards != nil {
		*cards = buf
	}
	rng.Shuffle(len(buf), func(i, j int) { buf[i], buf[j] = buf[j], buf[i] })
	for i := range s.Seats {
		n := min(s.Seats[i].HiddenCards, len(buf))
		for _, c := range buf[:n] {
			s.Seats[i].Hand = s.Seats[i].Hand.Add(c)
		}
		buf = buf[n:]
		s.Seats[i].HiddenCards = 0
	}
	// With fog of war the discard pile is a number too.
	n := min(s.HiddenDiscard, len(buf))
	for _, c := range buf[:n] {
		s.Discard = s.Discard.Add(c)
	}
	buf = buf[n:]
	s.Deck = state.CardSet{}
	for _, c := range buf {
		s.Deck = s.Deck.Add(c)
	}
	s.HiddenDeck, s.HiddenDiscard = 0, 0
	guessMissions(s, seat, rng)
	unhideSetup(s, seat)
	s.Hidden = false
	s.Viewer = seat
	s.RNG = state.RNG{Seed: rng.Uint64()}
	return s
}

// unhideSetup gives the other seats of s, a view of the classic setup,
// back the armies they have placed: the view shows one army on each of
// their territories until the setup ends. Every seat starts with as many
// armies as seat has on the board and in reserve, so what another seat
// lacks of that is hidden; it goes back to its reserve, to be placed
// again by whoever plays the sample.
func unhideSetup(s *state.State, seat int) {
	if s.Phase != state.PhaseSetup || s.Options.Rules != state.Classic {
		return
	}
	start := s.Armies(seat) + s.Seats[seat].Reserve
	for i := range s.Seats {
		if i != seat {
			s.Seats[i].Reserve += max(0, start-s.Armies(i)-s.Seats[i].Reserve)
		}
	}
}

// minus returns the cards of a that are not in b.
func minus(a, b state.CardSet) state.CardSet { return state.CardSet{a[0] &^ b[0], a[1] &^ b[1]} }
