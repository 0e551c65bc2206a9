package sqlite

import (
	"context"
	"fmt"

	"github.com/riskbot/riskbot/storage"
)

// results is the store's part that keeps finished matches' results (the
// results table) and rates a server's players from them (storage.Ratings,
// reading serverResults). DB embeds it: its methods are the store's.
type results struct {
	conns
	storage.Ratings
}

// newResults is the results part on these connections, its ratings read
// by serverResults.
func newResults(c conns) results {
	return results{c, storage.Ratings{Read: func(ctx context.Context, server string) ([]storage.ResultRow, error) {
		return serverResults(ctx, c.read, server)
	}}}
}

// RecordResult stores a finished match's result, once: recording the same
// result again does nothing; a different one for the same match fails with
// storage.ErrResultDiffers and changes nothing.
func (rs *results) RecordResult(ctx context.Context, r storage.Result) error {
	if err := storage.CheckResult(r); err != nil {
		return err
	}
	op := fmt.Sprintf("record the result of match %d", r.Match)
	rules, _ := r.Rules.MarshalText()
	tx, err := rs.write.BeginTx(ctx, nil)
	if err != nil {
		return fail(op, err)
	}
	defer tx.Rollback()
	stored := func() ([]storage.ResultRow, error) {
		return storage.QueryAll(ctx, shared{tx}, op, storage.ScanResults, `SELECT `+storage.ResultColumns+` FROM results WHERE match_id = ? ORDER BY seat`, r.Match)
	}
	insert := func(i int, s storage.ResultSeat) error {
		if _, err := tx.ExecContext(ctx, `INSERT INTO results (match_id, seat, server, rules, player, level, name, place, ended_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id, seat) DO NOTHING`,
			r.Match, i, r.Server, string(rules), s.Player, s.Level, s.Name, s.Place, r.Ended.UnixMilli()); err != nil {
			return fail(op, err)
		}
		return nil
	}
	if err := storage.Record(r, stored, insert); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fail(op, err)
	}
	return nil
}

// serverResults reads the results of a server that count: not those of
// matches imported without --rated.
func serverResults(ctx context.Context, q querier, server string) ([]storage.ResultRow, error) {
	return storage.QueryAll(ctx, shared{q}, "read the results of "+server, storage.ScanResults, `SELECT `+storage.ResultColumns+` FROM results
		WHERE server = ? AND `+storage.Counted+` ORDER BY ended_at, match_id, seat`, server)
}
