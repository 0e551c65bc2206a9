package engine

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/state"
)

func TestCommitment(t *testing.T) {
	// Computed with coreutils: printf 'riskbot seed commitment v1\000' and
	// the seed's 8 bytes, little-endian, piped to sha256sum.
	for _, tt := range []struct {
		seed uint64
		want string
	}{
		{0, "3f213470188a0c5b4c900bb36bb40e49abdaa234ffbf5cfffd37d73c27568da1"},
		{1, "f9f7ddb23b59d0248b5df4f8039fd7eaae74e759fd047869116a226e8a18d884"},
	} {
		if got := Commitment(tt.seed); got != tt.want {
			t.Errorf("Commitment(%d) = %s, want %s", tt.seed, got, tt.want)
		}
	}
	// The map's seed is published too (in a capitals map's name): it must
	// be another hash, not a part of the commitment or the other way round.
	for _, seed := range []uint64{0, 1, 42, 1 << 63} {
		c := Commitment(seed)
		var ms [8]byte
		binary.LittleEndian.PutUint64(ms[:], MapSeed(seed))
		if strings.Contains(c, hex.EncodeToString(ms[:])) {
			t.Errorf("seed %d: the commitment %s contains the map seed", seed, c)
		}
		var b [16]byte
		copy(b[:8], "riskmap1")
		binary.LittleEndian.PutUint64(b[8:], seed)
		if full := sha256.Sum256(b[:]); hex.EncodeToString(full[:]) == c {
			t.Errorf("seed %d: the commitment is the map seed's hash", seed)
		}
	}
	if Commitment(7) == Commitment(8) {
		t.Error("two seeds, one commitment")
	}
}

// finishedRecord plays a random classic match to its end.
func finishedRecord(t *testing.T, seed uint64) Record {
	t.Helper()
	g, log := classicGames.play(t, seed, 5000)
	if g.State.Phase != state.PhaseOver {
		t.Fatalf("seed %d: the match did not end in 5000 commands", seed)
	}
	return Record{Setup: g.Setup, Log: log, Commitment: g.Commitment()}
}

func capitalsRecord(t *testing.T, seed uint64) Record {
	t.Helper()
	g, log := capitalsGames.play(t, seed, 400)
	return Record{Setup: g.Setup, Log: log, Commitment: g.Commitment()}
}

// clone deep-copies a record through its JSON, so that a test may edit it.
func clone(t *testing.T, r Record) Record {
	t.Helper()
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var c Record
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c
}

// firstRoll is the index of the first log entry that rolled dice in an
// attack, and its first recorded value.
func firstRoll(t *testing.T, r Record) int {
	t.Helper()
	for i, e := range r.Log {
		switch e.Cmd.(type) {
		case Attack, Blitz, Launch, EndTurn: // (a commit that resolves a round rolls)
			if len(e.Rand) > 0 {
				return i
			}
		}
	}
	t.Fatal("no attack in the log")
	return -1
}

// TestValidCommitment: what Commitment writes, and nothing else, reads as
// a commitment.
func TestValidCommitment(t *testing.T) {
	c := Commitment(7)
	for _, tt := range []struct {
		c    string
		want bool
	}{
		{c, true},
		{strings.Repeat("0", 64), true},
		{strings.ToUpper(c), false},
		{c[:63], false},
		{c + "0", false},
		{c[:63] + "g", false},
		{"g" + c[1:], false},
		{c[:32] + " " + c[33:], false},
		{"", false},
	} {
		if got := validCommitment(tt.c); got != tt.want {
			t.Errorf("validCommitment(%q) = %v, want %v", tt.c, got, tt.want)
		}
	}
}

