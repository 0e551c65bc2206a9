package engine

import (
	"testing"

	"github.com/riskbot/riskbot/state"
)

// The round limit (option rounds, docs/rules.md), one rule a test.

// lastRound is Bob's turn, the second seat's, in round 3 of a match
// limited to 3 rounds: Ann has more territories, Bob more armies.
const lastRound = `
	players: Ann Bob
	options: rounds=3
	phase: attack
	current: Bob
	turn: 6
	round: 3
	rest: Ann 1
	Alaska: Bob 40
	Kamchatka: Bob 40
`

func TestRoundLimit(t *testing.T) {
	runRules(t, []ruleTest{
		{name: "round limit: a new round opens when the turn order wraps around", board: lastRound + "\noptions: rounds=0", seat: "Bob",
			cmd: EndTurn{}, want: "current: Ann\nphase: reinforce\nround: 4\nturn: 7"},
		{name: "round limit: the last round is played to its end", board: lastRound + "\ncurrent: Ann\nturn: 5", seat: "Ann",
			cmd: EndTurn{}, want: "current: Bob\nphase: reinforce\nround: 3\nturn: 6"},
		{name: "round limit: the match ends when the last round is over", board: lastRound, seat: "Bob",
			cmd: EndTurn{}, want: "phase: over\nwinner: Ann\nround: 3\nturn: 6\nreserve Ann: 0"},
		{name: "round limit: a surrender that ends the last round ends the match", board: lastRound + "\nplayers: Ann Bob Cid\nrest: Cid 1\nAlaska: Ann 2\nGreenland: Ann 1\ncurrent: Cid\nturn: 9",
			seat: "Cid", cmd: Surrender{}, want: "phase: over\nwinner: Ann"},
		{name: "round limit: a round is a turn of every seat still playing", board: lastRound + "\nplayers: Ann Bob Cid\nrest: Cid 1\nstatus Ann: eliminated\ncurrent: Bob\nturn: 7",
			seat: "Bob", cmd: EndTurn{}, want: "current: Cid\nround: 3"},
	})
}

func TestRoundLimitWinner(t *testing.T) {
	for _, tt := range []struct {
		name, board, winner string
	}{
		{"the most territories", "players: Ann Bob\nrest: neutral 1\nAlaska: Bob 90\nPeru: Ann 1\nChina: Ann 1", "Ann"},
		{"then the most armies", "players: Ann Bob\nrest: neutral 1\nAlaska: Bob 3\nKamchatka: Ann 2\nGreenland: Bob 1\nPeru: Ann 1", "Bob"},
		{"then the seat later in the turn order", "players: Ann Bob Cid\nrest: neutral 1\nAlaska: Ann 5\nKamchatka: Bob 5\nGreenland: Ann 1\nPeru: Bob 1\nChina: Cid 1", "Bob"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := board(t, tt.board)
			if got := s.Seats[RoundLimitWinner(s)].Name; got != tt.winner {
				t.Errorf("winner %s, want %s", got, tt.winner)
			}
		})
	}
}

func TestRoundLimitEndsAFinalRoundOfOrders(t *testing.T) {
	s := board(t, ordersBoard+"\noptions: turns=simultaneous rounds=1\nround: 1")
	mustOrder(t, s, 0, Assault{T("Alaska"), T("Kamchatka"), 9})
	ev := commitAll(t, s)
	if lim := eventsOf[RoundLimit](ev); len(lim) != 1 || lim[0].Round != 1 {
		t.Fatalf("events %v: want one RoundLimit{1}", ev)
	}
	if s.Phase != state.PhaseOver || s.Winner != RoundLimitWinner(s) || s.Round != 1 || s.Turn != 1 {
		t.Fatalf("phase %s, winner %d (want %d), round %d, turn %d", s.Phase, s.Winner, RoundLimitWinner(s), s.Round, s.Turn)
	}
	if len(s.Orders) != 0 || s.Seats[0].Ready {
		t.Errorf("orders %v, ready %v left after the end", s.Orders, s.Seats[0].Ready)
	}
	if len(eventsOf[RoundStarted](ev)) != 0 || len(eventsOf[TurnStarted](ev)) != 0 {
		t.Errorf("a round started past the limit: %v", ev)
	}
}

func TestRoundLimitInCapitals(t *testing.T) {
	for _, tt := range []struct {
		name          string
		current       string
		again         bool
		phase, winner string
	}{
		{"the last seat's turn ends the match", "Bob", false, "over", "Bob"},
		{"the first seat's turn does not", "Ann", false, "reinforce", "none"},
		{"a second turn in a row stays in its round", "Bob", true, "reinforce", "none"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := capBoard(t, twoCapitals+"\nphase: move\nturn: 4\ncurrent: "+tt.current+"\nHook: Bob 1")
			s.Options.Rounds, s.Round, s.Cap.Again = 2, 2, tt.again
			var raw []int
			if tt.phase != "over" {
				raw = []int{noItem} // the next turn's item draw
			}
			ev, err := applyRaw(s, s.Current, EndTurn{}, raw...)
			if err != nil {
				t.Fatal(err)
			}
			winner := "none"
			if s.Winner >= 0 {
				winner = s.Seats[s.Winner].Name
			}
			if s.Phase.String() != tt.phase || winner != tt.winner || s.Round != 2 {
				t.Fatalf("phase %s, winner %s, round %d, want %s, %s, 2 (%v)", s.Phase, winner, s.Round, tt.phase, tt.winner, ev)
			}
		})
	}
}
