package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/storage"
)

// requests is the store's part that reads and prunes the requests that
// Save records with the changes they made (Change.Request, the requests
// table).
// DB embeds it: its methods are the store's.
type requests struct{ conns }

// Applied returns the request recorded under key (storage.Change.Request), or
// storage.ErrNotFound.
func (rq *requests) Applied(ctx context.Context, key string) (*storage.Applied, error) {
	a, err := storage.ScanApplied(rq.read.QueryRowContext(ctx, `SELECT `+storage.RequestColumns+` FROM requests WHERE key = ?`, key))
	if errors.Is(err, sql.ErrNoRows) {
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
	q := `SELECT ` + storage.RequestColumns + ` FROM requests WHERE channel = ?`
	args := []any{channel}
	if user != "" {
		q += ` AND user_id = ?`
		args = append(args, user)
	}
	a, err := storage.ScanApplied(rq.read.QueryRowContext(ctx, q+` ORDER BY created_at DESC, version DESC LIMIT 1`, args...))
	if errors.Is(err, sql.ErrNoRows) {
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
	if _, err := rq.write.ExecContext(ctx, `UPDATE requests SET answered_at = ? WHERE key = ? AND answered_at IS NULL`, now.UnixMilli(), key); err != nil {
		return fail("mark request "+key+" answered", err)
	}
	return nil
}

// ForgetRequests deletes the requests recorded before a time and returns
// how many: they only guard against repeats, which come within minutes.
func (rq *requests) ForgetRequests(ctx context.Context, before time.Time) (int64, error) {
	res, err := rq.write.ExecContext(ctx, `DELETE FROM requests WHERE created_at < ?`, before.UnixMilli())
	if err != nil {
		return 0, fail("forget old requests", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fail("forget old requests", err)
	}
	return n, nil
}
