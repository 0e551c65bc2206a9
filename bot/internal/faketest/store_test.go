package faketest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// store is what the twin test asks of both stores.
type store interface {
	Create(ctx context.Context, channel string, meta json.RawMessage, now time.Time) (*storage.Match, error)
	Active(ctx context.Context, channel string) (*storage.Loaded, error)
	History(ctx context.Context, channel string) ([]storage.Match, error)
	Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error)
	OpenChannels(ctx context.Context, prefix string) ([]storage.Occupant, error)
	IdleLobbies(ctx context.Context, prefix string, before time.Time) ([]storage.Match, error)
	Seated(ctx context.Context, user, prefix string, limit int) ([]storage.Match, error)
	ClaimDue(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Timer, error)
	ReleaseDue(ctx context.Context, id int64, holder string) error
	ClaimPosts(ctx context.Context, scope string, c storage.Claim, limit int) ([]storage.Post, error)
	ReleasePosts(ctx context.Context, id, version int64, holder string) error
	Delivered(ctx context.Context, id, version int64) error
	Lease(ctx context.Context, name string, c storage.Claim) (bool, error)
	Unlease(ctx context.Context, name, holder string) error
	Setting(ctx context.Context, scope, id string) (json.RawMessage, error)
	SetSetting(ctx context.Context, scope, id string, value json.RawMessage, now time.Time) error
	Export(ctx context.Context, id int64) (*storage.Export, error)
}

// TestTwin: the fake answers a script of the core's calls as the SQLite
// store does: the same values, the same errors (as errors.Is tells them),
// the same claims. A fake that drifts from the real store would let the
// core's tests pass on behaviour no store has.
func TestTwin(t *testing.T) {
	ctx := context.Background()
	db, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "twin.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var logs [2][]string
	for i, s := range []store{NewStore(), db} {
		logs[i] = script(t, s)
	}
	fake, real := logs[0], logs[1]
	for i := range max(len(fake), len(real)) {
		var f, r string
		if i < len(fake) {
			f = fake[i]
		}
		if i < len(real) {
			r = real[i]
		}
		if f != r {
			t.Errorf("step %d:\nfake: %s\nreal: %s", i, f, r)
		}
	}
}

