package faketest

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/riskbot/riskbot/storage"
)

// The work a process claims (storage.Claim) in the store: queued posts,
// due timers, named leases; and the requests it forgets.

// ClaimPosts claims the posts queued at or before c.Now and not yet
// delivered, in scope, whose claim is free, at most limit, oldest first.
func (s *Store) ClaimPosts(_ context.Context, scope string, c storage.Claim, limit int) ([]storage.Post, error) {
	if err := s.lockClaim("ClaimPosts", c, "claim posts"); err != nil {
		return nil, err
	}
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

// lockClaim is lock for a method that takes a claim: a claim that will
// not do (storage.Claim.Check) is the error of doing what, the lock not
// taken.
func (g *gate) lockClaim(method string, c storage.Claim, what string) error {
	if err := g.lock(method); err != nil {
		return err
	}
	if err := c.Check(); err != nil {
		g.mu.Unlock()
		return fmt.Errorf("faketest: %s: %w", what, err)
	}
	return nil
}

// ReleasePosts gives up holder's claim on the posts of version of match
// id.
func (s *Store) ReleasePosts(_ context.Context, id, version int64, holder string) error {
	if err := s.lock("ReleasePosts"); err != nil {
		return err
	}
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
	if err := s.lock("Delivered"); err != nil {
		return err
	}
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
	if err := s.lockClaim("ClaimDue", c, "claim due timers"); err != nil {
		return nil, err
	}
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
	if err := s.lock("ReleaseDue"); err != nil {
		return err
	}
	defer s.mu.Unlock()
	if m := s.matches.byID(id); m != nil && m.claim.holder == holder {
		m.claim = claim{}
	}
	return nil
}

// Lease takes, or renews, the named lease for c.Holder: false if another
// holder's lease runs.
func (s *Store) Lease(_ context.Context, name string, c storage.Claim) (bool, error) {
	if err := s.lockClaim("Lease", c, "take lease "+name); err != nil {
		return false, err
	}
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
	if err := s.lock("Unlease"); err != nil {
		return err
	}
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
	if err := s.lock("ForgetRequests"); err != nil {
		return 0, err
	}
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
