package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
)

// commitmentPrefix separates the commitment's hash from every other hash of
// the seed (MapSeed hashes "riskmap1" and the seed): no hash the match
// publishes is another's, or a step towards it.
const commitmentPrefix = "riskbot seed commitment v1\x00"

// Commitment returns the commitment to a match's seed that is published
// when the match starts: the lower-case hex SHA-256 of the 26 bytes
// "riskbot seed commitment v1", a zero byte, then the seed as 8 bytes
// little-endian (35 bytes in all). Once the seed is revealed anyone can recompute it
// (see docs/fair.md for a shell line) and
// Verify that every random outcome of the match came from that seed.
func Commitment(seed uint64) string {
	b := make([]byte, 0, len(commitmentPrefix)+8)
	b = append(b, commitmentPrefix...)
	b = binary.LittleEndian.AppendUint64(b, seed)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

// Commitment returns the commitment to the game's seed, for the post that
// starts the match.
func (g *Game) Commitment() string { return Commitment(g.Setup.Seed) }

// validCommitment reports whether c is written as Commitment writes one:
// 64 lower-case hex digits.
func validCommitment(c string) bool {
	return len(c) == 64 && strings.Trim(c, "0123456789abcdef") == ""
}

// Seal returns the record as anyone may see it while the match goes on:
// without the seed, which would tell every die to come, but with the
// commitment to it, the deal drawn from it and the name of the map made
// from it (a generated map's name holds only MapSeed, a one-way hash). The
// sealed record still replays: its log records every random outcome. A
// record sealed already is returned as it is.
func (r Record) Seal() (Record, error) {
	if r.Sealed {
		return r, nil
	}
	if r.Commitment == "" {
		r.Commitment = Commitment(r.Setup.Seed)
	}
	if r.Setup.Deal == nil {
		g, err := NewGame(r.Setup)
		if err != nil {
			return Record{}, fmt.Errorf("engine: seal: %w", err)
		}
		r.Setup.Deal = g.Setup.Deal
	}
	r.Setup.Options.Map = matchMap(r.Setup.Options, r.Setup.Seed)
	r.Setup.Seed = 0
	r.Sealed = true
	return r, nil
}

// Verdict is what Verify found: each check, and where the record departs
// from its seed.
type Verdict struct {
	// Commitment is the commitment the seed was checked against, and
	// Published whether the caller gave it (rather than the record).
	Commitment string
	Published  bool
	// Seed is the revealed seed; CommitmentOK whether it hashes to
	// Commitment.
	Seed         uint64
	CommitmentOK bool
	// Deal says what of the recorded deal the seed does not give ("" if
	// it gives all of it).
	Deal string
	// Commands and Values count the log entries replayed and the random
	// values they recorded.
	Commands, Values int
	// Diffs are the first recorded values the seed does not give (at most
	// maxDiffs), of DiffCount in all.
	Diffs     []Diff
	DiffCount int
	// Replay is why the log stopped replaying, if it did.
	Replay error
}

// Diff is one random value a log entry recorded that the seed does not give.
type Diff struct {
	Entry    int // 1-based position in the log
	Seat     int
	Command  string
	Index    int // 0-based among the entry's recorded values
	Recorded int
	Drawn    int // what the seed gives
}

const maxDiffs = 5

// OK reports whether the record passed every check.
func (v *Verdict) OK() bool {
	return v.Commitment != "" && v.CommitmentOK && v.Deal == "" && v.DiffCount == 0 && v.Replay == nil
}

// String is the verdict as a short report for a person, a few lines, in
// English.
func (v *Verdict) String() string { return v.In(lang.For(lang.English)) }

// In is the verdict's report in p's language.
func (v *Verdict) In(p lang.Printer) string {
	var b strings.Builder
	line := func(text string) { b.WriteString(text + "\n") }
	if v.OK() {
		line(p.T("engine.verify.ok"))
	} else {
		line(p.T("engine.verify.not-ok"))
	}
	switch {
	case v.Commitment == "":
		line(p.T("engine.verify.commitment-none", "Hash", Commitment(v.Seed)))
	case v.CommitmentOK && v.Published:
		line(p.T("engine.verify.commitment-published", "Seed", lang.Text(fmt.Sprint(v.Seed)), "Commitment", v.Commitment))
	case v.CommitmentOK:
		line(p.T("engine.verify.commitment-record", "Seed", lang.Text(fmt.Sprint(v.Seed)), "Commitment", v.Commitment))
	default:
		line(p.T("engine.verify.commitment-wrong", "Seed", lang.Text(fmt.Sprint(v.Seed)), "Hash", Commitment(v.Seed), "Commitment", v.Commitment))
	}
	if v.Deal == "" {
		line(p.T("engine.verify.deal-ok"))
	} else {
		line(p.T("engine.verify.deal", "Why", lang.Text(v.Deal)))
	}
	if v.DiffCount == 0 {
		line(p.T("engine.verify.log-ok", "Values", v.Values, "Commands", v.Commands))
	} else {
		line(p.T("engine.verify.log-diff", "Diffs", v.DiffCount, "Values", v.Values, "Commands", v.Commands))
		for _, d := range v.Diffs {
			line(p.T("engine.verify.diff", "Entry", d.Entry, "Seat", d.Seat, "Command", lang.Text(d.Command), "Index", d.Index+1, "Recorded", d.Recorded, "Drawn", d.Drawn))
		}
		if v.DiffCount > len(v.Diffs) {
			line(p.T("engine.verify.more", "More", v.DiffCount-len(v.Diffs)))
		}
	}
	if v.Replay != nil {
		line(p.T("engine.verify.replay", "Commands", v.Commands, "Why", v.Replay))
	}
	return b.String()
}

// ErrSealed is returned for a record that withholds its seed: there is
// nothing to verify until the match ends and the seed is revealed.
var ErrSealed = errors.New("engine: the record withholds its seed (a live match's export); verify an export of the finished match, or the host's full export")

// Verify checks a record whose seed is revealed against a commitment (the
// one published when the match started; "" uses the record's own, which
// proves less, since whoever edits the seed can edit it too). It
// recomputes the deal from the seed and replays the whole log, comparing
// every random value each command recorded (dice, luck factors, card
// draws, random placements) with what the seed gives. It returns an error
// only when there is nothing to check (a sealed record, a commitment that
// is not one); a record that fails a check gets a Verdict saying where.
func Verify(r Record, commitment string) (*Verdict, error) {
	if r.Sealed {
		return nil, ErrSealed
	}
	v := &Verdict{Seed: r.Setup.Seed, Commitment: r.Commitment}
	if commitment != "" {
		commitment = strings.ToLower(strings.TrimSpace(commitment))
		if !validCommitment(commitment) {
			return nil, fmt.Errorf("engine: verify: %q is not a commitment (64 hex digits)", clip(commitment, 80))
		}
		v.Commitment, v.Published = commitment, true
	}
	v.CommitmentOK = v.Commitment == Commitment(r.Setup.Seed)

	fresh := r.Setup
	fresh.Deal = nil
	g, err := NewGame(fresh)
	if err != nil {
		return nil, fmt.Errorf("engine: verify: %w", err)
	}
	if r.Setup.Deal != nil {
		v.Deal = dealDiff(r.Setup.Deal, g.Setup.Deal)
		// Replay with the recorded deal, so that the log's own outcomes
		// are checked even when the deal was edited.
		if g, err = NewGame(r.Setup); err != nil {
			v.Replay = err
			return v, nil
		}
	}
	for _, e := range r.Log {
		_, diffs, err := g.replay(e, true)
		if err != nil {
			v.Replay = err
			break
		}
		v.Commands++
		v.Values += len(e.Rand)
		for _, d := range diffs {
			v.DiffCount++
			if len(v.Diffs) < maxDiffs {
				v.Diffs = append(v.Diffs, Diff{Entry: v.Commands, Seat: e.Seat, Command: e.Cmd.Name(), Index: d.index, Recorded: d.recorded, Drawn: d.drawn})
			}
		}
	}
	return v, nil
}

// dealDiff says how a recorded deal departs from the one the seed gives.
func dealDiff(rec, seed *Deal) string {
	if !slices.Equal(rec.Order, seed.Order) {
		return fmt.Sprintf("the recorded turn order %v is not the seed's %v", rec.Order, seed.Order)
	}
	for t := range max(len(rec.Owners), len(seed.Owners)) {
		if t >= len(rec.Owners) || t >= len(seed.Owners) || rec.Owners[t] != seed.Owners[t] {
			return fmt.Sprintf("territory %d was dealt to another seat than the seed deals it to", t)
		}
	}
	for t := range max(len(rec.Troops), len(seed.Troops)) {
		if t >= len(rec.Troops) || t >= len(seed.Troops) || rec.Troops[t] != seed.Troops[t] {
			return fmt.Sprintf("territory %d got other neutral troops than the seed gives it", t)
		}
	}
	return ""
}
