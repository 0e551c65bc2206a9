package engine

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// noItem is the draw of a turn start without an item (12% chance missed).
const noItem = 99

// capTest is a row of a capitals rule table: a ruleTest on the islands,
// with the raw draws of the command, a part of the message of its refusal
// and a check of its events.
type capTest struct {
	name  string
	board string
	seat  string
	cmd   Command
	raw   []int  // the random values the command draws
	err   Code   // the rule violation expected, or 0
	msg   string // a part of the error message, if any
	want  string // capExpect lines after the command
	event func(t *testing.T, ev []Event)
}

func runCap(t *testing.T, tests []capTest) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := capBoard(t, tt.board)
			apply := func(seat int) ([]Event, error) { return applyRaw(s, seat, tt.cmd, tt.raw...) }
			if ev, ok := applyRow(t, s, tt.seat, apply, tt.err, tt.msg); ok {
				capExpect(t, s, tt.want)
				if tt.event != nil {
					tt.event(t, ev)
				}
			}
		})
	}
}

// hasEvent returns the first event of type E.
func hasEvent[E Event](ev []Event) (E, bool) {
	for _, e := range ev {
		if x, ok := e.(E); ok {
			return x, true
		}
	}
	var zero E
	return zero, false
}

const twoCapitals = `
	players: Ann Bob
	current: Ann
	Alba: Ann 10 capital
	Fenn: Bob 10 capital
`

func TestCapitalChoiceInTurnOrder(t *testing.T) {
	runCap(t, []capTest{
		{name: "the current seat chooses a neutral territory", board: "players: Ann Bob\nphase: setup\ncurrent: Ann",
			seat: "Ann", cmd: Capital{I("Alba")},
			want: "Alba: Ann 10\ncurrent: Bob\nphase: setup"},
		{name: "not in turn", board: "players: Ann Bob\nphase: setup\ncurrent: Ann",
			seat: "Bob", cmd: Capital{I("Alba")}, err: ErrNotYourTurn, msg: "Ann is choosing a capital"},
		{name: "a taken capital", board: "players: Ann Bob\nphase: setup\ncurrent: Bob\nAlba: Ann 10 capital",
			seat: "Bob", cmd: Capital{I("Alba")}, err: ErrNotNeutral, msg: "already Ann's capital"},
		{name: "not next to another capital", board: "players: Ann Bob\nphase: setup\ncurrent: Bob\nAlba: Ann 10 capital",
			seat: "Bob", cmd: Capital{I("Brin")}, err: ErrNotAdjacent, msg: "borders Alba, Ann's capital"},
		{name: "other commands wait for the capitals", board: "players: Ann Bob\nphase: setup\ncurrent: Ann",
			seat: "Ann", cmd: EndTurn{}, err: ErrWrongPhase, msg: "choose your capital first"},
		{name: "the last choice starts the first turn with 3 troops per territory",
			board: "players: Ann Bob\nphase: setup\ncurrent: Bob\nAlba: Ann 10 capital",
			seat:  "Bob", cmd: Capital{I("Fenn")}, raw: []int{noItem},
			want: "Fenn: Bob 10\nphase: reinforce\ncurrent: Ann\nturn: 1\nreserve Ann: 3",
			event: func(t *testing.T, ev []Event) {
				if _, ok := hasEvent[SetupDone](ev); !ok {
					t.Error("no SetupDone")
				}
			}},
	})
}

