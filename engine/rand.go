package engine

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/riskbot/riskbot/state"
)

// next advances the generator and returns 64 random bits. The generator is
// counter-based (SplitMix64 of seed + n·γ): its whole position is two
// integers in the state, so copying a state copies its future.
func next(r *state.RNG) uint64 {
	r.N++
	z := r.Seed + r.N*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// uniform returns a uniform integer in [0, n) without modulo bias (Lemire).
func uniform(r *state.RNG, n int) int {
	un := uint64(n)
	hi, lo := bits.Mul64(next(r), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(next(r), un)
		}
	}
	return int(hi)
}

// dice is the source of randomness a command draws from. Live, it draws from
// the state's generator and may record each outcome; in a replay it hands
// back the outcomes a log entry recorded, so that a match stored by an older
// engine replays the same even if the engine now draws differently. The
// generator advances either way, so the final state is identical.
type dice struct {
	rng    *state.RNG
	record bool
	rec    []int32
	replay []int32
	pos    int
	strict bool // replaying: outcomes come only from replay
	// check, when replaying, compares each recorded outcome with the one
	// the generator gives and notes those that differ (Verify).
	check bool
	diffs []diff
	err   error
	drawn int
	// guess, when replaying a log told to an audience (Replica), stands
	// 0 in for each value withheld from it; withheld says the last value
	// was one. replica settles the draws that 0 cannot stand in for (a
	// card the audience sees drawn).
	guess    bool
	withheld bool
	replica  *Replica
	// tell, when telling a log to its audiences (Record.Tell), notes the
	// draws of hidden things in secrets.
	tell    bool
	secrets []secretDraw
}

// diff is a recorded outcome the generator does not give: the index-th
// value the command drew.
type diff struct {
	index, recorded, drawn int
}

// intn returns a random integer in [0, n).
func (d *dice) intn(n int) int {
	d.drawn++
	v := uniform(d.rng, n)
	if d.strict {
		if d.pos >= len(d.replay) {
			d.setErr(fmt.Errorf("engine: replay: the command drew more random values than were recorded (%d)", len(d.replay)))
			return v
		}
		r := int(d.replay[d.pos])
		d.pos++
		if d.withheld = d.guess && r == Withheld; d.withheld {
			r = 0
		}
		if r == Withheld && !d.guess {
			d.setErr(errors.New("engine: replay: the value is withheld from the log's audience: replay a told log with a Replica"))
			return v
		}
		if r < 0 || r >= n {
			d.setErr(fmt.Errorf("engine: replay: recorded value %d out of range [0,%d)", r, n))
			return v
		}
		if d.check && r != v {
			d.diffs = append(d.diffs, diff{d.pos - 1, r, v})
		}
		v = r
	}
	if d.record {
		d.rec = append(d.rec, int32(v))
	}
	return v
}

func (d *dice) setErr(err error) {
	if d.err == nil {
		d.err = err
	}
}

// done reports a replay that left recorded values unused.
func (d *dice) done() error {
	if d.err != nil {
		return d.err
	}
	if d.strict && d.pos != len(d.replay) {
		return fmt.Errorf("engine: replay: the command drew %d random values, %d were recorded", d.pos, len(d.replay))
	}
	return nil
}

// die rolls one six-sided die.
func (d *dice) die() int { return d.intn(6) + 1 }
