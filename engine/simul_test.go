package engine

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// The rules of simultaneous turns (RULES.md section 3, docs/rules.md),
// one test each, named after them.

// ordersBoard is a round of three players on the classic map: Ann and
// Bob border each other in the north, Cid holds the rest.
const ordersBoard = `
	players: Ann Bob Cid
	options: turns=simultaneous
	phase: orders
	turn: 1
	rest: Cid 1
	Alaska: Ann 10
	Alberta: Ann 3
	Northwest Territory: Ann 2
	Kamchatka: Bob 4
	Yakutsk: Bob 6
	Greenland: Bob 1
`

func mustOrder(t *testing.T, s *state.State, seat int, c Command) []Event {
	t.Helper()
	d := dice{rng: &s.RNG}
	ev, err := apply(s, seat, c, &d)
	if err != nil {
		t.Fatalf("seat %d %#v: %v", seat, c, err)
	}
	return ev
}

func refused(t *testing.T, s *state.State, seat int, c Command, code Code) {
	t.Helper()
	before := s.Clone()
	d := dice{rng: &s.RNG}
	_, err := apply(s, seat, c, &d)
	if !errors.Is(err, code) {
		t.Fatalf("seat %d %#v: got %v, want %v", seat, c, err, code)
	}
	if !sameState(before, s) {
		t.Fatalf("seat %d %#v was refused but changed the state", seat, c)
	}
}

func sameState(a, b *state.State) bool {
	return slices.Equal(a.Terr, b.Terr) && slices.EqualFunc(a.Seats, b.Seats, func(x, y state.Seat) bool { return x == y }) &&
		slices.Equal(a.Orders, b.Orders) && a.Phase == b.Phase && a.Turn == b.Turn && a.RNG == b.RNG
}

// commitAll commits every living seat but those in except, in seat order,
// and returns the events of the last commit (the resolution).
func commitAll(t *testing.T, s *state.State, except ...int) []Event {
	t.Helper()
	var ev []Event
	for i := range s.Seats {
		if s.Seats[i].Alive() && !s.Seats[i].Ready && !slices.Contains(except, i) {
			ev = mustOrder(t, s, i, EndTurn{})
		}
	}
	return ev
}

func eventsOf[E Event](ev []Event) []E {
	var out []E
	for _, e := range ev {
		if x, ok := e.(E); ok {
			out = append(out, x)
		}
	}
	return out
}

func TestSimultaneousRoundStartsWithEveryonesReinforcements(t *testing.T) {
	g, err := NewGame(Setup{Options: state.Options{Rules: state.Classic, Map: "classic", Turns: state.Simultaneous},
		Seats: []SeatInfo{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}, {ID: "c", Name: "Cid"}}, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var ev []Event
	for seat := range g.State.Seats {
		_, e, err := g.Apply(seat, AutoPlace{})
		if err != nil {
			t.Fatal(err)
		}
		ev = e
	}
	s := g.State
	if s.Phase != state.PhaseOrders || s.Turn != 1 {
		t.Fatalf("after the initial placement: %s, round %d; want orders, round 1", s.Phase, s.Turn)
	}
	started := eventsOf[TurnStarted](ev)
	if len(started) != 3 {
		t.Fatalf("%d seats told of their reinforcements, want 3: %#v", len(started), ev)
	}
	for i, ts := range started {
		if want := s.Income(i).Total; ts.Seat != i || s.Seats[i].Reserve != want || ts.Armies != want {
			t.Errorf("seat %d: reserve %d, told %d; want %d (its income)", i, s.Seats[i].Reserve, ts.Armies, want)
		}
	}
}

func TestOrdersAreCheckedAgainstTheSeatsEarlierOrders(t *testing.T) {
	s := board(t, ordersBoard+"\nreserve Ann: 3")
	ann := 0
	// Alaska has 10: 9 may go, and a placement there adds to them.
	mustOrder(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 6})
	refused(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 4}, ErrBadArmies)
	mustOrder(t, s, ann, Place{Territory: T("Alaska"), Armies: 3})
	mustOrder(t, s, ann, Fortify{From: T("Alaska"), To: T("Alberta"), Armies: 6})
	refused(t, s, ann, Fortify{From: T("Alaska"), To: T("Northwest Territory"), Armies: 1}, ErrNotEnoughArmies)
	// What a move brings counts for the orders after it.
	mustOrder(t, s, ann, Assault{From: T("Alberta"), To: T("Ontario"), Armies: 8})
	for _, tc := range []struct {
		c    Command
		code Code
	}{
		{Assault{From: T("Kamchatka"), To: T("Alaska"), Armies: 1}, ErrNotYourTerritory},
		{Assault{From: T("Alaska"), To: T("Alberta"), Armies: 1}, ErrOwnTerritory},
		{Assault{From: T("Alaska"), To: T("Iceland"), Armies: 1}, ErrNotAdjacent},
		{Fortify{From: T("Northwest Territory"), To: T("Greenland"), Armies: 1}, ErrNotYourTerritory},
		{Assault{From: 99, To: T("Alaska"), Armies: 1}, ErrNoSuchTerritory},
		{Attack{From: T("Northwest Territory"), To: T("Greenland"), Dice: 1}, ErrWrongPhase},
		{Place{Territory: T("Alaska"), Armies: 1}, ErrNotEnoughArmies},
		{Occupy{Armies: 1}, ErrBadCommand},
	} {
		refused(t, s, ann, tc.c, tc.code)
	}
}