func TestNeutralTroopsAndTheirOptionRanges(t *testing.T) {
	m := islandMap(t)
	seats := []SeatInfo{{ID: "a", Name: "Ann"}, {ID: "b", Name: "Bob"}, {ID: "c", Name: "Cat"}}
	for _, c := range []struct {
		lo, hi, capital int
		ok              bool
	}{{1, 5, 10, true}, {0, 0, 1, true}, {3, 3, 50, true}, {30, 30, 10, true},
		{4, 2, 10, false}, {-1, 5, 10, false}, {1, 31, 10, false}, {1, 5, 0, false}, {1, 5, 51, false}} {
		o := state.CapitalsOptions()
		o.NeutralMin, o.NeutralMax, o.CapitalTroops = c.lo, c.hi, c.capital
		for seed := range uint64(20) {
			s, err := newCapitals(Setup{Options: o, Seats: seats, Seed: seed}, m)
			if !c.ok {
				if err == nil {
					t.Fatalf("options %d–%d, capital %d accepted", c.lo, c.hi, c.capital)
				}
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, tr := range s.Terr {
				lo, hi := c.lo, c.hi
				if m.Territories[i].Fortress {
					lo, hi = lo+state.FortressTroops, hi+state.FortressTroops
				}
				if tr.Owner != state.Neutral || tr.Armies < lo || tr.Armies > hi {
					t.Fatalf("options %d–%d: %s starts %d with %d troops", c.lo, c.hi, m.Territories[i].Name, tr.Owner, tr.Armies)
				}
			}
			if s.Phase != state.PhaseSetup || s.Current != 0 {
				t.Fatalf("a new match is in phase %s with seat %d to choose", s.Phase, s.Current)
			}
		}
	}
}

func TestReinforceOneTerritoryWithThreePerTerritory(t *testing.T) {
	board := twoCapitals + "\nphase: reinforce\nreserve Ann: 9\nBrin: Ann 2\nDale: Ann 0"
	runCap(t, []capTest{
		{name: "all of it on one territory", board: board, seat: "Ann", cmd: Reinforce{I("Dale")},
			want: "Dale: Ann 9\nphase: action\nreserve Ann: 0"},
		{name: "not on another's", board: board, seat: "Ann", cmd: Reinforce{I("Fenn")}, err: ErrNotYourTerritory},
		{name: "not on a neutral", board: board, seat: "Ann", cmd: Reinforce{I("Cora")}, err: ErrNotYourTerritory, msg: "neutral"},
		{name: "once a turn", board: twoCapitals, seat: "Ann", cmd: Reinforce{I("Alba")}, err: ErrWrongPhase},
		{name: "before any action", board: board, seat: "Ann", cmd: Capture{I("Alba"), I("Eyre")}, err: ErrWrongPhase, msg: "reinforce"},
		{name: "classic placement is refused with the capitals word", board: board, seat: "Ann", cmd: Place{I("Alba"), 9},
			err: ErrUnsupported, msg: "reinforce"},
	})
	// The amount: 3 per territory held, at the start of the turn.
	s := capBoard(t, twoCapitals+"\nphase: move\nBrin: Ann 1\nCora: Ann 1\nHook: Bob 1")
	if _, err := applyRaw(s, 0, EndTurn{}, noItem); err != nil {
		t.Fatal(err)
	}
	capExpect(t, s, "current: Bob\nreserve Bob: 6\nphase: reinforce\nreserve Ann: 0")
}

func TestCaptureANeutralTerritory(t *testing.T) {
	runCap(t, []capTest{
		{name: "next door, with its troops; the action is over", board: twoCapitals + "\nEyre: neutral 4", seat: "Ann",
			cmd: Capture{I("Alba"), I("Eyre")}, want: "Eyre: Ann 4\nAlba: Ann 10\nphase: move"},
		{name: "by sea from a port", board: twoCapitals + "\nDale: Ann 2 port", seat: "Ann",
			cmd: Capture{I("Dale"), I("Hook")}, want: "Hook: Ann 1\nphase: move"},
		{name: "by sea without a port", board: twoCapitals + "\nDale: Ann 2", seat: "Ann",
			cmd: Capture{I("Dale"), I("Hook")}, err: ErrNotAdjacent, msg: "build a port on Dale"},
		{name: "too far for a port", board: twoCapitals + "\nIsle: Ann 2 port", seat: "Ann",
			cmd: Capture{I("Isle"), I("Jute")}, err: ErrNotAdjacent, msg: "does not border"},
		{name: "an enemy's is attacked, not captured", board: twoCapitals + "\nEyre: Bob 1", seat: "Ann",
			cmd: Capture{I("Alba"), I("Eyre")}, err: ErrNotNeutral, msg: "plan an attack"},
		{name: "one action a turn", board: twoCapitals + "\nphase: move", seat: "Ann",
			cmd: Capture{I("Alba"), I("Eyre")}, err: ErrWrongPhase},
		{name: "not with attacks planned", board: twoCapitals + "\nEyre: Bob 1\nplan: Alba>Eyre", seat: "Ann",
			cmd: Capture{I("Alba"), I("Brin")}, err: ErrWrongPhase, msg: "launch them"},
		{name: "collecting a kept item", board: twoCapitals + "\nBrin: neutral 2 item:two-turns", seat: "Ann",
			cmd: Capture{I("Alba"), I("Brin")}, want: "item Ann: two-turns\nBrin: Ann 2",
			event: func(t *testing.T, ev []Event) {
				if c, ok := hasEvent[ItemCollected](ev); !ok || c.Kind != state.ItemTwoTurns {
					t.Errorf("events %v", ev)
				}
			}},
	})
}

func TestBuildAPort(t *testing.T) {
	runCap(t, []capTest{
		{name: "on a coast: the action is over", board: twoCapitals, seat: "Ann", cmd: BuildPort{I("Alba")},
			want: "Alba: Ann 10 port\nphase: move"},
		{name: "not inland", board: twoCapitals + "\nEyre: Ann 1", seat: "Ann", cmd: BuildPort{I("Eyre")},
			err: ErrBadCommand, msg: "no shore"},
		{name: "not twice", board: twoCapitals + "\nDale: Ann 1 port", seat: "Ann", cmd: BuildPort{I("Dale")},
			err: ErrBadCommand, msg: "has a port already"},
		{name: "not on another's", board: twoCapitals, seat: "Ann", cmd: BuildPort{I("Fenn")}, err: ErrNotYourTerritory},
		{name: "ports are permanent: a captured port stays", board: twoCapitals + "\nBrin: neutral 1 port", seat: "Ann",
			cmd: Capture{I("Alba"), I("Brin")}, want: "Brin: Ann 1 port"},
		{name: "the attack-and-port item keeps the action going", board: twoCapitals + "\nactive: attack-and-port",
			seat: "Ann", cmd: BuildPort{I("Alba")}, want: "Alba: Ann 10 port\nphase: action"},
		{name: "with the item, also after the attacks", board: twoCapitals + "\nactive: attack-and-port\nphase: move",
			seat: "Ann", cmd: BuildPort{I("Alba")}, want: "Alba: Ann 10 port\nphase: move"},
	})
}

func TestAttackAndDefenceTotals(t *testing.T) {
	const u = state.PowerUnit
	for _, c := range []struct {
		name     string
		board    string
		from, to string
		n        int
		attack   int // in PowerUnits
		defence  int
	}{
		{"troops on the source against the target and its owner's neighbours",
			twoCapitals + "\nAlba: Ann 12 capital\nBrin: Bob 3\nCora: Bob 4\nEyre: Bob 2", "Alba", "Brin", 1, 12 * u, (3 + 4 + 2) * u},
		{"divided by the number of planned attacks",
			twoCapitals + "\nAlba: Ann 12 capital\nBrin: Bob 3", "Alba", "Brin", 3, 4 * u, 3 * u},
		{"halved by sea", twoCapitals + "\nDale: Ann 9 port\nHook: Bob 2", "Dale", "Hook", 1, 9 * u / 2, 2 * u},
		{"halved by sea and divided", twoCapitals + "\nDale: Ann 9 port\nHook: Bob 2", "Dale", "Hook", 2, 9 * u / 4, 2 * u},
		{"the hero adds 20% of all troops where it stands",
			twoCapitals + "\nAlba: Ann 12 capital hero\nDale: Ann 8\nBrin: Bob 3", "Alba", "Brin", 2, 6*u + (12+8)*u/5, 3 * u},
		{"the hero is not divided", twoCapitals + "\nAlba: Ann 10 capital hero\nBrin: Bob 1", "Alba", "Brin", 4,
			10*u/4 + 10*u/5, 1 * u},
		{"the defender's port neighbours count half",
			twoCapitals + "\nAlba: Ann 30 capital\nBrin: Bob 2\nHook: Bob 5\nDale: Bob 6 port\nGale: Bob 4", "Alba", "Dale", 1,
			30 * u, (6 + 4) * u},
		{"a defender's sea neighbour with a port counts half",
			twoCapitals + "\nAlba: Ann 30 capital\nDale: Ann 1 port\nHook: Bob 5\nIsle: Bob 6 port", "Dale", "Hook", 1,
			1 * u / 2, 5*u + 6*u/2},
		{"the defender's hero on a neighbour",
			"players: Ann Bob\ncurrent: Ann\nAlba: Ann 20 capital\nBrin: Bob 3\nCora: Bob 7 capital hero", "Alba", "Brin", 1,
			20 * u, (3+7)*u + 10*u/5},
		{"full power: no division", twoCapitals + "\nactive: full-power\nAlba: Ann 12 capital\nBrin: Bob 3", "Alba", "Brin", 3,
			12 * u, 3 * u},
		{"distant attack reaches any territory but a capital, as by land",
			twoCapitals + "\nactive: distant-attack\nAlba: Ann 12 capital\nJute: Bob 3", "Alba", "Jute", 1, 12 * u, 3 * u},
		{"distant attack cannot reach a capital", twoCapitals + "\nactive: distant-attack\nAlba: Ann 12 capital\nFenn: Bob 3 capital\nHook: Ann 4",
			"Hook", "Fenn", 1, 0, 3 * u},
		{"out of reach", twoCapitals + "\nAlba: Ann 12 capital\nJute: Bob 3", "Alba", "Jute", 1, 0, 3 * u},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := capBoard(t, c.board)
			if got := s.AttackTotal(I(c.from), I(c.to), c.n).Total; got != c.attack {
				t.Errorf("attack %s (%d units), want %s (%d)", state.FormatPower(got), got, state.FormatPower(c.attack), c.attack)
			}
			if got := s.DefenceTotal(I(c.to)); got != c.defence {
				t.Errorf("defence %s (%d units), want %s (%d)", state.FormatPower(got), got, state.FormatPower(c.defence), c.defence)
			}
		})
	}
}

