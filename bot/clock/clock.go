// Package clock is when things happen in a match: the turn clocks
// (reminders, deadlines and what a missed deadline brings: a careful bot,
// a skipped turn, standing orders, the autopilot), the computer players'
// turns, and the lobbies that never start. Its work is claimed in the
// database with a lease, so that any of the processes sharing it may do
// it, once.
package clock

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/lobby"
	"github.com/riskbot/riskbot/bot/look"
	"github.com/riskbot/riskbot/bot/outbox"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/bot/play"
	"github.com/riskbot/riskbot/bot/server"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Player is a computer player: it picks one command at a time from its
// seat's view.
type Player interface {
	Act(ctx context.Context, view *state.State, seat int) (engine.Command, error)
}

// Meter is told what the clock does, for metrics.
type Meter interface {
	// TimerLag is how long after it fell due a timer was handled.
	TimerLag(kind string, d time.Duration)
	// Think is how long a computer player took to decide its turn.
	Think(level string, d time.Duration)
}

// Store is what the clock needs of the database: its due timers, the
// open matches and idle lobbies, the lease on a channel's computer turns,
// and the requests it forgets.
type Store interface {
	ClaimDue(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Timer, error)
	ReleaseDue(ctx context.Context, id int64, holder string) error
	OpenChannels(ctx context.Context, prefix string) ([]storage.Occupant, error)
	IdleLobbies(ctx context.Context, prefix string, before time.Time) ([]storage.Match, error)
	Lease(ctx context.Context, name string, c storage.Claim) (bool, error)
	Unlease(ctx context.Context, name, holder string) error
	ForgetRequests(ctx context.Context, before time.Time) (int64, error)
}

// Config is what a Clock is made of.
type Config struct {
	Store   Store
	Matches *hosted.Matches
	Locks   *hosted.Locks
	Look    *look.Maps
	People  *people.People
	Servers *server.Servers
	Outbox  *outbox.Outbox
	Lobby   *lobby.Lobby
	Play    *play.Play
	// NewPlayer makes a computer player of a level, or the careful one
	// that stands in for people out of time ("cautious").
	NewPlayer func(level string, seed uint64) (Player, error)
	// Thinkers bounds the computer turns played at once.
	Thinkers int
	// LobbyTTL is how long a lobby may wait unless its server says
	// otherwise; negative is for ever.
	LobbyTTL time.Duration
	// Claim is this process's claim on work, now; Instance its name.
	Claim    func() storage.Claim
	Instance string
	// Scope is the channels this process looks after (Serves reports
	// whether one is).
	Scope  string
	Serves func(channel string) bool
	Meter  Meter
	Now    func() time.Time
	Log    *slog.Logger
}

// Clock runs the timers and the computer players of the matches in its
// scope. Close stops its background work.
type Clock struct {
	cfg Config

	mu      sync.Mutex
	running map[string]bool // channels whose bots are playing
	again   map[string]bool // ... and must look once more when done
	// elsewhere are channels whose computer turns another process was
	// playing when this one wanted to: looked at again at every Tick, in
	// case that process dies before it is done.
	elsewhere map[string]bool

	// background work (bot turns) runs under bg and is awaited by Wait.
	bg     context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup
	// thinking holds a token per computer turn being played.
	thinking chan struct{}
}

// New returns a Clock.
func New(c Config) *Clock {
	bg, cancel := context.WithCancel(context.Background())
	return &Clock{cfg: c,
		running: map[string]bool{}, again: map[string]bool{}, elsewhere: map[string]bool{},
		bg: bg, cancel: cancel, thinking: make(chan struct{}, c.Thinkers)}
}

// Wait blocks until the background work started so far (computer turns)
// is done.
func (k *Clock) Wait() { k.wg.Wait() }

// Close stops the background work and waits for it.
func (k *Clock) Close() {
	k.cancel()
	k.wg.Wait()
}
