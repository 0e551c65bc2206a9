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
	"maps"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Store is a store of matches in memory. Its methods are safe for
// concurrent use. The zero value is not usable: call NewStore.
type Store struct {
	mu       sync.Mutex
	failing  func(method string) error
	matches  []*match // by id, from 1
	posts    []*post  // the outbox, oldest first
	nextPost int64
	requests map[string]time.Time // applied requests' keys, when made
	settings map[[2]string]json.RawMessage
	leases   map[string]claim
	results  []storage.ResultRow // in the order recorded
	library  []storage.LibraryMap
	files    map[string]storage.MapFiles // by engine name
}

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

// fail is the error of method, if it is to fail.
func (s *Store) fail(method string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.failing == nil {
		return nil
	}
	return s.failing(method)
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
func (s *Store) byID(id int64) *match {
	if id < 1 || id > int64(len(s.matches)) {
		return nil
	}
	return s.matches[id-1]
}

// open returns the open match of channel, or nil.
func (s *Store) open(channel string) *match {
	for _, m := range s.matches {
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
	if err := s.fail("Create"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	nm, err := storage.NewMatch(channel, meta, now)
	if err != nil {
		return nil, fmt.Errorf("faketest: create: %w", err)
	}
	if s.open(channel) != nil {
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
	if err := s.fail("Active"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.open(channel)
	if m == nil {
		return nil, fmt.Errorf("%w (channel %s)", storage.ErrNotFound, channel)
	}
	return m.loaded()
}

// Load returns match id with its game, or storage.ErrNotFound.
func (s *Store) Load(_ context.Context, id int64) (*storage.Loaded, error) {
	if err := s.fail("Load"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.byID(id)
	if m == nil {
		return nil, fmt.Errorf("%w (%d)", storage.ErrNotFound, id)
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
	s.byID(id).broken = fmt.Errorf("faketest: match %d broken by the test", id)
}

// SetMeta replaces match id's data as a hand or a bug might, without a
// change: no version moves.
func (s *Store) SetMeta(id int64, meta json.RawMessage) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.byID(id).Meta = bytes.Clone(meta)
}

// History lists the matches of channel, newest first.
func (s *Store) History(_ context.Context, channel string) ([]storage.Match, error) {
	if err := s.fail("History"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []storage.Match
	for i := len(s.matches) - 1; i >= 0; i-- {
		if m := s.matches[i]; m.Channel == channel {
			out = append(out, m.row())
		}
	}
	return out, nil
}

// Save applies change c to match id if it is still at version
// (storage.PlanSave): storage.ErrConflict if not, storage.ErrDuplicate if
// its request was applied already; nothing changes then.
func (s *Store) Save(_ context.Context, id, version int64, c storage.Change, now time.Time) (int64, error) {
	if err := s.fail("Save"); err != nil {
		return 0, err
	}
	enc, err := storage.EncodeChange(c)
	if err != nil {
		return 0, fmt.Errorf("faketest: save match %d: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.byID(id)
	if m == nil {
		return 0, fmt.Errorf("%w (%d)", storage.ErrNotFound, id)
	}
	w, err := storage.PlanSave(id, version, storage.Row{Status: m.Status, Version: m.Version, Commands: m.Commands}, c, enc, 0, now)
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
	if err := s.fail("OpenMatches"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []storage.Match
	for _, m := range s.matches {
		if m.Status.Open() && strings.HasPrefix(m.Channel, prefix) {
			out = append(out, m.row())
		}
	}
	return out, nil
}

// OpenChannels lists the channels starting with prefix that hold an open
// match, by name.
func (s *Store) OpenChannels(_ context.Context, prefix string) ([]storage.Occupant, error) {
	if err := s.fail("OpenChannels"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []storage.Occupant
	for _, m := range s.matches {
		if m.Status.Open() && strings.HasPrefix(m.Channel, prefix) {
			out = append(out, storage.Occupant{Channel: m.Channel, ID: m.ID, Status: m.Status})
		}
	}
	slices.SortFunc(out, func(a, b storage.Occupant) int { return strings.Compare(a.Channel, b.Channel) })
	return out, nil
}

// IdleLobbies lists the lobbies of the channels starting with prefix last
// changed before a time, oldest first.
func (s *Store) IdleLobbies(_ context.Context, prefix string, before time.Time) ([]storage.Match, error) {
	if err := s.fail("IdleLobbies"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []storage.Match
	for _, m := range s.matches {
		if m.Status == storage.Lobby && m.Updated.Before(before) && strings.HasPrefix(m.Channel, prefix) {
			out = append(out, m.row())
		}
	}
	slices.SortStableFunc(out, func(a, b storage.Match) int { return a.Updated.Compare(b.Updated) })
	return out, nil
}

// Seated lists the matches under way in which user holds a seat, in the
// channels starting with prefix, at most limit (all if limit <= 0): the
// soonest deadline first, those without one after, newest first.
func (s *Store) Seated(_ context.Context, user, prefix string, limit int) ([]storage.Match, error) {
	if err := s.fail("Seated"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []storage.Match
	for _, m := range s.matches {
		if m.Status == storage.Active && strings.HasPrefix(m.Channel, prefix) && slices.Contains(m.seats, user) {
			out = append(out, m.row())
		}
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
func (s *Store) Export(_ context.Context, id int64) (*storage.Export, error) {
	if err := s.fail("Export"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.byID(id)
	if m == nil {
		return nil, fmt.Errorf("%w (%d)", storage.ErrNotFound, id)
	}
	row := m.row()
	x, _, err := storage.ExportPart(&row, 0, 0, func(part *storage.Match) ([]engine.Entry, error) {
		log := make([]engine.Entry, part.Commands)
		for i := range log {
			if err := json.Unmarshal([]byte(m.log[i]), &log[i]); err != nil {
				return nil, &storage.CorruptError{Match: m.ID, Err: err}
			}
		}
		return log, nil
	})
	return x, err
}

// ClaimPosts claims the posts queued at or before c.Now and not yet
// delivered, in scope, whose claim is free, at most limit, oldest first.
func (s *Store) ClaimPosts(_ context.Context, scope string, c storage.Claim, limit int) ([]storage.Post, error) {
	if err := s.fail("ClaimPosts"); err != nil {
		return nil, err
	}
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("faketest: claim posts: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []storage.Post
	for _, p := range s.posts {
		if len(out) == limit {
			break
		}
		if !p.Queued.After(c.Now) && inScope(scope, p.Channel) && p.claim.free(c) {
			p.claim = claim{holder: c.Holder, at: c.Now, until: c.Until}
			p.Body = bytes.Clone(p.Body)
			out = append(out, p.Post)
		}
	}
	return out, nil
}

// ReleasePosts gives up holder's claim on the posts of version of match
// id.
func (s *Store) ReleasePosts(_ context.Context, id, version int64, holder string) error {
	if err := s.fail("ReleasePosts"); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range s.posts {
		if p.Match == id && p.Version == version && p.claim.holder == holder {
			p.claim = claim{}
		}
	}
	return nil
}

// Delivered takes the posts of version of match id out of the outbox.
func (s *Store) Delivered(_ context.Context, id, version int64) error {
	if err := s.fail("Delivered"); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.posts = slices.DeleteFunc(s.posts, func(p *post) bool { return p.Match == id && p.Version == version })
	return nil
}

// Queued returns the posts not yet delivered, oldest first, whoever holds
// them.
func (s *Store) Queued() []storage.Post {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []storage.Post
	for _, p := range s.posts {
		out = append(out, p.Post)
	}
	return out
}

// ClaimDue claims the timers of active matches due at c.Now, in scope,
// whose claim is free, at most limit matches' worth, earliest first
// (storage.DueTimers).
func (s *Store) ClaimDue(_ context.Context, scope string, c storage.Claim, limit int) ([]storage.Timer, error) {
	if err := s.fail("ClaimDue"); err != nil {
		return nil, err
	}
	if err := c.Check(); err != nil {
		return nil, fmt.Errorf("faketest: claim due timers: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	due := func(t time.Time) bool { return !t.IsZero() && !t.After(c.Now) }
	first := func(m *match) time.Time {
		r, d := m.Timers.Remind, m.Timers.Deadline
		if r.IsZero() || (!d.IsZero() && d.Before(r)) {
			return d
		}
		return r
	}
	var ms []*match
	for _, m := range s.matches {
		if m.Status == storage.Active && (due(m.Timers.Remind) || due(m.Timers.Deadline)) && inScope(scope, m.Channel) && m.claim.free(c) {
			ms = append(ms, m)
		}
	}
	slices.SortStableFunc(ms, func(a, b *match) int { return first(a).Compare(first(b)) })
	var rows []storage.Match
	for _, m := range ms[:min(limit, len(ms))] {
		m.claim = claim{holder: c.Holder, at: c.Now, until: c.Until}
		rows = append(rows, m.row())
	}
	return storage.DueTimers(rows, c.Now), nil
}

// ReleaseDue gives up holder's claim on the timers of match id.
func (s *Store) ReleaseDue(_ context.Context, id int64, holder string) error {
	if err := s.fail("ReleaseDue"); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if m := s.byID(id); m != nil && m.claim.holder == holder {
		m.claim = claim{}
	}
	return nil
}

// Lease takes, or renews, the named lease for c.Holder: false if another
// holder's lease runs.
func (s *Store) Lease(_ context.Context, name string, c storage.Claim) (bool, error) {
	if err := s.fail("Lease"); err != nil {
		return false, err
	}
	if err := c.Check(); err != nil {
		return false, fmt.Errorf("faketest: take lease %s: %w", name, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	l, held := s.leases[name]
	if held && l.holder != c.Holder && l.until.After(c.Now) {
		return false, nil
	}
	s.leases[name] = claim{holder: c.Holder, at: c.Now, until: c.Until}
	return true, nil
}

// Unlease lets go of holder's named lease.
func (s *Store) Unlease(_ context.Context, name, holder string) error {
	if err := s.fail("Unlease"); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.leases[name].holder == holder {
		delete(s.leases, name)
	}
	return nil
}

// Leased returns the holder of the named lease, "" if none.
func (s *Store) Leased(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.leases[name].holder
}

// ForgetRequests forgets the requests applied before a time, and says how
// many.
func (s *Store) ForgetRequests(_ context.Context, before time.Time) (int64, error) {
	if err := s.fail("ForgetRequests"); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := len(s.requests)
	maps.DeleteFunc(s.requests, func(_ string, at time.Time) bool { return at.Before(before) })
	return int64(n - len(s.requests)), nil
}

// Applied reports whether a request of that key was applied (and not
// forgotten).
func (s *Store) Applied(key string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	_, ok := s.requests[key]
	return ok
}

// Setting returns a setting's value, or storage.ErrNotFound.
func (s *Store) Setting(_ context.Context, scope, id string) (json.RawMessage, error) {
	if err := s.fail("Setting"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	v, ok := s.settings[[2]string{scope, id}]
	if !ok {
		return nil, fmt.Errorf("%w (setting %s/%s)", storage.ErrNotFound, scope, id)
	}
	return bytes.Clone(v), nil
}

// SetSetting stores a setting (storage.CheckSetting); nil deletes it.
func (s *Store) SetSetting(_ context.Context, scope, id string, value json.RawMessage, _ time.Time) error {
	if err := s.fail("SetSetting"); err != nil {
		return err
	}
	if err := storage.CheckSetting(scope, id, value); err != nil {
		return fmt.Errorf("faketest: set setting: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if value == nil {
		delete(s.settings, [2]string{scope, id})
		return nil
	}
	s.settings[[2]string{scope, id}] = bytes.Clone(value)
	return nil
}

// RecordResult stores a finished match's result once (storage.CheckResult,
// storage.CheckRecorded).
func (s *Store) RecordResult(_ context.Context, r storage.Result) error {
	if err := s.fail("RecordResult"); err != nil {
		return err
	}
	if err := storage.CheckResult(r); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var stored []storage.ResultRow
	for _, row := range s.results {
		if row.Match == r.Match {
			stored = append(stored, row)
		}
	}
	if len(stored) > 0 {
		return storage.CheckRecorded(r, stored)
	}
	for _, seat := range r.Seats {
		s.results = append(s.results, storage.ResultRow{Server: r.Server, Match: r.Match, Rules: r.Rules, Seat: seat, Ended: millis(r.Ended)})
	}
	return nil
}

// serverResults are a server's results in the order the matches ended.
func (s *Store) serverResults(server string) []storage.ResultRow {
	var rows []storage.ResultRow
	for _, row := range s.results {
		if row.Server == server {
			rows = append(rows, row)
		}
	}
	slices.SortStableFunc(rows, func(a, b storage.ResultRow) int {
		return cmp.Or(a.Ended.Compare(b.Ended), cmp.Compare(a.Match, b.Match))
	})
	return rows
}

// Leaderboard returns a server's players under a rule set
// (storage.Leaderboard).
func (s *Store) Leaderboard(_ context.Context, server string, rules state.Rules, limit int) ([]storage.Standing, error) {
	if err := s.fail("Leaderboard"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return storage.Leaderboard(s.serverResults(server), rules, limit), nil
}

// PlayerStats returns a player's standings on a server
// (storage.PlayerStats).
func (s *Store) PlayerStats(_ context.Context, server, player string) ([]storage.Standing, error) {
	if err := s.fail("PlayerStats"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return storage.PlayerStats(s.serverResults(server), player), nil
}

// AddMap adds a map to its scope's library: a name taken (whatever its
// case) or the same files there already is a *storage.MapConflictError.
func (s *Store) AddMap(_ context.Context, m storage.LibraryMap, f storage.MapFiles, now time.Time) error {
	if err := s.fail("AddMap"); err != nil {
		return err
	}
	if err := storage.CheckLibraryMap(m, f); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, have := range s.library {
		if have.Scope != m.Scope {
			continue
		}
		if have.Hash == m.Hash {
			return &storage.MapConflictError{Name: have.Name, Same: true}
		}
		if storage.FoldName(have.Name) == storage.FoldName(m.Name) {
			return &storage.MapConflictError{Name: have.Name}
		}
	}
	if _, ok := s.files[m.Engine()]; !ok {
		s.files[m.Engine()] = f
	}
	m.Size, m.Added = f.Size(), millis(now)
	s.library = append(s.library, m)
	return nil
}

// libraryIndex is the index in the library of scope's map named name, or
// -1.
func (s *Store) libraryIndex(scope, name string) int {
	return slices.IndexFunc(s.library, func(m storage.LibraryMap) bool {
		return m.Scope == scope && storage.FoldName(m.Name) == storage.FoldName(name)
	})
}

// Maps lists a scope's library by name.
func (s *Store) Maps(_ context.Context, scope string) ([]storage.LibraryMap, error) {
	if err := s.fail("Maps"); err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []storage.LibraryMap
	for _, m := range s.library {
		if m.Scope == scope {
			out = append(out, m)
		}
	}
	slices.SortFunc(out, func(a, b storage.LibraryMap) int {
		return strings.Compare(storage.FoldName(a.Name), storage.FoldName(b.Name))
	})
	return out, nil
}

// LibraryMap returns scope's map named name, whatever its case, or
// storage.ErrNoMap.
func (s *Store) LibraryMap(_ context.Context, scope, name string) (storage.LibraryMap, error) {
	if err := s.fail("LibraryMap"); err != nil {
		return storage.LibraryMap{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.libraryIndex(scope, name)
	if i < 0 {
		return storage.LibraryMap{}, fmt.Errorf("%w: %q in %s", storage.ErrNoMap, name, scope)
	}
	return s.library[i], nil
}

// MapFiles returns the files of the map of that engine name, or
// storage.ErrNoMap.
func (s *Store) MapFiles(_ context.Context, name string) (storage.MapFiles, error) {
	if err := s.fail("MapFiles"); err != nil {
		return storage.MapFiles{}, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	f, ok := s.files[name]
	if !ok {
		return f, fmt.Errorf("%w: %s", storage.ErrNoMap, name)
	}
	return f, nil
}

// RenameMap renames scope's map old: storage.ErrNoMap if there is none, a
// *storage.MapConflictError if another has the name new.
func (s *Store) RenameMap(_ context.Context, scope, old, new string) error {
	if err := s.fail("RenameMap"); err != nil {
		return err
	}
	if err := storage.CheckMapName(new); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.libraryIndex(scope, old)
	if i < 0 {
		return fmt.Errorf("%w: %q in %s", storage.ErrNoMap, old, scope)
	}
	if j := s.libraryIndex(scope, new); j >= 0 && j != i {
		return &storage.MapConflictError{Name: s.library[j].Name}
	}
	s.library[i].Name = new
	return nil
}

// RemoveMap removes scope's map named name (its files stay), or
// storage.ErrNoMap.
func (s *Store) RemoveMap(_ context.Context, scope, name string) error {
	if err := s.fail("RemoveMap"); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	i := s.libraryIndex(scope, name)
	if i < 0 {
		return fmt.Errorf("%w: %q in %s", storage.ErrNoMap, name, scope)
	}
	s.library = slices.Delete(s.library, i, i+1)
	return nil
}