func TestPlanStrictlyGreaterAtPlanningTime(t *testing.T) {
	board := twoCapitals + "\nAlba: Ann 12 capital\nBrin: Bob 6\nDale: Bob 5\nEyre: Ann 3"
	runCap(t, []capTest{
		{name: "greater: planned", board: board, seat: "Ann", cmd: Plan{I("Alba"), I("Dale")},
			want: "phase: action\nDale: Bob 5", event: func(t *testing.T, ev []Event) {
				p, ok := hasEvent[AttackPlanned](ev)
				if !ok || p.Order != 1 || p.Attack != 12*state.PowerUnit || p.Defence != 5*state.PowerUnit {
					t.Errorf("events %#v", ev)
				}
			}},
		{name: "equal: refused, and the message gives both totals", board: board + "\nBrin: Bob 12", seat: "Ann",
			cmd: Plan{I("Alba"), I("Brin")}, err: ErrTooWeak, msg: "Alba's attack total 12 is not greater than Brin's defence 12"},
		{name: "the division by n counts at planning time", board: board + "\nplan: Alba>Dale", seat: "Ann",
			cmd: Plan{I("Eyre"), I("Brin")}, err: ErrTooWeak, msg: "each is divided by 2"},
		{name: "a new attack may not weaken an earlier one below the rule", board: board + "\nEyre: Ann 30\nDale: Bob 6\nplan: Alba>Dale",
			seat: "Ann", cmd: Plan{I("Eyre"), I("Brin")}, err: ErrTooWeak, msg: "Alba's total on Dale would fall to 6"},
		{name: "two attacks that both pass", board: board + "\nEyre: Ann 30\nDale: Bob 1\nplan: Alba>Dale",
			seat: "Ann", cmd: Plan{I("Eyre"), I("Brin")}, want: "phase: action"},
		{name: "not twice the same", board: board + "\nplan: Alba>Dale", seat: "Ann", cmd: Plan{I("Alba"), I("Dale")},
			err: ErrBadCommand, msg: "planned already"},
		{name: "not a neutral", board: board, seat: "Ann", cmd: Plan{I("Alba"), I("Cora")}, err: ErrNotNeutral, msg: "capture it"},
		{name: "not out of reach", board: board + "\nJute: Bob 1", seat: "Ann", cmd: Plan{I("Alba"), I("Jute")}, err: ErrNotAdjacent},
		{name: "by sea needs a port", board: board + "\nHook: Bob 1", seat: "Ann", cmd: Plan{I("Alba"), I("Hook")},
			err: ErrNotAdjacent, msg: "only by sea"},
	})
}

