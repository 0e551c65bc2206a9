package engine

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// Secret missions (victory:missions, RULES.md section 3, docs/rules.md),
// one rule a test.

// continentsWon is Ann's attack phase, one territory (Egypt, Cid's) short
// of Asia and Africa; Bob's 23 territories are one short of his mission.
const continentsWon = `
	players: Ann Bob Cid
	options: victory=missions
	phase: attack
	current: Ann
	mission Ann: asia+africa
	mission Bob: 24-territories
	mission Cid: destroy-0
	rest: Bob 1
	Asia: Ann 2
	Africa: Ann 2
	Middle East: Ann 5
	Egypt: Cid 1
	Brazil: Cid 1
`

// Rolls that take a territory with one army: three sixes against a one.
var takeOne = []int{6, 6, 6, 1}

func TestMissionsContinents(t *testing.T) {
	const third = `
		players: Ann Bob Cid
		options: victory=missions
		phase: attack
		current: Ann
		mission Ann: europe+south-america+third
		mission Bob: asia+africa
		mission Cid: 18-territories-2-armies
		rest: Bob 1
		Europe: Ann 2
		South America: Ann 2
		Australia: Ann 2
		North Africa: Ann 5
		Brazil: Cid 1
		Kamchatka: Cid 1
	`
	runRules(t, []ruleTest{
		{name: "missions: the conquest that completes the mission's continents wins at once", board: continentsWon, seat: "Ann",
			cmd: Attack{T("Middle East"), T("Egypt"), 3}, dice: takeOne, want: "phase: over\nwinner: Ann\nEgypt: Ann 3"},
		{name: "missions: one continent of the two is not enough", board: continentsWon + "\nmission Ann: north-america+africa", seat: "Ann",
			cmd: Attack{T("Middle East"), T("Egypt"), 3}, dice: takeOne, want: "phase: occupy\nwinner: none"},
		{name: "missions: the third continent of one's choice is any other continent", board: third, seat: "Ann",
			cmd: Attack{T("North Africa"), T("Brazil"), 3}, dice: takeOne, want: "phase: over\nwinner: Ann"},
		{name: "missions: without a third continent the two named are not enough", board: third + "\nAustralia: Bob 1", seat: "Ann",
			cmd: Attack{T("North Africa"), T("Brazil"), 3}, dice: takeOne, want: "phase: occupy\nwinner: none"},
	})
}

func TestMissionsTerritories(t *testing.T) {
	// Ann holds 23 territories (North America, Europe, Africa, Venezuela).
	const twentyThree = `
		players: Ann Bob Cid
		options: victory=missions
		phase: attack
		current: Ann
		mission Ann: 24-territories
		mission Bob: asia+africa
		mission Cid: asia+south-america
		rest: Bob 1
		North America: Ann 1
		Europe: Ann 1
		Africa: Ann 1
		Venezuela: Ann 5
		Kamchatka: Cid 1
	`
	// Ann holds 27 territories: the two thirds (28) are one away.
	const twentySeven = `
		players: Ann Bob Cid
		options: victory=missions
		phase: attack
		current: Ann
		mission Ann: asia+africa
		mission Bob: asia+south-america
		mission Cid: 24-territories
		rest: Bob 1
		North America: Ann 1
		Europe: Ann 1
		Australia: Ann 1
		South America: Ann 1
		Ural: Ann 1
		Siberia: Ann 1
		Yakutsk: Ann 1
		Alaska: Ann 5
		China: Cid 1
	`
	// Ann holds 18 territories (North America, Europe, Venezuela, Peru),
	// all with two armies but Peru.
	const eighteen = `
		players: Ann Bob Cid
		options: victory=missions
		phase: reinforce
		current: Ann
		reserve Ann: 1
		mission Ann: 18-territories-2-armies
		mission Bob: asia+africa
		mission Cid: asia+south-america
		rest: Bob 1
		North America: Ann 2
		Europe: Ann 2
		Venezuela: Ann 3
		Peru: Ann 1
		Kamchatka: Cid 1
	`
	runRules(t, []ruleTest{
		{name: "missions: the 24th territory fulfils the 24-territory mission", board: twentyThree, seat: "Ann",
			cmd: Attack{T("Venezuela"), T("Peru"), 3}, dice: takeOne, want: "phase: over\nwinner: Ann"},
		{name: "missions: the two-thirds rule does not apply", board: twentySeven, seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 3}, dice: takeOne, want: "phase: occupy\nwinner: none"},
		{name: "missions: a placement can fulfil the 18-territory mission", board: eighteen, seat: "Ann",
			cmd: Place{T("Peru"), 1}, want: "phase: over\nwinner: Ann\nPeru: Ann 2"},
		{name: "missions: the 18 territories each need two armies", board: eighteen + "\nreserve Ann: 2\nAlaska: Ann 1", seat: "Ann",
			cmd: Place{T("Peru"), 1}, want: "phase: reinforce\nwinner: none"},
		{name: "missions: a fortification can fulfil the 18-territory mission", board: eighteen + "\nphase: attack\nreserve Ann: 0", seat: "Ann",
			cmd: Fortify{T("Venezuela"), T("Peru"), 1}, want: "phase: over\nwinner: Ann\nVenezuela: Ann 2"},
		{name: "missions: the conquest of an 18th territory that leaves its source with one army does not fulfil it",
			board: eighteen + "\nphase: attack\nreserve Ann: 0\nPeru: Bob 1\nVenezuela: Ann 4\nArgentina: Ann 2\nIceland: Bob 1", seat: "Ann",
			cmd: Attack{T("Venezuela"), T("Peru"), 3}, dice: takeOne, want: "phase: attack\nwinner: none\nVenezuela: Ann 1"},
		{name: "missions: an occupation can fulfil the 18-territory mission",
			board: eighteen + "\nphase: occupy\nreserve Ann: 0\nPeru: Ann 1\nVenezuela: Ann 3\noccupy: Venezuela Peru 1 3", seat: "Ann",
			cmd: Occupy{2}, want: "phase: over\nwinner: Ann"},
	})
}

