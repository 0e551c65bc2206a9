package postgres

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/riskbot/riskbot/storage"
)

// settings is the store's part that keeps the host's values by scope and
// id (the settings table). Save reads them too, in its own transaction
// (Change.Reads), with SettingsOf's query.
// DB embeds it: its methods are the store's.
type settings struct{ pool *pgxpool.Pool }

// Setting returns the value stored under scope and id (SetSetting), or
// storage.ErrNotFound.
func (s *settings) Setting(ctx context.Context, scope, id string) (json.RawMessage, error) {
	var v []byte
	err := s.pool.QueryRow(ctx, `SELECT value FROM settings WHERE scope = $1 AND id = $2`, scope, id).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w (setting %s %s)", storage.ErrNotFound, scope, id)
	}
	if err != nil {
		return nil, fail(fmt.Sprintf("read setting %s %s", scope, id), err)
	}
	return json.RawMessage(v), nil
}

// SettingsOf returns the settings stored under the scopes and ids of
// keys (their values and times are not read), those there are, in one
// statement (one round trip).
func (s *settings) SettingsOf(ctx context.Context, keys ...storage.Setting) ([]storage.Setting, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	scopes, ids := settingKeys(keys)
	return query(ctx, s.pool, "read settings", storage.ScanSettings, settingsOfSQL, scopes, ids)
}

// settingsOfSQL reads the settings of the scopes and ids given as two
// arrays.
const settingsOfSQL = `SELECT s.scope, s.id, s.value, s.updated_at
	FROM settings s JOIN unnest($1::text[], $2::text[]) AS k (scope, id) ON s.scope = k.scope AND s.id = k.id`

// settingKeys are the scopes and ids of keys, as two arrays.
func settingKeys(keys []storage.Setting) (scopes, ids []string) {
	scopes, ids = make([]string, len(keys)), make([]string, len(keys))
	for i, k := range keys {
		scopes[i], ids[i] = k.Scope, k.ID
	}
	return scopes, ids
}

// SetSetting stores value, the host's JSON, under scope and id, replacing
// what was there; a nil value deletes it.
func (s *settings) SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error {
	op := fmt.Sprintf("store setting %s %s", scope, id)
	if err := storage.CheckSetting(scope, id, value); err != nil {
		return fmt.Errorf("storage: postgres: %s: %w", op, err)
	}
	if value == nil {
		if _, err := s.pool.Exec(ctx, `DELETE FROM settings WHERE scope = $1 AND id = $2`, scope, id); err != nil {
			return fail(op, err)
		}
		return nil
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO settings (scope, id, value, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (scope, id) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
		scope, id, string(bytes.TrimSpace(value)), now.UnixMilli())
	if err != nil {
		return fail(op, err)
	}
	return nil
}

// Settings lists every value stored with SetSetting, by scope and id.
func (s *settings) Settings(ctx context.Context) ([]storage.Setting, error) {
	return query(ctx, s.pool, "list settings", storage.ScanSettings, `SELECT scope, id, value, updated_at FROM settings ORDER BY scope, id`)
}
