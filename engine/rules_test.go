package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// T returns the id of a classic territory by name.
func T(name string) int {
	m, err := LoadMap("classic")
	if err != nil {
		panic(err)
	}
	id, err := m.Lookup(name)
	if err != nil {
		panic(err)
	}
	return id
}

// Card numbers on the classic map: territory cards cycle infantry, cavalry,
// artillery in territory order (Alaska 0 infantry, Northwest Territory 1
// cavalry, Greenland 2 artillery, Alberta 3 infantry, ...); 42 and 43 are wild.
const (
	infAlaska    = state.Card(0)
	cavNWT       = state.Card(1)
	artGreenland = state.Card(2)
	infAlberta   = state.Card(3)
	cavOntario   = state.Card(4)
	artQuebec    = state.Card(5)
	infWUS       = state.Card(6)
	wild1        = state.Card(42)
	wild2        = state.Card(43)
)

// A two-player position in Ann's attack phase that most rows start from.
const annAttacks = `
	players: Ann Bob
	phase: attack
	current: Ann
	rest: Bob 1
	Alaska: Ann 5
	Alberta: Ann 3
	Northwest Territory: Ann 1
	Kamchatka: Bob 3
	Greenland: Bob 1
`

type ruleTest struct {
	name  string
	board string
	seat  string // the player issuing the command
	cmd   Command
	dice  []int // scripted die faces (attacker's, then defender's per roll), or raw draws
	err   Code  // the rule violation expected, or 0
	want  string
}

func runRules(t *testing.T, tests []ruleTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := board(t, tt.board)
			apply := func(seat int) ([]Event, error) { return applyDice(s, seat, tt.cmd, tt.dice...) }
			if _, ok := applyRow(t, s, tt.seat, apply, tt.err, ""); ok {
				expect(t, s, tt.want)
			}
		})
	}
}

// applyRow applies the command of a rule test's row to s for the seat
// named seat, with apply. A row that wants err must be refused with that
// rule violation, a message (that contains msg) and no change to s; any
// other must be accepted and leave s consistent, and gets its events and
// ok to check the rest.
func applyRow(t *testing.T, s *state.State, seat string, apply func(seat int) ([]Event, error), err Code, msg string) (ev []Event, ok bool) {
	t.Helper()
	before, _ := json.Marshal(s)
	i := slices.IndexFunc(s.Seats, func(p state.Seat) bool { return p.Name == seat })
	if i < 0 {
		t.Fatalf("unknown seat %q", seat)
	}
	ev, got := apply(i)
	if err != 0 {
		if !errors.Is(got, err) {
			t.Fatalf("err = %v, want %v", got, err)
		}
		if e, ok := IsRule(got); !ok || e.Msg.IsZero() {
			t.Errorf("error %v is not a rule error with a message", got)
		}
		if !strings.Contains(got.Error(), msg) {
			t.Errorf("message %q does not say %q", got, msg)
		}
		if after, _ := json.Marshal(s); !bytes.Equal(before, after) {
			t.Error("a refused command changed the state")
		}
		return nil, false
	}
	if got != nil {
		t.Fatalf("unexpected error: %v", got)
	}
	if err := s.Check(); err != nil {
		t.Errorf("invariants broken: %v", err)
	}
	return ev, true
}

func TestRulesSetup(t *testing.T) {
	const setup = `
		players: Ann Bob
		phase: setup
		Alaska: Ann 1
		Kamchatka: Bob 1
		reserve Ann: 5
		reserve Bob: 2
	`
	runRules(t, []ruleTest{
		{name: "setup placement is simultaneous: a seat places while others have not", board: setup, seat: "Bob",
			cmd: Place{T("Kamchatka"), 1}, want: "Kamchatka: Bob 2\nreserve Bob: 1\nphase: setup"},
		{name: "setup placement goes only on own territories", board: setup, seat: "Ann",
			cmd: Place{T("Kamchatka"), 1}, err: ErrNotYourTerritory},
		{name: "setup placement cannot exceed the reserve", board: setup, seat: "Bob",
			cmd: Place{T("Kamchatka"), 3}, err: ErrBadArmies},
		{name: "setup placement of zero armies is refused", board: setup, seat: "Bob",
			cmd: Place{T("Kamchatka"), 0}, err: ErrBadArmies},
		{name: "setup allows no attack", board: setup, seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 1}, err: ErrWrongPhase},
		{name: "setup ends when every reserve is placed and the first seat reinforces", board: `
			players: Ann Bob
			phase: setup
			turn: 0
			rest: Bob 1
			Alaska: Ann 1
			reserve Bob: 2
		`, seat: "Bob", cmd: Place{T("Kamchatka"), 2},
			want: "phase: reinforce\ncurrent: Ann\nturn: 1\nreserve Ann: 3"},
		{name: "setup automatic placement places the whole reserve", board: setup, seat: "Ann",
			cmd: AutoPlace{}, dice: []int{1, 1, 1, 1, 1}, want: "reserve Ann: 0\nphase: setup"},
		{name: "setup placement after placing everything is refused", board: setup + "\nreserve Ann: 0", seat: "Ann",
			cmd: Place{T("Alaska"), 1}, err: ErrNotEnoughArmies},
	})
}