// script runs the calls on s and writes down what each answered.
func script(t *testing.T, s store) []string {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	var log []string
	note := func(what string, v any, err error) {
		var kind string
		for _, e := range []error{storage.ErrNotFound, storage.ErrConflict, storage.ErrChannelBusy, storage.ErrDuplicate} {
			if errors.Is(err, e) {
				kind = e.Error()
			}
		}
		if err != nil && kind == "" {
			kind = "other error"
		}
		log = append(log, fmt.Sprintf("%s: %s %s", what, show(v), kind))
	}
	meta := json.RawMessage(`{"host":"test:ann"}`)
	a, err := s.Create(ctx, "test:a", meta, t0)
	note("create a", rowOf(a), err)
	_, err = s.Create(ctx, "test:a", meta, t0)
	note("create a again", nil, err)
	b, err := s.Create(ctx, "test:b", meta, t0.Add(time.Hour))
	note("create b", rowOf(b), err)
	_, err = s.Active(ctx, "test:none")
	note("active none", nil, err)

	setup := engine.Setup{Options: state.DefaultOptions(), Seed: 3, Seats: []engine.SeatInfo{{ID: "test:ann", Name: "Ann"}, {ID: "test:bob", Name: "Bob"}}}
	timers := storage.Timers{Remind: t0.Add(18 * time.Hour), Deadline: t0.Add(24 * time.Hour)}
	v, err := s.Save(ctx, a.ID, 1, storage.Change{Start: &setup, Timers: &timers, Request: &storage.Request{Key: "k1", User: "test:ann"}}, t0)
	note("start a", v, err)
	_, err = s.Save(ctx, a.ID, 1, storage.Change{Meta: meta}, t0)
	note("stale save", nil, err)
	_, err = s.Save(ctx, a.ID, 2, storage.Change{Meta: meta, Request: &storage.Request{Key: "k1"}}, t0)
	note("repeated request", nil, err)
	_, err = s.Save(ctx, b.ID, 1, storage.Change{Entries: []engine.Entry{{}}}, t0)
	note("entries without their game", nil, err)

	l, err := s.Active(ctx, "test:a")
	if err != nil {
		t.Fatal(err)
	}
	var entries []engine.Entry
	for seat := range l.Game.State.Seats {
		e, _, err := l.Game.Apply(seat, engine.AutoPlace{})
		if err != nil {
			t.Fatal(err)
		}
		entries = append(entries, e)
	}
	body := json.RawMessage(`{"note":"placed"}`)
	mine := storage.Claim{Holder: "p1", Started: t0, Now: t0.Add(time.Minute), Until: t0.Add(3 * time.Minute)}
	v, err = s.Save(ctx, a.ID, 2, storage.Change{Entries: entries, Game: l.Game, Posts: []json.RawMessage{body}, Claim: &mine}, t0.Add(time.Minute))
	note("placements", v, err)
	l, err = s.Active(ctx, "test:a")
	note("active a", []any{rowOf(&l.Match), l.Game.Version, l.Game.State.Phase}, err)
	x, err := s.Export(ctx, a.ID)
	note("export a", []any{x.Status, len(x.Record.Log), x.Record.Setup.Seed}, err)

	// Posts: the holder's own until its lease ends, or its restart.
	other := storage.Claim{Holder: "p2", Started: t0, Now: t0.Add(2 * time.Minute), Until: t0.Add(4 * time.Minute)}
	ps, err := s.ClaimPosts(ctx, "", other, 10)
	note("p2 claims posts in p1's lease", postsOf(ps), err)
	ps, err = s.ClaimPosts(ctx, "", storage.Claim{Holder: "p1", Started: t0, Now: t0.Add(2 * time.Minute), Until: t0.Add(4 * time.Minute)}, 10)
	note("p1 claims its posts in its lease", postsOf(ps), err)
	restarted := storage.Claim{Holder: "p1", Started: t0.Add(2 * time.Minute), Now: t0.Add(2 * time.Minute), Until: t0.Add(4 * time.Minute)}
	ps, err = s.ClaimPosts(ctx, "test:", restarted, 10)
	note("p1 restarted claims its posts", postsOf(ps), err)
	note("release", nil, s.ReleasePosts(ctx, a.ID, 3, "p1"))
	ps, err = s.ClaimPosts(ctx, "test:a", other, 10)
	note("p2 claims them released", postsOf(ps), err)
	ps, err = s.ClaimPosts(ctx, "other:", storage.Claim{Holder: "p3", Started: t0, Now: t0.Add(time.Hour), Until: t0.Add(2 * time.Hour)}, 10)
	note("another scope's", postsOf(ps), err)
	note("delivered", nil, s.Delivered(ctx, a.ID, 3))
	ps, err = s.ClaimPosts(ctx, "", storage.Claim{Holder: "p3", Started: t0, Now: t0.Add(time.Hour), Until: t0.Add(2 * time.Hour)}, 10)
	note("after delivery", postsOf(ps), err)

	// Timers: claimed once, released by a failure or a change.
	due := storage.Claim{Holder: "p1", Started: t0, Now: t0.Add(20 * time.Hour), Until: t0.Add(21 * time.Hour)}
	ts, err := s.ClaimDue(ctx, "", due, 10)
	note("due at 20 h", ts, err)
	ts, err = s.ClaimDue(ctx, "test:a", storage.Claim{Holder: "p2", Started: t0, Now: due.Now, Until: due.Until}, 10)
	note("p2, in p1's claim", ts, err)
	note("release due", nil, s.ReleaseDue(ctx, a.ID, "p1"))
	ts, err = s.ClaimDue(ctx, "test:", storage.Claim{Holder: "p2", Started: t0, Now: t0.Add(25 * time.Hour), Until: t0.Add(26 * time.Hour)}, 10)
	note("p2 at 25 h", ts, err)
	v, err = s.Save(ctx, a.ID, 3, storage.Change{Meta: meta}, t0.Add(25*time.Hour))
	note("a change", v, err)
	ts, err = s.ClaimDue(ctx, "", storage.Claim{Holder: "p3", Started: t0, Now: t0.Add(25 * time.Hour), Until: t0.Add(26 * time.Hour)}, 10)
	note("p3 after the change", ts, err)

	// Lists.
	oc, err := s.OpenChannels(ctx, "test:")
	note("open channels", oc, err)
	idle, err := s.IdleLobbies(ctx, "test:", t0.Add(2*time.Hour))
	note("idle lobbies", rowsOf(idle), err)
	seated, err := s.Seated(ctx, "test:bob", "test:", 0)
	note("Bob's matches", rowsOf(seated), err)
	v, err = s.Save(ctx, a.ID, 4, storage.Change{Status: storage.Abandoned}, t0.Add(26*time.Hour))
	note("abandon a", v, err)
	seated, err = s.Seated(ctx, "test:bob", "test:", 0)
	note("Bob's matches after", rowsOf(seated), err)
	h, err := s.History(ctx, "test:a")
	note("history a", rowsOf(h), err)
	_, err = s.Save(ctx, a.ID, 5, storage.Change{Timers: &timers}, t0)
	note("timers of a closed match", nil, err)

	// Leases and settings.
	for _, c := range []struct {
		name string
		c    storage.Claim
	}{
		{"p1 takes", storage.Claim{Holder: "p1", Now: t0, Until: t0.Add(time.Minute)}},
		{"p2 in p1's", storage.Claim{Holder: "p2", Now: t0.Add(time.Second), Until: t0.Add(time.Minute)}},
		{"p1 renews", storage.Claim{Holder: "p1", Now: t0.Add(time.Second), Until: t0.Add(2 * time.Minute)}},
		{"p2 after", storage.Claim{Holder: "p2", Now: t0.Add(2 * time.Minute), Until: t0.Add(3 * time.Minute)}},
	} {
		ok, err := s.Lease(ctx, "bots:x", c.c)
		note("lease: "+c.name, ok, err)
	}
	note("unlease p1's", nil, s.Unlease(ctx, "bots:x", "p1"))
	ok, err := s.Lease(ctx, "bots:x", storage.Claim{Holder: "p1", Now: t0.Add(2 * time.Minute), Until: t0.Add(3 * time.Minute)})
	note("p1 in p2's", ok, err)
	_, err = s.Setting(ctx, "player", "ann")
	note("no setting", nil, err)
	note("set", nil, s.SetSetting(ctx, "player", "ann", json.RawMessage(`{"dm":true}`), t0))
	raw, err := s.Setting(ctx, "player", "ann")
	note("setting", string(raw), err)
	note("delete", nil, s.SetSetting(ctx, "player", "ann", nil, t0))
	_, err = s.Setting(ctx, "player", "ann")
	note("deleted", nil, err)
	note("not JSON", nil, s.SetSetting(ctx, "player", "ann", json.RawMessage(`{`), t0))
	return log
}

