package state_test

import (
	"testing"

	"github.com/riskbot/riskbot/state"
)

// roundMatch is a classic match with simultaneous turns in its round 3:
// Ann has placed 2 of her 5 armies and traded cards 3, 17 and 40 (for 4
// more); Bob has placed nothing.
func roundMatch(t testing.TB) *state.State {
	t.Helper()
	m := loadClassic(t)
	s := &state.State{Map: m, Options: state.DefaultOptions(), Phase: state.PhaseOrders, Winner: -1, Turn: 3, Round: 3, Trades: 2,
		Seats: []state.Seat{{ID: "a", Name: "Ann", Reserve: 7}, {ID: "b", Name: "Bob", Reserve: 5}},
		Terr:  make([]state.Terr, m.Len()), Deck: state.FullDeck(m.NumCards())}
	s.Options.Turns = state.Simultaneous
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: i % 2, Armies: 2}
	}
	for _, c := range []state.Card{3, 17, 40} {
		s.Deck = s.Deck.Remove(c)
		s.Discard = s.Discard.Add(c)
		s.Seats[0].Traded = s.Seats[0].Traded.Add(c)
	}
	s.RoundTrades = []state.Trade{{Seat: 0, Cards: [3]state.Card{3, 17, 40}, Armies: 4, BonusTerritory: -1}}
	for _, c := range []state.Card{5, 6} {
		s.Deck = s.Deck.Remove(c)
		s.Seats[0].Hand = s.Seats[0].Hand.Add(c)
	}
	s.Orders = []state.Order{{Seat: 0, Kind: state.OrderPlace, From: -1, To: 0, Armies: 2}}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	return s
}

// Before a round resolves, nobody else learns who has placed or traded:
// the others' reserves, trades and hands show as they were when the round
// began (issue 42, item 7). The seat itself sees all of its own.
func TestARoundsOrdersShowNoOneElseWhoHasPlaced(t *testing.T) {
	s := roundMatch(t)
	for _, viewer := range []int{-1, 1} {
		v := s.View(viewer)
		if err := v.Check(); err != nil {
			t.Fatalf("viewer %d: %v", viewer, err)
		}
		ann := v.Seats[0]
		if ann.Reserve != 0 || !ann.Traded.Empty() || ann.HiddenCards != 5 || !v.Discard.Empty() || v.Trades != 1 || len(v.RoundTrades) != 0 {
			t.Errorf("viewer %d sees Ann's reserve %d, traded %v, %d cards, discard pile %v, %d trades, the round's trades %+v; want 0, none, 5, none, 1, none",
				viewer, ann.Reserve, ann.Traded.Cards(), ann.HiddenCards, v.Discard.Cards(), v.Trades, v.RoundTrades)
		}
	}
	view := s.View(0)
	own := view.Seats[0]
	if own.Reserve != 7 || own.Traded.Len() != 3 || own.Hand.Len() != 2 || len(view.RoundTrades) != 1 {
		t.Errorf("Ann sees her reserve %d, traded %v, hand %v, the round's trades %+v; want 7, 3 cards, 2 cards, her trade",
			own.Reserve, own.Traded.Cards(), own.Hand.Cards(), view.RoundTrades)
	}
	s.Phase = state.PhaseAttack
	if v := s.View(-1); v.Seats[0].Reserve != 7 {
		t.Errorf("in a turn, the public sees Ann's reserve %d, want 7", v.Seats[0].Reserve)
	}
}

// A set traded in a round is of cards its seat traded in it: a state
// that says otherwise fails its check.
func TestARoundsTradesAreOfTheCardsTraded(t *testing.T) {
	for _, tt := range []struct {
		name  string
		trade state.Trade
		ok    bool
	}{
		{"Ann's", state.Trade{Seat: 0, Cards: [3]state.Card{3, 17, 40}, Armies: 4, BonusTerritory: -1}, true},
		{"a card not traded", state.Trade{Seat: 0, Cards: [3]state.Card{3, 17, 5}, Armies: 4, BonusTerritory: -1}, false},
		{"Bob's, who traded none", state.Trade{Seat: 1, Cards: [3]state.Card{3, 17, 40}, Armies: 4, BonusTerritory: -1}, false},
		{"no such card", state.Trade{Seat: 0, Cards: [3]state.Card{3, 17, 200}, Armies: 4, BonusTerritory: -1}, false},
		{"a bonus on no territory", state.Trade{Seat: 0, Cards: [3]state.Card{3, 17, 40}, Armies: 4, Bonus: 2, BonusTerritory: -1}, false},
		{"no such seat", state.Trade{Seat: 7, Cards: [3]state.Card{3, 17, 40}, Armies: 4, BonusTerritory: -1}, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := roundMatch(t)
			s.RoundTrades = []state.Trade{tt.trade}
			if err := s.Check(); (err == nil) != tt.ok {
				t.Errorf("check: got %v, want ok %v", err, tt.ok)
			}
		})
	}
}