func TestStartingArmiesByPlayerCount(t *testing.T) {
	want := map[int]int{2: 40, 3: 35, 4: 30, 5: 25, 6: 20}
	for n, armies := range want {
		seats := make([]SeatInfo, n)
		for i := range seats {
			seats[i] = SeatInfo{ID: string(rune('a' + i)), Name: string(rune('A' + i))}
		}
		s, err := New(Setup{Options: state.DefaultOptions(), Seats: seats, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		for i := range s.Seats {
			if got := s.Seats[i].Reserve + s.Armies(i); got != armies {
				t.Errorf("%d players: seat %d starts with %d armies, want %d", n, i, got, armies)
			}
			// Dealt round-robin: territory counts differ by at most one.
			if o := s.Owned(i); o < 42/n || o > (42+n-1)/n {
				t.Errorf("%d players: seat %d dealt %d territories", n, i, o)
			}
		}
	}
}

func TestTurnOrderAndDealAreRandom(t *testing.T) {
	firsts := map[string]int{}
	deals := map[int]bool{}
	for seed := range uint64(60) {
		s, err := New(Setup{Options: state.DefaultOptions(), Seats: []SeatInfo{{ID: "a", Name: "A"}, {ID: "b", Name: "B"}, {ID: "c", Name: "C"}}, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		firsts[s.Seats[0].ID]++
		deals[s.Terr[0].Owner*100+s.Terr[41].Owner*10+s.Terr[20].Owner] = true
	}
	for _, id := range []string{"a", "b", "c"} {
		if firsts[id] < 8 {
			t.Errorf("seat %s went first %d times of 60: turn order is not random", id, firsts[id])
		}
	}
	if len(deals) < 10 {
		t.Errorf("only %d different deals in 60 seeds", len(deals))
	}
}

func TestRulesReinforce(t *testing.T) {
	runRules(t, []ruleTest{
		{name: "reinforcement is at least 3", board: `
			players: Ann Bob
			phase: attack
			current: Bob
			rest: Bob 1
			Alaska: Ann 1
		`, seat: "Bob", cmd: EndTurn{}, want: "current: Ann\nphase: reinforce\nreserve Ann: 3"},
		{name: "reinforcement is territories divided by 3", board: `
			players: Ann Bob
			phase: attack
			current: Bob
			rest: Bob 1
			Alaska: Ann 1
			Greenland: Ann 1
			Quebec: Ann 1
			Peru: Ann 1
			Brazil: Ann 1
			Iceland: Ann 1
			Ukraine: Ann 1
			Egypt: Ann 1
			Congo: Ann 1
			Ural: Ann 1
			Japan: Ann 1
			India: Ann 1
			Siam: Ann 1
			Indonesia: Ann 1
		`, seat: "Bob", cmd: EndTurn{}, want: "current: Ann\nreserve Ann: 4"}, // 14 territories, no continent
		{name: "reinforcement adds the bonus of each continent held whole", board: `
			players: Ann Bob
			phase: attack
			current: Bob
			rest: Bob 1
			Indonesia: Ann 1
			New Guinea: Ann 1
			Western Australia: Ann 1
			Eastern Australia: Ann 1
			Peru: Ann 1
		`, seat: "Bob", cmd: EndTurn{}, want: "reserve Ann: 5"}, // 3 + Australia 2
		{name: "reinforcements must all be placed before attacking", board: annAttacks + "\nphase: reinforce\nreserve Ann: 3", seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 3}, err: ErrWrongPhase},
		{name: "placing the last reinforcement starts the attack phase", board: annAttacks + "\nphase: reinforce\nreserve Ann: 3", seat: "Ann",
			cmd: Place{T("Alaska"), 3}, want: "phase: attack\nAlaska: Ann 8"},
		{name: "reinforcing is for the current player only", board: annAttacks + "\nphase: reinforce\nreserve Ann: 3", seat: "Bob",
			cmd: Place{T("Kamchatka"), 1}, err: ErrNotYourTurn},
		{name: "reinforcements go on own territories", board: annAttacks + "\nphase: reinforce\nreserve Ann: 3", seat: "Ann",
			cmd: Place{T("Kamchatka"), 1}, err: ErrNotYourTerritory},
		{name: "automatic placement in a turn places everything", board: annAttacks + "\nphase: reinforce\nreserve Ann: 3", seat: "Ann",
			cmd: AutoPlace{}, dice: []int{1, 2, 1}, want: "phase: attack\nreserve Ann: 0"},
		{name: "territory ids out of range are refused", board: annAttacks + "\nphase: reinforce\nreserve Ann: 3", seat: "Ann",
			cmd: Place{99, 1}, err: ErrNoSuchTerritory},
	})
}

func TestRulesCards(t *testing.T) {
	reinforce := `
		players: Ann Bob
		phase: reinforce
		current: Ann
		rest: Bob 1
		Alaska: Ann 2
		Alberta: Ann 2
		reserve Ann: 3
	`
	runRules(t, []ruleTest{
		{name: "cards three of a kind trade for the first escalating value 4", board: reinforce + "\nhand Ann: 6 9 12", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 9, 12}}, want: "reserve Ann: 7\ntrades: 1\ncards Ann: 0\ndiscarded: 3"},
		{name: "cards one of each is a set", board: reinforce + "\nhand Ann: 6 7 8", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 7, 8}}, want: "reserve Ann: 7"},
		{name: "cards a wild stands for any kind", board: reinforce + "\nhand Ann: 6 7 42", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 7, wild1}}, want: "reserve Ann: 7"},
		{name: "cards escalating values continue 15 then +5", board: reinforce + "\nhand Ann: 6 9 12\ntrades: 6", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 9, 12}}, want: "reserve Ann: 23"},
		{name: "cards fixed three infantry is 4", board: reinforce + "\nhand Ann: 6 9 12\ntrades: 9\noptions: cards=fixed", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 9, 12}}, want: "reserve Ann: 7"},
		{name: "cards fixed three cavalry is 6", board: reinforce + "\nhand Ann: 7 10 13\noptions: cards=fixed", seat: "Ann",
			cmd: Trade{[3]state.Card{7, 10, 13}}, want: "reserve Ann: 9"},
		{name: "cards fixed three artillery is 8", board: reinforce + "\nhand Ann: 8 11 14\noptions: cards=fixed", seat: "Ann",
			cmd: Trade{[3]state.Card{8, 11, 14}}, want: "reserve Ann: 11"},
		{name: "cards fixed one of each is 10", board: reinforce + "\nhand Ann: 6 7 8\noptions: cards=fixed", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 7, 8}}, want: "reserve Ann: 13"},
		{name: "cards fixed two artillery and a wild are three artillery", board: reinforce + "\nhand Ann: 8 11 42\noptions: cards=fixed", seat: "Ann",
			cmd: Trade{[3]state.Card{8, 11, wild1}}, want: "reserve Ann: 11"},
		{name: "cards fixed two wilds and a card make one of each", board: reinforce + "\nhand Ann: 8 42 43\noptions: cards=fixed", seat: "Ann",
			cmd: Trade{[3]state.Card{8, wild1, wild2}}, want: "reserve Ann: 13"},
		{name: "cards two of a kind and another are not a set", board: reinforce + "\nhand Ann: 6 9 7", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 9, 7}}, err: ErrBadCards},
		{name: "cards not held cannot be traded", board: reinforce + "\nhand Ann: 6 9", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 9, 12}}, err: ErrBadCards},
		{name: "cards the same card twice is not a set", board: reinforce + "\nhand Ann: 6 9 12", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 6, 12}}, err: ErrBadCards},
		{name: "cards a card showing an owned territory gives 2 armies there", board: reinforce + "\nhand Ann: 0 9 12", seat: "Ann",
			cmd: Trade{[3]state.Card{infAlaska, 9, 12}}, want: "Alaska: Ann 4\nreserve Ann: 7"},
		{name: "cards the territory bonus is given once per turn", board: reinforce + "\nhand Ann: 0 3 12\nflags: cardbonus", seat: "Ann",
			cmd: Trade{[3]state.Card{infAlaska, infAlberta, 12}}, want: "Alaska: Ann 2\nAlberta: Ann 2\nreserve Ann: 7"},
		{name: "cards only one territory bonus per trade", board: reinforce + "\nhand Ann: 0 3 12", seat: "Ann",
			cmd: Trade{[3]state.Card{infAlaska, infAlberta, 12}}, want: "Alaska: Ann 4\nAlberta: Ann 2"},
		{name: "cards five in hand must be traded before placing", board: reinforce + "\nhand Ann: 6 9 12 7 8", seat: "Ann",
			cmd: Place{T("Alaska"), 1}, err: ErrMustTrade},
		{name: "cards five in hand must be traded before ending the turn", board: reinforce + "\nhand Ann: 6 9 12 7 8", seat: "Ann",
			cmd: EndTurn{}, err: ErrMustTrade},
		{name: "cards trading down from five allows placing again", board: reinforce + "\nhand Ann: 6 9 12 7 8", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 9, 12}}, want: "phase: reinforce\nreserve Ann: 7\ncards Ann: 2"},
		{name: "cards are traded only before placing is done", board: annAttacks + "\nhand Ann: 6 9 12", seat: "Ann",
			cmd: Trade{[3]state.Card{6, 9, 12}}, err: ErrWrongPhase},
		{name: "cards a conqueror draws one card at the end of the turn", board: annAttacks + "\nflags: conquered", seat: "Ann",
			cmd: EndTurn{}, dice: []int{1}, want: "cards Ann: 1\ndeck: 43\ncurrent: Bob"},
		{name: "cards no conquest no card", board: annAttacks, seat: "Ann",
			cmd: EndTurn{}, want: "cards Ann: 0\ndeck: 44"},
		{name: "cards hand limit 5: discard before drawing", board: annAttacks + "\nflags: conquered\nhand Ann: 6 9 12 7 8", seat: "Ann",
			cmd: EndTurn{}, err: ErrMustDiscard},
		{name: "cards hand limit 5: a discard makes room", board: annAttacks + "\nflags: conquered\nhand Ann: 6 9 12 7 8", seat: "Ann",
			cmd: Discard{7}, want: "cards Ann: 4\ndiscarded: 1"},
		{name: "cards discarding without a full hand is refused", board: annAttacks + "\nflags: conquered\nhand Ann: 6 9", seat: "Ann",
			cmd: Discard{6}, err: ErrWrongPhase},
		{name: "cards an empty deck is reshuffled from the discard pile", board: annAttacks + `
			flags: conquered
			hand Bob: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39
			discard: 40 41 42 43`, seat: "Ann",
			cmd: EndTurn{}, dice: []int{3}, want: "cards Ann: 1\ndeck: 3\ndiscarded: 0"},
	})
}