func TestVerify(t *testing.T) {
	classic := finishedRecord(t, 8)
	capitals := capitalsRecord(t, 5)
	g, log := simultaneousGames.play(t, 4, 5000)
	rounds := Record{Setup: g.Setup, Log: log, Commitment: g.Commitment()}
	tests := []struct {
		name      string
		rec       Record
		edit      func(r *Record)
		published string
		// want is a line the report must contain; wantDiff the 1-based
		// log entry of the first value that departs from the seed.
		want     string
		wantDiff int
	}{
		{name: "classic untouched", rec: classic, want: "- log: "},
		{name: "capitals untouched", rec: capitals, want: "- log: "},
		{name: "simultaneous untouched", rec: rounds, want: "- log: "},
		{name: "a tampered round", rec: rounds, edit: func(r *Record) {
			i := firstRoll(t, *r)
			last := len(r.Log[i].Rand) - 1
			r.Log[i].Rand[last] = (r.Log[i].Rand[last] + 1) % 2
		}, wantDiff: firstRoll(t, rounds) + 1},
		{name: "classic against the published commitment", rec: classic, published: strings.ToUpper(classic.Commitment), want: "the published commitment"},
		{name: "a tampered die", rec: classic, edit: func(r *Record) {
			i := firstRoll(t, *r)
			r.Log[i].Rand[0] = (r.Log[i].Rand[0] + 1) % 6
		}, wantDiff: firstRoll(t, classic) + 1},
		{name: "a tampered luck factor", rec: capitals, edit: func(r *Record) {
			i := firstRoll(t, *r)
			r.Log[i].Rand[0] ^= 1
		}, wantDiff: firstRoll(t, capitals) + 1},
		{name: "a swapped seed", rec: classic, edit: func(r *Record) { r.Setup.Seed++ }, want: "not to the commitment"},
		{name: "a swapped seed with its commitment", rec: classic, edit: func(r *Record) {
			r.Setup.Seed++
			r.Commitment = Commitment(r.Setup.Seed)
		}, published: classic.Commitment, want: "not to the commitment"},
		{name: "an edited deal", rec: classic, edit: func(r *Record) {
			o := r.Setup.Deal.Owners
			for t := range o {
				if o[t] != o[0] {
					o[0], o[t] = o[t], o[0]
					break
				}
			}
		}, want: "territory 0 was dealt to another seat"},
		{name: "an edited turn order", rec: classic, edit: func(r *Record) {
			d := r.Setup.Deal.Order
			d[0], d[1] = d[1], d[0]
		}, want: "the recorded turn order"},
		{name: "edited neutral troops", rec: capitals, edit: func(r *Record) {
			r.Setup.Deal.Troops[2]++
		}, want: "territory 2 got other neutral troops"},
		{name: "a record without a commitment", rec: classic, edit: func(r *Record) { r.Commitment = "" }, want: "none to check against"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := clone(t, tt.rec)
			if tt.edit != nil {
				tt.edit(&r)
			}
			v, err := Verify(r, tt.published)
			if err != nil {
				t.Fatal(err)
			}
			report := v.String()
			untouched := tt.edit == nil
			if v.OK() != untouched {
				t.Errorf("OK() = %v, want %v:\n%s", v.OK(), untouched, report)
			}
			if untouched && (v.Commands != len(r.Log) || v.Values == 0) {
				t.Errorf("checked %d commands and %d values of %d commands:\n%s", v.Commands, v.Values, len(r.Log), report)
			}
			if !strings.Contains(report, tt.want) {
				t.Errorf("report lacks %q:\n%s", tt.want, report)
			}
			if tt.wantDiff > 0 && (len(v.Diffs) == 0 || v.Diffs[0].Entry != tt.wantDiff) {
				t.Errorf("diffs %+v, want the first at command %d:\n%s", v.Diffs, tt.wantDiff, report)
			}
			if strings.HasPrefix(report, "verified") != untouched {
				t.Errorf("report:\n%s", report)
			}
		})
	}
}

func TestVerifyRefuses(t *testing.T) {
	rec := finishedRecord(t, 8)
	sealed, err := rec.Seal()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Verify(sealed, ""); !errors.Is(err, ErrSealed) {
		t.Errorf("sealed: %v, want ErrSealed", err)
	}
	if _, err := Verify(rec, "abc"); err == nil || !strings.Contains(err.Error(), "not a commitment") {
		t.Errorf("short commitment: %v", err)
	}
}

