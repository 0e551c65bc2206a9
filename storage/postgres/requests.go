package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/storage"
)

// requests is the store's part that reads and prunes the requests that
// Save records with the changes they made (Change.Request, the requests
// table).
// DB embeds it: its methods are the store's.
type requests struct{ pool *pgxpool.Pool }

// Applied returns the request recorded under key (Change.Request), or
// storage.ErrNotFound.
func (rq *requests) Applied(ctx context.Context, key string) (*storage.Applied, error) {
	a, err := storage.ScanApplied(rq.pool.QueryRow(ctx, `SELECT `+storage.RequestColumns+` FROM requests WHERE key = $1`, key))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w (request %s)", storage.ErrNotFound, key)
	}
	if err != nil {
		return nil, fail("read request "+key, err)
	}
	return a, nil
}

// LastRequest returns the latest request recorded in channel, of user
// (of anyone if user is ""), or storage.ErrNotFound.
func (rq *requests) LastRequest(ctx context.Context, channel, user string) (*storage.Applied, error) {
	a, err := storage.ScanApplied(rq.pool.QueryRow(ctx, `SELECT `+storage.RequestColumns+` FROM requests
		WHERE channel = $1 AND ($2 = '' OR user_id = $2) ORDER BY created_at DESC, version DESC LIMIT 1`, channel, user))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w (no request in %s)", storage.ErrNotFound, channel)
	}
	if err != nil {
		return nil, fail("read the last request in "+channel, err)
	}
	return a, nil
}

// Answered records that the request under key was answered. Answering
// twice (or a key never recorded) is harmless.
func (rq *requests) Answered(ctx context.Context, key string, now time.Time) error {
	if _, err := rq.pool.Exec(ctx, `UPDATE requests SET answered_at = $1 WHERE key = $2 AND answered_at IS NULL`, now.UnixMilli(), key); err != nil {
		return fail("mark request "+key+" answered", err)
	}
	return nil
}

// ForgetRequests deletes the requests recorded before a time and returns
// how many.
func (rq *requests) ForgetRequests(ctx context.Context, before time.Time) (int64, error) {
	tag, err := rq.pool.Exec(ctx, `DELETE FROM requests WHERE created_at < $1`, before.UnixMilli())
	if err != nil {
		return 0, fail("forget old requests", err)
	}
	return tag.RowsAffected(), nil
}