// With fog of war a plan is checked against the defence the planner sees,
// and told only that (issue 42: the true defence in the refusal and the
// event let a player probe the troops out of sight, planning and undoing);
// the launch applies the whole defence. Ann sees Alba's neighbours (Brin,
// Dale, Eyre), not Cora, Fenn, Gale nor the islands.
func TestPlanInTheFogCountsTheDefenceInSight(t *testing.T) {
	const u = state.PowerUnit
	board := twoCapitals + "\nfog: on\nAlba: Ann 12 capital\nBrin: Bob 6\nCora: Bob 20"
	defence := func(want int) func(*testing.T, []Event) {
		return func(t *testing.T, ev []Event) {
			p, ok := hasEvent[AttackPlanned](ev)
			if !ok || p.Defence != want*u {
				t.Errorf("planned %#v: got defence %s, want %d (what Ann sees)", p, state.FormatPower(p.Defence), want)
			}
		}
	}
	runCap(t, []capTest{
		{name: "troops out of sight do not count", board: board, seat: "Ann", cmd: Plan{I("Alba"), I("Brin")},
			want: "phase: action", event: defence(6)},
		{name: "without fog they do", board: strings.Replace(board, "fog: on", "fog: off", 1), seat: "Ann",
			cmd: Plan{I("Alba"), I("Brin")}, err: ErrTooWeak, msg: "Alba's attack total 12 is not greater than Brin's defence 26"},
		{name: "a hero out of sight does not count", board: board + "\nCora: Bob 20 hero", seat: "Ann",
			cmd: Plan{I("Alba"), I("Brin")}, want: "phase: action", event: defence(6)},
		{name: "a hero in sight does", board: board + "\nBrin: Bob 6 hero", seat: "Ann",
			cmd: Plan{I("Alba"), I("Brin")}, err: ErrTooWeak, msg: "not greater than Brin's defence 13.2 (as far as you see)"},
		{name: "the refusal tells the defence in sight", board: board + "\nEyre: Bob 6", seat: "Ann", cmd: Plan{I("Alba"), I("Brin")},
			err: ErrTooWeak, msg: "Alba's attack total 12 is not greater than Brin's defence 12 (as far as you see)"},
		{name: "an earlier plan is checked against its defence in sight", board: board + "\nDale: Ann 30\nGale: Bob 4\nplan: Alba>Brin",
			seat: "Ann", cmd: Plan{I("Dale"), I("Gale")}, err: ErrTooWeak, msg: "Alba's total on Brin would fall to 6, not greater than its defence 6 (as far as you see)"},
		{name: "the distant attack strikes into the fog: nothing seen defends", board: board + "\nactive: distant-attack\nKeep: Bob 30",
			seat: "Ann", cmd: Plan{I("Alba"), I("Keep")}, want: "phase: action", event: defence(0)},
		{name: "whoever holds it", board: board + "\nactive: distant-attack", seat: "Ann", cmd: Plan{I("Alba"), I("Keep")},
			want: "phase: action", event: defence(0)},
		{name: "but not a neutral in sight", board: board + "\nactive: distant-attack", seat: "Ann", cmd: Plan{I("Alba"), I("Dale")},
			err: ErrNotNeutral, msg: "capture it"},
		{name: "nor a capital", board: board + "\nactive: distant-attack", seat: "Ann", cmd: Plan{I("Alba"), I("Fenn")},
			err: ErrNotAdjacent, msg: "is a capital"},
	})
	t.Run("listed as the planner sees", func(t *testing.T) {
		legal := Legal(capBoard(t, board+"\nactive: distant-attack"), 0)
		for _, c := range []Plan{{I("Alba"), I("Brin")}, {I("Alba"), I("Keep")}, {I("Alba"), I("Cora")}} {
			if !slices.Contains(legal, Command(c)) {
				t.Errorf("%v is not listed", c)
			}
		}
		if c := (Plan{I("Alba"), I("Fenn")}); slices.Contains(legal, Command(c)) {
			t.Errorf("%v, on a capital, is listed", c)
		}
	})
	board += "\nplan: Alba>Brin"
	runCap(t, []capTest{
		{name: "the launch applies the whole defence: skipped", board: board, seat: "Ann", cmd: Launch{},
			want: "Brin: Bob 6\nphase: move", event: func(t *testing.T, ev []Event) {
				sk, ok := hasEvent[AttackSkipped](ev)
				if want := "Alba's total 12 is not greater than Brin's defence 26, with what the fog hid"; !ok || sk.Why.String() != want {
					t.Errorf("skipped %#v, want %q", sk, want)
				}
				if _, ok := hasEvent[Struck](ev); ok {
					t.Error("it struck")
				}
			}},
		{name: "one that beats it strikes", board: board + "\nCora: Bob 2", seat: "Ann", cmd: Launch{}, raw: []int{200},
			want: "Brin: Bob 2", event: func(t *testing.T, ev []Event) {
				if s, ok := hasEvent[Struck](ev); !ok || s.Defence != 8*u {
					t.Errorf("struck %#v, want against the whole defence 8", s)
				}
			}},
		{name: "a neutral in the fog is no enemy", board: board + "\nactive: distant-attack\nplan: Alba>Keep", seat: "Ann", cmd: Launch{},
			event: func(t *testing.T, ev []Event) {
				var why []string
				for _, e := range ev {
					if sk, ok := e.(AttackSkipped); ok {
						why = append(why, sk.Why.String())
					}
				}
				if want := "Keep is neutral: there is no enemy to strike"; !slices.Contains(why, want) {
					t.Errorf("skipped %q, want %q", why, want)
				}
			}},
	})
}

func TestDamageIsAttackMinusDefenceTimesLuck(t *testing.T) {
	const u = state.PowerUnit
	for _, c := range []struct{ attack, defence, luck, want int }{
		{12 * u, 5 * u, 1000, 7}, {12 * u, 5 * u, 800, 5}, {12 * u, 5 * u, 1200, 8},
		{12 * u, 5 * u, 1142, 7}, {12 * u, 5 * u, 1143, 8}, // 7 × 1.143 = 8.001
		{5 * u, 5 * u, 1200, 0}, {6*u + u/2, 5 * u, 1000, 1}, {u/2 + 3*u, 3 * u, 1200, 0},
	} {
		if got := Damage(c.attack, c.defence, c.luck); got != c.want {
			t.Errorf("Damage(%s, %s, %d) = %d, want %d", state.FormatPower(c.attack), state.FormatPower(c.defence), c.luck, got, c.want)
		}
	}
}

