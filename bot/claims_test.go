package bot

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/storage"
	"github.com/riskbot/riskbot/storage/sqlite"
)

// Several processes sharing one database, played here by several bots on
// one SQLite file, each under its own name (Config.Instance), sharing the
// harness's chat and clock. The same code runs on PostgreSQL in the
// multi-process tests (fleet_test.go).

// peer opens another bot on the harness's database, as another process
// named instance would. The harness's own bot is "p1".
func (h *harness) peer(instance string) *Bot {
	h.t.Helper()
	db, err := sqlite.Open(context.Background(), filepath.Join(h.dir, "risk.db"))
	if err != nil {
		h.t.Fatal(err)
	}
	b, err := New(Standard(Config{Store: db, Render: sharedRenderer(), Poster: h, Now: h.clock, Instance: instance, Scope: h.scope,
		Seed: func() uint64 { h.mu.Lock(); defer h.mu.Unlock(); h.seed++; return h.seed }}))
	if err != nil {
		h.t.Fatal(err)
	}
	h.t.Cleanup(func() { b.Close(); db.Close() })
	return b
}

// newFleet is a harness whose bot is process "p1".
func newFleet(t *testing.T) *harness {
	h := unopened(t)
	h.configure = func(c *Config) { c.Instance = "p1" }
	h.open()
	return h
}

// racer is a store through which another process changes a match just
// before this one saves it, once: the save then finds the match moved on.
type racer struct {
	Store
	once sync.Once
	hit  bool
}

func (r *racer) Save(ctx context.Context, id, version int64, c storage.Change, now time.Time) (int64, error) {
	r.once.Do(func() {
		// A change of nothing but the (empty) turn clock of a lobby.
		if _, err := r.Store.Save(ctx, id, version, storage.Change{Timers: &storage.Timers{}}, now); err == nil {
			r.hit = true
		}
	})
	return r.Store.Save(ctx, id, version, c, now)
}

// A command whose save finds that another process changed the match since
// it was loaded runs again on the match as it now is, as it would have
// had it waited for the channel's lock in one process: Bob joins, rather
// than being told the match moved on.
func TestCommandRunsAgainAfterAnotherProcessMovedTheMatch(t *testing.T) {
	h := newHarness(t)
	var r *racer
	h.configure = func(c *Config) { r = &racer{Store: c.Store}; c.Store = r }
	h.restart()
	const ch = "test:race"
	wantOpened(t, h, ch, h.do(ch, "Ann", "new"), "opened a Risk match")
	wantPrivate(t, h.do(ch, "Bob", "join"), "You joined")
	if !r.hit {
		t.Fatal("the other process's change did not happen")
	}
	if m := h.load(ch); len(m.Meta.Seats) != 2 || m.Version != 3 {
		t.Fatalf("after the race: seats %+v, version %d; want Ann and Bob, version 3 (the other change, then the join)", m.Meta.Seats, m.Version)
	}
}

// A click runs through the same routine as a command, with the same
// policy: one whose save finds the match moved on by another process runs
// again on the match as it now is. Bob's Join button seats him, keyed or
// not, rather than telling him the match moved on.
func TestClickRunsAgainAfterAnotherProcessMovedTheMatch(t *testing.T) {
	for _, key := range []string{"", "click-1"} {
		t.Run("key="+key, func(t *testing.T) {
			h := newHarness(t)
			var r *racer
			h.configure = func(c *Config) { r = &racer{Store: c.Store}; c.Store = r }
			h.restart()
			const ch = "test:race"
			wantOpened(t, h, ch, h.do(ch, "Ann", "new"), "opened a Risk match")
			join := button.ID(h.load(ch).ID, 0, button.Join)
			wantPrivate(t, h.clickAs(chat.Click{Channel: ch, User: user("Bob"), ID: join, Key: key}), "You joined")
			if !r.hit {
				t.Fatal("the other process's change did not happen")
			}
			if m := h.load(ch); len(m.Meta.Seats) != 2 || m.Version != 3 {
				t.Fatalf("after the race: seats %+v, version %d; want Ann and Bob, version 3 (the other change, then the join)", m.Meta.Seats, m.Version)
			}
		})
	}
}

