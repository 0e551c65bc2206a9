package storage

import (
	"errors"
	"fmt"
)

// Head is a match's identity and version, read without its meta, setup or
// game: what says whether a match kept in memory is still the match in the
// database (the same id at the same version is the same match, byte for
// byte), at the cost of one indexed row.
type Head struct {
	ID      int64
	Channel string
	Status  Status
	Version int64
	// Commands is the length of the log.
	Commands int
}

// NoMatch says which match a lookup by id did not find: ErrNotFound
// becomes "no such match (id)"; any other error, and nil, pass unchanged.
func NoMatch(err error, id int64) error {
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w (%d)", ErrNotFound, id)
	}
	return err
}

// NoOpenMatch is NoMatch for a lookup of channel's open match.
func NoOpenMatch(err error, channel string) error {
	if errors.Is(err, ErrNotFound) {
		return fmt.Errorf("%w: channel %s has no open match", ErrNotFound, channel)
	}
	return err
}

// HeadColumns are the columns of a match that ScanHead reads, in order.
const HeadColumns = `id, channel, status, version, commands`

// ScanHead reads the HeadColumns of a row.
func ScanHead(r Scanner) (Head, error) {
	var h Head
	if err := r.Scan(&h.ID, &h.Channel, &h.Status, &h.Version, &h.Commands); err != nil {
		return Head{}, err
	}
	return h, nil
}