func TestLaunchRunsThePlanInOrder(t *testing.T) {
	board := twoCapitals + "\nAlba: Ann 40 capital\nEyre: Ann 40\nBrin: Bob 6\nDale: Bob 2\nCora: Bob 1\nGale: Bob 1"
	runCap(t, []capTest{
		{name: "luck drawn from the generator; the target loses, the attacker loses nothing",
			board: board + "\nplan: Alba>Dale", seat: "Ann", cmd: Launch{}, raw: []int{200},
			// Dale's defence: 2 + Gale 1 = 3; damage (40 - 3) × 1.0 = 37: it falls.
			want: "Dale: Ann 0\nAlba: Ann 40\nphase: move",
			event: func(t *testing.T, ev []Event) {
				s, ok := hasEvent[Struck](ev)
				if !ok || s.Luck != 1000 || s.Damage != 37 || s.Left != 0 {
					t.Errorf("struck %#v", s)
				}
				if _, ok := hasEvent[Conquered](ev); !ok {
					t.Error("no conquest event")
				}
			}},
		{name: "damage that leaves troops", board: twoCapitals + "\nAlba: Ann 10 capital\nBrin: Bob 6\nplan: Alba>Brin",
			seat: "Ann", cmd: Launch{}, raw: []int{0}, // (10 - 6) × 0.8 = 3.2
			want: "Brin: Bob 3\nAlba: Ann 10"},
		{name: "an attack no longer valid is skipped", board: board + "\nplan: Alba>Brin Eyre>Brin",
			seat: "Ann", cmd: Launch{}, raw: []int{400},
			want: "Brin: Ann 0", event: func(t *testing.T, ev []Event) {
				sk, ok := hasEvent[AttackSkipped](ev)
				if !ok || sk.Order != 2 || !strings.Contains(sk.Why.String(), "yours already") {
					t.Errorf("skipped %#v", sk)
				}
			}},
		{name: "each is divided by the count planned", board: board + "\nplan: Alba>Brin Eyre>Cora",
			seat: "Ann", cmd: Launch{}, raw: []int{200, 200},
			// Brin: 40/2 = 20 against 6 + 1 + 1 (Cora, Eyre? no: Eyre is Ann's) ...
			want: "phase: move", event: func(t *testing.T, ev []Event) {
				var n int
				for _, e := range ev {
					if s, ok := e.(Struck); ok {
						n++
						if s.Attack != 20*state.PowerUnit {
							t.Errorf("attack %d is not divided by 2: %s", s.Order, state.FormatPower(s.Attack))
						}
					}
				}
				if n != 2 {
					t.Errorf("%d attacks struck, want 2", n)
				}
			}},
		{name: "nothing planned", board: board, seat: "Ann", cmd: Launch{}, err: ErrWrongPhase, msg: "plan one first"},
	})
}

func TestCapitalCaptureEliminatesAndHandsOverEverything(t *testing.T) {
	runCap(t, []capTest{{
		name: "the whole realm, with its troops",
		board: `players: Ann Bob Cat
			current: Ann
			Alba: Ann 40 capital
			Brin: Bob 2 capital
			Hook: Bob 7 port
			Jute: Bob 3
			Fenn: Cat 10 capital
			plan: Alba>Brin`,
		seat: "Ann", cmd: Launch{}, raw: []int{200},
		want: "Brin: Ann 0\nHook: Ann 7 port\nJute: Ann 3\nstatus Bob: eliminated\nFenn: Cat 10\nphase: move",
		event: func(t *testing.T, ev []Event) {
			c, ok := hasEvent[CapitalTaken](ev)
			if !ok || c.Defender != 1 || c.Territories != 3 {
				t.Errorf("capital taken %#v", c)
			}
		},
	}, {
		name: "the last capital standing wins",
		board: `players: Ann Bob
			current: Ann
			Alba: Ann 40 capital
			Brin: Bob 2 capital
			plan: Alba>Brin`,
		seat: "Ann", cmd: Launch{}, raw: []int{200},
		want: "phase: over\nwinner: Ann",
	}})
}

func TestHeroUnlockAtFourTerrainsPowerAndDeath(t *testing.T) {
	runCap(t, []capTest{
		{name: "unlocked on the capital at the fourth terrain", // plain, forest, mountain, + desert
			board: twoCapitals + "\nBrin: Ann 1\nCora: Ann 1", seat: "Ann", cmd: Capture{I("Alba"), I("Dale")},
			want: "hero Ann: Alba", event: func(t *testing.T, ev []Event) {
				if h, ok := hasEvent[HeroUnlocked](ev); !ok || h.Territory != I("Alba") {
					t.Errorf("events %v", ev)
				}
			}},
		{name: "three terrains are not enough", board: twoCapitals + "\nBrin: Ann 1", seat: "Ann", cmd: Capture{I("Alba"), I("Dale")},
			want: "hero Ann: -"},
		{name: "a dead hero never comes back", board: twoCapitals + "\nwon Ann\nBrin: Ann 1\nCora: Ann 1", seat: "Ann",
			cmd: Capture{I("Alba"), I("Dale")}, want: "hero Ann: -"},
		{name: "its death halves every territory, rounded down",
			board: `players: Ann Bob
				current: Ann
				Alba: Ann 60 capital
				Brin: Bob 3 hero
				Fenn: Bob 9 capital
				Hook: Bob 5
				plan: Alba>Brin`,
			seat: "Ann", cmd: Launch{}, raw: []int{200},
			want: "Brin: Ann 0\nFenn: Bob 4\nHook: Bob 2\nhero Bob: -", event: func(t *testing.T, ev []Event) {
				if _, ok := hasEvent[HeroDied](ev); !ok {
					t.Errorf("no HeroDied in %v", ev)
				}
			}},
	})
	s := capBoard(t, twoCapitals+"\nAlba: Ann 12 capital hero\nDale: Ann 8\nEyre: Ann 0")
	if got, want := s.HeroPower(0), 20*state.PowerUnit/5; got != want {
		t.Errorf("hero power %s, want 20%% of 20 = %s", state.FormatPower(got), state.FormatPower(want))
	}
}

