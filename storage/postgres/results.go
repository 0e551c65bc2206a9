package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// results is the store's part that keeps finished matches' results (the
// results table) and rates a server's players from them.
// DB embeds it: its methods are the store's.
type results struct{ pool *pgxpool.Pool }

// RecordResult stores a finished match's result, once: recording the same
// result again does nothing; a different one for the same match fails with
// storage.ErrResultDiffers and changes nothing. Two processes recording one
// match at once insert it once (ON CONFLICT DO NOTHING) and both compare.
func (rs *results) RecordResult(ctx context.Context, r storage.Result) error {
	if err := storage.CheckResult(r); err != nil {
		return err
	}
	op := fmt.Sprintf("record the result of match %d", r.Match)
	rules, _ := r.Rules.MarshalText()
	tx, err := rs.pool.Begin(ctx)
	if err != nil {
		return fail(op, err)
	}
	defer tx.Rollback(ctx)
	const stored = `SELECT ` + storage.ResultColumns + ` FROM results WHERE match_id = $1 ORDER BY seat`
	// A result recorded already is compared, never added to.
	rows, err := query(ctx, tx, op, storage.ScanResults, stored, r.Match)
	if err != nil {
		return err
	}
	if len(rows) > 0 {
		return storage.CheckRecorded(r, rows)
	}
	for i, s := range r.Seats {
		_, err := tx.Exec(ctx, `INSERT INTO results (match_id, seat, server, rules, player, level, name, place, ended_at)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (match_id, seat) DO NOTHING`,
			r.Match, i, r.Server, string(rules), s.Player, s.Level, s.Name, s.Place, r.Ended.UnixMilli())
		if err != nil {
			return fail(op, err)
		}
	}
	// What another process stored first is compared too.
	if rows, err = query(ctx, tx, op, storage.ScanResults, stored, r.Match); err != nil {
		return err
	}
	if err := storage.CheckRecorded(r, rows); err != nil {
		return err
	}
	if err := tx.Commit(ctx); err != nil {
		return fail(op, err)
	}
	return nil
}

// Leaderboard returns a server's players under a rule set, best rated
// first, at most limit (all if limit <= 0).
func (rs *results) Leaderboard(ctx context.Context, server string, rules state.Rules, limit int) ([]storage.Standing, error) {
	rows, err := rs.serverResults(ctx, server)
	if err != nil {
		return nil, err
	}
	return storage.Leaderboard(rows, rules, limit), nil
}

// PlayerStats returns a player's standings on a server, one per rule set
// played.
func (rs *results) PlayerStats(ctx context.Context, server, player string) ([]storage.Standing, error) {
	rows, err := rs.serverResults(ctx, server)
	if err != nil {
		return nil, err
	}
	return storage.PlayerStats(rows, player), nil
}

// serverResults reads the results of a server that count: not those of
// matches imported without --rated.
func (rs *results) serverResults(ctx context.Context, server string) ([]storage.ResultRow, error) {
	return query(ctx, rs.pool, "read the results of "+server, storage.ScanResults, `SELECT `+storage.ResultColumns+` FROM results
		WHERE server = $1 AND `+storage.Counted+` ORDER BY ended_at, match_id, seat`, server)
}