func TestDeckHasEvenKindsAndTwoWilds(t *testing.T) {
	m, _ := LoadMap("classic")
	var n [4]int
	for c := range m.NumCards() {
		n[m.CardKind(state.Card(c))]++
	}
	if n != [4]int{14, 14, 14, 2} {
		t.Errorf("deck kinds = %v, want 14 infantry, 14 cavalry, 14 artillery, 2 wild", n)
	}
	for i, want := range []int{4, 6, 8, 10, 12, 15, 20, 25, 30} {
		if got := EscalatingValue(i); got != want {
			t.Errorf("set %d is worth %d, want %d", i+1, got, want)
		}
	}
}

func TestRulesAttack(t *testing.T) {
	runRules(t, []ruleTest{
		{name: "attack the attacker rolls at most armies minus one dice", board: annAttacks, seat: "Ann",
			cmd: Attack{T("Alberta"), T("Ontario"), 3}, err: ErrTooManyDice},
		{name: "attack never more than 3 dice", board: annAttacks + "\nAlaska: Ann 10", seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 4}, err: ErrTooManyDice},
		{name: "attack zero dice is refused", board: annAttacks, seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 0}, err: ErrTooManyDice},
		{name: "attack needs at least 2 armies on the source", board: annAttacks, seat: "Ann",
			cmd: Attack{T("Northwest Territory"), T("Greenland"), 1}, err: ErrNotEnoughArmies},
		{name: "attack only adjacent territories", board: annAttacks, seat: "Ann",
			cmd: Attack{T("Alaska"), T("Greenland"), 1}, err: ErrNotAdjacent},
		{name: "attack not one's own territory", board: annAttacks, seat: "Ann",
			cmd: Attack{T("Alaska"), T("Alberta"), 1}, err: ErrOwnTerritory},
		{name: "attack only from one's own territory", board: annAttacks, seat: "Ann",
			cmd: Attack{T("Kamchatka"), T("Alaska"), 1}, err: ErrNotYourTerritory},
		{name: "attack out of turn is refused", board: annAttacks, seat: "Bob",
			cmd: Attack{T("Kamchatka"), T("Alaska"), 1}, err: ErrNotYourTurn},
		// Dice: attacker faces then defender faces; sorted and compared pairwise.
		{name: "attack dice compare highest with highest, defender losing both", board: annAttacks, seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 3}, dice: []int{1, 6, 3, 5, 2}, want: "Alaska: Ann 5\nKamchatka: Bob 1"},
		{name: "attack ties go to the defender", board: annAttacks, seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 3}, dice: []int{5, 5, 1, 5, 5}, want: "Alaska: Ann 3\nKamchatka: Bob 3"},
		{name: "attack each side loses one on a split", board: annAttacks, seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 2}, dice: []int{6, 2, 4, 3}, want: "Alaska: Ann 4\nKamchatka: Bob 2"},
		{name: "attack a lone defender rolls one die", board: annAttacks + "\nNorthwest Territory: Ann 4", seat: "Ann",
			cmd: Attack{T("Northwest Territory"), T("Greenland"), 1}, dice: []int{2, 3}, want: "Northwest Territory: Ann 3\nGreenland: Bob 1"},
		{name: "attack conquest moves the dice rolled in and asks how many more", board: annAttacks + "\nNorthwest Territory: Ann 6", seat: "Ann",
			cmd: Attack{T("Northwest Territory"), T("Greenland"), 3}, dice: []int{6, 6, 6, 1},
			want: "Greenland: Ann 3\nNorthwest Territory: Ann 3\nphase: occupy\noccupy: Northwest Territory Greenland 3 5"},
		{name: "attack conquest with no choice occupies at once", board: annAttacks + "\nNorthwest Territory: Ann 3", seat: "Ann",
			cmd: Attack{T("Northwest Territory"), T("Greenland"), 2}, dice: []int{6, 6, 1},
			want: "Greenland: Ann 2\nNorthwest Territory: Ann 1\nphase: attack"},
		{name: "blitz attacks until the target falls", board: annAttacks + "\nAlaska: Ann 10", seat: "Ann",
			cmd:  Blitz{T("Alaska"), T("Kamchatka"), 1},
			dice: []int{6, 6, 6, 1, 1 /* 3v2: Bob 3→1 */, 6, 6, 6, 1 /* 3v1: Bob 1→0 */},
			want: "Kamchatka: Ann 3\nAlaska: Ann 7\nphase: occupy"},
		{name: "blitz stops when the source is down to the stated number", board: annAttacks + "\nAlaska: Ann 6", seat: "Ann",
			cmd:  Blitz{T("Alaska"), T("Kamchatka"), 3},
			dice: []int{1, 1, 1, 6, 6 /* 3v2 lose 2: 6→4 */, 1, 6, 6 /* only 1 die may risk 1: 4→3 */},
			want: "Alaska: Ann 3\nKamchatka: Bob 3\nphase: attack"},
		{name: "blitz keeping as many as are there is refused", board: annAttacks, seat: "Ann",
			cmd: Blitz{T("Alaska"), T("Kamchatka"), 5}, err: ErrBadArmies},
		{name: "blitz keeping zero is refused", board: annAttacks, seat: "Ann",
			cmd: Blitz{T("Alaska"), T("Kamchatka"), 0}, err: ErrBadArmies},
	})
}