// row is what the twin compares of a match's row.
type row struct {
	ID, Version      int64
	Channel          string
	Status           storage.Status
	Commands         int
	Timers           storage.Timers
	Created, Updated time.Time
	Closed           bool
}

func rowOf(m *storage.Match) row {
	if m == nil {
		return row{}
	}
	return row{m.ID, m.Version, m.Channel, m.Status, m.Commands, m.Timers, m.Created, m.Updated, !m.Closed.IsZero()}
}

func rowsOf(ms []storage.Match) []row {
	var out []row
	for _, m := range ms {
		out = append(out, rowOf(&m))
	}
	return out
}

// postsOf are posts without their ids, which each store numbers its way.
func postsOf(ps []storage.Post) []string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%d/%d %s %s %v", p.Match, p.Version, p.Channel, p.Body, p.Queued))
	}
	return out
}

// show writes a value down, nil as "-".
func show(v any) string {
	if v == nil || (reflect.ValueOf(v).Kind() == reflect.Slice && reflect.ValueOf(v).Len() == 0) {
		return "-"
	}
	return fmt.Sprintf("%+v", v)
}

// TestFail: a method told to fail answers the error, changes nothing and
// leaves the store's lock free; the others run, sharing the lock as before.
func TestFail(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	boom := errors.New("boom")
	calls := []struct {
		method string
		call   func(s *Store) error
	}{
		{"Create", func(s *Store) error { _, err := s.Create(ctx, "test:b", json.RawMessage(`{}`), t0); return err }},
		{"Active", func(s *Store) error { _, err := s.Active(ctx, "test:a"); return err }},
		{"Load", func(s *Store) error { _, err := s.Load(ctx, 1); return err }},
		{"History", func(s *Store) error { _, err := s.History(ctx, "test:a"); return err }},
		{"OpenMatches", func(s *Store) error { _, err := s.OpenMatches(ctx, "test:"); return err }},
		{"Seated", func(s *Store) error { _, err := s.Seated(ctx, "test:ann", "test:", 0); return err }},
		{"Save", func(s *Store) error {
			_, err := s.Save(ctx, 1, 1, storage.Change{Meta: json.RawMessage(`{"x":1}`)}, t0)
			return err
		}},
		{"Export", func(s *Store) error { _, err := s.Export(ctx, 1); return err }},
	}
	for _, tc := range calls {
		t.Run(tc.method, func(t *testing.T) {
			s := NewStore()
			if _, err := s.Create(ctx, "test:a", json.RawMessage(`{}`), t0); err != nil {
				t.Fatal(err)
			}
			s.Fail(func(method string) error {
				if method == tc.method {
					return boom
				}
				return nil
			})
			if err := tc.call(s); !errors.Is(err, boom) {
				t.Fatalf("%s while told to fail: got %v, want %v", tc.method, err, boom)
			}
			free := make(chan struct{})
			go func() { s.Leased("any"); close(free) }()
			select {
			case <-free:
			case <-time.After(5 * time.Second):
				t.Fatalf("the failed %s kept the store's lock", tc.method)
			}
			s.Fail(nil)
			open, err := s.OpenMatches(ctx, "test:")
			if err != nil {
				t.Fatal(err)
			}
			if len(open) != 1 || open[0].Version != 1 {
				t.Errorf("after the failed %s: got %+v, want the one match at version 1", tc.method, open)
			}
			if err := tc.call(s); err != nil {
				t.Errorf("%s once no longer told to fail: %v", tc.method, err)
			}
		})
	}
}

// TestBadClaim: a claim that will not do is refused, saying what was
// being done, and the store's lock is left free.
func TestBadClaim(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	bad := storage.Claim{Holder: "p1", Now: t0, Until: t0}
	for _, tc := range []struct {
		name string
		call func(s *Store) error
		want string
	}{
		{"ClaimPosts", func(s *Store) error { _, err := s.ClaimPosts(ctx, "", bad, 10); return err }, "faketest: claim posts: a claim whose lease is over"},
		{"ClaimDue", func(s *Store) error { _, err := s.ClaimDue(ctx, "", bad, 10); return err }, "faketest: claim due timers: a claim whose lease is over"},
		{"Lease", func(s *Store) error { _, err := s.Lease(ctx, "clock", bad); return err }, "faketest: take lease clock: a claim whose lease is over"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewStore()
			if err := tc.call(s); err == nil || err.Error() != tc.want {
				t.Errorf("got %v, want %q", err, tc.want)
			}
			free := make(chan struct{})
			go func() { s.Leased("clock"); close(free) }()
			select {
			case <-free:
			case <-time.After(5 * time.Second):
				t.Fatalf("the refused %s kept the store's lock", tc.name)
			}
		})
	}
}
