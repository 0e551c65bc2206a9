package storage

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// The requests that Save records with the changes they made
// (Change.Request, the requests table) are read and pruned alike by both
// stores: by MatchQueries.

// Applied returns the request recorded under key (Change.Request), or
// ErrNotFound.
func (mq MatchQueries) Applied(ctx context.Context, key string) (*Applied, error) {
	a, err := ScanApplied(mq.Read.QueryRow(ctx, `SELECT `+RequestColumns+` FROM requests WHERE key = ?`, key))
	return a, requestRead(mq.Read, err, "read request "+key, "request "+key)
}

// LastRequest returns the latest request recorded in channel, of user
// (of anyone if user is ""), or ErrNotFound.
func (mq MatchQueries) LastRequest(ctx context.Context, channel, user string) (*Applied, error) {
	q := `SELECT ` + RequestColumns + ` FROM requests WHERE channel = ?`
	args := []any{channel}
	if user != "" {
		q += ` AND user_id = ?`
		args = append(args, user)
	}
	a, err := ScanApplied(mq.Read.QueryRow(ctx, q+` ORDER BY created_at DESC, version DESC LIMIT 1`, args...))
	return a, requestRead(mq.Read, err, "read the last request in "+channel, "no request in "+channel)
}

// requestRead is the error of operation op, a read of a request that
// failed with err (nil if it did not): ErrNotFound, saying what was not
// there, if there was no row.
func requestRead(q Querier, err error, op, missing string) error {
	switch {
	case errors.Is(err, ErrNoRow):
		return fmt.Errorf("%w (%s)", ErrNotFound, missing)
	case err != nil:
		return q.Fail(op, err)
	}
	return nil
}

// Answered records that the request under key was answered. Answering
// twice (or a key never recorded) is harmless.
func (mq MatchQueries) Answered(ctx context.Context, key string, now time.Time) error {
	if _, err := mq.Write.Exec(ctx, `UPDATE requests SET answered_at = ? WHERE key = ? AND answered_at IS NULL`, now.UnixMilli(), key); err != nil {
		return mq.Write.Fail("mark request "+key+" answered", err)
	}
	return nil
}

// ForgetRequests deletes the requests recorded before a time and returns
// how many: they only guard against repeats, which come within minutes.
func (mq MatchQueries) ForgetRequests(ctx context.Context, before time.Time) (int64, error) {
	n, err := mq.Write.Exec(ctx, `DELETE FROM requests WHERE created_at < ?`, before.UnixMilli())
	if err != nil {
		return 0, mq.Write.Fail("forget old requests", err)
	}
	return n, nil
}
