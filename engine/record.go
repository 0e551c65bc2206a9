package engine

import (
	"encoding/json"
	"fmt"
)

// Record is a whole match as exchanged between installations and attached
// to bug reports: its setup and its log. Replaying it gives the match.
type Record struct {
	Setup Setup
	Log   []Entry
}

// MarshalJSON encodes the record as the setup's fields plus "log".
func (r Record) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(r.Setup)
	if err != nil {
		return nil, err
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

// UnmarshalJSON decodes a record.
func (r *Record) UnmarshalJSON(b []byte) error {
	var v struct {
		Log []Entry `json:"log"`
	}
	if err := json.Unmarshal(b, &r.Setup); err != nil {
		return fmt.Errorf("engine: decode record: %w", err)
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return fmt.Errorf("engine: decode record: %w", err)
	}
	r.Log = v.Log
	return nil
}

// Game replays the record, stopping after the first n entries when n >= 0.
func (r Record) Game(n int) (*Game, error) {
	log := r.Log
	if n >= 0 {
		if n > len(log) {
			return nil, fmt.Errorf("engine: the match has %d commands, not %d", len(log), n)
		}
		log = log[:n]
	}
	return Replay(r.Setup, log)
}