func TestRulesOccupy(t *testing.T) {
	occ := annAttacks + `
		phase: occupy
		Northwest Territory: Ann 3
		Greenland: Ann 3
		occupy: Northwest_Territory Greenland 3 5
		flags: conquered`
	runRules(t, []ruleTest{
		{name: "occupy moves at least the dice rolled", board: occ, seat: "Ann", cmd: Occupy{2}, err: ErrBadArmies},
		{name: "occupy leaves at least one behind", board: occ, seat: "Ann", cmd: Occupy{6}, err: ErrBadArmies},
		{name: "occupy with all but one", board: occ, seat: "Ann", cmd: Occupy{5},
			want: "Greenland: Ann 5\nNorthwest Territory: Ann 1\nphase: attack"},
		{name: "occupy with the minimum", board: occ, seat: "Ann", cmd: Occupy{3},
			want: "Greenland: Ann 3\nNorthwest Territory: Ann 3\nphase: attack"},
		{name: "occupy comes before any other attack", board: occ, seat: "Ann", cmd: Attack{T("Alaska"), T("Kamchatka"), 1}, err: ErrWrongPhase},
		{name: "occupy comes before ending the turn", board: occ, seat: "Ann", cmd: EndTurn{}, err: ErrWrongPhase},
		{name: "occupy only after a conquest", board: annAttacks, seat: "Ann", cmd: Occupy{1}, err: ErrWrongPhase},
	})
}