func TestMissionsDestroy(t *testing.T) {
	// Ann attacks Bob's last territory; Cid holds 14 territories.
	const lastOfBob = `
		players: Ann Bob Cid
		options: victory=missions
		phase: attack
		current: Ann
		mission Ann: destroy-1
		mission Bob: asia+africa
		mission Cid: 24-territories
		rest: Ann 1
		Asia: Cid 1
		Ural: Ann 1
		Ukraine: Ann 5
		Middle East: Bob 1
		Peru: Cid 1
		Brazil: Cid 1
	`
	cidHunts := lastOfBob + "\nmission Ann: asia+africa\nmission Bob: north-america+africa\nmission Cid: destroy-1"
	runRules(t, []ruleTest{
		{name: "missions: taking out the colour of one's destroy card wins", board: lastOfBob, seat: "Ann",
			cmd: Attack{T("Ukraine"), T("Middle East"), 3}, dice: takeOne, want: "phase: over\nwinner: Ann\nstatus Bob: eliminated"},
		{name: "missions: a colour taken out by another seat turns its card into 24 territories", board: cidHunts, seat: "Ann",
			cmd: Attack{T("Ukraine"), T("Middle East"), 3}, dice: takeOne, want: "phase: occupy\nwinner: none\nmission Cid: destroy-1-gone"},
		{name: "missions: a card turned into 24 territories is fulfilled at once if its holder has them",
			board: cidHunts + "\nEurope: Cid 1\nUkraine: Ann 5\nAfrica: Cid 1", seat: "Ann",
			cmd: Attack{T("Ukraine"), T("Middle East"), 3}, dice: takeOne, want: "phase: over\nwinner: Cid"},
		{name: "missions: a colour that surrenders turns its card into 24 territories", board: cidHunts, seat: "Bob",
			cmd: Surrender{}, want: "winner: none\nmission Cid: destroy-1-gone\nstatus Bob: surrendered"},
		{name: "missions: the last player standing still wins", board: lastOfBob + "\nmission Ann: asia+africa\nmission Cid: destroy-0\nstatus Cid: eliminated\nrest: Ann 1\nAsia: Ann 1\nPeru: Ann 1\nBrazil: Ann 1\nMiddle East: Bob 1",
			seat: "Ann", cmd: Attack{T("Ukraine"), T("Middle East"), 3}, dice: takeOne, want: "phase: over\nwinner: Ann"},
	})
}

// The events of a mission fulfilled reveal it, then name the winner.
func TestMissionsEvents(t *testing.T) {
	s := board(t, continentsWon)
	ev, err := applyDice(s, 0, Attack{T("Middle East"), T("Egypt"), 3}, takeOne...)
	if err != nil {
		t.Fatal(err)
	}
	if f := eventsOf[MissionFulfilled](ev); len(f) != 1 || f[0] != (MissionFulfilled{Seat: 0, Mission: state.MissionAsiaAfrica}) {
		t.Errorf("events %v: want one MissionFulfilled of Ann's asia+africa", ev)
	}
	if _, ok := ev[len(ev)-1].(Won); !ok {
		t.Errorf("the last event is %#v, want Won", ev[len(ev)-1])
	}
}