func TestMoveWithRatiosAndHero(t *testing.T) {
	board := twoCapitals + "\nphase: move\nAlba: Ann 10 capital hero\nBrin: Ann 1\nDale: Ann 3 port\nHook: Ann 0"
	runCap(t, []capTest{
		{name: "a quarter, rounded down", board: board, seat: "Ann", cmd: Move{I("Alba"), I("Brin"), 1, false},
			want: "Alba: Ann 8\nBrin: Ann 3\nhero Ann: Alba"},
		{name: "half", board: board, seat: "Ann", cmd: Move{I("Alba"), I("Brin"), 2, false}, want: "Alba: Ann 5\nBrin: Ann 6"},
		{name: "three quarters", board: board, seat: "Ann", cmd: Move{I("Alba"), I("Brin"), 3, false}, want: "Alba: Ann 3\nBrin: Ann 8"},
		{name: "all, with the hero", board: board, seat: "Ann", cmd: Move{I("Alba"), I("Brin"), 4, true},
			want: "Alba: Ann 0\nBrin: Ann 11\nhero Ann: Brin"},
		{name: "one stays unless all go", board: board, seat: "Ann", cmd: Move{I("Dale"), I("Alba"), 3, false},
			want: "Dale: Ann 1 port\nAlba: Ann 12"},
		{name: "nothing to move", board: board, seat: "Ann", cmd: Move{I("Brin"), I("Alba"), 3, false},
			err: ErrNotEnoughArmies, msg: "one stays unless all go"},
		{name: "the hero alone", board: board + "\nAlba: Ann 1 capital hero", seat: "Ann", cmd: Move{I("Alba"), I("Brin"), 1, true},
			want: "Alba: Ann 1\nhero Ann: Brin"},
		{name: "by sea from a port", board: board, seat: "Ann", cmd: Move{I("Dale"), I("Hook"), 4, false}, want: "Hook: Ann 3"},
		{name: "by sea without a port", board: board, seat: "Ann", cmd: Move{I("Hook"), I("Dale"), 4, false}, err: ErrNotAdjacent},
		{name: "the hero is elsewhere", board: board, seat: "Ann", cmd: Move{I("Dale"), I("Alba"), 2, true},
			err: ErrBadCommand, msg: "your hero is on Alba"},
		{name: "a bad ratio", board: board, seat: "Ann", cmd: Move{I("Alba"), I("Brin"), 5, false}, err: ErrBadArmies, msg: "1/4, 1/2, 3/4 or all"},
		{name: "straight from the action phase (no action)", board: twoCapitals + "\nBrin: Ann 4", seat: "Ann",
			cmd: Move{I("Alba"), I("Brin"), 2, false}, want: "Alba: Ann 5\nBrin: Ann 9\nphase: move"},
	})
	// The choice is remembered as the next default; the first default is 1/2 without the hero.
	s := capBoard(t, board)
	if q, h := s.MoveDefault(0); q != 2 || h {
		t.Errorf("first default %d/4 hero %v, want 2/4 without", q, h)
	}
	if _, err := applyRaw(s, 0, Move{I("Alba"), I("Brin"), 3, true}); err != nil {
		t.Fatal(err)
	}
	if q, h := s.MoveDefault(0); q != 3 || !h {
		t.Errorf("default after a 3/4 move with the hero: %d/4 hero %v", q, h)
	}
	if _, err := applyRaw(s, 0, Move{I("Brin"), I("Alba"), 1, false}); !isCode(err, ErrAlreadyFortified) {
		t.Errorf("a second move: %v", err)
	}
}

func TestPassEndsTheTurnAtAnyPoint(t *testing.T) {
	for _, phase := range []string{"reinforce\nreserve Ann: 3", "action\nEyre: Bob 1\nplan: Alba>Eyre", "move"} {
		s := capBoard(t, twoCapitals+"\nphase: "+phase)
		if _, err := applyRaw(s, 0, EndTurn{}, noItem); err != nil {
			t.Fatalf("pass in %s: %v", phase, err)
		}
		capExpect(t, s, "current: Bob\nphase: reinforce\nturn: 2\nreserve Ann: 0\nEyre: "+map[bool]string{true: "Bob 1", false: "neutral 1"}[strings.Contains(phase, "Eyre")])
		if s.Cap.NPlan != 0 {
			t.Error("planned attacks outlived the turn")
		}
	}
}

func TestAbandonLeavesTerritoriesNeutralWithTheirTroops(t *testing.T) {
	runCap(t, []capTest{
		{name: "out of turn; the turn goes on", board: "players: Ann Bob Cat\ncurrent: Ann\nAlba: Ann 10 capital\nFenn: Bob 10 capital port hero\nHook: Bob 4\nJute: Cat 5 capital\nitem Bob: two-turns",
			seat: "Bob", cmd: Surrender{}, want: "Fenn: neutral 10 port\nHook: neutral 4\nstatus Bob: surrendered\ncurrent: Ann\nhero Bob: -\nitem Bob: "},
		{name: "the last one left wins", board: twoCapitals, seat: "Bob", cmd: Surrender{}, want: "phase: over\nwinner: Ann\nFenn: neutral 10"},
		{name: "in turn: the next seat plays", board: "players: Ann Bob Cat\ncurrent: Ann\nAlba: Ann 10 capital\nFenn: Bob 10 capital\nJute: Cat 5 capital",
			seat: "Ann", cmd: Surrender{}, raw: []int{noItem}, want: "current: Bob\nphase: reinforce\nAlba: neutral 10"},
		{name: "while choosing capitals", board: "players: Ann Bob Cat\nphase: setup\ncurrent: Bob\nAlba: Ann 10 capital",
			seat: "Bob", cmd: Surrender{}, want: "current: Cat\nphase: setup\nstatus Bob: surrendered"},
	})
}

