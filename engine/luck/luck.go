// Package luck measures each player's luck over a match against the exact
// odds: in classic Risk, the dice of every roll against the distribution of
// that roll given the dice counts; in capitals, every attack's luck factor
// (800 to 1200 thousandths) against its mean, 1000. It is pure: a match's
// record in, numbers and a few lines of text out.
package luck

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Player is one seat's luck over a match. Expected values are what fair
// dice give on average for the very battles the seat fought.
type Player struct {
	Seat int // in turn order
	Name string
	// Rolls counts the rolls of dice the seat fought, attacking or
	// defending (classic); Won those where it lost fewer armies than its
	// opponent, a split roll (one army each) counting half.
	Rolls            int
	Won, ExpectedWon float64
	// Killed and Lost are the armies (troops) the seat's battles took from
	// its opponents and from it.
	Killed, Lost                 int
	ExpectedKilled, ExpectedLost float64
	// Variance is that of Killed-Lost under fair dice, to tell luck from
	// noise (Z).
	Variance float64
	// Strikes counts the seat's attacks launched (capitals) and LuckSum
	// adds up their luck factors, in thousandths.
	Strikes int
	LuckSum int
}

// Net is the armies the seat gained over expectation: armies killed
// beyond the expected, plus armies lost short of the expected.
func (p Player) Net() float64 {
	return (float64(p.Killed) - p.ExpectedKilled) - (float64(p.Lost) - p.ExpectedLost)
}

// Z is Net in standard deviations: beyond 2 (or below -2), luck of the kind
// fair dice give about one player in twenty.
func (p Player) Z() float64 {
	if p.Variance <= 0 {
		return 0
	}
	return p.Net() / math.Sqrt(p.Variance)
}

// Fought reports whether the seat fought any battle.
func (p Player) Fought() bool {
	return p.Rolls > 0 || p.Strikes > 0 || p.Killed > 0 || p.Lost > 0 || p.ExpectedLost > 0
}

// Report is every seat's luck over a match.
type Report struct {
	Rules   state.Rules
	Players []Player // in turn order
}

