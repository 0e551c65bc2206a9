// Package storetest is the contract of a store of hosted matches: tests
// written against the Store interface only, which every implementation
// (storage/sqlite, storage/postgres) runs unchanged from its own tests by
// passing a constructor to Run.
package storetest

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Store is what the suite tests: the store's whole interface in the
// domain's terms. The bot declares the part it uses.
type Store interface {
	// Create opens a match in its lobby; storage.ErrChannelBusy if the
	// channel has an open match.
	Create(ctx context.Context, channel string, meta json.RawMessage, now time.Time) (*storage.Match, error)
	// Active loads the open match of a channel.
	Active(ctx context.Context, channel string) (*storage.Loaded, error)
	// Load loads a match by id.
	Load(ctx context.Context, id int64) (*storage.Loaded, error)
	// Head and OpenHead read a match's identity and version, by id or by
	// its open channel, without its game.
	Head(ctx context.Context, id int64) (storage.Head, error)
	OpenHead(ctx context.Context, channel string) (storage.Head, error)
	// Save applies a change at an expected version and returns the new one.
	Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error)
	// OpenMatches lists the open matches of the channels starting with a
	// prefix ("" for all).
	OpenMatches(ctx context.Context, prefix string) ([]storage.Match, error)
	// OpenChannels lists the channels starting with a prefix that hold
	// an open match, by name, with the match's id and status only.
	OpenChannels(ctx context.Context, prefix string) ([]storage.Occupant, error)
	// ClosedChannels lists the channels starting with a prefix whose
	// latest match is closed, the most recently closed first, at most a
	// limit (all if it is 0), with that match's id and status only.
	ClosedChannels(ctx context.Context, prefix string, limit int) ([]storage.Occupant, error)
	// Due lists the timers of active matches due at now, in the channels
	// starting with a prefix.
	Due(ctx context.Context, prefix string, now time.Time) ([]storage.Timer, error)
	// Outbox lists the queued posts (Change.Posts) older than a time of
	// the channels starting with a prefix, oldest first; Delivered removes
	// those of one change.
	Outbox(ctx context.Context, prefix string, before time.Time, limit int) ([]storage.Post, error)
	Delivered(ctx context.Context, id, version int64) error
	// Applied returns a request recorded with a change (Change.Request);
	// LastRequest a channel's latest (of a user, or of anyone); Answered
	// marks one answered; ForgetRequests deletes those older than a time.
	Applied(ctx context.Context, key string) (*storage.Applied, error)
	LastRequest(ctx context.Context, channel, user string) (*storage.Applied, error)
	Answered(ctx context.Context, key string, now time.Time) error
	ForgetRequests(ctx context.Context, before time.Time) (int64, error)
	// Setting and SetSetting read and write the host's values by scope and
	// id (nil deletes); IdleLobbies lists the lobbies of a prefix unchanged
	// since a time.
	Setting(ctx context.Context, scope, id string) (json.RawMessage, error)
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
	// Settings lists them all, by scope and id.
	Settings(ctx context.Context) ([]storage.Setting, error)
	// SettingsOf reads the settings of several scopes and ids at once,
	// those there are.
	SettingsOf(ctx context.Context, keys ...storage.Setting) ([]storage.Setting, error)
	IdleLobbies(ctx context.Context, prefix string, before time.Time) ([]storage.Match, error)
	// ClaimDue claims the due timers of a scope for a process, ReleaseDue
	// gives up its claim on a match's; ClaimPosts and ReleasePosts do the
	// same for queued posts; Lease and Unlease take and give up a named
	// lease. Work claimed by a live lease of another holder is never
	// handed out.
	ClaimDue(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Timer, error)
	ReleaseDue(ctx context.Context, id int64, holder string) error
	ClaimPosts(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Post, error)
	ReleasePosts(ctx context.Context, id, version int64, holder string) error
	Lease(ctx context.Context, name string, c storage.Claim) (bool, error)
	Unlease(ctx context.Context, name, holder string) error
	// Stats counts open matches and queued posts; Ready says whether the
	// database answers with the schema this program knows.
	Stats(ctx context.Context) (storage.Stats, error)
	Ready(ctx context.Context) error
	// Finished lists closed matches, most recently closed first.
	Finished(ctx context.Context, limit int) ([]storage.Match, error)
	// History lists a channel's matches, newest first.
	History(ctx context.Context, channel string) ([]storage.Match, error)
	// RecordResult stores a finished match's result once (again: nothing;
	// differently: storage.ErrResultDiffers); Leaderboard and PlayerStats
	// read a server's standings, rated from its results.
	RecordResult(ctx context.Context, r storage.Result) error
	Leaderboard(ctx context.Context, server string, rules state.Rules, limit int) ([]storage.Standing, error)
	PlayerStats(ctx context.Context, server, player string) ([]storage.Standing, error)
	// Export returns a whole match; Import stores one as a new match.
	Export(ctx context.Context, id int64) (*storage.Export, error)
	// ExportLog returns the export with only the log's entries after the
	// first after (at most limit), and the length of the whole log.
	ExportLog(ctx context.Context, id int64, after, limit int) (*storage.Export, int, error)
	Import(ctx context.Context, e *storage.Export, now time.Time) (*storage.Match, error)
	// ImportCopies imports an export once in each of many channels, in
	// one transaction (a large database for a benchmark, quickly).
	ImportCopies(ctx context.Context, e *storage.Export, channels []string, now time.Time) error
	// Seated lists the matches under way a person sits in, in the
	// channels starting with a prefix, soonest deadline first, at most a
	// limit (all if it is 0).
	Seated(ctx context.Context, user, prefix string, limit int) ([]storage.Match, error)
	// AddMap adds a map to a scope's library (a *storage.MapConflictError
	// if its name or its files are there already); Maps lists a library,
	// LibraryMap finds a map by name, whatever its case; RenameMap and
	// RemoveMap change a library; MapFiles reads a map's files by its
	// engine name, kept for good.
	AddMap(ctx context.Context, m storage.LibraryMap, f storage.MapFiles, now time.Time) error
	Maps(ctx context.Context, scope string) ([]storage.LibraryMap, error)
	Libraries(ctx context.Context) ([]storage.LibraryMap, error)
	LibraryMap(ctx context.Context, scope, name string) (storage.LibraryMap, error)
	MapFiles(ctx context.Context, name string) (storage.MapFiles, error)
	RenameMap(ctx context.Context, scope, old, new string) error
	RemoveMap(ctx context.Context, scope, name string) error
	Close() error
}

// Backend is one database under test.
type Backend struct {
	// Open opens a new handle on the database, as another process would;
	// the suite closes it.
	Open func(ctx context.Context) (Store, error)
	// Corrupt damages the last entry of match id's stored log behind the
	// store's back, so that the log still decodes but no longer replays
	// (say, by changing its recorded dice). Nil skips the tests that need it.
	Corrupt func(ctx context.Context, id int64) error
}

// New returns a new, empty database whose handles take a snapshot every
// snapshotEvery commands (never if it is 0).
type New func(t testing.TB, snapshotEvery int) Backend
