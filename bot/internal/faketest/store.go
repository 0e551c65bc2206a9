// Package faketest holds the test doubles the bot core's parts share in
// their own tests: Store, a store in memory with the methods the parts
// declare (hosted, lobby, outbox, server, clock, people, play), and Chat,
// a chat that records what it is sent. Several parts need them because
// each takes the parts below it (a *hosted.Matches, an *outbox.Outbox),
// which reach the store and the chat too.
//
// Store keeps the rules of the contract those parts rely on through the
// contract's own functions (storage.EncodeChange and PlanSave for a
// change, storage.DueTimers, storage.Leaderboard, storage.ExportPart):
// versions, a busy channel, a request applied once, claims and leases,
// the outbox. It is not a database: no SQL, no snapshots, nothing kept
// across a process. The stores themselves pass storage/storetest.
package faketest

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// Store is a store of matches in memory. Its methods are safe for
// concurrent use. The zero value is not usable: call NewStore.
type Store struct {
	gate
	matches  matchList
	posts    []*post // the outbox, oldest first
	nextPost int64
	requests map[string]time.Time // applied requests' keys, when made
	settings map[[2]string]json.RawMessage
	leases   map[string]claim
	results  []storage.ResultRow // in the order recorded
	library  []storage.LibraryMap
	files    map[string]storage.MapFiles // by engine name
}

// matchList is the store's matches, by id from 1.
type matchList []*match

// match is a stored match: its row, its log as the store encodes it, its
// game after the log, and the claim on its timers.
type match struct {
	storage.Match
	log    []string
	game   *engine.Game
	claim  claim
	broken error // set by Break: loading fails with it
	seats  []string
}

// post is a queued post and its claim.
type post struct {
	storage.Post
	claim claim
}

// claim is a process's hold on work (storage.Claim); a zero holder holds
// nothing.
type claim struct {
	holder    string
	at, until time.Time
}

// free reports whether work held by cl may be claimed by c.
func (cl claim) free(c storage.Claim) bool {
	return cl.holder == "" || !cl.until.After(c.Now) || (cl.holder == c.Holder && !cl.at.After(c.Started))
}

// NewStore returns an empty Store.
func NewStore() *Store {
	return &Store{requests: map[string]time.Time{}, settings: map[[2]string]json.RawMessage{}, leases: map[string]claim{},
		files: map[string]storage.MapFiles{}}
}

// Fail makes the store ask f before each method runs, with the method's
// name ("Save", "Delivered"): an error f returns is the method's, and
// nothing changes; nil lets every method run again. For the faults of a
// database.
func (s *Store) Fail(f func(method string) error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failing = f
}

// gate is the store's lock, and the faults it injects (Fail) as each
// method takes it.
type gate struct {
	mu      sync.Mutex
	failing func(method string) error
}

// fail is the error of method, if it is to fail (Fail).
func (g *gate) fail(method string) error {
	if err := g.lock(method); err != nil {
		return err
	}
	g.mu.Unlock()
	return nil
}

// lock takes the store's lock for method, unless method is to fail
// (Fail): then it returns the error, the lock not taken. On nil the
// caller unlocks.
func (g *gate) lock(method string) error {
	g.mu.Lock()
	if g.failing == nil {
		return nil
	}
	if err := g.failing(method); err != nil {
		g.mu.Unlock()
		return err
	}
	return nil
}

// millis is t as a store keeps it: to the millisecond, in UTC.
func millis(t time.Time) time.Time {
	if t.IsZero() {
		return t
	}
	return time.UnixMilli(t.UnixMilli()).UTC()
}

// inScope reports whether channel is in scope as claims take it: "" is
// every channel, a prefix ending in ':' a platform's, anything else that
// one channel (storage.ScopeSQL).
func inScope(scope, channel string) bool {
	return scope == "" || channel == scope || (strings.HasSuffix(scope, ":") && strings.HasPrefix(channel, scope))
}

// byID returns match id, or nil.
func (ms matchList) byID(id int64) *match {
	if id < 1 || id > int64(len(ms)) {
		return nil
	}
	return ms[id-1]
}

// open returns the open match of channel, or nil.
func (ms matchList) open(channel string) *match {
	for _, m := range ms {
		if m.Channel == channel && m.Status.Open() {
			return m
		}
	}
	return nil
}

// row is m's row as the store's lists give it: a copy.
func (m *match) row() storage.Match {
	r := m.Match
	r.Meta = bytes.Clone(m.Meta)
	if m.Setup != nil {
		setup := *m.Setup
		r.Setup = &setup
	}
	return r
}

