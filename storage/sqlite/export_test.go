package sqlite

import (
	"context"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// BulkImport stores e once per channel in one transaction, replaying it
// once: it builds big databases for benchmarks in seconds.
func BulkImport(ctx context.Context, db *DB, e *storage.Export, channels []string, now time.Time) error {
	g, err := engine.Replay(e.Record.Setup, e.Record.Log)
	if err != nil {
		return err
	}
	tx, err := db.write.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, ch := range channels {
		x := *e
		x.Channel = ch
		if _, err := db.insert(ctx, tx, &x, g, now); err != nil {
			return err
		}
	}
	return tx.Commit()
}