func TestOrdersAreHiddenFromOthersUntilTheRoundResolves(t *testing.T) {
	s := board(t, ordersBoard)
	ann, bob := 0, 1
	mustOrder(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 9})
	mustOrder(t, s, bob, Fortify{From: T("Yakutsk"), To: T("Kamchatka"), Armies: 5})
	for viewer, want := range map[int]int{ann: 1, bob: 1, 2: 0, -1: 0} {
		v := s.View(viewer)
		if len(v.Orders) != want || slices.ContainsFunc(v.Orders, func(o state.Order) bool { return o.Seat != viewer }) {
			t.Errorf("seat %d's view shows orders %+v", viewer, v.Orders)
		}
	}
	if len(s.Orders) != 2 {
		t.Errorf("the full state lost orders: %+v", s.Orders)
	}
}

func TestUndoTakesBackTheSeatsLastOrder(t *testing.T) {
	s := board(t, ordersBoard+"\nreserve Ann: 3\nreserve Bob: 2")
	ann, bob := 0, 1
	mustOrder(t, s, ann, Place{Territory: T("Alaska"), Armies: 2})
	mustOrder(t, s, bob, Place{Territory: T("Yakutsk"), Armies: 2})
	ev := mustOrder(t, s, ann, Undo{})
	if u := eventsOf[Unordered](ev); len(u) != 1 || u[0].Order.To != T("Alaska") {
		t.Errorf("undo events %#v", ev)
	}
	if s.Seats[ann].Reserve != 3 || len(s.OrdersOf(ann)) != 0 || len(s.OrdersOf(bob)) != 1 {
		t.Errorf("after Ann's undo: reserve %d, orders %+v", s.Seats[ann].Reserve, s.Orders)
	}
	refused(t, s, ann, Undo{}, ErrNothingToUndo)
	g := &Game{State: s}
	g.checkpoint()
	if g.CanUndo(ann) || !g.CanUndo(bob) {
		t.Errorf("CanUndo: Ann %v (no orders), Bob %v (one)", g.CanUndo(ann), g.CanUndo(bob))
	}
	if _, _, err := g.Apply(bob, Undo{}); err != nil {
		t.Errorf("the game's undo of Bob's order: %v", err)
	}
}

