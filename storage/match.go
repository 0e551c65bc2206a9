// Package storage is the contract of a store of hosted matches: an
// append-only command log per match, snapshots that only speed up loading,
// and the host's data (lobby, seats, timers, queued posts, settings,
// results). The log is the truth: a command is stored in the same
// transaction that advances the match's version.
//
// It holds what every store shares: the types and errors callers see, and
// the rules a store applies the same way whatever its database (what a
// change may do, how a game is rebuilt from a snapshot and the log, what an
// import must hold, how results are rated, how rows read back). The stores
// implement it side by side, each with its own SQL and transactions:
// storage/sqlite (a file, one process) and storage/postgres (several
// processes). storage/storetest is the suite both pass.
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

// String returns the status's name.
func (s Status) String() string {
	if n, ok := statusNames[s]; ok {
		return n
	}
	return fmt.Sprintf("status(%d)", int(s))
}

// MarshalText encodes the status by name ("active").
func (s Status) MarshalText() ([]byte, error) {
	if _, ok := statusNames[s]; !ok {
		return nil, fmt.Errorf("storage: no status %d", int(s))
	}
	return []byte(s.String()), nil
}

// UnmarshalText decodes a status name.
func (s *Status) UnmarshalText(b []byte) error {
	for v, n := range statusNames {
		if n == string(b) {
			*s = v
			return nil
		}
	}
	return fmt.Errorf("storage: unknown match status %q (want lobby, active, finished or abandoned)", b)
}

// Open reports whether the match still occupies its channel.
func (s Status) Open() bool { return s == Lobby || s == Active }

// Match is a hosted match as stored, without its log.
type Match struct {
	ID      int64
	Channel string // the chat channel hosting it, e.g. "discord:1234" or "console:main"
	Status  Status
	// Version counts every change to the match (lobby edits and log
	// appends alike): each successful Save adds one, and Create starts at 1.
	// Writers pass the version they read; a stale one is refused with
	// ErrConflict.
	Version int64
	// Meta is the host's own data (lobby seats, settings, missed turns),
	// opaque to storage; it must be JSON. Nil when unset.
	Meta json.RawMessage
	// Setup is nil until the match starts. It includes the deal drawn at
	// the start (engine.Setup.Deal).
	Setup *engine.Setup
	// Commands is the length of the log.
	Commands int
	Timers   Timers
	// Created, Updated (the last change) and Closed (when it finished or
	// was abandoned; zero while it is open) are the times the host passed
	// in. Times are stored to the millisecond and come back in UTC.
	Created time.Time
	Updated time.Time
	Closed  time.Time
}

// Timers are the match's turn clock: a reminder and a deadline for the
// player to move. Zero times are unset. Only open matches keep timers
// (closing a match clears them), and only those of active matches fall due.
type Timers struct {
	Remind   time.Time
	Deadline time.Time
}

// Loaded is a match with its game rebuilt from the latest snapshot and the
// tail of its log. Game is nil for a match that never started.
type Loaded struct {
	Match
	Game *engine.Game
}

// Change is one atomic write to a match, applied in the order of the
// fields. Zero fields leave things as they are; a Change with nothing in it
// is refused.
type Change struct {
	// Start starts the match with this setup (Lobby to Active). The setup
	// is checked and its deal drawn (engine.NewGame) before it is stored.
	Start *engine.Setup
	// Entries are appended to the log, in order. The match must be active
	// (or started by this change).
	Entries []engine.Entry
	// Game is the game after the entries; a snapshot is taken from it when
	// one is due. Required with Entries: its Version must be the new length
	// of the log.
	Game *engine.Game
	// Meta replaces the host's data. It is the only change a closed match
	// accepts.
	Meta json.RawMessage
	// Status closes the match: Finished (an active match) or Abandoned
	// (an open one). A match becomes Active only through Start.
	Status Status
	// Timers replaces the turn clock.
	Timers *Timers
	// Posts are queued in the outbox with the change: messages the host
	// must deliver once it commits, in order, as JSON of its own. A closed
	// match accepts them too (the news that it ended).
	Posts []json.RawMessage
	// Request records the request that made the change, under its key: a
	// change whose key is recorded already fails with ErrDuplicate and
	// changes nothing.
	Request *Request
	// Claim, if set, claims the posts the change queues for its holder,
	// who is about to deliver them (see ClaimPosts): no other process
	// takes them before the lease ends.
	Claim *Claim
	// Requires, if set, is a setting the change is made on the authority
	// of (a seat's API token is good while its generation is the seat's):
	// the change is written only if, in its transaction, the setting
	// holds Requires.Value (the same JSON), or is absent for a nil Value;
	// otherwise Save fails with ErrRequirement and changes nothing. Only
	// its Scope, ID and Value count.
	Requires *Setting
	// Reads, if set, are settings read in the change's transaction for
	// its caller, who would otherwise read them apart (what an answer to
	// the change may add): Save fills them in if it saves the change.
	Reads *Reads
}