func TestRulesFortify(t *testing.T) {
	chain := `
		players: Ann Bob
		phase: attack
		current: Ann
		rest: Bob 1
		Alaska: Ann 5
		Alberta: Ann 1
		Ontario: Ann 1
		Quebec: Ann 4
		Greenland: Ann 1
	`
	runRules(t, []ruleTest{
		{name: "fortify connected moves along owned territories", board: chain, seat: "Ann",
			cmd: Fortify{T("Alaska"), T("Quebec"), 4}, want: "Alaska: Ann 1\nQuebec: Ann 8\nphase: fortify"},
		{name: "fortify connected leaves one behind", board: chain, seat: "Ann",
			cmd: Fortify{T("Alaska"), T("Quebec"), 5}, err: ErrBadArmies},
		{name: "fortify connected needs a path through own territories", board: chain + "\nOntario: Bob 1", seat: "Ann",
			cmd: Fortify{T("Alaska"), T("Quebec"), 1}, err: ErrNotConnected},
		{name: "fortify connected is one move per turn", board: chain + "\nflags: fortified\nphase: fortify", seat: "Ann",
			cmd: Fortify{T("Quebec"), T("Ontario"), 1}, err: ErrAlreadyFortified},
		{name: "fortify ends the attacks of the turn", board: chain + "\nflags: fortified\nphase: fortify\nAlaska: Ann 5", seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 1}, err: ErrWrongPhase},
		{name: "fortify adjacent refuses a move two steps away", board: chain + "\noptions: fortify=adjacent", seat: "Ann",
			cmd: Fortify{T("Alaska"), T("Ontario"), 1}, err: ErrNotAdjacent},
		{name: "fortify adjacent allows several moves", board: chain + "\noptions: fortify=adjacent\nflags: fortified\nphase: fortify", seat: "Ann",
			cmd: Fortify{T("Quebec"), T("Ontario"), 3}, want: "Ontario: Ann 4\nQuebec: Ann 1"},
		{name: "fortify only between own territories", board: chain, seat: "Ann",
			cmd: Fortify{T("Alaska"), T("Kamchatka"), 1}, err: ErrNotYourTerritory},
		{name: "fortify before reinforcements are placed is refused", board: chain + "\nphase: reinforce\nreserve Ann: 3", seat: "Ann",
			cmd: Fortify{T("Alaska"), T("Alberta"), 1}, err: ErrWrongPhase},
	})
}

