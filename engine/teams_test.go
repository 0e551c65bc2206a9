package engine

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// The rules of teams (RULES.md section 3, docs/rules.md "Teams"), one test
// each, named after them.

// teamsBoard is a classic match of two teams of two in Ann's attack
// phase: Ann and Cid (team 1) against Bob and Dan (team 2).
const teamsBoard = `
	players: Ann Bob Cid Dan
	options: teams=2
	team Ann: 1
	team Bob: 2
	team Cid: 1
	team Dan: 2
	phase: attack
	current: Ann
	rest: Bob 1
	Alaska: Ann 5
	Northwest Territory: Ann 1
	Alberta: Cid 2
	Greenland: Cid 1
	Kamchatka: Bob 3
	Peru: Dan 1
`

func TestTeammatesNeverAttackEachOther(t *testing.T) {
	for _, tt := range []struct {
		name string
		cmd  Command
	}{
		{"an attack", Attack{From: T("Alaska"), To: T("Alberta"), Dice: 3}},
		{"a blitz", Blitz{From: T("Alaska"), To: T("Alberta"), Keep: 1}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := board(t, teamsBoard)
			applyRow(t, s, "Ann", func(seat int) ([]Event, error) { return applyDice(s, seat, tt.cmd) }, ErrTeammate, "Alberta belongs to your teammate Cid")
		})
	}
	s := board(t, teamsBoard)
	for _, c := range Legal(s, 0) {
		switch c := c.(type) {
		case Attack:
			if s.Sides().Teammates(0, s.Terr[c.To].Owner) {
				t.Errorf("Legal lists %v, an attack on a teammate", c)
			}
		case Blitz:
			if s.Sides().Teammates(0, s.Terr[c.To].Owner) {
				t.Errorf("Legal lists %v, a blitz on a teammate", c)
			}
		}
	}
	// The enemy next door may still be attacked.
	runRules(t, []ruleTest{{name: "teams: an enemy may be attacked", board: teamsBoard, seat: "Ann",
		cmd: Attack{From: T("Alaska"), To: T("Kamchatka"), Dice: 3}, dice: []int{6, 6, 6, 1, 1}, want: "Kamchatka: Bob 1\nAlaska: Ann 5"}})
}

func TestFortificationMayEndInATeammatesTerritory(t *testing.T) {
	runRules(t, []ruleTest{
		{name: "teams: connected, through own territories into a teammate's", board: teamsBoard, seat: "Ann",
			cmd: Fortify{From: T("Alaska"), To: T("Greenland"), Armies: 4}, want: "Greenland: Cid 5\nAlaska: Ann 1\nphase: fortify"},
		{name: "teams: connected, never through a teammate's territory", board: teamsBoard + "\nWestern United States: Cid 1", seat: "Ann",
			cmd: Fortify{From: T("Alaska"), To: T("Western United States"), Armies: 1}, err: ErrNotConnected},
		{name: "teams: adjacent, one step into a teammate's territory", board: teamsBoard + "\noptions: teams=2 fortify=adjacent", seat: "Ann",
			cmd: Fortify{From: T("Alaska"), To: T("Alberta"), Armies: 2}, want: "Alberta: Cid 4\nAlaska: Ann 3"},
		{name: "teams: never into an enemy's territory", board: teamsBoard, seat: "Ann",
			cmd: Fortify{From: T("Alaska"), To: T("Kamchatka"), Armies: 1}, err: ErrNotYourTerritory},
		{name: "teams: never out of a teammate's territory", board: teamsBoard, seat: "Ann",
			cmd: Fortify{From: T("Alberta"), To: T("Alaska"), Armies: 1}, err: ErrNotYourTerritory},
	})
	s := board(t, teamsBoard)
	if !Covers(Legal(s, 0), Fortify{From: T("Alaska"), To: T("Greenland"), Armies: 4}) {
		t.Error("Legal does not list the fortification into the teammate's Greenland")
	}
	if Covers(Legal(s, 0), Fortify{From: T("Alaska"), To: T("Kamchatka"), Armies: 1}) {
		t.Error("Legal lists a fortification into the enemy's Kamchatka")
	}
}

