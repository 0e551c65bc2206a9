package postgres

import (
	"context"
	"encoding/json"
	"time"

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
	return storage.ReadSetting(ctx, shared{s.pool}, scope, id)
}

// SettingsOf returns the settings stored under the scopes and ids of
// keys (their values and times are not read), those there are, in one
// statement (one round trip).
func (s *settings) SettingsOf(ctx context.Context, keys ...storage.Setting) ([]storage.Setting, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	scopes, ids := settingKeys(keys)
	return storage.QueryAll(ctx, shared{s.pool}, "read settings", storage.ScanSettings, settingsOfSQL, scopes, ids)
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
	return storage.WriteSetting(ctx, shared{s.pool}, scope, id, value, now)
}

// Settings lists every value stored with SetSetting, by scope and id.
func (s *settings) Settings(ctx context.Context) ([]storage.Setting, error) {
	return storage.QueryAll(ctx, shared{s.pool}, "list settings", storage.ScanSettings, `SELECT scope, id, value, updated_at FROM settings ORDER BY scope, id`)
}
