// Package storage persists hosted matches in SQLite: an append-only command
// log per match, snapshots that only speed up loading, and the host's data
// (lobby, seats, timers). The log is the truth: a command is stored in the
// same transaction that advances the match's version.
package storage

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/riskbot/riskbot/engine"
)

// Status is where a match is in its life.
type Status int

// The match statuses. A channel has at most one Lobby or Active match.
const (
	Lobby     Status = iota + 1 // players joining; no setup yet
	Active                      // started: the log grows
	Finished                    // someone won
	Abandoned                   // ended without a winner (host cancelled)
)

var statusNames = map[Status]string{Lobby: "lobby", Active: "active", Finished: "finished", Abandoned: "abandoned"}

func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// Open reports whether the match still occupies its channel.
func (s Status) Open() bool { return s == Lobby || s == Active }

// Match is a hosted match as stored, without its log.
type Match struct {
	ID      int64
	Channel string // the chat channel hosting it, e.g. "discord:1234" or "console:main"
	Status  Status
	// Version counts every change to the match (lobby edits and log
	// appends alike). Writers pass the version they read; a stale one is
	// refused with ErrConflict.
	Version int64
	// Meta is the host's own data (lobby seats, settings, missed turns),
	// opaque to storage.
	Meta json.RawMessage
	// Setup is nil until the match starts.
	Setup *engine.Setup
	// Commands is the length of the log.
	Commands int
	Timers   Timers
	Created  time.Time
	Updated  time.Time
}

// Timers are the match's turn clock: a reminder and a deadline for the
// player to move. Zero times are unset.
type Timers struct {
	Remind   time.Time
	Deadline time.Time
}

// Loaded is a match with its game rebuilt from the latest snapshot and the
// tail of its log. Game is nil for a match still in its lobby.
type Loaded struct {
	Match
	Game *engine.Game
}

// Change is one atomic write to a match. Zero fields leave things as they
// are.
type Change struct {
	// Start starts the match with this setup (Lobby to Active).
	Start *engine.Setup
	// Entries are appended to the log, in order.
	Entries []engine.Entry
	// Game is the game after the entries; a snapshot is taken from it when
	// one is due. Required with Entries.
	Game *engine.Game
	// Meta replaces the host's data.
	Meta json.RawMessage
	// Status moves the match on (to Finished or Abandoned).
	Status Status
	// Timers replaces the turn clock.
	Timers *Timers
}

// Timer is a clock event that is due.
type Timer struct {
	Match   int64
	Channel string
	Kind    TimerKind
	At      time.Time
	Version int64
}

// TimerKind tells a reminder from a deadline.
type TimerKind int

// The timer kinds.
const (
	Remind TimerKind = iota + 1
	Deadline
)

// Export is a whole match as exchanged by `risk export` and `risk import`:
// the engine's record (options, seats, seed, deal, log) plus the host's data.
type Export struct {
	Channel string          `json:"channel"`
	Status  string          `json:"status"`
	Meta    json.RawMessage `json:"meta,omitempty"`
	Record  engine.Record   `json:"-"`
}

// Errors callers branch on.
var (
	// ErrNotFound: no such match (or no open match in the channel).
	ErrNotFound = errors.New("storage: no such match")
	// ErrConflict: the match moved on since it was read; reload and retry.
	ErrConflict = errors.New("storage: the match moved on; try again")
	// ErrChannelBusy: the channel already hosts an open match.
	ErrChannelBusy = errors.New("storage: the channel already has a match")
)

// CorruptError reports a stored match that cannot be rebuilt (its log fails
// to replay). Other matches are unaffected.
type CorruptError struct {
	Match int64
	Err   error
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("storage: match %d cannot be loaded: %v", e.Match, e.Err)
}

func (e *CorruptError) Unwrap() error { return e.Err }
