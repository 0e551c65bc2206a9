package ai

import (
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// teamBoard is a classic match of two teams of two in seat 0's attack
// phase: seat 0 (team 1) holds Alaska with 10 armies, beside Kamchatka
// and Northwest Territory, each of 2 armies; its teammate, seat 2, holds
// the Americas but Alaska and Northwest Territory; seat 1 (team 2) a few
// territories of Asia, seat 3 (team 2) the rest.
func teamBoard(t *testing.T, kamchatka int) *state.State {
	t.Helper()
	s := newMatch(t, 4, 1, state.DefaultOptions())
	s.Options.Teams = 2
	for i, team := range []int{1, 2, 1, 2} {
		s.Seats[i].Team = team
		s.Seats[i].Reserve = 0
	}
	s.Phase, s.Current, s.Turn = state.PhaseAttack, 0, 5
	id := func(name string) int {
		t.Helper()
		x, err := s.Map.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for x := range s.Terr {
		s.Terr[x] = state.Terr{Owner: 3, Armies: 2}
	}
	for _, c := range s.Map.Continents {
		if c.Name == "North America" || c.Name == "South America" {
			for _, x := range c.Territories {
				s.Terr[x].Owner = 2
			}
		}
	}
	for _, n := range []string{"Yakutsk", "Irkutsk", "Mongolia"} {
		s.Terr[id(n)].Owner = 1
	}
	s.Terr[id("Alaska")] = state.Terr{Owner: 0, Armies: 10}
	s.Terr[id("Northwest Territory")] = state.Terr{Owner: 3, Armies: 3}
	s.Terr[id("Kamchatka")] = state.Terr{Owner: kamchatka, Armies: 2}
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTeammatesPreferTheCommonEnemy: every teammate sees the same common
// enemy (the enemy with the fewest territories, seat 1), and normal's best
// attack goes to it: Kamchatka of seat 1 rather than Northwest Territory
// of seat 3, which scores higher without the preference (3 armies against
// 2, but a territory of the enemy the team does not fight first). It never
// lists an attack on a teammate.
func TestTeammatesPreferTheCommonEnemy(t *testing.T) {
	s := teamBoard(t, 1)
	kam, _ := s.Map.Lookup("Kamchatka")
	nwt, _ := s.Map.Lookup("Northwest Territory")
	for _, seat := range []int{0, 2} {
		b := newBoard(s, seat)
		if !b.commonEnemy(kam) || b.commonEnemy(nwt) {
			t.Errorf("seat %d: common enemy on Kamchatka %v, on Northwest Territory %v; want seat 1's alone", seat, b.commonEnemy(kam), b.commonEnemy(nwt))
		}
	}
	p := params{style: bias(0), goal: -1, ref: true}
	scores := map[int]float64{}
	p.eachAttack(newBoard(s, 0), true, func(a attack, _ bool) {
		if s.Teammates(0, s.Terr[a.to].Owner) {
			t.Errorf("an attack on the teammate's %s", s.Map.TerritoryName(a.to))
		}
		scores[a.to] = a.score
	})
	if scores[kam] <= scores[nwt] {
		t.Errorf("Kamchatka (the common enemy's) scores %.3f, Northwest Territory %.3f", scores[kam], scores[nwt])
	}
	if without := scores[kam] - teamFocus*winProb(10, 2); without >= scores[nwt] {
		t.Errorf("without the preference Kamchatka would score %.3f, above Northwest Territory's %.3f: the board tests nothing", without, scores[nwt])
	}
}

// TestStrandedTroopsGoToATeammate: in capitals, a seat whose stack cannot
// march to any enemy through its own land (all around it is a teammate's)
// hands it to the teammate, toward the enemy; the move is legal. Without
// teams nothing is handed over.
func TestStrandedTroopsGoToATeammate(t *testing.T) {
	s := newMatch(t, 4, 7, state.CapitalsOptions())
	m := s.Map
	// dist from a: land steps.
	distFrom := func(a int) []int {
		d := make([]int, m.Len())
		for i := range d {
			d[i] = -1
		}
		d[a] = 0
		q := []int{a}
		for len(q) > 0 {
			u := q[0]
			q = q[1:]
			for _, x := range m.Territories[u].Adj {
				if d[x] < 0 {
					d[x] = d[u] + 1
					q = append(q, x)
				}
			}
		}
		return d
	}
	a := -1
	for c := range m.Territories {
		if len(m.Territories[c].Adj) >= 2 && len(m.Territories[c].Sea) == 0 {
			a = c
			break
		}
	}
	d := distFrom(a)
	var far []int // 3 steps or more from a
	for c := range d {
		if d[c] >= 3 {
			far = append(far, c)
		}
	}
	if a < 0 || len(far) < 3 {
		t.Skip("the map has no fitting territories")
	}
	enemy1, enemy3, capital := far[0], far[1], far[2]
	for i := range s.Terr {
		s.Terr[i] = state.Terr{Owner: 2, Armies: 1}
	}
	s.Options.Teams = 2
	for i, team := range []int{1, 2, 1, 2} {
		s.Seats[i].Team = team
		s.Seats[i].Reserve = 0
	}
	own := func(t, seat, troops int) {
		s.Terr[t] = state.Terr{Owner: seat, Armies: troops}
		s.Seats[seat].Capitals.Capital = int16(t + 1)
	}
	own(enemy1, 1, 5)
	own(enemy3, 3, 5)
	own(capital, 0, 5)
	mate := m.Territories[a].Adj[0]
	own(mate, 2, 5)
	s.Terr[a] = state.Terr{Owner: 0, Armies: 100}
	s.Phase, s.Turn, s.Current, s.Winner = state.PhaseMove, 9, 0, -1
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	c, ok := handOver(s, 0)
	mv, isMove := c.(engine.Move)
	if !ok || !isMove || mv.From != a || !m.Adjacent(a, mv.To) || !s.Teammates(0, s.Terr[mv.To].Owner) || mv.Quarters != 4 || mv.Hero {
		t.Fatalf("handOver = %#v, %v: want all of %s into a neighbouring teammate's territory", c, ok, m.TerritoryName(a))
	}
	if !Legal(s, 0, c) {
		t.Errorf("%#v is not legal", c)
	}
	s.Options.Teams = 0
	for i := range s.Seats {
		s.Seats[i].Team = 0
	}
	if c, ok := handOver(s, 0); ok {
		t.Errorf("without teams: handOver = %#v", c)
	}
}
