package postgres

import (
	"context"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/storage"
)

// claims is the store's part that hands out work one process of several
// must do once: the due timers and the queued posts, claimed for a lease,
// and the named leases themselves.
// DB embeds it: its methods are the store's, the releases and leases
// storage's (ClaimQueries).
type claims struct {
	pool *pgxpool.Pool
	storage.ClaimQueries
}

// Claims (migration 0005): work that one process must do once. Each claim
// is one statement: the candidates are locked with FOR UPDATE SKIP LOCKED,
// so that processes claiming at the same moment take different work rather
// than queue behind each other, and marked with the holder and the lease.
// Under READ COMMITTED, PostgreSQL checks the outer conditions again on a
// row that changed meanwhile, so a claim just taken elsewhere is not taken
// twice.

// free is the SQL test that the claim in the columns of table t ("m." or
// "o.") is free for the claim in parameters $2 (holder), $3 (started) and
// $4 (now).
func free(t string) string { return storage.FreeSQL(t, "$2", "$3", "$4") }

// freeTimers is free for the claim on a match's timers, in joined: a claim
// recorded at another version than the match's is free too (ClaimDue).
var freeTimers = `(` + free("m.") + ` OR m.claim_version IS DISTINCT FROM h.version)`

// ClaimDue claims the timers of active matches due at c.Now, in scope ("",
// a prefix ending in ':', or one channel), whose claim is free, at most
// limit matches' worth, earliest first. A match's claim lasts until the
// match changes (a Save releases it), the lease ends or ReleaseDue.
//
// A claim records the match's version (claim_version, migration 0009) and
// holds only while the match is at it: a command's save writes the
// match's heads row, not the matches row where the claim is, and releases
// it by moving the version on. A claim taken while a save was committing
// may record the version before it, and is then free at once; its holder
// acts on a stale version, which the store refuses.
func (cl *claims) ClaimDue(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Timer, error) {
	ms, err := claim(ctx, cl.pool, "claim due timers", c, scope, limit, storage.ScanClocks, `
		WITH c AS (
			SELECT m.id, h.version FROM `+joined+`
			WHERE m.id IN (
				SELECT id FROM matches WHERE status = 2 AND remind_at IS NOT NULL AND remind_at <= $4
				UNION
				SELECT id FROM matches WHERE status = 2 AND deadline_at IS NOT NULL AND deadline_at <= $4)
			AND m.status = 2 AND (m.remind_at <= $4 OR m.deadline_at <= $4)
			AND `+storage.ScopeSQL("m.channel", "$1")+` AND `+freeTimers+`
			ORDER BY least(m.remind_at, m.deadline_at), m.id
			LIMIT $6
			FOR UPDATE OF m SKIP LOCKED)
		UPDATE matches m SET claim_holder = $2, claim_at = $4, claim_until = $5, claim_version = c.version
		FROM c WHERE m.id = c.id
		RETURNING m.id, m.channel, m.remind_at, m.deadline_at, c.version`)
	if err != nil {
		return nil, err
	}
	return storage.DueTimers(ms, c.Now), nil
}

// claim claims for c the work that statement selects, marks and returns,
// read with scan: the free work in scope, at most limit (parameters $1
// scope, $2 holder, $3 started, $4 now, $5 until, $6 limit).
func claim[T any](ctx context.Context, pool *pgxpool.Pool, op string, c storage.Claim, scope string, limit int,
	scan func(storage.Rows) ([]T, error), statement string) ([]T, error) {
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	return storage.QueryAll(ctx, shared{pool}, op, scan, statement,
		scope, c.Holder, c.Started.UnixMilli(), c.Now.UnixMilli(), c.Until.UnixMilli(), limit)
}

// ClaimPosts claims the posts queued at or before c.Now and not yet
// delivered, in scope, whose claim is free, at most limit of them, oldest
// first. A post's claim lasts until it is delivered (Delivered), the lease
// ends or ReleasePosts.
func (cl *claims) ClaimPosts(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Post, error) {
	out, err := claim(ctx, cl.pool, "claim queued posts", c, scope, limit, storage.ScanPosts, `
		WITH c AS (
			SELECT o.id, m.channel FROM outbox o JOIN matches m ON m.id = o.match_id
			WHERE o.created_at <= $4 AND `+storage.ScopeSQL("m.channel", "$1")+` AND `+free("o.")+`
			ORDER BY o.id
			LIMIT $6
			FOR UPDATE OF o SKIP LOCKED)
		UPDATE outbox o SET claim_holder = $2, claim_at = $4, claim_until = $5
		FROM c WHERE o.id = c.id
		RETURNING o.id, o.match_id, c.channel, o.version, o.body, o.created_at`)
	if err != nil {
		return nil, err
	}
	// UPDATE ... RETURNING does not keep the order of the posts claimed.
	slices.SortFunc(out, func(a, b storage.Post) int { return int(a.ID - b.ID) })
	return out, nil
}