// An army moves at most one step per turn with adjacent fortification.
func TestFortifyAdjacentOneStepPerArmy(t *testing.T) {
	s := board(t, `
		players: Ann Bob
		phase: attack
		current: Ann
		rest: Bob 1
		options: fortify=adjacent
		Alaska: Ann 5
		Alberta: Ann 1
		Ontario: Ann 1
	`)
	ann := 0
	if _, err := Apply(s, ann, Fortify{T("Alaska"), T("Alberta"), 4}); err != nil {
		t.Fatal(err)
	}
	// Alberta holds its own army and the 4 that arrived: only its own may
	// go on (the arrivals then keep it held).
	if _, err := Apply(s, ann, Fortify{T("Alberta"), T("Ontario"), 2}); !errors.Is(err, ErrBadArmies) {
		t.Fatalf("moving arrived armies a second step: err = %v, want ErrBadArmies", err)
	}
	if _, err := Apply(s, ann, Fortify{T("Alberta"), T("Ontario"), 1}); err != nil {
		t.Fatalf("moving the army that had not moved: %v", err)
	}
	if _, err := Apply(s, ann, Fortify{T("Alberta"), T("Ontario"), 1}); !errors.Is(err, ErrNotEnoughArmies) {
		t.Fatalf("nothing left to move: err = %v, want ErrNotEnoughArmies", err)
	}
	if _, err := Apply(s, ann, EndTurn{}); err != nil {
		t.Fatal(err)
	}
	for i := range s.Terr {
		if s.Terr[i].Arrived != 0 {
			t.Fatalf("arrivals not cleared at the end of the turn")
		}
	}
}

