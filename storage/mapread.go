package storage

import (
	"errors"

	"github.com/riskbot/riskbot/state"
)

// readMap reads a library map's files (engine/mapfile).
func readMap(MapFiles) (*state.Map, error) {
	return nil, errors.New("reading map files: not yet")
}
