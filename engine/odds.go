package engine

import "fmt"

// Odds is the exact outcome of attacking to the end: a stack of Attackers
// armies on the attacking territory (one of which must stay behind) against
// Defenders, rolling the most dice allowed each time, until the defenders are
// gone or the attacker is down to one army.
type Odds struct {
	Attackers int     `json:"attackers"`
	Defenders int     `json:"defenders"`
	Win       float64 `json:"win"`
	// AttackerLeft is the expected number of armies left on the attacking
	// territory, including the one that stays behind (1 after a loss).
	AttackerLeft float64 `json:"attacker_left"`
	// DefenderLeft is the expected number of defenders left (0 after a win).
	DefenderLeft float64 `json:"defender_left"`
}

// rollOutcome is the distribution of one roll's losses for a pair of dice
// counts: p[k] is the probability that the defender loses k of the compared
// pairs (and the attacker the rest).
type rollOutcome struct {
	pairs int
	p     [3]float64
}

// rollTable[a][d] is the exact loss distribution of a dice against d dice,
// by enumeration of every face combination. It is computed once and never
// changes.
var rollTable = func() (t [4][3]rollOutcome) {
	for a := 1; a <= 3; a++ {
		for d := 1; d <= 2; d++ {
			t[a][d] = enumerate(a, d)
		}
	}
	return t
}()

func enumerate(na, nd int) rollOutcome {
	o := rollOutcome{pairs: min(na, nd)}
	total := 1
	for range na + nd {
		total *= 6
	}
	var counts [3]int
	var faces [5]int
	for code := range total {
		x := code
		for i := range na + nd {
			faces[i] = x%6 + 1
			x /= 6
		}
		att := append([]int(nil), faces[:na]...)
		def := append([]int(nil), faces[na:na+nd]...)
		sortDesc(att)
		sortDesc(def)
		lost := 0
		for i := range o.pairs {
			if att[i] > def[i] {
				lost++
			}
		}
		counts[lost]++
	}
	for k, c := range counts {
		o.p[k] = float64(c) / float64(total)
	}
	return o
}

// AttackOdds computes Odds exactly by dynamic programming over the Markov
// chain of rolls. It needs (attackers+1)·(defenders+1) probabilities.
func AttackOdds(attackers, defenders int) (Odds, error) {
	const limit = 1000
	if attackers < 1 || defenders < 1 || attackers > limit || defenders > limit {
		return Odds{}, fmt.Errorf("engine: odds need 1 to %d attackers and defenders, not %d and %d", limit, attackers, defenders)
	}
	o := Odds{Attackers: attackers, Defenders: defenders}
	w := defenders + 1
	// p[a*w+d] is the probability of passing through (a, d). Every roll
	// lowers a+d, so visiting a from high to low and d from high to low
	// handles each state after all its predecessors.
	p := make([]float64, (attackers+1)*w)
	p[attackers*w+defenders] = 1
	for a := attackers; a >= 1; a-- {
		for d := defenders; d >= 0; d-- {
			q := p[a*w+d]
			if q == 0 {
				continue
			}
			if a == 1 || d == 0 {
				if d == 0 {
					o.Win += q
				}
				o.AttackerLeft += q * float64(a)
				o.DefenderLeft += q * float64(d)
				continue
			}
			r := rollTable[min(3, a-1)][min(2, d)]
			for k := 0; k <= r.pairs; k++ {
				if r.p[k] == 0 {
					continue
				}
				p[(a-(r.pairs-k))*w+d-k] += q * r.p[k]
			}
		}
	}
	return o, nil
}

// RollChances returns the exact distribution of one roll of attack dice (1
// to 3) against defend dice (1 or 2): p[k] is the probability that the
// defender loses k armies and the attacker the other min(attack, defend)-k.
func RollChances(attack, defend int) ([]float64, error) {
	if attack < 1 || attack > 3 || defend < 1 || defend > 2 {
		return nil, fmt.Errorf("engine: a roll is 1 to 3 dice against 1 or 2, not %d against %d", attack, defend)
	}
	o := rollTable[attack][defend]
	return append([]float64(nil), o.p[:o.pairs+1]...), nil
}