func TestATeamWinsWhenNoOtherTeamHasALivingPlayer(t *testing.T) {
	// Dan is out; Ann takes Bob's last territory, and Cid wins with her.
	const lastEnemy = `
		players: Ann Bob Cid Dan
		options: teams=2
		team Ann: 1
		team Bob: 2
		team Cid: 1
		team Dan: 2
		status Dan: eliminated
		phase: attack
		current: Ann
		rest: Cid 1
		Alaska: Ann 5
		Kamchatka: Bob 1
	`
	s := board(t, lastEnemy)
	ev, err := applyDice(s, 0, Attack{From: T("Alaska"), To: T("Kamchatka"), Dice: 3}, 6, 6, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	w, ok := hasEvent[Won](ev)
	if !ok || w.Seat != 0 || w.Team != 1 || s.Phase != state.PhaseOver {
		t.Fatalf("won %#v (%v), phase %s: want Ann for team 1", w, ok, s.Phase)
	}
	for i, want := range []bool{true, false, true, false} {
		if s.Won(i) != want {
			t.Errorf("seat %s won: %v, want %v", s.Seats[i].Name, s.Won(i), want)
		}
	}
	// While a teammate of the fallen plays on, nobody has won.
	s = board(t, strings.Replace(lastEnemy, "status Dan: eliminated", "Peru: Dan 1\noptions: teams=2 victory=domination", 1))
	if _, err := applyDice(s, 0, Attack{From: T("Alaska"), To: T("Kamchatka"), Dice: 3}, 6, 6, 6, 1); err != nil {
		t.Fatal(err)
	}
	if s.Phase == state.PhaseOver || s.Seats[1].Status != state.Eliminated {
		t.Errorf("phase %s, Bob %s: want Bob out and the match on, Dan still playing", s.Phase, s.Seats[1].Status)
	}
	// The last enemy's surrender wins it too, for the team.
	s = board(t, lastEnemy)
	ev, err = applyDice(s, 1, Surrender{})
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := hasEvent[Won](ev); !ok || w.Team != 1 || !s.Won(0) || !s.Won(2) {
		t.Errorf("after the last enemy's surrender: won %#v (%v)", w, ok)
	}
}

func TestATeamWinsWithTwoThirdsTogether(t *testing.T) {
	// 28 of 42 win: Ann's 13 and Cid's 14, and Ann takes one more.
	var b strings.Builder
	b.WriteString("players: Ann Bob Cid Dan\noptions: teams=2\nteam Ann: 1\nteam Bob: 2\nteam Cid: 1\nteam Dan: 2\nphase: attack\ncurrent: Ann\nrest: Dan 1\n")
	m, err := LoadMap("classic")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 27 {
		owner := "Cid"
		if i < 13 {
			owner = "Ann"
		}
		b.WriteString(m.Territories[i].Name + ": " + owner + " 1\n")
	}
	b.WriteString(m.Territories[27].Name + ": Bob 1\n")
	attacker, target := -1, -1
	for i := range 13 {
		for _, n := range m.Territories[i].Adj {
			if n >= 28 && attacker < 0 {
				attacker, target = i, n
			}
		}
	}
	if attacker < 0 {
		t.Fatal("no territory of Ann's borders Dan's")
	}
	b.WriteString(m.Territories[attacker].Name + ": Ann 5\n")
	s := board(t, b.String())
	if s.Sides().Owned(0) != 27 || s.Owned(0) != 13 {
		t.Fatalf("the board gives team 1 %d territories, Ann %d", s.Sides().Owned(0), s.Owned(0))
	}
	ev, err := applyDice(s, 0, Attack{From: attacker, To: target, Dice: 3}, 6, 6, 6, 1)
	if err != nil {
		t.Fatal(err)
	}
	if w, ok := hasEvent[Won](ev); !ok || w.Seat != 0 || w.Team != 1 {
		t.Fatalf("won %#v (%v): want Ann for team 1 with 28 of 42 together", w, ok)
	}
}

func TestTeamsAreFixedAtTheStart(t *testing.T) {
	seats := func(teams ...int) []SeatInfo {
		var out []SeatInfo
		for i, tm := range teams {
			out = append(out, SeatInfo{ID: string(rune('a' + i)), Name: string(rune('A' + i)), Team: tm})
		}
		return out
	}
	with := func(o state.Options, size int) state.Options { o.Teams = size; return o }
	missions := state.DefaultOptions()
	missions.Victory = state.Missions
	for _, tt := range []struct {
		name string
		o    state.Options
		s    []SeatInfo
		want string // part of the error, "" for none
	}{
		{"two teams of two", with(state.DefaultOptions(), 2), seats(1, 2, 2, 1), ""},
		{"two teams of three", with(state.DefaultOptions(), 3), seats(1, 2, 2, 1, 1, 2), ""},
		{"three teams of two, capitals", with(state.CapitalsOptions(), 2), seats(1, 2, 3, 3, 2, 1), ""},
		{"teams of 9", with(state.DefaultOptions(), 9), seats(1, 2), "teams of 9"},
		{"uneven teams", with(state.DefaultOptions(), 2), seats(1, 1, 1, 2), "team 1: want 2 players, not 3"},
		{"one team", with(state.DefaultOptions(), 2), seats(1, 1), "cannot make two or more teams"},
		{"a seat without a team", with(state.DefaultOptions(), 2), seats(1, 2, 0, 1), "seat 2 is in team 0"},
		{"a team without the option", state.DefaultOptions(), seats(1, 2), "in a match without teams"},
		{"missions are played alone", with(missions, 2), seats(1, 2, 1, 2), "missions are played alone"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g, err := NewGame(Setup{Options: tt.o, Seats: tt.s, Seed: 7})
			if tt.want != "" {
				if err == nil || !strings.Contains(err.Error(), tt.want) {
					t.Fatalf("err %v, want one saying %q", err, tt.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for i, seat := range g.State.Seats {
				if want := tt.s[g.Setup.Deal.Order[i]].Team; seat.Team != want {
					t.Errorf("seat %d (%s) is in team %d, want %d", i, seat.Name, seat.Team, want)
				}
			}
		})
	}
}

func TestRoundLimitRanksTeamsByTerritoriesThenArmiesTogether(t *testing.T) {
	// Bob alone holds the most territories, but Ann and Cid together
	// hold more than Bob and Dan.
	base := "players: Ann Bob Cid Dan\noptions: teams=2\nteam Ann: 1\nteam Bob: 2\nteam Cid: 1\nteam Dan: 2\nrest: neutral 1\n"
	for _, tt := range []struct {
		name, board, winner string
	}{
		{"the team with the most territories, then its best player", base + "Alaska: Bob 1\nAlberta: Bob 1\nPeru: Bob 1\nBrazil: Bob 1\nChina: Ann 2\nIndia: Ann 1\nJapan: Ann 1\nSiam: Cid 1\nEgypt: Cid 1\nUral: Cid 1\nIndonesia: Dan 1", "Ann"},
		{"then the most armies together", base + "Alaska: Bob 9\nPeru: Ann 1\nChina: Cid 1\nIndia: Dan 1\nSiam: Cid 1\nEgypt: Ann 1\nIndonesia: Dan 1\nBrazil: Bob 1", "Bob"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := board(t, tt.board)
			if got := s.Seats[RoundLimitWinner(s)].Name; got != tt.winner {
				t.Errorf("winner %s, want %s", got, tt.winner)
			}
		})
	}
}

// teamOrders is ordersBoard with a fourth seat and teams: Ann and Cid
// against Bob and Dan.
const teamOrders = ordersBoard + `
	players: Ann Bob Cid Dan
	options: turns=simultaneous teams=2 victory=domination
	team Ann: 1
	team Bob: 2
	team Cid: 1
	team Dan: 2
	Peru: Dan 1
	Yukon: Ann 1
`

func TestSimultaneousOrdersNeverAttackATeammate(t *testing.T) {
	s := board(t, strings.Replace(teamOrders, "Yukon: Ann 1", "Ontario: Cid 2", 1))
	refused(t, s, 0, Assault{From: T("Alberta"), To: T("Ontario"), Armies: 2}, ErrTeammate)
	// A move into the teammate's territory is an order like any move.
	mustOrder(t, s, 0, Fortify{From: T("Alberta"), To: T("Ontario"), Armies: 2})
	ev := commitAll(t, s)
	if tr := eventsOf[Transferred](ev); len(tr) != 1 || tr[0].To != T("Ontario") || s.Terr[T("Ontario")].Owner != 2 {
		t.Errorf("transfers %#v, Ontario's owner %d: want 2 armies moved to Cid's Ontario", tr, s.Terr[T("Ontario")].Owner)
	}
}

func TestAnAttackOnATerritoryATeammateTookThisRoundBecomesAMove(t *testing.T) {
	// Ann and Cid both attack Bob's Kamchatka (1 army) with overwhelming
	// armies: whoever the round's order runs first takes it, and the
	// other's attack moves its armies in.
	s := board(t, strings.Replace(teamOrders, "Yukon: Ann 1", "Kamchatka: Bob 1\nYakutsk: Cid 20\nAlaska: Ann 40", 1))
	mustOrder(t, s, 0, Assault{From: T("Alaska"), To: T("Kamchatka"), Armies: 30})
	mustOrder(t, s, 2, Assault{From: T("Yakutsk"), To: T("Kamchatka"), Armies: 10})
	ev := commitAll(t, s)
	owner := s.Terr[T("Kamchatka")].Owner
	if owner != 0 && owner != 2 {
		t.Fatalf("Kamchatka is %s's: want Ann's or Cid's", seatName(s, owner))
	}
	tr := eventsOf[Transferred](ev)
	if len(tr) != 1 || !tr[0].Attack || tr[0].Seat == owner || tr[0].To != T("Kamchatka") {
		t.Errorf("transfers %#v: want the teammate's attack on Kamchatka to move in", tr)
	}
	if len(eventsOf[Rolled](ev)) == 0 || eventsOf[Conquered](ev)[0].Seat != owner {
		t.Errorf("events %#v", ev)
	}
}

// teamCapitals is a capitals match of two teams of two on the islands:
// Ann and Cid against Bob and Dan.
const teamCapitals = `
	players: Ann Bob Cid Dan
	teams: 2
	team Ann: 1
	team Bob: 2
	team Cid: 1
	team Dan: 2
	current: Ann
	Alba: Ann 10 capital
	Fenn: Bob 10 capital
	Brin: Cid 5 capital
	Gale: Dan 3 capital
`

func TestCapitalsTeammatesNeverAttackEachOther(t *testing.T) {
	runCap(t, []capTest{
		{name: "no plan on a teammate", board: teamCapitals, seat: "Ann", cmd: Plan{I("Alba"), I("Brin")},
			err: ErrTeammate, msg: "Brin belongs to your teammate Cid"},
		{name: "a plan on an enemy", board: teamCapitals + "\nAlba: Ann 30 capital\nDale: Dan 1", seat: "Ann", cmd: Plan{I("Alba"), I("Dale")},
			want: "phase: action"},
	})
	s := capBoard(t, teamCapitals+"\nAlba: Ann 30 capital\nDale: Dan 1")
	for _, c := range Legal(s, 0) {
		if p, ok := c.(Plan); ok && s.Sides().Teammates(0, s.Terr[p.To].Owner) {
			t.Errorf("Legal lists %v, a plan on a teammate", p)
		}
	}
}

func TestCapitalsMoveMayEndInATeammatesTerritory(t *testing.T) {
	runCap(t, []capTest{
		{name: "troops into a teammate's territory", board: teamCapitals, seat: "Ann", cmd: Move{From: I("Alba"), To: I("Brin"), Quarters: 2},
			want: "Alba: Ann 5\nBrin: Cid 10"},
		{name: "the hero stays on its own ground", board: teamCapitals + "\nAlba: Ann 10 capital hero", seat: "Ann",
			cmd: Move{From: I("Alba"), To: I("Brin"), Quarters: 2, Hero: true}, err: ErrBadCommand, msg: "your hero stays on your own territories"},
		{name: "never into an enemy's", board: teamCapitals + "\nDale: Dan 1", seat: "Ann", cmd: Move{From: I("Alba"), To: I("Dale"), Quarters: 2},
			err: ErrNotYourTerritory},
	})
	s := capBoard(t, teamCapitals+"\nAlba: Ann 10 capital hero")
	if !Covers(Legal(s, 0), Move{From: I("Alba"), To: I("Brin"), Quarters: 2}) {
		t.Error("Legal does not list the move into the teammate's Brin")
	}
	if Covers(Legal(s, 0), Move{From: I("Alba"), To: I("Brin"), Quarters: 2, Hero: true}) {
		t.Error("Legal lists the hero's move into a teammate's territory")
	}
}

func TestCapitalsTeamWinsWithTheLastCapitals(t *testing.T) {
	// Dan is out; Ann takes Bob's capital, the last of the other team.
	board := strings.Replace(teamCapitals, "Gale: Dan 3 capital", "out Dan: x", 1) + "\nEyre: Ann 60\nplan: Eyre>Fenn"
	runCap(t, []capTest{{name: "the last enemy capital taken", board: board, seat: "Ann", cmd: Launch{}, raw: []int{200},
		want: "winner: Ann\nphase: over",
		event: func(t *testing.T, ev []Event) {
			if w, ok := hasEvent[Won](ev); !ok || w.Team != 1 {
				t.Errorf("won %#v (%v): want team 1", w, ok)
			}
		}}})
}
