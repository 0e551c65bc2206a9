package sqlite

import (
	"context"
	"encoding/json"
	"strings"
	"time"

	"github.com/riskbot/riskbot/storage"
)

// settings is the store's part that keeps the host's values by scope and
// id (the settings table). Save reads them too, in its own transaction
// (Change.Reads), with SettingsOf's query.
// DB embeds it: its methods are the store's.
type settings struct{ conns }

// Setting returns the value stored under scope and id (SetSetting), or
// storage.ErrNotFound.
func (s *settings) Setting(ctx context.Context, scope, id string) (json.RawMessage, error) {
	return storage.ReadSetting(ctx, shared{s.read}, scope, id)
}

// SettingsOf returns the settings stored under the scopes and ids of
// keys (their values and times are not read), those there are, in one
// statement.
func (s *settings) SettingsOf(ctx context.Context, keys ...storage.Setting) ([]storage.Setting, error) {
	if len(keys) == 0 {
		return nil, nil
	}
	return storage.QueryAll(ctx, shared{s.read}, "read settings", storage.ScanSettings, settingsOfSQL(len(keys)), settingsArgs(keys)...)
}

// settingsArgs are the arguments of settingsOfSQL for keys.
func settingsArgs(keys []storage.Setting) []any {
	args := make([]any, 0, 2*len(keys))
	for _, k := range keys {
		args = append(args, k.Scope, k.ID)
	}
	return args
}

// settingsOfSQL is SettingsOf's query for n keys: a search of the primary
// key for each (TestQueryPlans).
func settingsOfSQL(n int) string {
	return `SELECT scope, id, value, updated_at FROM settings WHERE ` + strings.Repeat(`(scope = ? AND id = ?) OR `, n-1) + `(scope = ? AND id = ?)`
}

// SetSetting stores value, the host's JSON, under scope and id, replacing
// what was there; a nil value deletes it.
func (s *settings) SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error {
	return storage.WriteSetting(ctx, shared{s.write}, scope, id, value, now)
}

// Settings lists every value stored with SetSetting, by scope and id (for
// copying a database: risk migrate).
func (s *settings) Settings(ctx context.Context) ([]storage.Setting, error) {
	return storage.QueryAll(ctx, shared{s.read}, "list settings", storage.ScanSettings, `SELECT scope, id, value, updated_at FROM settings ORDER BY scope, id`)
}
