package storage

import (
	"errors"
	"fmt"

	"github.com/riskbot/riskbot/engine"
)

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