func TestACommittedSeatGivesNoMoreOrders(t *testing.T) {
	s := board(t, ordersBoard+"\nreserve Ann: 3")
	ann, bob := 0, 1
	refused(t, s, ann, EndTurn{}, ErrWrongPhase) // armies left to place
	mustOrder(t, s, ann, Place{Territory: T("Alaska"), Armies: 3})
	mustOrder(t, s, ann, EndTurn{})
	refused(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 1}, ErrCommitted)
	refused(t, s, ann, Undo{}, ErrCommitted)
	refused(t, s, ann, EndTurn{}, ErrCommitted)
	if s.Phase != state.PhaseOrders || !s.Seats[ann].Ready || s.Seats[bob].Ready {
		t.Errorf("after Ann committed: %s, ready %v; want orders, Ann alone ready", s.Phase, []bool{s.Seats[ann].Ready, s.Seats[bob].Ready})
	}
}

func TestAllPlacementsResolveFirst(t *testing.T) {
	// Bob's placement on Kamchatka lands before Ann's attack, whoever
	// ordered first.
	s := board(t, ordersBoard+"\nreserve Bob: 20")
	ann, bob := 0, 1
	mustOrder(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 9})
	mustOrder(t, s, bob, Place{Territory: T("Kamchatka"), Armies: 20})
	ev := commitAll(t, s)
	placed, rolled := -1, -1
	for i, e := range ev {
		switch e := e.(type) {
		case Placed:
			if e.Territory == T("Kamchatka") && placed < 0 {
				placed = i
			}
		case Rolled:
			if rolled < 0 {
				rolled = i
			}
		}
	}
	if placed < 0 || rolled < 0 || placed > rolled {
		t.Fatalf("placement at event %d, first roll at %d: want the placement first (%#v)", placed, rolled, ev)
	}
	if r := eventsOf[Rolled](ev)[0]; r.ND != 2 {
		t.Errorf("the first roll met %d defending dice: the 24 armies were not there yet", r.ND)
	}
}

func TestOrdersResolveOnePerSeatInTheRoundsDrawnOrder(t *testing.T) {
	s := board(t, ordersBoard+"\nAlberta: Ann 9")
	ann, bob := 0, 1
	// Two moves each, between their own territories: nothing can fail.
	mustOrder(t, s, ann, Fortify{From: T("Alaska"), To: T("Northwest Territory"), Armies: 1})
	mustOrder(t, s, ann, Fortify{From: T("Alberta"), To: T("Northwest Territory"), Armies: 1})
	mustOrder(t, s, bob, Fortify{From: T("Yakutsk"), To: T("Kamchatka"), Armies: 1})
	mustOrder(t, s, bob, Fortify{From: T("Yakutsk"), To: T("Kamchatka"), Armies: 2})
	ev := commitAll(t, s)
	rr := eventsOf[RoundResolved](ev)
	if len(rr) != 1 || len(rr[0].Order) != 3 {
		t.Fatalf("round resolved %#v", rr)
	}
	var want []int
	for range 2 {
		for _, seat := range rr[0].Order {
			if seat != 2 { // Cid gave no orders
				want = append(want, seat)
			}
		}
	}
	var got []int
	for _, tr := range eventsOf[Transferred](ev) {
		got = append(got, tr.Seat)
	}
	if !slices.Equal(got, want) {
		t.Errorf("orders ran for seats %v, want %v (the drawn order %v, one each in turn)", got, want, rr[0].Order)
	}
	if s.Turn != 2 || s.Phase != state.PhaseOrders {
		t.Errorf("after the round: round %d, %s", s.Turn, s.Phase)
	}
	_ = ann
}

func TestTheRoundsOrderIsDrawnFromTheSeed(t *testing.T) {
	orders := map[string]bool{}
	for seed := range uint64(40) {
		s := board(t, ordersBoard)
		s.RNG.Seed = seed
		ev := commitAll(t, s)
		rr := eventsOf[RoundResolved](ev)
		orders[string([]byte{byte(rr[0].Order[0]), byte(rr[0].Order[1]), byte(rr[0].Order[2])})] = true
		again := board(t, ordersBoard)
		again.RNG.Seed = seed
		if rr2 := eventsOf[RoundResolved](commitAll(t, again)); !slices.Equal(rr[0].Order, rr2[0].Order) {
			t.Fatalf("seed %d drew %v, then %v", seed, rr[0].Order, rr2[0].Order)
		}
	}
	if len(orders) != 6 {
		t.Errorf("40 seeds drew %d of the 6 orders of three seats", len(orders))
	}
}