// Create opens a match in channel's lobby (storage.NewMatch), or fails
// with storage.ErrChannelBusy if the channel has an open match.
func (s *Store) Create(_ context.Context, channel string, meta json.RawMessage, now time.Time) (*storage.Match, error) {
	if err := s.lock("Create"); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	nm, err := storage.NewMatch(channel, meta, now)
	if err != nil {
		return nil, fmt.Errorf("faketest: create: %w", err)
	}
	if s.matches.open(channel) != nil {
		return nil, storage.ErrChannelBusy
	}
	nm.ID = int64(len(s.matches) + 1)
	s.matches = append(s.matches, &match{Match: *nm})
	r := s.matches[nm.ID-1].row()
	return &r, nil
}

// Active returns the open match of channel with its game, or
// storage.ErrNotFound.
func (s *Store) Active(_ context.Context, channel string) (*storage.Loaded, error) {
	return s.load("Active", func() *match { return s.matches.open(channel) }, "channel "+channel)
}

// Load returns match id with its game, or storage.ErrNotFound.
func (s *Store) Load(_ context.Context, id int64) (*storage.Loaded, error) {
	return s.load("Load", func() *match { return s.matches.byID(id) }, strconv.FormatInt(id, 10))
}

// load is the match find finds, with a game of its own, or
// storage.ErrNotFound naming the match sought; method is the one that may
// fail (Fail).
func (s *Store) load(method string, find func() *match, sought string) (*storage.Loaded, error) {
	if err := s.lock(method); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	m := find()
	if m == nil {
		return nil, fmt.Errorf("%w (%s)", storage.ErrNotFound, sought)
	}
	return m.loaded()
}

// loaded is m with a game of its own: the caller may play on it.
func (m *match) loaded() (*storage.Loaded, error) {
	if m.broken != nil {
		return nil, &storage.CorruptError{Match: m.ID, Err: m.broken}
	}
	l := &storage.Loaded{Match: m.row()}
	if m.game != nil {
		l.Game = m.game.Clone()
	}
	return l, nil
}

// Break makes match id fail to load, as one whose log no longer replays
// (a *storage.CorruptError); its row still lists and exports.
func (s *Store) Break(id int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.matches.byID(id).broken = fmt.Errorf("faketest: match %d broken by the test", id)
}

// SetMeta replaces match id's data as a hand or a bug might, without a
// change: no version moves.
func (s *Store) SetMeta(id int64, meta json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.matches.byID(id).Meta = bytes.Clone(meta)
}

// History lists the matches of channel, newest first.
func (s *Store) History(_ context.Context, channel string) ([]storage.Match, error) {
	out, err := s.rows("History", func(m *match) bool { return m.Channel == channel })
	slices.Reverse(out)
	return out, err
}

// Save applies change c to match id if it is still at version
// (storage.PlanSave): storage.ErrConflict if not, storage.ErrDuplicate if
// its request was applied already; nothing changes then.
func (s *Store) Save(_ context.Context, id, version int64, c storage.Change, now time.Time) (int64, error) {
	if err := s.lock("Save"); err != nil {
		return 0, err
	}
	defer s.mu.Unlock()
	enc, err := storage.EncodeChange(c)
	if err != nil {
		return 0, fmt.Errorf("faketest: save match %d: %w", id, err)
	}
	m := s.matches.byID(id)
	if m == nil {
		return 0, fmt.Errorf("%w (%d)", storage.ErrNotFound, id)
	}
	w, err := storage.PlanSave(storage.Plan{ID: id, Version: version, Change: c, Enc: enc, Now: now},
		storage.Row{Status: m.Status, Version: m.Version, Commands: m.Commands})
	if err != nil {
		return 0, err
	}
	if r := c.Request; r != nil {
		if _, ok := s.requests[r.Key]; ok {
			return 0, fmt.Errorf("%w (key %s)", storage.ErrDuplicate, r.Key)
		}
		s.requests[r.Key] = millis(now)
	}
	if enc.Setup != "" {
		var setup engine.Setup
		if err := json.Unmarshal([]byte(enc.Setup), &setup); err != nil {
			return 0, fmt.Errorf("faketest: save match %d: %w", id, err)
		}
		if m.game, err = engine.NewGame(setup); err != nil {
			return 0, fmt.Errorf("faketest: save match %d: %w", id, err)
		}
		m.Setup = &setup
	}
	m.log = append(m.log, enc.Entries...)
	if c.Game != nil {
		m.game = c.Game.Clone() // the caller plays on
	}
	if c.Meta != nil {
		m.Meta = bytes.Clone(c.Meta)
	}
	seats, _ := storage.SeatChange(c) // Seated lists matches under way only
	m.seats = append(m.seats, seats...)
	if !w.Status.Open() && m.Status.Open() {
		m.Timers, m.Closed = storage.Timers{}, millis(now)
	} else if c.Timers != nil {
		m.Timers = storage.Timers{Remind: millis(c.Timers.Remind), Deadline: millis(c.Timers.Deadline)}
	}
	m.Version, m.Status, m.Commands, m.Updated = w.Next, w.Status, w.Commands, millis(now)
	m.claim = claim{} // any change releases the claim on the timers
	var cl claim
	if c.Claim != nil {
		cl = claim{holder: c.Claim.Holder, at: c.Claim.Now, until: c.Claim.Until}
	}
	for _, body := range c.Posts {
		s.nextPost++
		s.posts = append(s.posts, &post{Post: storage.Post{ID: s.nextPost, Match: id, Channel: m.Channel, Version: w.Next,
			Body: bytes.Clone(body), Queued: millis(now)}, claim: cl})
	}
	return w.Next, nil
}