// Reads are settings a change reads in its transaction (Change.Reads).
type Reads struct {
	// Keys name the settings by scope and id.
	Keys []Setting
	// Found are those there are, and Read whether Save read them (it
	// does if it saves the change).
	Found []Setting
	Read  bool
}

// Value returns the value found of the setting of scope and id (nil if
// there is none).
func (r *Reads) Value(scope, id string) json.RawMessage {
	for _, f := range r.Found {
		if f.Scope == scope && f.ID == id {
			return f.Value
		}
	}
	return nil
}

// Claim is a process asking for work that must be done once (a due timer,
// a queued post, a channel's computer turns): the work is leased to Holder
// until Until. Work is free to claim when nobody holds it, when its lease
// has ended (its holder died or gave up), or when Holder itself claimed it
// at or before Started: a holder is a process's name, kept across restarts, and
// what it held before it started died with its previous run.
type Claim struct {
	Holder  string
	Started time.Time
	Now     time.Time
	Until   time.Time
}

// Check refuses a claim without a holder or with a lease already over.
func (c Claim) Check() error {
	if c.Holder == "" {
		return errors.New("a claim without a holder")
	}
	if !c.Until.After(c.Now) {
		return errors.New("a claim whose lease is over")
	}
	return nil
}

// Request is a chat request (a command, a click) that changed a match,
// recorded with the change under the key its chat gave it.
type Request struct {
	// Key is unique among all requests: a Discord interaction's id, say.
	Key  string
	User string
	// Summary is what was asked, Result what it did, as the host words
	// them for its author.
	Summary string
	Result  string
}

// Applied is a recorded request: the change it made, and whether its
// author was answered.
type Applied struct {
	Request
	Match   int64
	Channel string
	// Version is the match version the request's change made.
	Version  int64
	Created  time.Time
	Answered time.Time // zero if the answer never went out
}

// Setting is a value the host stored outside any match (SetSetting).
type Setting struct {
	Scope, ID string
	Value     json.RawMessage
	Updated   time.Time
}

// CheckSetting refuses a setting (SetSetting) without a scope or an id, or
// whose value is not JSON; nil, which deletes the setting, is no value.
func CheckSetting(scope, id string, value json.RawMessage) error {
	if scope == "" || id == "" {
		return errors.New("no scope or id")
	}
	if value != nil && !json.Valid(value) {
		return errors.New("the value is not JSON")
	}
	return nil
}

// Stats are counts over the whole database, for metrics.
type Stats struct {
	// Open and Active count the open matches (lobbies and started ones)
	// and the started ones.
	Open, Active int
	// Queued counts the posts not yet delivered; Oldest is when the
	// oldest of them was queued (zero if none).
	Queued int
	Oldest time.Time
}

// Post is a queued message (Change.Posts) not yet delivered.
type Post struct {
	ID      int64
	Match   int64
	Channel string
	// Version is the match version whose change queued the post.
	Version int64
	Body    json.RawMessage
	Queued  time.Time
}

// Timer is a clock event that is due.
type Timer struct {
	Match   int64
	Channel string
	Kind    TimerKind
	At      time.Time
	// Version is the match's version when it was listed: the version to
	// Save the consequences of the timer at.
	Version int64
}

// TimerKind tells a reminder from a deadline.
type TimerKind int

// The timer kinds.
const (
	Remind TimerKind = iota + 1
	Deadline
)

// timerKindNames are the timer kinds' names, by kind.
var timerKindNames = [...]string{Remind: "remind", Deadline: "deadline"}

// String returns "remind" or "deadline".
func (k TimerKind) String() string {
	if k >= Remind && int(k) < len(timerKindNames) {
		return timerKindNames[k]
	}
	return fmt.Sprintf("timer(%d)", int(k))
}

// Export is a whole match as exchanged by `risk export` and `risk import`:
// the engine's record (options, seats, seed, commitment, deal, log) plus
// the host's data. The stores' Export returns it whole, seed included: it
// is the operator's. What may be shown to players is Public, which
// withholds the seed of a match still open. Its JSON is the record's fields plus "channel", "status" and
// "meta", so that a tool reading an engine.Record reads it too. A match
// that never started has an empty Record (no seats) and its JSON has no
// record fields.
type Export struct {
	Channel string
	Status  Status
	Meta    json.RawMessage
	Record  engine.Record
	// Origin is where an imported match came from: the stores' Export
	// reads it, and Import stores it if set (risk migrate copies it so).
	// It is not part of the file: each import records its own.
	Origin *Origin
	// Map is the files of the match's map when it is a library map:
	// another database, or anyone replaying the export, needs them.
	Map *MapFiles
}