// When two missions are done by one command, the seat that gave it wins:
// Ann's conquest of Egypt completes Asia and Africa and takes out Bob,
// whose card Cid held, Cid holding 24 territories.
func TestMissionsTheSeatThatActedWinsFirst(t *testing.T) {
	s := board(t, `
		players: Ann Bob Cid
		options: victory=missions
		phase: attack
		current: Ann
		mission Ann: asia+africa
		mission Bob: 24-territories
		mission Cid: destroy-1
		rest: Cid 1
		Asia: Ann 2
		Africa: Ann 2
		Middle East: Ann 5
		Egypt: Bob 1
	`)
	ev, err := applyDice(s, 0, Attack{T("Middle East"), T("Egypt"), 3}, takeOne...)
	if err != nil {
		t.Fatal(err)
	}
	if s.Winner != 0 {
		t.Errorf("winner %d, want Ann (0)", s.Winner)
	}
	if c := eventsOf[MissionChanged](ev); len(c) != 1 || c[0].Seat != 2 || c[0].Now != s.Seats[2].Mission || !c[0].Now.Gone() || c[0].By != 0 {
		t.Errorf("events %v: want Cid told that his card is now 24 territories", ev)
	}
	if !MissionDone(s, 2) {
		t.Error("Cid's mission should be done too (24 territories)")
	}
}

func TestMissionsAreLookedAtFromTheEndOfTheInitialPlacement(t *testing.T) {
	runRules(t, []ruleTest{
		{name: "missions: a mission complete after the initial placement wins before the first attack", board: `
			players: Ann Bob Cid
			options: victory=missions
			phase: setup
			turn: 0
			mission Ann: north-america+australia
			mission Bob: asia+africa
			mission Cid: 24-territories
			rest: Bob 1
			North America: Ann 1
			Australia: Ann 1
			Peru: Cid 1
			reserve Ann: 1
		`, seat: "Ann", cmd: Place{T("Alaska"), 1}, want: "phase: over\nwinner: Ann"},
	})
}

func TestMissionsDeal(t *testing.T) {
	setup := func(n int, seed uint64) Setup {
		o := state.DefaultOptions()
		o.Victory = state.Missions
		seats := make([]SeatInfo, n)
		for i := range seats {
			seats[i] = SeatInfo{ID: string(rune('a' + i)), Name: string(rune('A' + i))}
		}
		return Setup{Options: o, Seats: seats, Seed: seed}
	}
	t.Run("missions: one card each, face down, from the 14, recorded with the deal", func(t *testing.T) {
		seen := map[int]bool{}
		for seed := range uint64(50) {
			g, err := NewGame(setup(6, seed))
			if err != nil {
				t.Fatal(err)
			}
			cards := g.Setup.Deal.Missions
			if len(cards) != 6 {
				t.Fatalf("deal %v: want 6 missions", cards)
			}
			for i, c := range cards {
				if g.State.Seats[i].Mission.Card() != c {
					t.Errorf("seat %d holds %v, the deal says card %d", i, g.State.Seats[i].Mission, c)
				}
				seen[c] = true
			}
			if len(slices.Compact(slices.Sorted(slices.Values(cards)))) != 6 {
				t.Errorf("deal %v: a card dealt twice", cards)
			}
			// The recorded deal gives the same match.
			again, err := NewGame(g.Setup)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(g.State)
			b, _ := json.Marshal(again.State)
			if string(a) != string(b) {
				t.Fatal("the recorded deal does not reproduce the match")
			}
		}
		if len(seen) != state.MissionCards {
			t.Errorf("50 deals of 6 used %d of the %d cards", len(seen), state.MissionCards)
		}
	})
	t.Run("missions: drawn after the territories, so the deal of other matches is unchanged", func(t *testing.T) {
		m, err := NewGame(setup(4, 7))
		if err != nil {
			t.Fatal(err)
		}
		o := setup(4, 7)
		o.Options.Victory = state.TwoThirds
		plain, err := NewGame(o)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(m.Setup.Deal.Order, plain.Setup.Deal.Order) || !slices.Equal(m.Setup.Deal.Owners, plain.Setup.Deal.Owners) || plain.Setup.Deal.Missions != nil {
			t.Error("dealing missions changed the turn order or the territories")
		}
		if data, _ := json.Marshal(plain.State); strings.Contains(string(data), "mission") {
			t.Errorf("a match without missions mentions them: %s", data)
		}
	})
	t.Run("missions: a card of one's own colour or of a colour nobody plays is 24 territories", func(t *testing.T) {
		s := board(t, "players: Ann Bob Cid\noptions: victory=missions\nmission Ann: 24-territories\nmission Bob: 24-territories\nmission Cid: 24-territories")
		dealMissions(s, []int{8, 12, 9}) // destroy 0 (Ann's own), destroy 4 (nobody), destroy 1 (Bob)
		want := []string{"destroy-0-gone", "destroy-4-gone", "destroy-1"}
		for i, w := range want {
			if got := s.Seats[i].Mission.String(); got != w {
				t.Errorf("seat %d: %s, want %s", i, got, w)
			}
		}
	})
	for _, tt := range []struct {
		name string
		s    Setup
		msg  string
	}{
		{"missions: two players are refused", setup(2, 1), "at least 3 players"},
		{"missions: capitals matches are refused", func() Setup {
			s := setup(3, 1)
			s.Options = state.CapitalsOptions()
			s.Options.Victory = state.Missions
			return s
		}(), "classic rules only"},
		{"missions: a recorded deal without them is refused", func() Setup {
			s := setup(3, 1)
			g, _ := NewGame(s)
			s.Deal = g.Setup.Deal
			s.Deal.Missions = s.Deal.Missions[:2]
			return s
		}(), "2 missions for 3 seats"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewGame(tt.s)
			if err == nil || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("err = %v, want one that says %q", err, tt.msg)
			}
		})
	}
}

