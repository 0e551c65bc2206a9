package hosted

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/bot/people"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Load returns the open match of the channel, or a friendly refusal.
func (ms *Matches) Load(ctx context.Context, channel string) (*Match, error) {
	l, err := ms.store.Active(ctx, channel)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, chat.RefuseMsg("hosted.no-match")
	}
	var ce *storage.CorruptError
	if errors.As(err, &ce) {
		ms.log.Error("match cannot be loaded", "channel", channel, "match", ce.Match, "err", ce.Err)
		return nil, chat.RefuseMsg("hosted.damaged", "Match", ce.Match)
	}
	if err != nil {
		return nil, err
	}
	return ms.Decode(l)
}

// Latest returns the open match of the channel or, if there is none,
// the last one it hosted, so that the map and the result of a finished
// match stay on view.
func (ms *Matches) Latest(ctx context.Context, channel string) (*Match, error) {
	m, err := ms.Load(ctx, channel)
	var ue *chat.Refusal
	if !errors.As(err, &ue) {
		return m, err
	}
	past, herr := ms.store.History(ctx, channel)
	if herr != nil {
		return nil, herr
	}
	for _, p := range past {
		if p.Setup != nil {
			return ms.ByID(ctx, p.ID)
		}
	}
	return nil, err
}

// ByID returns a match by id.
func (ms *Matches) ByID(ctx context.Context, id int64) (*Match, error) {
	l, err := ms.store.Load(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return nil, chat.RefuseMsg("hosted.gone")
	}
	if err != nil {
		return nil, err
	}
	return ms.Decode(l)
}

// Decode reads the bot's data of a loaded match. Data that does not
// decode (written by hand, or by a bug) makes a damaged match: refused
// with a word, like one whose log no longer replays, rather than failing
// every command of the channel with an error.
func (ms *Matches) Decode(l *storage.Loaded) (*Match, error) {
	meta, err := DecodeMeta(l.Meta)
	if err != nil {
		ms.log.Error("match data cannot be read", "channel", l.Channel, "match", l.ID, "err", err)
		return nil, chat.RefuseMsg("hosted.damaged", "Match", l.ID)
	}
	return &Match{Loaded: l, Meta: meta}, nil
}

// Save writes a change with the match's data at the version it was read.
func (ms *Matches) Save(ctx context.Context, m *Match, c storage.Change) error {
	c.Meta = m.Meta.Encode()
	c.Requires, c.Reads = m.Requires, m.Reads
	if m.Rec != nil && !m.Rec.Saved && m.Rec.Req.Key != "" {
		c.Request = &m.Rec.Req
	}
	if len(c.Posts) > 0 {
		// This process delivers them (deliver): nobody else meanwhile.
		cl := ms.claim()
		c.Claim = &cl
	}
	v, err := ms.store.Save(ctx, m.ID, m.Version, c, ms.now())
	if errors.Is(err, storage.ErrDuplicate) {
		return chat.RefuseMsg("hosted.done-already")
	}
	if err != nil {
		return err
	}
	if m.Rec != nil {
		m.Rec.Saved = true
	}
	m.Version = v
	if c.Timers != nil {
		m.Timers = *c.Timers
	}
	if c.Status != 0 {
		m.Status = c.Status
	}
	return nil
}

// TurnTimers sets the clock for the turn now starting: a bot plays at once;
// a person has the match's turn hours, with a reminder when three quarters
// have passed, and their quiet hours do not count (clockFor). The initial
// placement, everyone's at once, has the plain clock.
func (ms *Matches) TurnTimers(ctx context.Context, m *Match) storage.Timers {
	now := ms.now()
	s := m.Game.State
	d := time.Duration(m.Meta.Settings.TurnHours) * time.Hour
	switch {
	case s.Phase == state.PhaseSetup && !IsCapitals(s), s.Phase == state.PhaseOrders:
		// Everyone at once: the plain clock (nobody's quiet hours).
		return storage.Timers{Remind: now.Add(d * 3 / 4), Deadline: now.Add(d)}
	case m.IsBotSeat(s.Current):
		return storage.Timers{Deadline: now}
	}
	return ms.people.Clock(ctx, s.Seats[s.Current].ID, d)
}

// OpenRow returns the open match of a channel as stored, without loading
// its game (it may not load), or a refusal.
func (ms *Matches) OpenRow(ctx context.Context, channel string) (storage.Match, error) {
	rows, err := ms.store.History(ctx, channel)
	if err != nil {
		return storage.Match{}, err
	}
	if len(rows) == 0 || !rows[0].Status.Open() {
		return storage.Match{}, chat.RefuseMsg("hosted.nothing-to-end")
	}
	return rows[0], nil
}

// Store is what Matches needs of the database.
type Store interface {
	Active(ctx context.Context, channel string) (*storage.Loaded, error)
	Load(ctx context.Context, id int64) (*storage.Loaded, error)
	History(ctx context.Context, channel string) ([]storage.Match, error)
	Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error)
}

// Matches loads the matches the bot hosts and saves their changes, with
// the turn clock each change sets.
type Matches struct {
	store  Store
	people *people.People
	now    func() time.Time
	log    *slog.Logger
	// claim is this process's claim on work, now: the posts a change
	// queues are claimed by the process that saves it, which delivers
	// them.
	claim func() storage.Claim
}

// NewMatches returns Matches over store; people give each person's turn
// clock, now is the clock and claim this process's claim on work.
func NewMatches(store Store, pp *people.People, now func() time.Time, log *slog.Logger, claim func() storage.Claim) *Matches {
	return &Matches{store: store, people: pp, now: now, log: log, claim: claim}
}

// Locks serialises the work on each channel's match within a process:
// commands of one channel run one at a time, channels in parallel.
// (Between processes, the match version does: see Matches.Save.)
type Locks struct {
	mu sync.Mutex
	m  map[string]*sync.Mutex
}

// Lock takes the lock of a channel's match and returns its release.
func (l *Locks) Lock(channel string) (unlock func()) {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*sync.Mutex{}
	}
	c, ok := l.m[channel]
	if !ok {
		c = new(sync.Mutex)
		l.m[channel] = c
	}
	l.mu.Unlock()
	c.Lock()
	return c.Unlock
}

// SaveNews saves a change with the news it queues, if any.
func (ms *Matches) SaveNews(ctx context.Context, m *Match, c storage.Change, n *news.News) error {
	if n != nil {
		body, err := json.Marshal(n)
		if err != nil {
			return fmt.Errorf("bot: encode the news of match %d: %w", m.ID, err)
		}
		c.Posts = []json.RawMessage{body}
	}
	return ms.Save(ctx, m, c)
}

// For loads the open match of the call's channel, ready to record the
// call's request with its change.
func (ms *Matches) For(ctx context.Context, c *Call) (*Match, error) {
	m, err := ms.Load(ctx, c.Req.Channel)
	if err != nil {
		return nil, err
	}
	m.Rec, m.Reads = c.Rec, c.Reads
	m.Reader = ReaderOf(c.Req.Locale)
	return m, nil
}
