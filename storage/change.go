package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/engine"
)

// The rules of a change, which every store applies the same way whatever
// its database: what a change may hold and do to a match.

// Encoded is a Change checked and encoded for a database, before the write
// transaction, so that the transaction holds its locks as briefly as
// possible.
type Encoded struct {
	// Setup is the setup to start the match with, as JSON, its deal drawn;
	// "" if the change does not start it.
	Setup string
	// Entries are the log entries to append, as JSON.
	Entries []string
}

// EncodeChange checks a change on its own (what it holds, not whether the
// match takes it: see Transition) and encodes it.
func EncodeChange(c Change) (*Encoded, error) {
	if c.Start == nil && len(c.Entries) == 0 && c.Game == nil && c.Meta == nil && c.Status == 0 && c.Timers == nil && len(c.Posts) == 0 && c.Request == nil {
		return nil, errors.New("nothing to change")
	}
	var w Encoded
	if c.Start != nil {
		g, err := engine.NewGame(*c.Start)
		if err != nil {
			return nil, fmt.Errorf("cannot start: %w", err)
		}
		b, err := json.Marshal(g.Setup)
		if err != nil {
			return nil, err
		}
		w.Setup = string(b)
	}
	if (len(c.Entries) > 0) != (c.Game != nil) {
		return nil, errors.New("entries and the game they lead to go together")
	}
	for i, e := range c.Entries {
		b, err := json.Marshal(e)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i, err)
		}
		w.Entries = append(w.Entries, string(b))
	}
	if err := CheckMeta(c.Meta); err != nil {
		return nil, err
	}
	for i, p := range c.Posts {
		if !json.Valid(p) {
			return nil, fmt.Errorf("post %d is not JSON", i+1)
		}
	}
	if c.Request != nil && c.Request.Key == "" {
		return nil, errors.New("a request without a key")
	}
	if c.Claim != nil {
		if err := c.Claim.Check(); err != nil {
			return nil, err
		}
	}
	return &w, nil
}

// Transition returns the status a match in status s has after c, or why c
// does not apply.
func Transition(s Status, c Change) (Status, error) {
	if !s.Open() {
		if c.Start != nil || len(c.Entries) > 0 || c.Game != nil || c.Status != 0 || c.Timers != nil {
			return 0, fmt.Errorf("the match is %s: only its meta can change", s)
		}
		return s, nil
	}
	if c.Start != nil {
		if s != Lobby {
			return 0, errors.New("the match has already started")
		}
		s = Active
	}
	if (len(c.Entries) > 0 || c.Game != nil) && s != Active {
		return 0, errors.New("the match has not started: no commands yet")
	}
	switch c.Status {
	case 0:
	case Finished:
		if s != Active {
			return 0, fmt.Errorf("a match in its %s cannot finish (abandon it)", s)
		}
		s = Finished
	case Abandoned:
		s = Abandoned
	default:
		return 0, fmt.Errorf("a change cannot set the status to %s (start the match with Start)", c.Status)
	}
	return s, nil
}

// NewMatch is the match Create opens in channel: in its lobby, at version
// 1, created now (to the millisecond, in UTC, as it reads back). The store
// gives it its id.
func NewMatch(channel string, meta json.RawMessage, now time.Time) (*Match, error) {
	if channel == "" {
		return nil, errors.New("no channel")
	}
	if err := CheckMeta(meta); err != nil {
		return nil, err
	}
	t := fromMillis(now.UnixMilli())
	return &Match{Channel: channel, Status: Lobby, Version: 1, Meta: bytes.Clone(meta), Created: t, Updated: t}, nil
}

// CheckMeta refuses meta that is not JSON (nil is no meta).
func CheckMeta(meta json.RawMessage) error {
	if meta != nil && !json.Valid(meta) {
		return errors.New("meta is not valid JSON")
	}
	return nil
}
