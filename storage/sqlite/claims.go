package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/riskbot/riskbot/storage"
)

// claims is the store's part that hands out work one process of several
// must do once: the due timers and the queued posts, claimed for a lease,
// and the named leases themselves.
// DB embeds it: its methods are the store's, the releases and leases
// storage's (ClaimQueries).
type claims struct {
	conns
	storage.ClaimQueries
}

// Claims (migration 0005): work that one process must do once. SQLite
// serialises writers, so a claim is a read and an update in one write
// transaction; the PostgreSQL store does the same with FOR UPDATE SKIP
// LOCKED.

// free is the SQL test that the claim in the columns of table t ("" or
// "o.") is free for the claim in parameters ?2 (holder), ?3 (started) and
// ?4 (now).
func free(t string) string { return storage.FreeSQL(t, "?2", "?3", "?4") }

// ClaimDue claims the timers of active matches due at c.Now, in scope ("",
// a prefix ending in ':', or one channel), whose claim is free, at most
// limit matches' worth, earliest first. A match's claim lasts until the
// match changes (a Save releases it), the lease ends or ReleaseDue.
func (cl *claims) ClaimDue(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Timer, error) {
	ms, err := claim(ctx, cl.write, "claim due timers", c, scope, limit, "matches", storage.ScanClocks,
		func(m storage.Match) int64 { return m.ID }, `SELECT id, channel, remind_at, deadline_at, version FROM matches
		WHERE id IN (
			SELECT id FROM matches WHERE status = 2 AND remind_at IS NOT NULL AND remind_at <= ?4
			UNION
			SELECT id FROM matches WHERE status = 2 AND deadline_at IS NOT NULL AND deadline_at <= ?4)
		AND `+storage.ScopeSQL("channel", "?1")+` AND `+free("")+`
		ORDER BY min(coalesce(remind_at, deadline_at), coalesce(deadline_at, remind_at)), id LIMIT ?5`)
	if err != nil {
		return nil, err
	}
	return storage.DueTimers(ms, c.Now), nil
}

// claim claims for c the work that candidates selects, in one write
// transaction: the free work in scope, at most limit, read with scan
// (parameters ?1 scope, ?2 holder, ?3 started, ?4 now, ?5 limit), whose
// rows of table, by id, are marked as c's. It returns the work claimed.
func claim[T any](ctx context.Context, db *sql.DB, op string, c storage.Claim, scope string, limit int,
	table string, scan func(storage.Rows) ([]T, error), id func(T) int64, candidates string) ([]T, error) {
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("storage: %s: %w", op, err)
	}
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return nil, fail(op, err)
	}
	defer tx.Rollback()
	now := c.Now.UnixMilli()
	out, err := storage.QueryAll(ctx, shared{tx}, op, scan, candidates, scope, c.Holder, c.Started.UnixMilli(), now, limit)
	if err != nil {
		return nil, err
	}
	for _, v := range out {
		if _, err := tx.ExecContext(ctx, `UPDATE `+table+` SET claim_holder = ?, claim_at = ?, claim_until = ? WHERE id = ?`,
			c.Holder, now, c.Until.UnixMilli(), id(v)); err != nil {
			return nil, fail(op, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, fail(op, err)
	}
	return out, nil
}

// ClaimPosts claims the posts queued at or before c.Now and not yet
// delivered, in scope ("", a prefix ending in ':', or one channel), whose
// claim is free, at most limit of them, oldest first. A post's claim lasts
// until it is delivered (Delivered), the lease ends or ReleasePosts.
func (cl *claims) ClaimPosts(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Post, error) {
	return claim(ctx, cl.write, "claim queued posts", c, scope, limit, "outbox", storage.ScanPosts,
		func(p storage.Post) int64 { return p.ID }, `SELECT o.id, o.match_id, m.channel, o.version, o.body, o.created_at
		FROM outbox o JOIN matches m ON m.id = o.match_id
		WHERE o.created_at <= ?4 AND `+storage.ScopeSQL("m.channel", "?1")+` AND `+free("o.")+`
		ORDER BY o.id LIMIT ?5`)
}
