package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// Seated lists the matches under way in which user holds a seat, in the
// channels that start with prefix ("" for all), at most limit of them
// (all if limit <= 0), without their games: the soonest deadline first,
// those without one after, newest first. It reads the user's rows of the
// seats table, so it costs what it lists, however many matches are open.
func (db *DB) Seated(ctx context.Context, user, prefix string, limit int) ([]storage.Match, error) {
	var max any // NULL: LIMIT ALL
	if limit > 0 {
		max = limit
	}
	return db.list(ctx, "list the matches of "+user, `SELECT `+storage.MatchColumns+`
		FROM seats s JOIN matches m ON m.id = s.match_id JOIN heads h ON h.match_id = m.id
		WHERE s.user_id = $1 AND m.status = 2 AND `+inScope("m.channel", 2)+`
		ORDER BY m.deadline_at NULLS LAST, m.id DESC LIMIT $3`, user, prefix, max)
}

// queueSeats keeps the seats table in step with a change to match id, in
// its batch (storage.SeatChange).
func queueSeats(b *pgx.Batch, id int64, c storage.Change) {
	seats, closes := storage.SeatChange(c)
	if closes {
		b.Queue(`DELETE FROM seats WHERE match_id = $1`, id)
	}
	queueInsertSeats(b, id, seats)
}

// importSeats fills the seats of an imported match if it is under way.
func importSeats(ctx context.Context, tx pgx.Tx, id int64, status storage.Status, g *engine.Game) error {
	if status != storage.Active || g == nil {
		return nil
	}
	b := &pgx.Batch{}
	queueInsertSeats(b, id, storage.SetupSeats(&g.Setup))
	return tx.SendBatch(ctx, b).Close()
}

func queueInsertSeats(b *pgx.Batch, id int64, users []string) {
	for _, u := range users {
		b.Queue(`INSERT INTO seats (user_id, match_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, u, id)
	}
}
