package postgres

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/riskbot/riskbot/storage"
)

// Head returns match id's identity and version, without its game;
// storage.ErrNotFound if there is no such match.
func (db *DB) Head(ctx context.Context, id int64) (storage.Head, error) {
	h, err := db.head(ctx, `m.id = $1`, id)
	if errors.Is(err, storage.ErrNotFound) {
		return h, fmt.Errorf("%w (%d)", storage.ErrNotFound, id)
	}
	return h, err
}

// OpenHead returns the identity and version of channel's open (lobby or
// active) match, without its game; storage.ErrNotFound if it has none.
func (db *DB) OpenHead(ctx context.Context, channel string) (storage.Head, error) {
	h, err := db.head(ctx, `m.channel = $1 AND m.status IN (1, 2)`, channel)
	if errors.Is(err, storage.ErrNotFound) {
		return h, fmt.Errorf("%w: channel %s has no open match", storage.ErrNotFound, channel)
	}
	return h, err
}

func (db *DB) head(ctx context.Context, where string, arg any) (storage.Head, error) {
	var h storage.Head
	var status int
	err := db.pool.QueryRow(ctx, `SELECT m.id, m.channel, m.status, h.version, h.commands FROM `+joined+` WHERE `+where, arg).
		Scan(&h.ID, &h.Channel, &status, &h.Version, &h.Commands)
	if errors.Is(err, pgx.ErrNoRows) {
		return storage.Head{}, storage.ErrNotFound
	}
	if err != nil {
		return storage.Head{}, fail("read a match's version", err)
	}
	h.Status = storage.Status(status)
	return h, nil
}
