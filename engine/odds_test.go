package engine

import (
	"encoding/json"
	"math"
	"testing"

	"github.com/riskbot/riskbot/state"
)

// The exact single-roll probabilities of ../shared/NOTES.md ("Battle
// maths"): p[k] is the probability that the defender loses k of the pairs.
var notesRolls = []struct {
	att, def int
	p        []float64
}{
	{3, 2, []float64{2275.0 / 7776, 2611.0 / 7776, 2890.0 / 7776}},
	{3, 1, []float64{1 - 95.0/144, 95.0 / 144}},
	{2, 2, []float64{581.0 / 1296, 420.0 / 1296, 295.0 / 1296}},
	{2, 1, []float64{1 - 125.0/216, 125.0 / 216}},
	{1, 2, []float64{1 - 55.0/216, 55.0 / 216}},
	{1, 1, []float64{7.0 / 12, 5.0 / 12}},
}

func TestRollTableMatchesNotes(t *testing.T) {
	for _, r := range notesRolls {
		got := rollTable[r.att][r.def]
		for k, want := range r.p {
			if math.Abs(got.p[k]-want) > 1e-12 {
				t.Errorf("%dv%d: P(defender loses %d) = %v, want %v", r.att, r.def, k, got.p[k], want)
			}
		}
	}
}

// TestDiceAreFair rolls the engine's own dice, through Apply, many times
// with a fixed seed and compares the outcome frequencies with the exact
// probabilities by a chi-square test. The threshold is the 99.9% quantile,
// so the fixed seed passes unless the dice are biased.
func TestDiceAreFair(t *testing.T) {
	const rolls = 60000
	// Chi-square 99.9% quantiles for 1 and 2 degrees of freedom.
	limit := map[int]float64{1: 10.83, 2: 13.82}
	for _, r := range notesRolls {
		s := board(t, annAttacks)
		s.RNG = state.RNG{Seed: 20261125}
		from, to := T("Alaska"), T("Kamchatka")
		counts := make([]int, len(r.p))
		for range rolls {
			// One defending army rolls one die; five roll two and survive
			// any single roll.
			def := 1
			if r.def == 2 {
				def = 5
			}
			s.Phase = state.PhaseAttack
			s.Terr[from] = state.Terr{Owner: 0, Armies: r.att + 1}
			s.Terr[to] = state.Terr{Owner: 1, Armies: def}
			ev, err := Apply(s, 0, Attack{from, to, r.att})
			if err != nil {
				t.Fatal(err)
			}
			roll := ev[0].(Rolled)
			if roll.NA != r.att || roll.ND != r.def {
				t.Fatalf("rolled %d v %d dice, want %d v %d", roll.NA, roll.ND, r.att, r.def)
			}
			counts[roll.DefenderLost]++
			s.Conquered = false
			s.This.Reset()
		}
		chi := 0.0
		for k, p := range r.p {
			e := p * rolls
			chi += (float64(counts[k]) - e) * (float64(counts[k]) - e) / e
		}
		df := len(r.p) - 1
		if chi > limit[df] {
			t.Errorf("%dv%d: chi-square %.2f > %.2f (counts %v): dice are biased", r.att, r.def, chi, limit[df], counts)
		}
	}
}

func TestDieFacesAreUniform(t *testing.T) {
	rng := state.RNG{Seed: 1}
	d := dice{rng: &rng}
	var n [7]int
	const rolls = 120000
	for range rolls {
		n[d.die()]++
	}
	chi := 0.0
	for f := 1; f <= 6; f++ {
		e := rolls / 6.0
		chi += (float64(n[f]) - e) * (float64(n[f]) - e) / e
	}
	if chi > 20.52 { // 99.9% quantile, 5 degrees of freedom
		t.Errorf("faces %v: chi-square %.2f", n[1:], chi)
	}
}

