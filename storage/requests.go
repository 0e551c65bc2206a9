package storage

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// RequestQueries read and prune the requests that Save records with the
// changes they made (Change.Request, the requests table), reading on Read
// and writing on Write: both stores run them alike, and their DB embeds
// them.
type RequestQueries struct{ Read, Write Querier }

// Applied returns the request recorded under key (Change.Request), or
// ErrNotFound.
func (rq RequestQueries) Applied(ctx context.Context, key string) (*Applied, error) {
	a, err := ScanApplied(rq.Read.QueryRow(ctx, `SELECT `+RequestColumns+` FROM requests WHERE key = ?`, key))
	return a, requestRead(rq.Read, err, "read request "+key, "request "+key)
}

// LastRequest returns the latest request recorded in channel, of user
// (of anyone if user is ""), or ErrNotFound.
func (rq RequestQueries) LastRequest(ctx context.Context, channel, user string) (*Applied, error) {
	q := `SELECT ` + RequestColumns + ` FROM requests WHERE channel = ?`
	args := []any{channel}
	if user != "" {
		q += ` AND user_id = ?`
		args = append(args, user)
	}
	a, err := ScanApplied(rq.Read.QueryRow(ctx, q+` ORDER BY created_at DESC, version DESC LIMIT 1`, args...))
	return a, requestRead(rq.Read, err, "read the last request in "+channel, "no request in "+channel)
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
func (rq RequestQueries) Answered(ctx context.Context, key string, now time.Time) error {
	if _, err := rq.Write.Exec(ctx, `UPDATE requests SET answered_at = ? WHERE key = ? AND answered_at IS NULL`, now.UnixMilli(), key); err != nil {
		return rq.Write.Fail("mark request "+key+" answered", err)
	}
	return nil
}

// ForgetRequests deletes the requests recorded before a time and returns
// how many: they only guard against repeats, which come within minutes.
func (rq RequestQueries) ForgetRequests(ctx context.Context, before time.Time) (int64, error) {
	n, err := rq.Write.Exec(ctx, `DELETE FROM requests WHERE created_at < ?`, before.UnixMilli())
	if err != nil {
		return 0, rq.Write.Fail("forget old requests", err)
	}
	return n, nil
}
