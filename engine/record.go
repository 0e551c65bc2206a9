package engine

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/state"
)

// Record is a whole match as exchanged between installations and attached
// to bug reports: its setup and its log. Replaying it gives the match.
type Record struct {
	Setup Setup
	Log   []Entry
	// Commitment is the match's commitment to its seed, published when it
	// started (see Commitment). Empty in records written before
	// commitments; MarshalJSON then writes the one of Setup.Seed.
	Commitment string
	// Sealed records withhold the seed (see Seal): Setup.Seed is zero and
	// means nothing. A sealed record still replays, since its log records
	// every random outcome, but cannot be verified or played on.
	Sealed bool
	// Told records are a match as one Audience receives it while it is
	// played (see Tell): sealed, with what the audience may not see
	// withheld. They replay with a Replica.
	Told     bool
	Audience int
}

// MarshalJSON encodes the record as the setup's fields (without "seed" if
// it is sealed) plus "commitment" and "log".
func (r Record) MarshalJSON() ([]byte, error) {
	var head []byte
	var err error
	if r.Sealed {
		head, err = r.Setup.sealedJSON()
	} else {
		head, err = json.Marshal(r.Setup)
	}
	if err != nil {
		return nil, err
	}
	c := r.Commitment
	if c == "" && !r.Sealed {
		c = Commitment(r.Setup.Seed)
	}
	if c != "" {
		head = append(head[:len(head)-1], `,"commitment":"`+c+`"}`...)
	}
	if r.Told {
		head = append(head[:len(head)-1], fmt.Sprintf(`,"audience":%d}`, r.Audience)...)
	}
	log := r.Log
	if log == nil {
		log = []Entry{}
	}
	tail, err := json.Marshal(log)
	if err != nil {
		return nil, err
	}
	return append(append(head[:len(head)-1], `,"log":`...), append(tail, '}')...), nil
}

// UnmarshalJSON decodes a record. One without "seed" is sealed.
func (r *Record) UnmarshalJSON(b []byte) error {
	var v struct {
		Log        []Entry          `json:"log"`
		Seed       *json.RawMessage `json:"seed"`
		Commitment string           `json:"commitment"`
		Audience   *int             `json:"audience"`
	}
	var setup Setup
	if err := json.Unmarshal(b, &setup); err != nil {
		return fmt.Errorf("engine: decode record: %w", err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("engine: decode record: %w", err)
	}
	if v.Commitment != "" && !validCommitment(v.Commitment) {
		return fmt.Errorf("engine: decode record: the commitment %q is not 64 lower-case hex digits", clip(v.Commitment, 80))
	}
	*r = Record{Setup: setup, Log: v.Log, Commitment: v.Commitment, Sealed: v.Seed == nil}
	if v.Audience != nil {
		if *v.Audience < Public || *v.Audience >= state.MaxSeats {
			return fmt.Errorf("engine: decode record: no audience %d", *v.Audience)
		}
		r.Told, r.Audience = true, *v.Audience
	}
	return nil
}

// clip shortens s to at most n bytes for an error message.
func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

// Game replays the record, stopping after the first n entries when n >= 0.
// A sealed record replays from the outcomes its log recorded; the game's
// generator is then not the match's, so it must not be played on. A told
// record replays as its Replica does: the game is a possible match, the
// truth as far as its audience sees (see Replica).
func (r Record) Game(n int) (*Game, error) {
	log := r.Log
	if n >= 0 {
		if n > len(log) {
			return nil, fmt.Errorf("engine: the match has %d commands, not %d", len(log), n)
		}
		log = log[:n]
	}
	g, step, err := r.Start()
	if err != nil {
		return nil, err
	}
	for _, e := range log {
		if _, err := step(e); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// Start begins a replay of the record: the game at the start of the match,
// and the function that replays an entry of the record's log on it (a
// Replica's, for a told record: the game is then a possible match, the
// truth as far as the record's audience sees).
func (r Record) Start() (*Game, func(Entry) ([]Event, error), error) {
	if r.Sealed && r.Setup.Deal == nil {
		return nil, nil, errors.New("engine: the record withholds its seed and lacks the deal drawn from it")
	}
	if r.Told {
		rp, err := NewReplica(r.Setup, r.Audience)
		if err != nil {
			return nil, nil, err
		}
		return rp.Game(), rp.Replay, nil
	}
	g, err := NewGame(r.Setup)
	if err != nil {
		return nil, nil, err
	}
	return g, g.Replay, nil
}

// Turns replays the record and returns the match as spectators saw it,
// once per turn: the board when the first turn began, then the board as
// each turn ended with that turn's moves (State.Last) on it, and the board
// as the log leaves it (the end of the match, or the turn in progress,
// with its moves so far in State.This). The states are views: no hand,
// deck or generator is in them. They are the frames of a replay.
func (r Record) Turns() ([]*state.State, error) {
	g, step, err := r.Start()
	if err != nil {
		return nil, err
	}
	var out []*state.State
	turn, fresh := g.State.Turn, false
	for _, e := range r.Log {
		if _, err := step(e); err != nil {
			return nil, err
		}
		fresh = g.State.Turn != turn
		if fresh {
			turn = g.State.Turn
			out = append(out, g.State.View(-1))
		}
	}
	if !fresh {
		out = append(out, g.State.View(-1))
	}
	return out, nil
}