// A sealed record has no seed anywhere in its JSON, keeps its commitment,
// and replays to the very match.
func TestSeal(t *testing.T) {
	for _, tt := range []struct {
		name string
		rec  Record
	}{
		{"classic", finishedRecord(t, 8)},
		{"capitals", capitalsRecord(t, 5)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			want, err := tt.rec.Game(-1)
			if err != nil {
				t.Fatal(err)
			}
			sealed, err := tt.rec.Seal()
			if err != nil {
				t.Fatal(err)
			}
			b, err := json.Marshal(sealed)
			if err != nil {
				t.Fatal(err)
			}
			if bytes.Contains(b, []byte(`"seed"`)) {
				t.Errorf("the sealed JSON names the seed: %.300s", b)
			}
			// Field for field, the record's JSON but the seed: a field
			// added to Setup is sealed too, in its place.
			open := sealed
			open.Sealed = false
			ob, err := json.Marshal(open)
			if err != nil {
				t.Fatal(err)
			}
			if want := bytes.Replace(ob, []byte(`"seed":0,`), nil, 1); !bytes.Equal(b, want) {
				t.Errorf("sealed JSON:\n got %.400s\nwant %.400s", b, want)
			}
			if !bytes.Contains(b, []byte(`"commitment":"`+tt.rec.Commitment+`"`)) {
				t.Errorf("the sealed JSON lacks the commitment: %.300s", b)
			}
			var back Record
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			if !back.Sealed || back.Commitment != tt.rec.Commitment || back.Setup.Seed != 0 {
				t.Fatalf("decoded sealed=%v commitment=%s seed=%d", back.Sealed, back.Commitment, back.Setup.Seed)
			}
			got, err := back.Game(-1)
			if err != nil {
				t.Fatal(err)
			}
			// The generator is not the match's (no seed); all else is.
			got.State.RNG, want.State.RNG = state.RNG{}, state.RNG{}
			gb, _ := json.Marshal(got.State)
			wb, _ := json.Marshal(want.State)
			if !bytes.Equal(gb, wb) {
				t.Errorf("the sealed record replays to another match")
			}
			again, err := back.Seal()
			if err != nil || !again.Sealed {
				t.Errorf("sealing twice: %v", err)
			}
		})
	}
}

// Every record encodes its commitment, even one decoded from an export
// written before commitments.
func TestRecordJSONCommitment(t *testing.T) {
	rec := finishedRecord(t, 8)
	rec.Commitment = ""
	b, err := json.Marshal(rec)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(`"commitment":"`+Commitment(rec.Setup.Seed)+`"`)) || !bytes.Contains(b, []byte(`"seed":8`)) {
		t.Errorf("JSON %.400s", b)
	}
	bad := bytes.Replace(b, []byte(`"commitment":"`), []byte(`"commitment":"zz`), 1)
	var r Record
	if err := json.Unmarshal(bad, &r); err == nil || !strings.Contains(err.Error(), "64 lower-case hex digits") {
		t.Errorf("bad commitment: %v", err)
	}
}

// FuzzVerify feeds Verify records it did not write: it may refuse them or
// find they do not verify, but must not panic.
func FuzzVerify(f *testing.F) {
	g, log := classicGames.play(f, 11, 60)
	b, err := json.Marshal(Record{Setup: g.Setup, Log: log})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
	f.Add([]byte(`{"format":1,"options":{"rules":"classic","map":"classic"},"seats":[{"id":"a"},{"id":"b"}],"seed":1,"log":[]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		var r Record
		if err := json.Unmarshal(b, &r); err != nil {
			return
		}
		v, err := Verify(r, "")
		if err != nil {
			return
		}
		_ = v.String()
		if v.OK() && (v.Commands != len(r.Log) || v.Commitment != Commitment(r.Setup.Seed)) {
			t.Errorf("verified %d of %d commands, commitment %s", v.Commands, len(r.Log), v.Commitment)
		}
	})
}