func TestAnAttackUsesTheArmiesLeftAboveOne(t *testing.T) {
	// Ann orders 9 from Alaska; Bob's earlier move out of... nothing
	// touches Alaska, but Ann's own move, given after, runs first if she
	// is drawn first: the attack takes what is left above one.
	s := board(t, ordersBoard+"\nKamchatka: Bob 1")
	ann := 0
	mustOrder(t, s, ann, Fortify{From: T("Alaska"), To: T("Alberta"), Armies: 5})
	mustOrder(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 4})
	// Orders run in the order given: the move, then the attack with 4.
	ev := commitAll(t, s)
	for _, r := range eventsOf[Rolled](ev) {
		if r.NA > 3 {
			t.Errorf("a roll with %d dice", r.NA)
		}
	}
	c := eventsOf[Conquered](ev)
	if len(c) != 1 || s.Terr[T("Alaska")].Armies+s.Terr[T("Kamchatka")].Armies+lost(ev, ann) != 5 {
		t.Errorf("conquests %#v; Alaska %d, Kamchatka %d, lost %d: want 5 armies between them and the losses", c,
			s.Terr[T("Alaska")].Armies, s.Terr[T("Kamchatka")].Armies, lost(ev, ann))
	}
	if s.Terr[T("Alaska")].Armies != 1 {
		t.Errorf("Alaska kept %d: the survivors of the 4 move in, one stays", s.Terr[T("Alaska")].Armies)
	}
}

// lost counts the armies seat lost attacking in events ev.
func lost(ev []Event, seat int) int {
	n := 0
	for _, r := range eventsOf[Rolled](ev) {
		if r.Seat == seat {
			n += r.AttackerLost
		}
	}
	return n
}

func TestAnOrderWhoseSourceWasLostIsSkipped(t *testing.T) {
	// Bob takes Kamchatka's neighbour Alaska... rather: Ann takes
	// Kamchatka before Bob's attack from it runs, whatever the drawn
	// order, because Bob's attack comes after a move of his.
	s := board(t, ordersBoard+"\nAlaska: Ann 40\nKamchatka: Bob 1\nYakutsk: Bob 2")
	ann, bob := 0, 1
	mustOrder(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 39})
	mustOrder(t, s, bob, Fortify{From: T("Yakutsk"), To: T("Kamchatka"), Armies: 1})
	mustOrder(t, s, bob, Assault{From: T("Kamchatka"), To: T("Alaska"), Armies: 1})
	ev := commitAll(t, s)
	skipped := eventsOf[OrderSkipped](ev)
	if s.Terr[T("Kamchatka")].Owner != ann {
		t.Fatalf("Ann's 39 did not take Kamchatka: %#v", ev)
	}
	if len(skipped) == 0 || skipped[len(skipped)-1].Seat != bob || skipped[len(skipped)-1].Why != SkipSourceLost {
		t.Errorf("skipped %#v: want Bob's attack from Kamchatka, its source lost", skipped)
	}
}

func TestAnAttackOnATerritoryAlreadyTakenBecomesAMove(t *testing.T) {
	s := board(t, ordersBoard+"\nAlaska: Ann 40\nKamchatka: Bob 1\nAlberta: Ann 5")
	ann := 0
	mustOrder(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 39})
	mustOrder(t, s, ann, Fortify{From: T("Alberta"), To: T("Alaska"), Armies: 4})
	mustOrder(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 3})
	ev := commitAll(t, s)
	tr := eventsOf[Transferred](ev)
	if len(tr) != 2 || !tr[1].Attack || tr[1].To != T("Kamchatka") || tr[1].Armies != 3 {
		t.Errorf("transfers %#v: want the second attack on Kamchatka, taken already, to move 3 in", tr)
	}
}

