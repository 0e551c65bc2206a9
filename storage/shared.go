package storage

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/engine"
)

// The rules every store applies the same way, whatever its database: what
// a change may do, how a game is rebuilt from a snapshot and the log, what
// an import must hold. The SQLite store (storage/sqlite) and the
// PostgreSQL store (storage/postgres) both call them, so that the contract
// suite (storage/storetest) tests one behaviour.

// DefaultSnapshotEvery is how often a store takes a snapshot unless its
// SnapshotEvery option says otherwise: loading replays fewer than this
// many commands.
const DefaultSnapshotEvery = 100

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

// CheckMeta refuses meta that is not JSON (nil is no meta).
func CheckMeta(meta json.RawMessage) error {
	if meta != nil && !json.Valid(meta) {
		return errors.New("meta is not valid JSON")
	}
	return nil
}

// Rebuild returns m's game: the snapshot taken after snapSeq commands (0 if
// there is none) plus the rest of the log, or the whole log replayed if the
// snapshot cannot be used. A snapshot only saves time: one that does not
// decode, belongs to another setup or does not lead to a consistent state
// is passed over. readLog returns the log after its first n entries
// (ReadLog checks it); a log that does not replay is a *CorruptError.
func Rebuild(m *Match, snapSeq int, snap []byte, readLog func(after int) ([]engine.Entry, error)) (*engine.Game, error) {
	if snapSeq > 0 {
		if g, err := decodeSnapshot(snap, snapSeq, m.Setup); err == nil {
			tail, err := readLog(snapSeq)
			if err != nil {
				return nil, err
			}
			if err := replay(g, tail); err == nil {
				return g, nil
			}
		}
	}
	log, err := readLog(0)
	if err != nil {
		return nil, err
	}
	g, err := engine.NewGame(*m.Setup)
	if err == nil {
		err = replay(g, log)
	}
	if err != nil {
		return nil, &CorruptError{Match: m.ID, Err: err}
	}
	return g, nil
}

// decodeSnapshot reads a snapshot taken after seq commands and checks that
// it belongs to a match with this setup.
func decodeSnapshot(b []byte, seq int, setup *engine.Setup) (*engine.Game, error) {
	g, err := engine.DecodeGame(b)
	if err != nil {
		return nil, err
	}
	if g.Version != seq {
		return nil, fmt.Errorf("storage: snapshot at %d is of version %d", seq, g.Version)
	}
	a, err1 := json.Marshal(g.Setup)
	b, err2 := json.Marshal(setup)
	if err1 != nil || err2 != nil || !bytes.Equal(a, b) {
		return nil, fmt.Errorf("storage: snapshot at %d is of another setup", seq)
	}
	return g, nil
}

// replay applies log entries to g and checks the result.
func replay(g *engine.Game, log []engine.Entry) error {
	for _, e := range log {
		if _, err := g.Replay(e); err != nil {
			return err
		}
	}
	if err := g.State.Check(); err != nil {
		return fmt.Errorf("the replayed state is inconsistent: %w", err)
	}
	return nil
}

// LogReader collects the entries of m's log after its first `after`, as
// rows come from a database in seq order, and checks them: a gap, an entry
// that does not decode or a short log is a *CorruptError.
type LogReader struct {
	m     *Match
	after int
	log   []engine.Entry
}

// NewLogReader starts reading m's log after its first `after` entries.
func NewLogReader(m *Match, after int) *LogReader {
	return &LogReader{m: m, after: after, log: make([]engine.Entry, 0, max(m.Commands-after, 0))}
}

// Add decodes entry seq.
func (r *LogReader) Add(seq int, b []byte) error {
	if want := r.after + len(r.log) + 1; seq != want {
		return &CorruptError{Match: r.m.ID, Err: fmt.Errorf("log entry %d is missing", want)}
	}
	var e engine.Entry
	if err := json.Unmarshal(b, &e); err != nil {
		return &CorruptError{Match: r.m.ID, Err: fmt.Errorf("log entry %d: %w", seq, err)}
	}
	r.log = append(r.log, e)
	return nil
}

// Read adds the rows of rows, each a seq and an entry, and returns the log
// read (Log).
func (r *LogReader) Read(rows Rows) ([]engine.Entry, error) {
	for rows.Next() {
		var seq int
		var b []byte
		if err := rows.Scan(&seq, &b); err != nil {
			return nil, err
		}
		if err := r.Add(seq, b); err != nil {
			return nil, err
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return r.Log()
}

// Log returns the entries read, checking that none is missing at the end.
func (r *LogReader) Log() ([]engine.Entry, error) {
	if len(r.log) != r.m.Commands-r.after {
		return nil, &CorruptError{Match: r.m.ID, Err: fmt.Errorf("the log has %d entries, want %d", r.after+len(r.log), r.m.Commands)}
	}
	return r.log, nil
}

// LogPart returns m as if its log ended after entry after+limit (limit
// <= 0: no bound), for reading the entries after the first after; false
// if there are none to read.
func LogPart(m *Match, after, limit int) (*Match, bool) {
	if after < 0 || after >= m.Commands {
		return nil, false
	}
	part := *m
	if limit > 0 {
		part.Commands = min(m.Commands, after+limit)
	}
	return &part, true
}

// CheckImport checks an export before it is stored (Import) and returns
// its game replayed from the log: nil for a match that never started.
func CheckImport(e *Export) (*engine.Game, error) {
	if e.Channel == "" {
		return nil, errors.New("no channel")
	}
	if _, ok := statusNames[e.Status]; !ok {
		return nil, fmt.Errorf("bad status %d", int(e.Status))
	}
	if err := CheckMeta(e.Meta); err != nil {
		return nil, err
	}
	switch {
	case e.started():
		if e.Status == Lobby {
			return nil, errors.New("a match in its lobby has no setup or log")
		}
		if e.Record.Sealed {
			// Its log replays, but a match needs its seed to go on, and
			// the seed is what proves its dice fair.
			return nil, errors.New("the export withholds the match's seed (a player's export of a live match): " +
				"importing needs the host's full export (risk export --full)")
		}
		g, err := engine.Replay(e.Record.Setup, e.Record.Log)
		if err != nil {
			return nil, fmt.Errorf("the log does not replay: %w", err)
		}
		if err := g.State.Check(); err != nil {
			return nil, fmt.Errorf("the replayed state is inconsistent: %w", err)
		}
		return g, nil
	case e.Status == Active || e.Status == Finished:
		return nil, fmt.Errorf("a %s match needs its setup", e.Status)
	}
	return nil, nil
}

// ScopeSQL is the SQL test that the channel in column is in scope, the
// text in parameter p (written as the database wants it: "?" or "$3"),
// given as the claims take it: "" for every channel, a prefix ending in
// ':' for a platform's ("discord:"), anything else for that one channel.
func ScopeSQL(column, p string) string {
	return fmt.Sprintf("(%[2]s = '' OR %[1]s = %[2]s OR (substr(%[2]s, length(%[2]s), 1) = ':' AND substr(%[1]s, 1, length(%[2]s)) = %[2]s))", column, p)
}
