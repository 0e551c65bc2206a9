package sqlite

import (
	"context"
	"database/sql"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// Seated lists the matches under way in which user holds a seat, in the
// channels that start with prefix ("" for all), at most limit of them
// (all if limit <= 0), without their games: the soonest deadline first,
// those without one after, newest first. It reads the user's rows of the
// seats table, so it costs what it lists, however many matches are open.
func (db *DB) Seated(ctx context.Context, user, prefix string, limit int) ([]storage.Match, error) {
	if limit <= 0 {
		limit = -1
	}
	return db.list(ctx, "list the matches of "+user, `SELECT `+storage.MatchColumns+`
		FROM seats s JOIN matches m ON m.id = s.match_id
		WHERE s.user_id = ? AND m.status = 2 AND `+inScope+`
		ORDER BY m.deadline_at IS NULL, m.deadline_at, m.id DESC LIMIT ?`, user, prefix, prefix, limit)
}

// saveSeats keeps the seats table in step with a change to match id, in
// its transaction (storage.SeatChange).
func saveSeats(ctx context.Context, tx *sql.Tx, id int64, c storage.Change) error {
	seats, closes := storage.SeatChange(c)
	if closes {
		if _, err := tx.ExecContext(ctx, `DELETE FROM seats WHERE match_id = ?`, id); err != nil {
			return err
		}
	}
	return insertSeats(ctx, tx, id, seats)
}

// importSeats fills the seats of an imported match if it is under way.
func importSeats(ctx context.Context, tx *sql.Tx, id int64, status storage.Status, g *engine.Game) error {
	if status != storage.Active || g == nil {
		return nil
	}
	return insertSeats(ctx, tx, id, storage.SetupSeats(&g.Setup))
}

func insertSeats(ctx context.Context, tx *sql.Tx, id int64, users []string) error {
	for _, u := range users {
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO seats (user_id, match_id) VALUES (?, ?)`, u, id); err != nil {
			return err
		}
	}
	return nil
}