// Of replays a match's record (a sealed one too: the log records every
// outcome) and measures each seat's luck.
func Of(rec engine.Record) (*Report, error) {
	if rec.Sealed && rec.Setup.Deal == nil {
		return nil, fmt.Errorf("luck: the record lacks its deal")
	}
	g, err := engine.NewGame(rec.Setup)
	if err != nil {
		return nil, fmt.Errorf("luck: %w", err)
	}
	r := New(g.State)
	for _, e := range rec.Log {
		before := g.State.Clone()
		ev, err := g.Replay(e)
		if err != nil {
			return nil, fmt.Errorf("luck: %w", err)
		}
		if err := r.Add(before, ev); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// New starts an empty report for the seats of s.
func New(s *state.State) *Report {
	r := &Report{Rules: s.Options.Rules}
	for i, st := range s.Seats {
		r.Players = append(r.Players, Player{Seat: i, Name: st.Name})
	}
	return r
}

// Add counts the battles of the events one command gave, applied to the
// state before; it lets a host keep a report up to date as a match goes.
func (r *Report) Add(before *state.State, events []engine.Event) error {
	troops := make([]int, len(before.Terr))
	for t, tr := range before.Terr {
		troops[t] = tr.Armies
	}
	for _, e := range events {
		switch e := e.(type) {
		case engine.Rolled:
			if err := r.roll(e); err != nil {
				return err
			}
		case engine.Struck:
			if e.To < 0 || e.To >= len(troops) {
				return fmt.Errorf("luck: a strike on territory %d of %d", e.To, len(troops))
			}
			before := troops[e.To]
			if e.Left > 0 {
				before = e.Left + e.Damage // exact whatever else moved troops
			}
			r.strike(e, before)
			troops[e.To] = e.Left
		}
	}
	return nil
}

func (r *Report) player(seat int) *Player {
	if seat < 0 || seat >= len(r.Players) {
		return nil // neutral
	}
	return &r.Players[seat]
}

// score is what a roll is worth to a side that lost lost armies while its
// opponent lost other: a win, a split or a loss.
func score(lost, other int) float64 {
	switch {
	case lost < other:
		return 1
	case lost == other:
		return 0.5
	}
	return 0
}

// roll counts one roll of dice for both sides.
func (r *Report) roll(e engine.Rolled) error {
	p, err := engine.RollChances(e.NA, e.ND)
	if err != nil {
		return fmt.Errorf("luck: %w", err)
	}
	pairs := len(p) - 1
	if e.DefenderLost+e.AttackerLost != pairs || e.DefenderLost < 0 || e.AttackerLost < 0 {
		return fmt.Errorf("luck: a roll of %d against %d dice lost %d and %d armies", e.NA, e.ND, e.AttackerLost, e.DefenderLost)
	}
	var mean, sq, attWin, defWin float64 // of the defender's losses
	for k, q := range p {
		mean += q * float64(k)
		sq += q * float64(k*k)
		attWin += q * score(pairs-k, k)
		defWin += q * score(k, pairs-k)
	}
	// Killed-Lost is 2k-pairs for the attacker (and its opposite for
	// the defender): four times the variance of k.
	variance := 4 * (sq - mean*mean)
	if a := r.player(e.Seat); a != nil {
		a.Rolls++
		a.Won += score(e.AttackerLost, e.DefenderLost)
		a.ExpectedWon += attWin
		a.Killed += e.DefenderLost
		a.ExpectedKilled += mean
		a.Lost += e.AttackerLost
		a.ExpectedLost += float64(pairs) - mean
		a.Variance += variance
	}
	if d := r.player(e.Defender); d != nil {
		d.Rolls++
		d.Won += score(e.DefenderLost, e.AttackerLost)
		d.ExpectedWon += defWin
		d.Killed += e.AttackerLost
		d.ExpectedKilled += float64(pairs) - mean
		d.Lost += e.DefenderLost
		d.ExpectedLost += mean
		d.Variance += variance
	}
	return nil
}

// strike counts one capitals attack on a territory that held before
// troops: the damage is (attack - defence) × luck, luck uniform in
// [engine.LuckMin, engine.LuckMin+engine.LuckSpan), at most the troops there.
func (r *Report) strike(e engine.Struck, before int) {
	removed := min(e.Damage, before)
	var mean, sq float64
	for l := engine.LuckMin; l < engine.LuckMin+engine.LuckSpan; l++ {
		d := float64(min(engine.Damage(e.Attack, e.Defence, l), before))
		mean += d
		sq += d * d
	}
	mean /= engine.LuckSpan
	variance := sq/engine.LuckSpan - mean*mean
	if a := r.player(e.Seat); a != nil {
		a.Strikes++
		a.LuckSum += e.Luck
		a.Killed += removed
		a.ExpectedKilled += mean
		a.Variance += variance
	}
	if d := r.player(e.Defender); d != nil {
		d.Lost += removed
		d.ExpectedLost += mean
		d.Variance += variance
	}
}

// verdict words a Z score.
func verdict(z float64) string {
	switch {
	case z >= 2:
		return "very lucky"
	case z >= 1:
		return "lucky"
	case z <= -2:
		return "very unlucky"
	case z <= -1:
		return "unlucky"
	}
	return "about even"
}

// String is the report for a chat post: a title line, then one line per
// player, the luckiest first.
func (r *Report) String() string {
	var b strings.Builder
	unit := "armies"
	if r.Rules == state.Capitals {
		unit = "troops"
		b.WriteString("Luck: each attack's luck factor against its mean of 1.000\n")
	} else {
		b.WriteString("Luck: every roll of the dice against its exact odds\n")
	}
	ps := slices.Clone(r.Players)
	slices.SortStableFunc(ps, func(a, b Player) int {
		switch {
		case !a.Fought() || !b.Fought():
			return boolCmp(b.Fought(), a.Fought())
		case a.Z() > b.Z():
			return -1
		case a.Z() < b.Z():
			return 1
		}
		return 0
	})
	for _, p := range ps {
		if !p.Fought() {
			fmt.Fprintf(&b, "%s: no battles\n", p.Name)
			continue
		}
		fmt.Fprintf(&b, "%s: ", p.Name)
		if p.Rolls > 0 {
			fmt.Fprintf(&b, "won %s of %d %s (expected %.1f), ", half(p.Won), p.Rolls, plural(p.Rolls, "roll"), p.ExpectedWon)
		}
		if p.Strikes > 0 {
			fmt.Fprintf(&b, "%d %s at luck %.3f on average, ", p.Strikes, plural(p.Strikes, "attack"), float64(p.LuckSum)/float64(p.Strikes)/1000)
		}
		fmt.Fprintf(&b, "killed %d (expected %.1f), lost %d (expected %.1f): %+.1f %s, %s (%+.1fσ)\n",
			p.Killed, p.ExpectedKilled, p.Lost, p.ExpectedLost, p.Net(), unit, verdict(p.Z()), p.Z())
	}
	return b.String()
}

func boolCmp(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// half writes a count of wins that may end in a half.
func half(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}
