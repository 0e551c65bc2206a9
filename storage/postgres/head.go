package postgres

import (
	"context"
	"errors"

	"github.com/jackc/pgx/v5"
	"github.com/riskbot/riskbot/storage"
)

// Head returns match id's identity and version, without its game;
// storage.ErrNotFound if there is no such match.
func (db *DB) Head(ctx context.Context, id int64) (storage.Head, error) {
	h, err := db.head(ctx, `m.id = $1`, id)
	return h, storage.NoMatch(err, id)
}

// OpenHead returns the identity and version of channel's open (lobby or
// active) match, without its game; storage.ErrNotFound if it has none.
func (db *DB) OpenHead(ctx context.Context, channel string) (storage.Head, error) {
	h, err := db.head(ctx, `m.channel = $1 AND m.status IN (1, 2)`, channel)
	return h, storage.NoOpenMatch(err, channel)
}

// head reads the head of the match where says, storage.ErrNotFound if
// there is none.
func (db *DB) head(ctx context.Context, where string, arg any) (storage.Head, error) {
	h, err := storage.ScanHead(db.pool.QueryRow(ctx, `SELECT `+storage.HeadColumns+` FROM `+joined+` WHERE `+where, arg))
	if errors.Is(err, pgx.ErrNoRows) {
		return h, storage.ErrNotFound
	}
	if err != nil {
		return h, fail("read a match's version", err)
	}
	return h, nil
}