func TestItemsAppearAgeAndVanish(t *testing.T) {
	runCap(t, []capTest{
		{name: "12%: a draw under 12 brings an item; fortress weight 2, neutral 1",
			// Neutral weights in id order: Brin..Eyre 1 each (4), Fenn fortress 2 (is Bob's capital: still a fortress), ...
			board: twoCapitals + "\nphase: move", seat: "Ann", cmd: EndTurn{}, raw: []int{11, 0, 0, 0},
			want: "current: Bob", event: func(t *testing.T, ev []Event) {
				sp, ok := hasEvent[ItemSpawned](ev)
				if !ok || sp.Territory != I("Brin") || sp.Kind != state.ItemDistant {
					t.Errorf("spawned %#v", sp)
				}
			}},
		{name: "a draw of 12 brings none", board: twoCapitals + "\nphase: move", seat: "Ann", cmd: EndTurn{}, raw: []int{12},
			event: func(t *testing.T, ev []Event) {
				if _, ok := hasEvent[ItemSpawned](ev); ok {
					t.Error("an item appeared")
				}
			}},
		{name: "on an owned fortress its owner collects it at once",
			// Weights: Brin 1, Cora 1, Dale 1, Eyre 1, Fenn 2 (Bob's fortress): draw 4 picks Fenn.
			board: twoCapitals + "\nphase: move", seat: "Ann", cmd: EndTurn{}, raw: []int{0, 4, 0, 3},
			want: "item Bob: two-turns", event: func(t *testing.T, ev []Event) {
				if c, ok := hasEvent[ItemCollected](ev); !ok || c.Seat != 1 || c.Territory != I("Fenn") {
					t.Errorf("collected %#v", c)
				}
			}},
		{name: "malus 85–94, fat 95–99", board: twoCapitals + "\nphase: move", seat: "Ann", cmd: EndTurn{}, raw: []int{0, 0, 95},
			event: func(t *testing.T, ev []Event) {
				if sp, _ := hasEvent[ItemSpawned](ev); sp.Kind != state.ItemFat {
					t.Errorf("spawned %v, want the fat bonus", sp.Kind)
				}
			}},
		{name: "an item waits 4 turns, this one included, then vanishes",
			board: twoCapitals + "\nphase: move\nBrin: neutral 1 item:full-power age:4\nCora: neutral 1 item:distant-attack age:3",
			seat:  "Ann", cmd: EndTurn{}, raw: []int{noItem},
			event: func(t *testing.T, ev []Event) {
				v, ok := hasEvent[ItemVanished](ev)
				if !ok || v.Territory != I("Brin") {
					t.Errorf("vanished %#v", v)
				}
			}},
	})
	// Frequencies over many turn starts: 12% appear; places weighted 2:1;
	// categories 85/10/5.
	s := capBoard(t, twoCapitals+"\nphase: move")
	spawned, onFenn, onBrin := 0, 0, 0
	kinds := map[state.Item]int{}
	const n = 40000
	for seed := range uint64(n) {
		c := s.Clone()
		c.RNG = state.RNG{Seed: seed * 7919}
		d := dice{rng: &c.RNG}
		for _, e := range turnItems(c, &d) {
			if sp, ok := e.(ItemSpawned); ok {
				spawned++
				kinds[sp.Kind]++
				switch sp.Territory {
				case I("Fenn"):
					onFenn++
				case I("Brin"):
					onBrin++
				}
			}
		}
	}
	near := func(what string, got, want float64, tol float64) {
		if got < want-tol || got > want+tol {
			t.Errorf("%s: %.3f, want %.3f ± %.3f", what, got, want, tol)
		}
	}
	near("spawn rate", float64(spawned)/n, 0.12, 0.006)
	near("fortress:neutral weight", float64(onFenn)/float64(onBrin), 2, 0.35)
	bonus := kinds[state.ItemDistant] + kinds[state.ItemFullPower] + kinds[state.ItemAttackPort] + kinds[state.ItemTwoTurns] + kinds[state.ItemTroopBonus]
	near("bonus share", float64(bonus)/float64(spawned), 0.85, 0.025)
	near("malus share", float64(kinds[state.ItemTroopMalus]+kinds[state.ItemLoseLand])/float64(spawned), 0.10, 0.02)
	near("fat share", float64(kinds[state.ItemFat])/float64(spawned), 0.05, 0.015)
	if len(kinds) != 8 {
		t.Errorf("%d kinds appeared, want all 8: %v", len(kinds), kinds)
	}
}

func TestItemEffects(t *testing.T) {
	runCap(t, []capTest{
		{name: "one inventory slot: a new kept item replaces the old",
			board: twoCapitals + "\nitem Ann: two-turns\nBrin: neutral 1 item:full-power", seat: "Ann",
			cmd: Capture{I("Alba"), I("Brin")}, want: "item Ann: full-power"},
		{name: "troop bonus: +10% everywhere, rounded up", board: twoCapitals + "\nAlba: Ann 25 capital\nDale: Ann 3\nBrin: neutral 0 item:troop-bonus",
			seat: "Ann", cmd: Capture{I("Alba"), I("Brin")}, want: "Alba: Ann 28\nDale: Ann 4\nBrin: Ann 0\nitem Ann: "},
		{name: "troop malus: -10% everywhere, rounded down", board: twoCapitals + "\nAlba: Ann 25 capital\nDale: Ann 9\nBrin: neutral 30 item:troop-malus",
			seat: "Ann", cmd: Capture{I("Alba"), I("Brin")}, want: "Alba: Ann 23\nDale: Ann 9\nBrin: Ann 27"},
		{name: "lose a territory: never the capital nor the biggest",
			board: twoCapitals + "\nAlba: Ann 5 capital\nDale: Ann 9\nCora: Ann 2\nBrin: neutral 1 item:lose-territory",
			seat:  "Ann", cmd: Capture{I("Alba"), I("Brin")}, raw: []int{1}, // candidates Brin, Cora: the second
			want: "Cora: neutral 2\nBrin: Ann 1\nDale: Ann 9\nAlba: Ann 5"},
		{name: "fat bonus: the biggest territory of each of the two strongest others",
			board: `players: Ann Bob Cat Dan
				current: Ann
				Alba: Ann 5 capital
				Brin: neutral 1 item:fat-bonus
				Fenn: Bob 30 capital
				Gale: Bob 9
				Hook: Bob 8 hero
				Isle: Cat 6 capital
				Keep: Cat 12
				Jute: Dan 2 capital`,
			seat: "Ann", cmd: Capture{I("Alba"), I("Brin")},
			// Bob's biggest is his capital: his second, Gale. Cat's is Keep. Dan is the weakest.
			want: "Gale: Ann 9\nKeep: Ann 12\nHook: Bob 8\nJute: Dan 2\nIsle: Cat 6"},
		{name: "fat bonus kills a hero standing there",
			board: `players: Ann Bob
				current: Ann
				Alba: Ann 5 capital
				Brin: neutral 1 item:fat-bonus
				Fenn: Bob 30 capital
				Gale: Bob 9 hero
				Hook: Bob 8`,
			seat: "Ann", cmd: Capture{I("Alba"), I("Brin")},
			want: "Gale: Ann 9\nFenn: Bob 15\nHook: Bob 4\nhero Bob: -"},
		{name: "use: in effect for the rest of the turn", board: twoCapitals + "\nitem Ann: full-power", seat: "Ann",
			cmd: UseItem{}, want: "item Ann: ", event: func(t *testing.T, ev []Event) {
				if u, ok := hasEvent[ItemUsed](ev); !ok || u.Kind != state.ItemFullPower {
					t.Errorf("used %#v", u)
				}
			}},
		{name: "nothing to use", board: twoCapitals, seat: "Ann", cmd: UseItem{}, err: ErrNoItem},
	})
}