func TestMissionsAreHiddenUntilTheEnd(t *testing.T) {
	s := board(t, continentsWon)
	for v := -1; v < len(s.Seats); v++ {
		view := s.View(v)
		for i := range s.Seats {
			got, want := view.Seats[i].Mission, state.MissionHidden
			if i == v {
				want = s.Seats[i].Mission
			}
			if got != want {
				t.Errorf("view of %d: seat %d's mission %v, want %v", v, i, got, want)
			}
		}
		if err := view.Check(); err != nil {
			t.Errorf("view of %d: %v", v, err)
		}
	}
	if _, err := applyDice(s, 0, Attack{T("Middle East"), T("Egypt"), 3}, takeOne...); err != nil {
		t.Fatal(err)
	}
	for v := -1; v < len(s.Seats); v++ {
		for i, seat := range s.View(v).Seats {
			if seat.Mission != s.Seats[i].Mission {
				t.Errorf("view of %d at the end: seat %d's mission %v, want %v", v, i, seat.Mission, s.Seats[i].Mission)
			}
		}
	}
}

func TestMissionsSimultaneous(t *testing.T) {
	// Ann's first order takes Egypt, completing Asia and Africa; her
	// second, and Bob's, must not run.
	const round = `
		players: Ann Bob Cid
		options: victory=missions turns=simultaneous
		phase: orders
		turn: 1
		round: 1
		mission Ann: asia+africa
		mission Bob: asia+south-america
		mission Cid: destroy-1
		rest: Bob 1
		Asia: Ann 2
		Africa: Ann 2
		Middle East: Ann 9
		Egypt: Cid 1
		Alberta: Cid 1
		Alaska: Bob 9
	`
	t.Run("missions: a round stops at the order that fulfils a mission", func(t *testing.T) {
		s := board(t, round)
		mustOrder(t, s, 0, Assault{T("Middle East"), T("Egypt"), 5})
		mustOrder(t, s, 0, Fortify{T("Middle East"), T("India"), 1})
		mustOrder(t, s, 1, Assault{T("Alaska"), T("Alberta"), 5})
		ev := commitAll(t, s)
		if s.Phase != state.PhaseOver || s.Winner != 0 || len(eventsOf[MissionFulfilled](ev)) != 1 {
			t.Fatalf("phase %s, winner %d, events %v: want Ann's mission to win", s.Phase, s.Winner, ev)
		}
		if s.Terr[T("India")].Armies != 2 {
			t.Errorf("India has %d armies: Ann's move ran after her victory", s.Terr[T("India")].Armies)
		}
		if n := len(eventsOf[Transferred](ev)); n != 0 {
			t.Errorf("%d moves ran after the victory", n)
		}
	})
	t.Run("missions: a round's placements can fulfil a mission before any attack", func(t *testing.T) {
		s := board(t, round+"\nmission Ann: 18-territories-2-armies\nEgypt: Ann 2\nIndia: Ann 1\nreserve Ann: 1")
		mustOrder(t, s, 0, Place{T("India"), 1})
		mustOrder(t, s, 1, Assault{T("Alaska"), T("Alberta"), 5})
		ev := commitAll(t, s)
		if s.Phase != state.PhaseOver || s.Winner != 0 || len(eventsOf[Rolled](ev)) != 0 {
			t.Fatalf("phase %s, winner %d, events %v: want Ann to win before Bob's attack", s.Phase, s.Winner, ev)
		}
	})
}

