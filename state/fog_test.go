package state_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// fogMatch is a classic match with fog of war in Bob's attack phase: Ann
// holds the Americas, Bob Europe and Africa, Cid Asia and Australia.
func fogMatch(t testing.TB) *state.State {
	t.Helper()
	m := loadClassic(t)
	s := &state.State{Map: m, Options: state.DefaultOptions(), Phase: state.PhaseAttack, Winner: -1, Turn: 5, Current: 1,
		Seats: []state.Seat{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob", Reserve: 3}, {ID: "c", Name: "Cid", Reserve: 2}},
		Terr:  make([]state.Terr, m.Len()), Deck: state.FullDeck(m.NumCards())}
	s.Options.Fog = true
	owner := map[string]int{"North America": 0, "South America": 0, "Europe": 1, "Africa": 1, "Asia": 2, "Australia": 2}
	for _, c := range m.Continents {
		for _, t := range c.Territories {
			s.Terr[t] = state.Terr{Owner: owner[c.Name], Armies: 1 + t%7}
		}
	}
	// Ann's outpost: every player sees it.
	s.Terr[terr(t, s, "Middle East")].Owner = 0
	return s
}

func terr(t testing.TB, s *state.State, name string) int {
	t.Helper()
	id, err := s.Map.Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func TestFogShowsOwnTerritoriesAndTheirNeighboursOnly(t *testing.T) {
	s := fogMatch(t)
	for seat := range s.Seats {
		v := s.View(seat)
		if err := v.Check(); err != nil {
			t.Fatalf("seat %d's view: %v", seat, err)
		}
		shown := 0
		for i, tr := range s.Terr {
			sees := tr.Owner == seat
			for _, n := range s.Map.Territories[i].Adj {
				sees = sees || s.Terr[n].Owner == seat
			}
			got := v.Terr[i]
			switch {
			case sees && (got != tr || got.Fog):
				t.Errorf("seat %d sees %s as %+v, want %+v", seat, s.Map.Territories[i].Name, got, tr)
			case !sees && got != (state.Terr{Owner: state.Neutral, Fog: true}):
				t.Errorf("seat %d sees %s, out of sight, as %+v", seat, s.Map.Territories[i].Name, got)
			}
			if sees {
				shown++
			}
		}
		if shown == len(s.Terr) || shown == 0 {
			t.Fatalf("seat %d sees %d of %d territories: the board tests nothing", seat, shown, len(s.Terr))
		}
		for i := range s.Seats {
			if v.Owned(i) != s.Owned(i) || v.Armies(i) != s.Armies(i) {
				t.Errorf("seat %d's view: seat %d holds %d territories and %d armies, want the totals %d and %d",
					seat, i, v.Owned(i), v.Armies(i), s.Owned(i), s.Armies(i))
			}
			if want := s.Seats[i].Reserve; i != seat && v.Seats[i].Reserve != 0 || i == seat && v.Seats[i].Reserve != want {
				t.Errorf("seat %d's view shows seat %d's reserve %d", seat, i, v.Seats[i].Reserve)
			}
		}
	}
}

func TestFogPublicViewShowsWhatEveryPlayerSees(t *testing.T) {
	s := fogMatch(t)
	pub := s.View(-1)
	views := []*state.State{s.View(0), s.View(1), s.View(2)}
	shown := 0
	for i := range s.Terr {
		all := true
		for _, v := range views {
			all = all && !v.Terr[i].Fog
		}
		if pub.Terr[i].Fog == all {
			t.Errorf("%s: public fog %v, seen by every player %v", s.Map.Territories[i].Name, pub.Terr[i].Fog, all)
		}
		if all {
			shown++
		}
	}
	if shown == 0 {
		t.Fatal("no territory is seen by everyone: the board tests nothing")
	}
	// A seat out of the match sees what the public sees.
	s.Seats[0].Status = state.Surrendered
	for i := range s.Terr {
		if s.Terr[i].Owner == 0 {
			s.Terr[i].Owner = state.Neutral
		}
	}
	out, pub := s.View(0), s.View(-1)
	for i := range s.Terr {
		if out.Terr[i] != pub.Terr[i] {
			t.Errorf("%s: the out seat sees %+v, the public %+v", s.Map.Territories[i].Name, out.Terr[i], pub.Terr[i])
		}
	}
}

func TestFogHidesArrowsOutOfSight(t *testing.T) {
	s := fogMatch(t)
	ural, siberia := terr(t, s, "Ural"), terr(t, s, "Siberia")
	ukraine := terr(t, s, "Ukraine")
	s.This.Add(state.Arrow{From: int16(siberia), To: int16(ural), Kind: state.ArrowFortify, Seat: 2, Count: 3})
	s.This.Add(state.Arrow{From: int16(ural), To: int16(ukraine), Kind: state.ArrowAttack, Seat: 2, Count: 1})
	if got := s.View(1).This.Arrows(); len(got) != 1 || int(got[0].To) != ukraine {
		t.Errorf("Bob sees the arrows %+v, want only the attack on Ukraine", got)
	}
	if got := s.View(0).This.Arrows(); len(got) != 0 {
		t.Errorf("Ann sees the arrows %+v in Asia", got)
	}
	if got := s.View(2).This.Arrows(); len(got) != 2 {
		t.Errorf("Cid sees %d of his 2 arrows", len(got))
	}
}

func TestFogLiftsAtTheEndAndOnlyWithTheOption(t *testing.T) {
	s := fogMatch(t)
	s.Phase, s.Winner = state.PhaseOver, 1
	if v := s.View(0); v.Fogged() || v.Terr[terr(t, s, "Siam")].Fog {
		t.Error("a finished match still has fog")
	}
	s = fogMatch(t)
	s.Options.Fog = false
	if v := s.View(-1); v.Fogged() || v.Terr[terr(t, s, "Siam")] != s.Terr[terr(t, s, "Siam")] {
		t.Error("a match without fog has fog")
	}
	if !fogMatch(t).View(0).Fogged() {
		t.Error("a view with fog does not say so")
	}
}

func TestFoggedTerritoryJSON(t *testing.T) {
	s := fogMatch(t)
	data, err := json.Marshal(s.View(0).Terr[terr(t, s, "Siam")])
	if err != nil {
		t.Fatal(err)
	}
	if got := string(data); got != `{"owner":-1,"armies":0,"fog":true}` {
		t.Errorf("a fogged territory is %s", got)
	}
	terr, _ := json.Marshal(s.Terr)
	seats, _ := json.Marshal(s.Seats)
	if strings.Contains(string(terr), "fog") || strings.Contains(string(seats), "hidden_territories") {
		t.Error("the full state carries fog")
	}
}

// The cards a player traded are theirs to know (docs/rules.md, "Fog of
// war"): with fog the discard pile shows as a number, to the public and
// to every seat (issue 42, item 7).
func TestFogHidesTheDiscardPile(t *testing.T) {
	s := fogMatch(t)
	for _, c := range []state.Card{3, 17, 40} {
		s.Deck = s.Deck.Remove(c)
		s.Discard = s.Discard.Add(c)
	}
	for seat := -1; seat < len(s.Seats); seat++ {
		v := s.View(seat)
		if !v.Discard.Empty() || v.HiddenDiscard != 3 {
			t.Errorf("seat %d's view: discard pile %v, %d hidden; want none shown, 3 hidden", seat, v.Discard.Cards(), v.HiddenDiscard)
		}
		if err := v.Check(); err != nil {
			t.Errorf("seat %d's view: %v", seat, err)
		}
	}
	s.Options.Fog = false
	if v := s.View(-1); v.Discard.Len() != 3 || v.HiddenDiscard != 0 {
		t.Errorf("without fog the public sees %v on the pile, %d hidden; want the 3 cards", v.Discard.Cards(), v.HiddenDiscard)
	}
}