func TestRulesEndTurn(t *testing.T) {
	runRules(t, []ruleTest{
		{name: "end of turn passes to the next seat still playing", board: `
			players: Ann Bob Cat
			phase: attack
			current: Ann
			status Bob: eliminated
			rest: Cat 1
			Alaska: Ann 2
		`, seat: "Ann", cmd: EndTurn{}, want: "current: Cat\nphase: reinforce\nturn: 2"},
		{name: "end of turn needs all reinforcements placed", board: annAttacks + "\nphase: reinforce\nreserve Ann: 2", seat: "Ann",
			cmd: EndTurn{}, err: ErrWrongPhase},
		{name: "end of turn wraps around to the first seat", board: annAttacks + "\ncurrent: Bob", seat: "Bob",
			cmd: EndTurn{}, want: "current: Ann"},
	})
}

func TestRulesElimination(t *testing.T) {
	last := `
		players: Ann Bob Cat
		phase: attack
		current: Ann
		rest: Cat 1
		Alaska: Ann 4
		Kamchatka: Bob 1
	`
	runRules(t, []ruleTest{
		{name: "elimination: the conqueror takes the loser's cards", board: last + "\nAlaska: Ann 6\nhand Bob: 6 9\nhand Ann: 7", seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 3}, dice: []int{6, 1, 1, 1},
			want: "status Bob: eliminated\ncards Ann: 3\ncards Bob: 0\nphase: occupy"},
		{name: "elimination with six or more cards forces a trade down to four", board: last + "\nAlaska: Ann 2\nhand Bob: 6 9 12\nhand Ann: 7 10 13", seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 1}, dice: []int{6, 1},
			want: "status Bob: eliminated\ncards Ann: 6\nphase: reinforce"},
		{name: "elimination with five cards forces no trade", board: last + "\nAlaska: Ann 2\nhand Bob: 6 9\nhand Ann: 7 10 13", seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 1}, dice: []int{6, 1},
			want: "cards Ann: 5\nphase: attack"},
		{name: "elimination: the forced trade must come before placing", board: `
			players: Ann Bob
			phase: reinforce
			current: Ann
			rest: Bob 1
			Alaska: Ann 2
			hand Ann: 6 9 12 7 10 13
		`, seat: "Ann", cmd: Place{T("Alaska"), 1}, err: ErrMustTrade},
		{name: "elimination: after trading to four and placing, attacks go on", board: `
			players: Ann Bob
			phase: reinforce
			current: Ann
			rest: Bob 1
			Alaska: Ann 2
			hand Ann: 6 9 12 7 10
			reserve Ann: 0
		`, seat: "Ann", cmd: Trade{[3]state.Card{6, 9, 12}}, want: "phase: reinforce\nreserve Ann: 4\ncards Ann: 2"},
	})
}

func TestRulesSurrender(t *testing.T) {
	runRules(t, []ruleTest{
		{name: "surrender turns territories neutral with their armies and discards the hand", board: `
			players: Ann Bob Cat
			phase: attack
			current: Ann
			rest: Cat 1
			Alaska: Ann 2
			Kamchatka: Bob 7
			hand Bob: 6 9
		`, seat: "Bob", cmd: Surrender{}, want: "Kamchatka: neutral 7\nstatus Bob: surrendered\ncards Bob: 0\ndiscarded: 2\ncurrent: Ann"},
		{name: "surrender on one's own turn passes the turn", board: annAttacks + "\nplayers: Ann Bob Cat\nrest: Cat 1\nKamchatka: Bob 3", seat: "Ann",
			cmd: Surrender{}, want: "current: Bob\nphase: reinforce\nAlaska: neutral 5"},
		{name: "surrender leaving one player makes them the winner", board: annAttacks, seat: "Bob",
			cmd: Surrender{}, want: "phase: over\nwinner: Ann"},
		{name: "surrender: neutral territories can be attacked and taken", board: annAttacks + "\nplayers: Ann Bob Cat\nrest: Cat 1\nKamchatka: neutral 1", seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 3}, dice: []int{6, 1, 1, 1}, want: "Kamchatka: Ann 3\nphase: occupy"},
		{name: "surrender: an out player cannot act", board: annAttacks + "\nplayers: Ann Bob Cat\nrest: Cat 1\nKamchatka: Bob 3\nstatus Cat: surrendered\nGreenland: neutral 1\ncurrent: Ann", seat: "Cat",
			cmd: EndTurn{}, err: ErrNotPlaying},
	})
}

