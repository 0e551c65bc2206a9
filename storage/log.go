package storage

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/riskbot/riskbot/engine"
)

// How every store rebuilds a game: from the latest snapshot and the rest of
// the log, checked as it is read.

// DefaultSnapshotEvery is how often a store takes a snapshot unless its
// SnapshotEvery option says otherwise: loading replays fewer than this
// many commands.
const DefaultSnapshotEvery = 100

// SnapshotDue reports whether a store that takes a snapshot every `every`
// commands (never if 0) takes one when a match's log grows from `from`
// entries to `to`.
func SnapshotDue(from, to, every int) bool {
	return every > 0 && to/every > from/every
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
	// Scanned through an interface, the two escape: declared once, they
	// cost two allocations a read rather than two a row.
	var seq int
	var b []byte
	for rows.Next() {
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