func TestOneCardToEachSeatThatConqueredInTheRound(t *testing.T) {
	s := board(t, ordersBoard+"\nAlaska: Ann 40\nKamchatka: Bob 1\nYakutsk: Bob 40\nIrkutsk: Cid 1\nSiberia: Cid 1")
	ann, bob := 0, 1
	mustOrder(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 39})
	mustOrder(t, s, bob, Assault{From: T("Yakutsk"), To: T("Irkutsk"), Armies: 20})
	mustOrder(t, s, bob, Assault{From: T("Yakutsk"), To: T("Siberia"), Armies: 19})
	ev := commitAll(t, s)
	drawn := map[int]int{}
	for _, c := range eventsOf[CardDrawn](ev) {
		drawn[c.Seat]++
	}
	if drawn[ann] != 1 || drawn[bob] != 1 || len(drawn) != 2 {
		t.Errorf("cards drawn %v: want one to Ann and one to Bob, who conquered twice", drawn)
	}
}

func TestEliminationAndVictoryAreCheckedAfterEachOrder(t *testing.T) {
	s := board(t, `
		players: Ann Bob
		options: turns=simultaneous
		phase: orders
		turn: 3
		rest: Ann 2
		Kamchatka: Bob 1
		Alaska: Ann 31
	`)
	ann, bob := 0, 1
	mustOrder(t, s, ann, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 29})
	mustOrder(t, s, ann, Fortify{From: T("Alaska"), To: T("Alberta"), Armies: 1})
	ev := commitAll(t, s)
	el, won := eventsOf[Eliminated](ev), eventsOf[Won](ev)
	if len(el) != 1 || el[0].Seat != bob || len(won) != 1 || won[0].Seat != ann || s.Phase != state.PhaseOver {
		t.Fatalf("eliminated %#v, won %#v, phase %s", el, won, s.Phase)
	}
	if _, ok := ev[len(ev)-1].(Won); !ok {
		t.Errorf("orders ran after the victory: %#v", ev[len(ev)-1])
	}
}

func TestASurrenderWhileOthersWaitResolvesTheRound(t *testing.T) {
	s := board(t, ordersBoard)
	ann, bob, cid := 0, 1, 2
	mustOrder(t, s, ann, EndTurn{})
	mustOrder(t, s, bob, Assault{From: T("Kamchatka"), To: T("Alaska"), Armies: 3})
	mustOrder(t, s, cid, EndTurn{})
	ev := mustOrder(t, s, bob, Surrender{})
	if len(eventsOf[RoundResolved](ev)) != 1 || s.Turn != 2 {
		t.Errorf("the round did not resolve when the last seat awaited surrendered: %#v", ev)
	}
	if len(eventsOf[Rolled](ev)) != 0 {
		t.Errorf("the surrendered seat's orders ran: %#v", ev)
	}
}