func TestItemUsedAfterItsActionIsWasted(t *testing.T) {
	// Distant attack: used before planning, a far island can be planned...
	s := capBoard(t, twoCapitals+"\nAlba: Ann 20 capital\nJute: Bob 3\nitem Ann: distant-attack")
	if _, err := applyRaw(s, 0, Plan{I("Alba"), I("Jute")}); !isCode(err, ErrNotAdjacent) {
		t.Fatalf("a far island planned without the item: %v", err)
	}
	mustRaw(t, s, 0, UseItem{})
	mustRaw(t, s, 0, Plan{I("Alba"), I("Jute")})
	// ...but once the attacks are launched, the item is spent with the turn.
	s = capBoard(t, twoCapitals+"\nAlba: Ann 20 capital\nBrin: Bob 1\nJute: Bob 3\nitem Ann: distant-attack\nplan: Alba>Brin")
	mustRaw(t, s, 0, Launch{}, 200)
	mustRaw(t, s, 0, UseItem{})
	if _, err := applyRaw(s, 0, Plan{I("Alba"), I("Jute")}); !isCode(err, ErrWrongPhase) {
		t.Errorf("planned after the launch: %v", err)
	}
}

func TestTwoTurnsInARow(t *testing.T) {
	s := capBoard(t, twoCapitals+"\nphase: reinforce\nreserve Ann: 3\nitem Ann: two-turns")
	mustRaw(t, s, 0, UseItem{})
	mustRaw(t, s, 0, EndTurn{}, noItem)
	capExpect(t, s, "current: Ann\nturn: 2\nphase: reinforce\nreserve Ann: 3")
	mustRaw(t, s, 0, EndTurn{}, noItem)
	capExpect(t, s, "current: Bob\nturn: 3")
}

func mustRaw(t *testing.T, s *state.State, seat int, c Command, raw ...int) []Event {
	t.Helper()
	ev, err := applyRaw(s, seat, c, raw...)
	if err != nil {
		t.Fatalf("%s: %v", Describe(s.Map, c), err)
	}
	return ev
}

func TestViewHidesItems(t *testing.T) {
	s := capBoard(t, twoCapitals+"\nitem Ann: two-turns\nitem Bob: full-power\nBrin: neutral 1 item:troop-bonus\nCora: neutral 1 item:fat-bonus")
	v := s.View(0)
	if v.Seats[0].Capitals.Item != state.ItemTwoTurns {
		t.Error("a player's own item is hidden from them")
	}
	if v.Seats[1].Capitals.Item != state.ItemHidden {
		t.Errorf("another's item shows as %v, want only that there is one", v.Seats[1].Capitals.Item)
	}
	if v.Terr[I("Brin")].Item != state.ItemHidden || v.Terr[I("Cora")].Item != state.ItemFat {
		t.Errorf("items on the map show as %v and %v: want hidden, and the fat bonus as itself", v.Terr[I("Brin")].Item, v.Terr[I("Cora")].Item)
	}
	spec := s.View(-1)
	if spec.Seats[0].Capitals.Item != state.ItemHidden || spec.Seats[1].Capitals.Item != state.ItemHidden {
		t.Error("a spectator sees an inventory")
	}
	b, _ := json.Marshal(v)
	if bytes.Contains(b, []byte("full-power")) || bytes.Contains(b, []byte("troop-bonus")) {
		t.Errorf("the view's JSON names a hidden item: %s", b)
	}
}

func TestUndoCapitals(t *testing.T) {
	s := capBoard(t, twoCapitals+"\nphase: reinforce\nreserve Ann: 6\nAlba: Ann 30 capital\nBrin: Bob 1\nCora: Bob 1\nEyre: neutral 1 item:two-turns")
	g := &Game{State: s}
	g.checkpoint()
	for _, c := range []Command{Reinforce{I("Alba")}, Plan{I("Alba"), I("Brin")}, Undo{}, Undo{}} {
		if _, _, err := g.Apply(0, c); err != nil {
			t.Fatalf("%#v: %v", c, err)
		}
	}
	capExpect(t, g.State, "phase: reinforce\nreserve Ann: 6\nAlba: Ann 30")
	// A capture that reveals an item cannot be taken back.
	for _, c := range []Command{Reinforce{I("Alba")}, Capture{I("Alba"), I("Eyre")}} {
		if _, _, err := g.Apply(0, c); err != nil {
			t.Fatalf("%#v: %v", c, err)
		}
	}
	if _, _, err := g.Apply(0, Undo{}); !isCode(err, ErrNothingToUndo) {
		t.Errorf("undo after collecting an item: %v", err)
	}
}

// Found by the random games (seed 214): a two-player match abandoned by the
// first chooser is won by the other, who holds nothing yet.
func TestAbandonBeforeAnyCapitalIsChosen(t *testing.T) {
	s := capBoard(t, "players: Ann Bob\nphase: setup\ncurrent: Ann")
	mustRaw(t, s, 0, Surrender{})
	capExpect(t, s, "phase: over\nwinner: Bob")
	if err := s.Check(); err != nil {
		t.Error(err)
	}
}
