package postgres

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/storage"
)

// claims is the store's part that hands out work one process of several
// must do once: the due timers and the queued posts, claimed for a lease,
// and the named leases themselves.
// DB embeds it: its methods are the store's.
type claims struct{ pool *pgxpool.Pool }

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
	const op = "claim due timers"
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	ms, err := storage.QueryAll(ctx, shared{cl.pool}, op, storage.ScanClocks, `
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
		RETURNING m.id, m.channel, m.remind_at, m.deadline_at, c.version`,
		scope, c.Holder, c.Started.UnixMilli(), c.Now.UnixMilli(), c.Until.UnixMilli(), limit)
	if err != nil {
		return nil, err
	}
	return storage.DueTimers(ms, c.Now), nil
}

// ReleaseDue gives up holder's claim on the timers of match id.
func (cl *claims) ReleaseDue(ctx context.Context, id int64, holder string) error {
	if _, err := cl.pool.Exec(ctx, `UPDATE matches SET claim_holder = NULL, claim_at = NULL, claim_until = NULL
		WHERE id = $1 AND claim_holder = $2`, id, holder); err != nil {
		return fail(fmt.Sprintf("release the timers of match %d", id), err)
	}
	return nil
}

// ClaimPosts claims the posts queued at or before c.Now and not yet
// delivered, in scope, whose claim is free, at most limit of them, oldest
// first. A post's claim lasts until it is delivered (Delivered), the lease
// ends or ReleasePosts.
func (cl *claims) ClaimPosts(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Post, error) {
	const op = "claim queued posts"
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	out, err := storage.QueryAll(ctx, shared{cl.pool}, op, storage.ScanPosts, `
		WITH c AS (
			SELECT o.id, m.channel FROM outbox o JOIN matches m ON m.id = o.match_id
			WHERE o.created_at <= $4 AND `+storage.ScopeSQL("m.channel", "$1")+` AND `+free("o.")+`
			ORDER BY o.id
			LIMIT $6
			FOR UPDATE OF o SKIP LOCKED)
		UPDATE outbox o SET claim_holder = $2, claim_at = $4, claim_until = $5
		FROM c WHERE o.id = c.id
		RETURNING o.id, o.match_id, c.channel, o.version, o.body, o.created_at`,
		scope, c.Holder, c.Started.UnixMilli(), c.Now.UnixMilli(), c.Until.UnixMilli(), limit)
	if err != nil {
		return nil, err
	}
	// UPDATE ... RETURNING does not keep the order of the posts claimed.
	slices.SortFunc(out, func(a, b storage.Post) int { return int(a.ID - b.ID) })
	return out, nil
}

// ReleasePosts gives up holder's claim on the posts that version of match
// id queued.
func (cl *claims) ReleasePosts(ctx context.Context, id, version int64, holder string) error {
	if _, err := cl.pool.Exec(ctx, `UPDATE outbox SET claim_holder = NULL, claim_at = NULL, claim_until = NULL
		WHERE match_id = $1 AND version = $2 AND claim_holder = $3`, id, version, holder); err != nil {
		return fail(fmt.Sprintf("release the posts of match %d version %d", id, version), err)
	}
	return nil
}

// Lease takes, or renews, the named lease for c.Holder until c.Until: it
// succeeds if nobody holds it, its lease has ended, or c.Holder holds it
// already, and reports false if another holder's lease runs.
func (cl *claims) Lease(ctx context.Context, name string, c storage.Claim) (bool, error) {
	op := "take lease " + name
	if err := c.Check(); err != nil {
		return false, fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	var holder string
	err := cl.pool.QueryRow(ctx, `INSERT INTO leases (name, holder, since, until) VALUES ($1, $2, $3, $4)
		ON CONFLICT (name) DO UPDATE SET
			since = CASE WHEN leases.holder = excluded.holder THEN leases.since ELSE excluded.since END,
			holder = excluded.holder, until = excluded.until
		WHERE leases.holder = excluded.holder OR leases.until <= excluded.since
		RETURNING holder`, name, c.Holder, c.Now.UnixMilli(), c.Until.UnixMilli()).Scan(&holder)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	if err != nil {
		return false, fail(op, err)
	}
	return true, nil
}

// Unlease lets go of holder's named lease.
func (cl *claims) Unlease(ctx context.Context, name, holder string) error {
	if _, err := cl.pool.Exec(ctx, `DELETE FROM leases WHERE name = $1 AND holder = $2`, name, holder); err != nil {
		return fail("let go of lease "+name, err)
	}
	return nil
}
