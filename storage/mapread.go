package storage

import (
	"github.com/riskbot/riskbot/engine/mapfile"
	"github.com/riskbot/riskbot/state"
)

// readMap reads a library map's stored files: they were checked when they
// were imported, and are read again as they were, canonical.
func readMap(f MapFiles) (*state.Map, error) {
	b, err := mapfile.Read(mapfile.Files(f), mapfile.Options{})
	if err != nil {
		return nil, err
	}
	return b.Map, nil
}