func TestMissionsRoundLimit(t *testing.T) {
	const last = `
		players: Ann Bob Cid
		options: victory=missions rounds=3
		phase: attack
		current: Cid
		turn: 9
		round: 3
		mission Ann: asia+africa
		mission Bob: 24-territories
		mission Cid: destroy-1
		rest: Ann 1
		Alaska: Bob 40
		Kamchatka: Cid 40
	`
	runRules(t, []ruleTest{
		{name: "missions: at the round limit the ordinary tie-break applies", board: last, seat: "Cid",
			cmd: EndTurn{}, want: "phase: over\nwinner: Ann"},
	})
	s := board(t, last)
	if _, err := Apply(s, 2, EndTurn{}); err != nil {
		t.Fatal(err)
	}
	if !EndedAtRoundLimit(s) {
		t.Error("EndedAtRoundLimit: false for a missions match ended at its limit")
	}
	s = board(t, continentsWon)
	if _, err := applyDice(s, 0, Attack{T("Middle East"), T("Egypt"), 3}, takeOne...); err != nil {
		t.Fatal(err)
	}
	s.Options.Rounds = 5
	if EndedAtRoundLimit(s) {
		t.Error("EndedAtRoundLimit: true for a mission fulfilled")
	}
}

// drawnMap builds a library map (as engine/mapfile makes them) of n
// territories in a ring, in continents of the given names, dealt in turn.
func drawnMap(t *testing.T, hash string, n int, continents ...string) *state.Map {
	t.Helper()
	spec := state.MapSpec{Name: LibraryName(hash), Title: "A drawn map"}
	for _, c := range continents {
		spec.Continents = append(spec.Continents, state.ContinentSpec{Name: c, Bonus: 2})
	}
	for i := range n {
		name := fmt.Sprintf("T%d", i)
		spec.Territories = append(spec.Territories, state.TerritorySpec{Name: name})
		spec.Continents[i%len(continents)].Territories = append(spec.Continents[i%len(continents)].Territories, name)
		spec.Borders = append(spec.Borders, [2]string{name, fmt.Sprintf("T%d", (i+1)%n)})
	}
	m, err := state.NewMap(spec)
	if err != nil {
		t.Fatal(err)
	}
	if err := AddMap(m); err != nil {
		t.Fatal(err)
	}
	return m
}

// Issue 44: missions on a drawn map need the classic world's continents
// (however the map spells them) and territories enough; otherwise the
// match is refused with why.
func TestMissionsOnDrawnMaps(t *testing.T) {
	classic := []string{"North-America", "south_america", "EUROPE", "Africa", "Asia", "Australia"}
	tests := []struct {
		name string
		m    *state.Map
		want string // "" for accepted
	}{
		{"the classic continents, spelt the map's way", drawnMap(t, "00000000000000a1", 30, classic...), ""},
		{"other continents", drawnMap(t, "00000000000000a2", 30, "North", "South"),
			"engine: secret missions need a map with the classic continents (North America, South America, Europe, Africa, Asia, Australia); A drawn map has no North America"},
		{"too few territories", drawnMap(t, "00000000000000a3", 12, classic...),
			"engine: secret missions need a map of at least 24 territories (a mission asks for 24); A drawn map has 12"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := state.DefaultOptions()
			o.Map, o.Victory = tt.m.Name, state.Missions
			_, err := New(Setup{Options: o, Seats: []SeatInfo{{ID: "a"}, {ID: "b"}, {ID: "c"}}, Seed: 1})
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && (err == nil || err.Error() != tt.want):
				t.Fatalf("error %v, want %q", err, tt.want)
			}
		})
	}
}

func TestSameName(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want bool
	}{
		{"North America", "North America", true},
		{"North-America", "north america", true},
		{"  Europe!", "EUROPE", true},
		{"Amérique du Sud", "amérique-du-sud", true},
		{"Asia", "Asian", false},
		{"Asian", "Asia", false},
		{"Africa", "Afrika", false},
		{"", "", true},
		{"Europe", "", false},
		{"--", "", true},
	} {
		if got := sameName(c.a, c.b); got != c.want {
			t.Errorf("sameName(%q, %q) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}
