package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/engine"
)

// What every store makes of an export, whatever its database: what
// ExportLog returns of a stored match, and what Import stores of an export.

// ExportPart is ExportLog's answer for match m: its export, with of its log
// the entries after the first after, at most limit of them (no bound if
// limit <= 0), and the length of its whole log. readLog reads the entries,
// given m cut short after the last of them (they follow the first after).
func ExportPart(m *Match, after, limit int, readLog func(part *Match) ([]engine.Entry, error)) (*Export, int, error) {
	e := &Export{Channel: m.Channel, Status: m.Status, Meta: m.Meta}
	if m.Setup == nil {
		return e, 0, nil
	}
	e.Record.Setup = *m.Setup
	// The commitment the bot posted when the match started, as the
	// export's JSON carries it: a store keeps no other.
	e.Record.Commitment = engine.Commitment(m.Setup.Seed)
	part, ok := logPart(m, after, limit)
	if !ok {
		e.Record.Log = []engine.Entry{}
		return e, m.Commands, nil
	}
	log, err := readLog(part)
	if err != nil {
		return nil, 0, err
	}
	e.Record.Log = log
	return e, m.Commands, nil
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
	if e.Origin != nil {
		if err := CheckOrigin(e.Origin); err != nil {
			return nil, err
		}
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

// Imported is an export encoded for a database (EncodeImport): what Import
// stores.
type Imported struct {
	// Match is the match as stored, at version 1, created and updated (and
	// closed, if it is) at the import; the store gives it its id.
	Match Match
	// Setup is its setup as JSON, the deal drawn; nil if it never started.
	Setup *string
	// Entries are its log's entries as JSON, Match.Commands of them.
	Entries []string
}

// EncodeImport encodes export e, whose game g CheckImport replayed (nil if
// it never started), for a store to Import it at now.
func EncodeImport(e *Export, g *engine.Game, now time.Time) (*Imported, error) {
	t := fromMillis(now.UnixMilli())
	x := &Imported{Match: Match{Channel: e.Channel, Status: e.Status, Version: 1, Meta: e.Meta, Created: t, Updated: t}}
	if !e.Status.Open() {
		x.Match.Closed = t
	}
	if g == nil {
		return x, nil
	}
	b, err := json.Marshal(g.Setup) // with the deal, drawn if the record had none
	if err != nil {
		return nil, err
	}
	setup := string(b)
	x.Setup = &setup
	x.Match.Setup, x.Match.Commands = &g.Setup, g.Version
	for i, en := range e.Record.Log {
		b, err := json.Marshal(en)
		if err != nil {
			return nil, fmt.Errorf("entry %d: %w", i+1, err)
		}
		x.Entries = append(x.Entries, string(b))
	}
	return x, nil
}

// logPart returns m as if its log ended after entry after+limit (limit
// <= 0: no bound), for reading the entries after the first after; false
// if there are none to read.
func logPart(m *Match, after, limit int) (*Match, bool) {
	if after < 0 || after >= m.Commands {
		return nil, false
	}
	part := *m
	if limit > 0 {
		part.Commands = min(m.Commands, after+limit)
	}
	return &part, true
}
