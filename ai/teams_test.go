package ai

import (
	"context"
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
	p := defaultPlan()
	scores := map[int]float64{}
	p.eachAttack(newBoard(s, 0), true, func(a attack, _ bool) {
		if s.Sides().Teammates(0, s.Terr[a.to].Owner) {
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
	if !ok || !isMove || mv.From != a || !m.Adjacent(a, mv.To) || !s.Sides().Teammates(0, s.Terr[mv.To].Owner) || mv.Quarters != 4 || mv.Hero {
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

// africaTeams is a classic match of two teams of two (seats 0 and 2
// against 1 and 3) in seat 0's reinforcement: seat 0 holds Africa, 3
// armies on each territory; its teammate, seat 2, holds Brazil; seat 1
// the rest of South America, seat 3 the rest of the map, 1 army each.
// The caller sets the armies that matter.
func africaTeams(t *testing.T) (*state.State, func(string) int) {
	t.Helper()
	s := newMatch(t, 4, 1, state.DefaultOptions())
	s.Options.Teams = 2
	for i, team := range []int{1, 2, 1, 2} {
		s.Seats[i].Team = team
		s.Seats[i].Reserve = 0
	}
	id := func(name string) int {
		t.Helper()
		x, err := s.Map.Lookup(name)
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	for x := range s.Terr {
		s.Terr[x] = state.Terr{Owner: 3, Armies: 1}
	}
	for _, c := range s.Map.Continents {
		for _, x := range c.Territories {
			switch c.Name {
			case "Africa":
				s.Terr[x] = state.Terr{Owner: 0, Armies: 3}
			case "South America":
				s.Terr[x].Owner = 1
			}
		}
	}
	s.Terr[id("Brazil")].Owner = 2
	s.Phase, s.Current, s.Turn = state.PhaseReinforce, 0, 5
	return s, id
}

// TestTeammatesReinforceTheFrontAgainstTheEnemy: a player reinforces the
// front it holds against the enemy, not its border with a teammate. Seat
// 0's North Africa borders its teammate's Brazil (20 armies) and two
// enemy armies of 1; Egypt borders the enemy's 8 in the Middle East.
// Normal's reinforcements go to Egypt (before the fix, the teammate's 20
// counted as a threat to North Africa and they went there).
func TestTeammatesReinforceTheFrontAgainstTheEnemy(t *testing.T) {
	s, id := africaTeams(t)
	s.Terr[id("Brazil")].Armies = 20
	s.Terr[id("Middle East")].Armies = 8
	s.Terr[id("East Africa")].Armies = 10
	s.Seats[0].Reserve = 5
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(4) {
		p := mustNew(t, "normal", Options{Seed: seed})
		c, err := p.Act(context.Background(), s.View(0), 0)
		if err != nil {
			t.Fatal(err)
		}
		if pl, ok := c.(engine.Place); !ok || pl.Territory != id("Egypt") {
			t.Errorf("seed %d: normal plays %#v, want a placement on Egypt (%d)", seed, c, id("Egypt"))
		}
	}
}

// TestTeammatesFortify: with teams, a player's fortification may end in a
// teammate's territory (the armies become the teammate's). Normal sends
// its idle stack (Congo's 12) to its teammate's Brazil when the enemy
// outnumbers Brazil and threatens it more than any of its own borders (it
// does not starve a teammate's threatened territory), and keeps them
// when Brazil is safe or its own border needs them more (it moves into a
// teammate's territory only when it helps).
func TestTeammatesFortify(t *testing.T) {
	tests := []struct {
		name                      string
		brazil, venezuela, middle int
		want                      string
	}{
		{"teammate threatened, own borders safe", 1, 12, 1, "Brazil"},
		{"teammate safe", 1, 1, 1, "own"},
		{"teammate threatened less than a held border", 3, 12, 12, "Egypt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, id := africaTeams(t)
			s.Terr[id("Congo")].Armies = 12
			s.Terr[id("Brazil")].Armies = tt.brazil
			s.Terr[id("Venezuela")].Armies = tt.venezuela
			s.Terr[id("Middle East")].Armies = tt.middle
			s.Phase = state.PhaseAttack
			if err := s.Check(); err != nil {
				t.Fatal(err)
			}
			p := defaultPlan()
			c := p.stop(newBoard(s, 0))
			f, ok := c.(engine.Fortify)
			if !ok || f.From != id("Congo") || f.Armies != 11 {
				t.Fatalf("normal plays %#v, want all 11 movable armies of Congo moved", c)
			}
			switch to := s.Terr[f.To].Owner; {
			case tt.want == "own" && to != 0, tt.want != "own" && f.To != id(tt.want):
				t.Errorf("the armies go to %s (seat %d's), want %s", s.Map.TerritoryName(f.To), to, tt.want)
			}
			if !Legal(s, 0, c) {
				t.Errorf("%#v is not legal", c)
			}
		})
	}
}

// TestReferenceSparesTeammates: the reference player (a yardstick, in
// tournaments with teams too) never attacks a teammate: from Alaska, beside
// its teammate's Alberta and Kamchatka (2 armies each) and the enemy's
// Northwest Territory (3), it attacks the enemy (before, Alberta).
func TestReferenceSparesTeammates(t *testing.T) {
	s := teamBoard(t, 2)
	c := reference{}.decide(context.Background(), s.View(0), 0)
	if !Legal(s, 0, c) {
		t.Errorf("reference plays %#v, which is not legal", c)
	}
	if b, ok := c.(engine.Blitz); ok && s.Sides().Teammates(0, s.Terr[b.To].Owner) {
		t.Errorf("reference attacks its teammate's %s", s.Map.TerritoryName(b.To))
	}
}

// TestHardEvaluatesTheTeam checks that hard scores a position by its
// side's learned chance (teamChance) in the team matches that evaluation
// was fitted on, two teams of two in domination and in two thirds (each
// with its own weights), and by its own (winChance) otherwise; and that
// with the team evaluation a teammate's win is seat's and seat out is not
// yet a loss.
func TestHardEvaluatesTheTeam(t *testing.T) {
	tests := []struct {
		name    string
		teams   int
		victory state.Victory
		team    *[numTeamFeatures]float64 // the weights, nil: winChance
	}{
		{"teams of two, domination", 2, state.Domination, &teamEvalWeights},
		{"teams of two, two thirds", 2, state.TwoThirds, &teamTwoThirdsWeights},
		{"no teams, domination", 0, state.Domination, nil},
		{"no teams, two thirds", 0, state.TwoThirds, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := africaTeams(t)
			s.Options.Teams, s.Options.Victory = tt.teams, tt.victory
			if tt.teams == 0 {
				for i := range s.Seats {
					s.Seats[i].Team = 0
				}
			}
			want := winChance(s, 0)
			if tt.team != nil {
				f := teamFeatures(s, 0)
				want = logistic(tt.team[:], f[:])
			}
			if got := hardEvaluate(s, 0); got != want || teamChance(s, 0) == winChance(s, 0) {
				t.Errorf("hardEvaluate = %.4f, want %.4f (teamChance %.4f, winChance %.4f)", got, want, teamChance(s, 0), winChance(s, 0))
			}
			out := s.Clone()
			for x := range out.Terr {
				if out.Terr[x].Owner == 0 {
					out.Terr[x].Owner = 2
				}
			}
			out.Seats[0].Status = state.Eliminated
			want = 0
			if tt.team != nil {
				want = teamChance(out, 0)
			}
			if got := hardEvaluate(out, 0); got != want || want < 0 {
				t.Errorf("seat out, its teammate in: hardEvaluate = %.4f, want %.4f", got, want)
			}
			out.Phase, out.Winner = state.PhaseOver, 2
			want = 0
			if tt.team != nil {
				want = 1
			}
			if got := hardEvaluate(out, 0); got != want {
				t.Errorf("the teammate won: hardEvaluate = %.4f, want %.4f", got, want)
			}
		})
	}
}