// Trades are orders (docs/rules.md, "Hidden orders"): a view shows its
// seat's own only until the round resolves, which tells each trade of a
// seat still in the round, in the order traded; a surrender takes the
// seat's trades with its orders.
func TestARoundsTradesShowWhenItResolves(t *testing.T) {
	s := board(t, ordersBoard+"\nhand Ann: 0 1 2\nhand Bob: 6 9 12\nhand Cid: 4 7 10")
	ann, bob, cid := 0, 1, 2
	// Card 0 shows Alaska, Ann's: its bonus is an order of the round.
	annTrade := Traded{Seat: ann, Cards: [3]state.Card{0, 1, 2}, Armies: 4, Bonus: 2, BonusTerritory: T("Alaska")}
	cidTrade := Traded{Seat: cid, Cards: [3]state.Card{4, 7, 10}, Armies: 6, Bonus: 2, BonusTerritory: T("Ontario")}
	bobTrade := Traded{Seat: bob, Cards: [3]state.Card{6, 9, 12}, Armies: 8, BonusTerritory: -1}
	for _, tr := range []Traded{annTrade, cidTrade, bobTrade} {
		if ev := eventsOf[Traded](mustOrder(t, s, tr.Seat, Trade{Cards: tr.Cards})); len(ev) != 1 || !reflect.DeepEqual(ev[0], tr) {
			t.Fatalf("seat %d traded: got %+v, want %+v", tr.Seat, ev, tr)
		}
	}
	for viewer, want := range map[int][]state.Trade{ann: {state.Trade(annTrade)}, bob: {state.Trade(bobTrade)}, cid: {state.Trade(cidTrade)}, -1: nil} {
		v := s.View(viewer)
		if !slices.Equal(v.RoundTrades, want) {
			t.Errorf("seat %d's view shows the round's trades %+v, want %+v", viewer, v.RoundTrades, want)
		}
		if err := v.Check(); err != nil {
			t.Errorf("seat %d's view: %v", viewer, err)
		}
	}
	mustOrder(t, s, cid, Surrender{})
	mustOrder(t, s, ann, Place{Territory: T("Alaska"), Armies: 4})
	mustOrder(t, s, bob, Place{Territory: T("Kamchatka"), Armies: 8})
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	r := eventsOf[RoundResolved](commitAll(t, s))
	if len(r) != 1 {
		t.Fatalf("the round did not resolve: %d resolutions", len(r))
	}
	if want := []Traded{annTrade, bobTrade}; !slices.Equal(r[0].Trades, want) {
		t.Errorf("the round resolved telling the trades %+v, want %+v", r[0].Trades, want)
	}
	if s.RoundTrades != nil {
		t.Errorf("round 2 begins with the trades %+v, want none", s.RoundTrades)
	}
	if got := s.Terr[T("Alaska")].Armies; got != 10+4+2 {
		t.Errorf("Alaska has %d armies, want 16 (10, 4 placed, 2 of the card's bonus)", got)
	}
}

// A surrender that ends the match in the middle of a round takes the
// seat's sets of the round with it too (seed 222 of the random games: the
// state kept them, its cards on the pile, and failed its check).
func TestASurrenderThatEndsTheMatchTakesItsTrades(t *testing.T) {
	s := board(t, ordersBoard+"\nhand Ann: 0 1 2\nhand Bob: 6 9 12")
	ann, bob, cid := 0, 1, 2
	mustOrder(t, s, cid, Surrender{})
	mustOrder(t, s, bob, Trade{Cards: [3]state.Card{6, 9, 12}})
	mustOrder(t, s, ann, Trade{Cards: [3]state.Card{0, 1, 2}})
	ev := mustOrder(t, s, bob, Surrender{})
	if len(eventsOf[Won](ev)) != 1 || s.Phase != state.PhaseOver {
		t.Fatalf("Bob's surrender, the last but Ann: %+v, want Ann's win", ev)
	}
	if err := s.Check(); err != nil {
		t.Error(err)
	}
	for _, tr := range s.RoundTrades {
		if tr.Seat == bob {
			t.Errorf("the match ends keeping Bob's set of the round %+v", tr)
		}
	}
}

func TestSimultaneousTurnsAreForClassicRules(t *testing.T) {
	o := state.CapitalsOptions()
	o.Turns = state.Simultaneous
	if _, err := NewGame(Setup{Options: o, Seats: []SeatInfo{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}}, Seed: 1}); err == nil {
		t.Error("a capitals match with simultaneous turns started")
	}
}

// randomSimultaneousSetup is randomSetup with simultaneous turns.
func randomSimultaneousSetup(seed uint64) Setup {
	s := randomSetup(seed)
	s.Options.Turns = state.Simultaneous
	return s
}