// OpenMatches lists the open matches of the channels starting with
// prefix, oldest first.
func (s *Store) OpenMatches(_ context.Context, prefix string) ([]storage.Match, error) {
	return s.rows("OpenMatches", func(m *match) bool { return m.Status.Open() && strings.HasPrefix(m.Channel, prefix) })
}

// rows lists the matches keep keeps, oldest first, unless method is to
// fail (Fail).
func (s *Store) rows(method string, keep func(m *match) bool) ([]storage.Match, error) {
	if err := s.lock(method); err != nil {
		return nil, err
	}
	defer s.mu.Unlock()
	var out []storage.Match
	for _, m := range s.matches {
		if keep(m) {
			out = append(out, m.row())
		}
	}
	return out, nil
}

// OpenChannels lists the channels starting with prefix that hold an open
// match, by name.
func (s *Store) OpenChannels(_ context.Context, prefix string) ([]storage.Occupant, error) {
	open, err := s.rows("OpenChannels", func(m *match) bool { return m.Status.Open() && strings.HasPrefix(m.Channel, prefix) })
	if err != nil {
		return nil, err
	}
	var out []storage.Occupant
	for _, m := range open {
		out = append(out, storage.Occupant{Channel: m.Channel, ID: m.ID, Status: m.Status})
	}
	slices.SortFunc(out, func(a, b storage.Occupant) int { return strings.Compare(a.Channel, b.Channel) })
	return out, nil
}

// IdleLobbies lists the lobbies of the channels starting with prefix last
// changed before a time, oldest first.
func (s *Store) IdleLobbies(_ context.Context, prefix string, before time.Time) ([]storage.Match, error) {
	out, err := s.rows("IdleLobbies", func(m *match) bool {
		return m.Status == storage.Lobby && m.Updated.Before(before) && strings.HasPrefix(m.Channel, prefix)
	})
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(out, func(a, b storage.Match) int { return a.Updated.Compare(b.Updated) })
	return out, nil
}

// Seated lists the matches under way in which user holds a seat, in the
// channels starting with prefix, at most limit (all if limit <= 0): the
// soonest deadline first, those without one after, newest first.
func (s *Store) Seated(_ context.Context, user, prefix string, limit int) ([]storage.Match, error) {
	out, err := s.rows("Seated", func(m *match) bool {
		return m.Status == storage.Active && strings.HasPrefix(m.Channel, prefix) && slices.Contains(m.seats, user)
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b storage.Match) int {
		da, db := a.Timers.Deadline, b.Timers.Deadline
		switch {
		case da.IsZero() != db.IsZero():
			if da.IsZero() {
				return 1
			}
			return -1
		case !da.Equal(db):
			return da.Compare(db)
		}
		return cmp.Compare(b.ID, a.ID)
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// Export returns match id whole (storage.ExportPart): its setup, log and
// data, even if it does not load.
func (s *Store) Export(ctx context.Context, id int64) (*storage.Export, error) {
	if err := s.fail("Export"); err != nil {
		return nil, err
	}
	x, _, err := s.exportLog(id, 0, 0)
	return x, err
}

// ExportLog returns match id with its log after its first after entries,
// at most limit of them (all if limit <= 0), and the whole log's length
// (storage.ExportPart).
func (s *Store) ExportLog(_ context.Context, id int64, after, limit int) (*storage.Export, int, error) {
	if err := s.fail("ExportLog"); err != nil {
		return nil, 0, err
	}
	return s.exportLog(id, after, limit)
}

func (s *Store) exportLog(id int64, after, limit int) (*storage.Export, int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.matches.byID(id)
	if m == nil {
		return nil, 0, fmt.Errorf("%w (%d)", storage.ErrNotFound, id)
	}
	row := m.row()
	return storage.ExportPart(&row, after, limit, func(part *storage.Match) ([]engine.Entry, error) {
		log := make([]engine.Entry, part.Commands-after)
		for i := range log {
			if err := json.Unmarshal([]byte(m.log[after+i]), &log[i]); err != nil {
				return nil, &storage.CorruptError{Match: m.ID, Err: err}
			}
		}
		return log, nil
	})
}
