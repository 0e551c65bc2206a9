// Package outbox delivers what the matches have to tell their channels.
//
// The posts a change makes due (turn summaries, maps, pings, reminders) are
// queued in the outbox in the change's own transaction, as news: what to
// say, not the messages, which are written again from the match when they
// are posted. The process that saved the change posts them and marks them
// delivered; whatever a crash (or a failed post) leaves queued is posted by
// Redeliver, so the next player is always told it is their turn.
package outbox

import (
	"context"
	"encoding/json"
	"log/slog"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/storage"
)

// Store is what the outbox needs of the database: the queued posts, the
// settings where it keeps its living messages and the channels that
// refused it, and a channel's matches.
type Store interface {
	ClaimPosts(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Post, error)
	ReleasePosts(ctx context.Context, id, version int64, holder string) error
	Delivered(ctx context.Context, id, version int64) error
	Setting(ctx context.Context, scope, id string) (json.RawMessage, error)
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
	History(ctx context.Context, channel string) ([]storage.Match, error)
}

// Config is what an Outbox is made of.
type Config struct {
	Store Store
	// Poster posts to the channels; nil drops every post.
	Poster  chat.Poster
	Matches *hosted.Matches
	People  *people.People
	Look    *look.Maps
	// Locks serialise the work on each channel's match.
	Locks *hosted.Locks
	// Claim is this process's claim on work, now; Instance its name.
	Claim    func() storage.Claim
	Instance string
	// Scope is the channels whose queued posts this process delivers
	// (Serves reports whether one is).
	Scope  string
	Serves func(channel string) bool
	// Own is user's own view of the match in channel, when the channel is
	// told less than they may see (fog of war): the direct message of
	// their ping carries it, their map and what they saw. ok is false
	// otherwise, or nil: the ping's words alone. It speaks language t.
	Own func(ctx context.Context, channel, user string, t lang.Tag) (m chat.Message, ok bool)
	Now func() time.Time
	Log *slog.Logger
}

// Outbox delivers the news of the matches.
type Outbox struct{ cfg Config }

// New returns an Outbox.
func New(c Config) *Outbox {
	return &Outbox{cfg: c}
}