// randomSimultaneousMove plays a random seat still ordering: placements
// and orders drawn from Legal, favouring strong attacks so that games end,
// sometimes an undo, and a commit once it has placed (often).
func randomSimultaneousMove(g *Game, r *rand.Rand) (int, Command) {
	s := g.State
	if s.Phase != state.PhaseOrders {
		return randomMove(g, r)
	}
	var waiting []int
	for i := range s.Seats {
		if s.Seats[i].Alive() && !s.Seats[i].Ready {
			waiting = append(waiting, i)
		}
	}
	seat := waiting[r.IntN(len(waiting))]
	if g.CanUndo(seat) && r.IntN(12) == 0 {
		return seat, Undo{}
	}
	moves := Legal(s, seat)
	if Covers(moves, EndTurn{}) && r.IntN(3) == 0 {
		return seat, EndTurn{}
	}
	var strong []Command
	for _, c := range moves {
		if a, ok := c.(Assault); ok && a.Armies > s.Terr[a.To].Armies {
			strong = append(strong, c)
		}
	}
	if len(strong) > 0 && r.IntN(2) == 0 {
		moves = strong
	}
	for {
		c := moves[r.IntN(len(moves))]
		if _, ok := c.(Surrender); ok && r.IntN(500) != 0 {
			continue
		}
		return seat, widen(moves, c, r)
	}
}

// simultaneousSteps checks each command of a simultaneous game beyond
// State.Check: no seat's view shows another's orders; a committed seat's
// orders do not change before the round resolves; a resolution leaves no
// orders and every living seat ordering.
func simultaneousSteps(*Game) stepCheck {
	return func(t testing.TB, seed uint64, step int, before, after *state.State, ev []Event) {
		// The views, on every seventh step: a view is a copy of the state.
		for v := -1; v < len(after.Seats) && step%7 == 0; v++ {
			if slices.ContainsFunc(after.View(v).Orders, func(o state.Order) bool { return o.Seat != v }) {
				t.Fatalf("seed %d step %d: seat %d sees another's orders", seed, step, v)
			}
		}
		if before.Phase == state.PhaseOrders && after.Phase == state.PhaseOrders && after.Turn == before.Turn {
			for i := range before.Seats {
				if before.Seats[i].Ready && after.Seats[i].Alive() && !slices.Equal(before.OrdersOf(i), after.OrdersOf(i)) {
					t.Fatalf("seed %d step %d: committed seat %d's orders changed", seed, step, i)
				}
			}
		}
		if len(eventsOf[RoundResolved](ev)) > 0 && after.Phase == state.PhaseOrders {
			for i := range after.Seats {
				if after.Seats[i].Ready {
					t.Fatalf("seed %d step %d: seat %d is ready in a new round", seed, step, i)
				}
			}
			if len(after.Orders) > 0 {
				t.Fatalf("seed %d step %d: a new round starts with orders %+v", seed, step, after.Orders)
			}
		}
	}
}

var simultaneousGames = randomGames{"simultaneous", randomSimultaneousSetup, randomSimultaneousMove, 9, randomSimultaneousCommand, simultaneousSteps}

func TestRoundStartHidesTheOrdersOfTheRoundInProgress(t *testing.T) {
	g, log := simultaneousGames.play(t, 3, 400)
	if g.State.Phase != state.PhaseOrders {
		t.Skip("the game is not in a round")
	}
	n, err := RoundStart(g.Setup, log)
	if err != nil {
		t.Fatal(err)
	}
	// Replayed to n, the match is at the start of the round in progress:
	// no orders, nobody ready, the same round.
	at, err := Replay(g.Setup, log[:n])
	if err != nil {
		t.Fatal(err)
	}
	if at.State.Turn != g.State.Turn || len(at.State.Orders) > 0 || n > len(log) {
		t.Errorf("the log to %d of %d: round %d with %d orders; the match is in round %d", n, len(log), at.State.Turn, len(at.State.Orders), g.State.Turn)
	}
	for i := range at.State.Seats {
		if at.State.Seats[i].Ready {
			t.Errorf("seat %d is ready at the round's start", i)
		}
	}
}