func TestRulesVictory(t *testing.T) {
	// Ann owns 27 of 42; taking one more reaches two thirds (28).
	near := `
		players: Ann Bob
		phase: attack
		current: Ann
		rest: Ann 1
		Alaska: Ann 4
		Kamchatka: Bob 1
		Ural: Bob 1
		Siberia: Bob 1
		Yakutsk: Bob 1
		Irkutsk: Bob 1
		Mongolia: Bob 1
		Japan: Bob 1
		Afghanistan: Bob 1
		China: Bob 1
		Middle East: Bob 1
		India: Bob 1
		Siam: Bob 1
		Indonesia: Bob 1
		New Guinea: Bob 1
		Western Australia: Bob 1
	`
	runRules(t, []ruleTest{
		{name: "victory two-thirds: 28 of 42 territories win", board: near, seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 3}, dice: []int{6, 1, 1, 1}, want: "phase: over\nwinner: Ann"},
		{name: "victory domination: two thirds is not enough", board: near + "\noptions: victory=domination", seat: "Ann",
			cmd: Attack{T("Alaska"), T("Kamchatka"), 3}, dice: []int{6, 1, 1, 1}, want: "phase: attack\nwinner: none\nKamchatka: Ann 3"},
		{name: "victory last player standing", board: `
			players: Ann Bob
			phase: attack
			current: Ann
			options: victory=domination
			rest: Ann 1
			Alaska: Ann 4
			Kamchatka: Bob 1
		`, seat: "Ann", cmd: Attack{T("Alaska"), T("Kamchatka"), 3}, dice: []int{6, 1, 1, 1}, want: "phase: over\nwinner: Ann\nstatus Bob: eliminated"},
		{name: "victory: nothing is played after the end", board: annAttacks + "\nphase: over\nwinner: Ann", seat: "Ann",
			cmd: EndTurn{}, err: ErrGameOver},
	})
}

func TestRejectedCommandsNeverChangeState(t *testing.T) {
	// Every unlisted command must be refused without a trace; see also
	// TestLegalMovesAreAccepted for the positive side.
	s := board(t, annAttacks)
	for _, c := range []Command{nil, Undo{}, Place{-1, 1}, Fortify{T("Alaska"), T("Alaska"), 1}, Attack{T("Alaska"), 400, 1}, Trade{}, Occupy{}, Discard{99}} {
		before, _ := json.Marshal(s)
		if _, err := Apply(s, 0, c); err == nil {
			t.Errorf("%#v accepted", c)
		}
		after, _ := json.Marshal(s)
		if string(before) != string(after) {
			t.Errorf("%#v changed the state", c)
		}
	}
	if _, err := Apply(s, 7, EndTurn{}); !errors.Is(err, ErrNotPlaying) {
		t.Errorf("seat 7: err = %v, want ErrNotPlaying", err)
	}
}

// Issue 44: the starting armies scale with the map (Domination's rule,
// the rule book's table on the classic board), and every player has
// armies to place: 92 territories between two players left none with the
// table, and the initial placement never ended.
func TestStartingArmiesScaleWithTheMap(t *testing.T) {
	for p, want := range map[int]int{2: 40, 3: 35, 4: 30, 5: 25, 6: 20} {
		if got := StartingArmiesOn(42, p); got != want || got != StartingArmies(p) {
			t.Errorf("%d players on 42 territories: %d armies, want the table's %d", p, got, want)
		}
	}
	tests := []struct {
		hash                    string
		territories, players    int
		wantArmies, wantReserve int // armies each; the least reserve
	}{
		{"00000000000000b1", 92, 2, 88, 42},
		{"00000000000000b2", 13, 3, 14, 9},
		{"00000000000000b3", 126, 6, 60, 39},
		{"00000000000000b4", 3, 3, 7, 6},
	}
	for _, tt := range tests {
		m := drawnMap(t, tt.hash, tt.territories, "Only")
		seats := make([]SeatInfo, tt.players)
		for i := range seats {
			seats[i] = SeatInfo{ID: string(rune('a' + i))}
		}
		o := state.DefaultOptions()
		o.Map = m.Name
		s, err := New(Setup{Options: o, Seats: seats, Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		least := 1 << 30
		for i := range s.Seats {
			if got := s.Seats[i].Reserve + s.Armies(i); got != tt.wantArmies {
				t.Errorf("%d territories, %d players: seat %d starts with %d armies, want %d", tt.territories, tt.players, i, got, tt.wantArmies)
			}
			least = min(least, s.Seats[i].Reserve)
		}
		if least != tt.wantReserve {
			t.Errorf("%d territories, %d players: the least reserve is %d, want %d", tt.territories, tt.players, least, tt.wantReserve)
		}
	}
}