type exportHead struct {
	Channel string          `json:"channel"`
	Status  Status          `json:"status"`
	Meta    json.RawMessage `json:"meta,omitempty"`
	Map     *MapFiles       `json:"map_files,omitempty"`
}

// Public returns the export as anyone may see it: while the match is open
// its record is told to the public (engine.Record.Tell): without the seed,
// which would tell every die to come, with what the public may not see
// (the cards drawn, the kinds of items, the orders of a round in progress)
// withheld. Once the match is over all is revealed, the seed too, so that
// anyone can check it against the commitment published at the start
// (engine.Verify).
func (e *Export) Public() (*Export, error) {
	p := *e
	if !e.started() || !e.Status.Open() {
		return &p, nil
	}
	rec, err := e.Record.Tell(engine.Public)
	if err != nil {
		return nil, fmt.Errorf("storage: public export: %w", err)
	}
	p.Record = rec
	return &p, nil
}

// started reports whether the export holds a record.
func (e *Export) started() bool { return len(e.Record.Setup.Seats) > 0 || len(e.Record.Log) > 0 }

// MarshalJSON encodes the export: {"channel":...,"status":...,"meta":...,
// "format":...,"options":...,"seats":...,"seed":...,"deal":...,"log":[...]}.
func (e Export) MarshalJSON() ([]byte, error) {
	head, err := json.Marshal(exportHead{e.Channel, e.Status, e.Meta, e.Map})
	if err != nil {
		return nil, fmt.Errorf("storage: encode export: %w", err)
	}
	if !e.started() {
		return head, nil
	}
	rec, err := json.Marshal(e.Record)
	if err != nil {
		return nil, fmt.Errorf("storage: encode export: %w", err)
	}
	return append(append(head[:len(head)-1], ','), rec[1:]...), nil
}

// UnmarshalJSON decodes an export.
func (e *Export) UnmarshalJSON(b []byte) error {
	var head exportHead
	if err := json.Unmarshal(b, &head); err != nil {
		return fmt.Errorf("storage: decode export: %w", err)
	}
	var probe struct {
		Format *int `json:"format"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return fmt.Errorf("storage: decode export: %w", err)
	}
	*e = Export{Channel: head.Channel, Status: head.Status, Meta: head.Meta, Map: head.Map}
	if probe.Format == nil {
		return nil // never started: no record
	}
	if err := json.Unmarshal(b, &e.Record); err != nil {
		return fmt.Errorf("storage: decode export: %w", err)
	}
	return nil
}

// Errors callers branch on.
var (
	// ErrNotFound: no such match (or no open match in the channel).
	ErrNotFound = errors.New("storage: no such match")
	// ErrConflict: the match moved on since it was read; reload and retry.
	ErrConflict = errors.New("storage: the match moved on; try again")
	// ErrChannelBusy: the channel already hosts an open match.
	ErrChannelBusy = errors.New("storage: the channel already has a match")
	// ErrDuplicate: the request of the change was applied already.
	ErrDuplicate = errors.New("storage: the request was applied already")
	// ErrRequirement: the setting a change requires (Change.Requires)
	// holds another value; nothing was changed.
	ErrRequirement = errors.New("storage: a setting the change requires has changed")
)

// CorruptError reports a stored match that cannot be rebuilt: its setup or
// log does not decode, or its log does not replay. Other matches are
// unaffected, and Export still returns the match if its log decodes, for a
// bug report.
type CorruptError struct {
	Match int64
	Err   error
}

// Error says which match is broken and why.
func (e *CorruptError) Error() string {
	return fmt.Sprintf("storage: match %d cannot be loaded: %v", e.Match, e.Err)
}

// Unwrap returns the cause.
func (e *CorruptError) Unwrap() error { return e.Err }

// Fail is the error a store returns for err, the error of its operation
// op: the contract's own errors that callers branch on (a *CorruptError,
// ErrConflict) as they are, since they say it all; any other described
// (Describe) after the store's prefix ("storage", "storage: postgres").
func Fail(prefix, op, why string, err error) error {
	if _, ok := errors.AsType[*CorruptError](err); ok || errors.Is(err, ErrConflict) {
		return err
	}
	return fmt.Errorf("%s: %w", prefix, Describe(op, why, err))
}

// Describe wraps err, the error of a store's operation op, with why: what
// the database's error means for whoever runs the program, in the store's
// words ("" if it has none).
func Describe(op, why string, err error) error {
	if why != "" {
		return fmt.Errorf("%s: %s: %w", op, why, err)
	}
	return fmt.Errorf("%s: %w", op, err)
}