// A due deadline is handled by one process: two processes ticking at once
// say once that the player ran out of time, and neither reports an error.
func TestTimerHandledOnceAcrossProcesses(t *testing.T) {
	h := newFleet(t)
	p2 := h.peer("p2")
	const ch = "test:timer"
	startedAndPlaced(t, h, ch)
	h.advance(25 * time.Hour)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, b := range []*Bot{h.bot, p2} {
		wg.Go(func() { errs[i] = b.Tick(context.Background()) })
	}
	wg.Wait()
	p2.Wait()
	if errs[0] != nil || errs[1] != nil {
		t.Fatalf("ticks: %v; %v", errs[0], errs[1])
	}
	late := 0
	for _, p := range h.takePosts() {
		if strings.Contains(all(p.msg), "ran out of time") {
			late++
		}
	}
	if late != 1 {
		t.Fatalf("%d posts say the player ran out of time, want 1", late)
	}
}

// The news a process queued and could not post (it died, or the chat was
// down) is its own until its claim's lease ends: another process then
// posts it, once, with the keys it was queued with.
func TestNewsOfADeadProcessIsPostedOnceByAnother(t *testing.T) {
	h := newFleet(t)
	p2 := h.peer("p2")
	const ch = "test:dead"
	startedAndPlaced(t, h, ch)
	h.advance(time.Minute)
	h.setDown(errDown)
	endTurn(t, h, ch)
	if n := len(h.queued()); n != 1 {
		t.Fatalf("%d queued, want 1", n)
	}
	h.setDown(nil)
	for _, b := range []*Bot{p2, h.bot} {
		if err := b.outbox.Redeliver(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	if p := h.takePosts(); len(p) != 0 {
		t.Fatalf("posted %d messages while p1's claim runs", len(p))
	}
	h.advance(DefaultLease)
	for range 2 {
		for _, b := range []*Bot{p2, h.bot} {
			if err := b.outbox.Redeliver(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
	}
	posts := h.takePosts()
	if len(posts) == 0 || !strings.Contains(all(posts[0].msg), "Posted late") || len(h.queued()) != 0 {
		t.Fatalf("after the lease: %d posts (%+v), %d queued", len(posts), posts, len(h.queued()))
	}
	keys := map[string]bool{}
	for _, p := range posts {
		if p.msg.Key == "" || keys[p.msg.Key] {
			t.Errorf("post %q has key %q (seen: %v)", all(p.msg), p.msg.Key, keys[p.msg.Key])
		}
		keys[p.msg.Key] = true
	}
}

// A channel's computer turns are played by the process holding their
// lease. While a process that died holds it, the others leave them; they
// take over once its lease has ended, without a restart.
func TestComputerTurnsOfADeadProcessAreTakenOver(t *testing.T) {
	h := newFleet(t)
	const ch = "test:bots"
	h.do(ch, "Ann", "new")
	h.do(ch, "Ann", "addbot", "level:easy")
	// The process that died held the lease on the channel's computers.
	cl := storage.Claim{Holder: "dead", Started: h.clock(), Now: h.clock(), Until: h.clock().Add(DefaultLease)}
	if ok, err := h.db.Lease(context.Background(), "bots:"+ch, cl); err != nil || !ok {
		t.Fatalf("lease: %v, %v", ok, err)
	}
	wantPublic(t, h.do(ch, "Ann", "start"), "The match has started")
	reserve := func() int {
		s := h.load(ch).Game.State
		return s.Seats[s.SeatByID(h.load(ch).Meta.Seats[1].ID)].Reserve
	}
	h.bot.Wait()
	if r := reserve(); r == 0 {
		t.Fatal("the computer placed while another process held its lease")
	}
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.bot.Wait()
	if r := reserve(); r == 0 {
		t.Fatal("the computer placed while another process held its lease")
	}
	h.advance(DefaultLease)
	if err := h.bot.Tick(context.Background()); err != nil {
		t.Fatal(err)
	}
	h.bot.Wait()
	if r := reserve(); r != 0 {
		t.Fatalf("the computer has %d armies left to place after the dead process's lease ended", r)
	}
}
