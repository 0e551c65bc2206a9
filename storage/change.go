package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/engine"
)

// The rules of a match's changes, which every store applies the same way
// whatever its database: what Create opens, and what a change may hold and
// do to a match (Save).

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
	if r := c.Requires; r != nil {
		if err := CheckSetting(r.Scope, r.ID, r.Value); err != nil {
			return nil, fmt.Errorf("the setting required: %w", err)
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

// Row is what a store reads of a match's row, in its write transaction,
// before it writes a change (PlanSave).
type Row struct {
	Status   Status
	Version  int64
	Commands int
}

// Presumed returns the row that change c, written at version, presumes
// of its match by itself, and false if it presumes none: a start, a lobby
// without a log; entries, an active match whose log ends where they begin
// (its game's version less the entries). A store may plan the change
// against it (PlanSave) and write it only if the match's row is still
// that row, in one statement, instead of reading the row first: the
// version alone tells (every change moves it on), and PlanSave would
// refuse any other row anyway.
func Presumed(c Change, version int64) (Row, bool) {
	switch {
	case c.Start != nil:
		return Row{Status: Lobby, Version: version}, true
	case len(c.Entries) > 0 && c.Game != nil && c.Game.Version >= len(c.Entries):
		return Row{Status: Active, Version: version, Commands: c.Game.Version - len(c.Entries)}, true
	}
	return Row{}, false
}

// Write is a change planned against the match it changes (PlanSave): what
// a store's Save writes, whatever its database.
type Write struct {
	*Encoded
	// Next is the match's version after the change and Status its status;
	// its log grows from From entries to Commands (the entries appended
	// are numbered From+1, From+2, ...).
	Next     int64
	Status   Status
	From     int
	Commands int
	// Snapshot reports whether a snapshot of the change's game is due.
	Snapshot bool
	// Millis is the time of the change, in Unix milliseconds.
	Millis int64

	c      Change
	closes bool
}

// A Plan is a change a store is about to save, with what PlanSave
// checks it against.
type Plan struct {
	// ID is the match's; Version the one the change's writer read.
	ID, Version int64
	Change      Change
	// Enc is Change encoded before the transaction (EncodeChange).
	Enc *Encoded
	// Every is how often the store takes a snapshot (SnapshotDue).
	Every int
	Now   time.Time
}

// PlanSave checks p's change against the match's row as the store's
// write transaction read it, and plans the write: ErrConflict if the
// match is no longer at p.Version; an error saying why if the change does
// not apply to the match.
func PlanSave(p Plan, row Row) (*Write, error) {
	id, version, c, enc := p.ID, p.Version, p.Change, p.Enc
	if row.Version != version {
		return nil, fmt.Errorf("%w (match %d is at version %d, not %d)", ErrConflict, id, row.Version, version)
	}
	status, err := Transition(row.Status, c)
	if err != nil {
		return nil, err
	}
	commands := row.Commands + len(enc.Entries)
	if c.Game != nil && c.Game.Version != commands {
		return nil, fmt.Errorf("the game is at command %d, the log would be at %d", c.Game.Version, commands)
	}
	return &Write{
		Encoded: enc, Next: version + 1, Status: status, From: row.Commands, Commands: commands,
		Snapshot: SnapshotDue(row.Commands, commands, p.Every), Millis: p.Now.UnixMilli(),
		c: c, closes: !status.Open() && row.Status.Open(),
	}, nil
}

// SetSQL returns the assignments of the UPDATE of the match's row, and
// their arguments, numbered from 1; param writes the nth parameter as the
// database wants it ("?", "$3"). Any change releases the claim on the
// match's timers (what was due is handled, or moot); closing the match
// clears its timers.
func (w *Write) SetSQL(param func(n int) string) (string, []any) {
	args := []any{w.Next, w.Status, w.Commands, w.Millis}
	arg := func(v any) string {
		args = append(args, v)
		return param(len(args))
	}
	set := fmt.Sprintf(`version = %s, status = %s, commands = %s, updated_at = %s, claim_holder = NULL, claim_at = NULL, claim_until = NULL`,
		param(1), param(2), param(3), param(4))
	if w.Setup != "" {
		set += `, setup = ` + arg(w.Setup)
	}
	if w.c.Meta != nil {
		set += `, meta = ` + arg(NullJSON(w.c.Meta))
	}
	if w.closes {
		set += `, remind_at = NULL, deadline_at = NULL, closed_at = ` + arg(w.Millis)
	} else if t := w.c.Timers; t != nil {
		set += `, remind_at = ` + arg(NullMillis(t.Remind)) + `, deadline_at = ` + arg(NullMillis(t.Deadline))
	}
	return set, args
}

// Claimed returns what the posts the change queues hold in their claim
// columns (claim_holder, claim_at, claim_until): the change's Claim, or
// NULLs.
func (w *Write) Claimed() (holder *string, at, until *int64) {
	if cl := w.c.Claim; cl != nil {
		return &cl.Holder, NullMillis(cl.Now), NullMillis(cl.Until)
	}
	return nil, nil, nil
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