func TestAttackOddsKnownValues(t *testing.T) {
	tests := []struct {
		a, d int
		win  float64
	}{
		{2, 1, 15.0 / 36},                  // one die against one
		{3, 1, 125.0/216 + 91.0/216*15/36}, // two dice, then one
		{1, 5, 0},                          // nothing to attack with
	}
	for _, tt := range tests {
		o, err := AttackOdds(max(tt.a, 1), tt.d)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(o.Win-tt.win) > 1e-12 {
			t.Errorf("AttackOdds(%d, %d).Win = %v, want %v", tt.a, tt.d, o.Win, tt.win)
		}
	}
	if _, err := AttackOdds(0, 3); err == nil {
		t.Error("AttackOdds(0, 3) accepted")
	}
	o, _ := AttackOdds(200, 200)
	if o.Win < 0.5 || o.Win > 1 || o.AttackerLeft < 1 || o.DefenderLeft < 0 {
		t.Errorf("AttackOdds(200, 200) = %+v", o)
	}
	// Expected survivors are consistent with the win probability.
	if o.DefenderLeft > (1-o.Win)*200 {
		t.Errorf("defenders left %v exceeds what losses allow", o.DefenderLeft)
	}
}

// The exact odds agree with blitzes played by the engine itself.
func TestAttackOddsMatchSimulatedBlitz(t *testing.T) {
	for _, c := range []struct{ a, d int }{{5, 3}, {10, 7}, {4, 4}} {
		o, _ := AttackOdds(c.a, c.d)
		const n = 20000
		wins, left := 0, 0
		s := board(t, annAttacks)
		s.RNG = state.RNG{Seed: uint64(c.a*100 + c.d)}
		from, to := T("Alaska"), T("Kamchatka")
		for range n {
			s.Phase = state.PhaseAttack
			s.Terr[from] = state.Terr{Owner: 0, Armies: c.a}
			s.Terr[to] = state.Terr{Owner: 1, Armies: c.d}
			if _, err := Apply(s, 0, Blitz{from, to, 1}); err != nil {
				t.Fatal(err)
			}
			if s.Terr[to].Owner == 0 {
				wins++
				left += s.Terr[from].Armies + s.Terr[to].Armies
			} else {
				left += s.Terr[from].Armies
			}
			s.Conquered = false
			s.This.Reset()
			s.Occupy = state.Occupy{}
		}
		p := float64(wins) / n
		sd := math.Sqrt(o.Win * (1 - o.Win) / n)
		if math.Abs(p-o.Win) > 4*sd {
			t.Errorf("%d v %d: simulated win %.4f, exact %.4f", c.a, c.d, p, o.Win)
		}
		if got := float64(left) / n; math.Abs(got-o.AttackerLeft) > 0.1 {
			t.Errorf("%d v %d: simulated attacker left %.3f, exact %.3f", c.a, c.d, got, o.AttackerLeft)
		}
	}
}

func TestOddsJSON(t *testing.T) {
	o, _ := AttackOdds(3, 1)
	b, _ := json.Marshal(o)
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"attackers", "defenders", "win", "attacker_left", "defender_left"} {
		if _, ok := m[k]; !ok {
			t.Errorf("odds JSON lacks %q: %s", k, b)
		}
	}
}

func FuzzUnmarshalCommand(f *testing.F) {
	for _, c := range []Command{Place{1, 2}, AutoPlace{}, Trade{[3]state.Card{1, 2, 43}}, Attack{0, 29, 3}, Blitz{0, 29, 1},
		Occupy{3}, Fortify{1, 2, 3}, Discard{5}, EndTurn{}, Surrender{}, Undo{}} {
		b, err := MarshalCommand(c)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"type":"attack","from":"x"}`))
	s := board(f, annAttacks)
	f.Fuzz(func(t *testing.T, b []byte) {
		c, err := UnmarshalCommand(b)
		if err != nil {
			return
		}
		// A decoded command encodes back to something that decodes equal.
		b2, err := MarshalCommand(c)
		if err != nil {
			t.Fatalf("decoded %#v does not encode: %v", c, err)
		}
		c2, err := UnmarshalCommand(b2)
		if err != nil || c2 != c {
			t.Fatalf("round trip %#v -> %s -> %#v, %v", c, b2, c2, err)
		}
		// Applying any decoded command never panics and a refusal leaves
		// the state alone.
		cl := s.Clone()
		before, _ := json.Marshal(cl)
		if _, err := Apply(cl, 0, c); err != nil {
			after, _ := json.Marshal(cl)
			if string(before) != string(after) {
				t.Fatalf("refused %#v changed the state", c)
			}
		}
	})
}
