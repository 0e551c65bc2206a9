package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/storage"
)

// lease is how long the claims of the claim tests last.
const lease = time.Minute

// claim is process holder's claim at now; it started at started.
func claim(holder string, started, now time.Time) storage.Claim {
	return storage.Claim{Holder: holder, Started: started, Now: now, Until: now.Add(lease)}
}

// testClaimDue: a due timer is handed to one process at a time, until the
// match changes, the claim is released or its lease ends; a process
// restarted under the same name takes back what it held before it started.
func testClaimDue(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 10)
	p1, p2 := Open(t, b), Open(t, b) // two processes
	at := func(min int) time.Time { return T0.Add(time.Duration(min) * time.Minute) }
	set := func(ch string, tm storage.Timers) *storage.Loaded {
		t.Helper()
		l := Start(t, p1, ch, 2, 1)
		if _, err := p1.Save(ctx, l.ID, l.Version, storage.Change{Timers: &tm}, T0); err != nil {
			t.Fatal(err)
		}
		l, err := p1.Load(ctx, l.ID)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	a := set("discord:1", storage.Timers{Remind: at(10), Deadline: at(60)})
	bb := set("discord:2", storage.Timers{Deadline: at(30)})
	c := set("discord:12", storage.Timers{Remind: at(10), Deadline: at(20)})
	con := set("console:main", storage.Timers{Deadline: at(1)})
	names := map[int64]string{a.ID: "a", bb.ID: "b", c.ID: "c", con.ID: "con"}
	claimed := func(db Store, scope string, cl storage.Claim, limit int, want string) {
		t.Helper()
		got, err := db.ClaimDue(ctx, scope, cl, limit)
		if err != nil {
			t.Fatal(err)
		}
		var s string
		for _, d := range got {
			s += fmt.Sprintf("%s:%s@%d ", names[d.Match], d.Kind, int(d.At.Sub(T0)/time.Minute))
			if d.Version == 0 || d.Channel == "" {
				t.Errorf("timer %+v", d)
			}
		}
		if s != want {
			t.Fatalf("%s claims in %q at %v (limit %d): got %q, want %q", cl.Holder, scope, cl.Now.Sub(T0), limit, s, want)
		}
	}
	start := T0 // both processes started then
	later := at(30).Add(10 * time.Second)
	sec := func(s int) time.Time { return later.Add(time.Duration(s) * time.Second) }
	claimed(p1, "discord:", claim("p1", start, at(5)), 10, "")
	claimed(p1, "discord:", claim("p1", start, at(30)), 2, "a:remind@10 c:remind@10 c:deadline@20 ")
	claimed(p2, "discord:", claim("p2", start, at(30)), 10, "b:deadline@30 ")
	claimed(p2, "discord:", claim("p2", start, later), 10, "")
	claimed(p1, "discord:", claim("p1", start, later), 10, "") // its own, in hand
	// Scopes: one channel, exactly; every channel.
	claimed(p2, "discord:1", claim("p2", start, later), 10, "")
	claimed(p2, "", claim("p2", start, later), 10, "con:deadline@1 ")
	// Released: free for anyone.
	if err := p2.ReleaseDue(ctx, c.ID, "p2"); err != nil { // not its claim: nothing
		t.Fatal(err)
	}
	claimed(p2, "discord:", claim("p2", start, later), 10, "")
	if err := p1.ReleaseDue(ctx, c.ID, "p1"); err != nil {
		t.Fatal(err)
	}
	claimed(p2, "discord:12", claim("p2", start, sec(0)), 10, "c:remind@10 c:deadline@20 ")
	// A change releases the claim: the timer is due again, at the new version.
	v, err := p1.Save(ctx, a.ID, a.Version, storage.Change{Meta: json.RawMessage(`{}`)}, sec(1))
	if err != nil {
		t.Fatal(err)
	}
	got, err := p2.ClaimDue(ctx, "discord:1", claim("p2", start, sec(2)), 10)
	if err != nil || len(got) != 1 || got[0].Version != v {
		t.Fatalf("after a change: %+v, %v; want a's reminder at version %d", got, err, v)
	}
	// A lease that ran out: another process takes over.
	claimed(p1, "discord:", claim("p1", start, at(30).Add(lease-time.Second)), 10, "")
	claimed(p1, "discord:", claim("p1", start, at(30).Add(lease)), 10, "b:deadline@30 ")
	// A process restarted under its name takes back what it held before
	// it started (c, claimed at sec(0)), but not what it took since (a, at
	// sec(2)).
	claimed(p2, "discord:", claim("p2", sec(1), sec(3)), 10, "c:remind@10 c:deadline@20 ")
	claimed(p2, "discord:", claim("p2", sec(4), sec(4)), 10, "a:remind@10 c:remind@10 c:deadline@20 ")
}

// testClaimPosts: posts queued by a change with a claim are its holder's
// until the lease ends; released, delivered, or taken back after a
// restart, as timers are.
func testClaimPosts(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 10)
	p1, p2 := Open(t, b), Open(t, b)
	at := func(s int) time.Time { return T0.Add(time.Duration(s) * time.Second) }
	post := json.RawMessage(`{"text":"news"}`)
	boot := T0.Add(-time.Second) // p1 started before it queued anything
	queue := func(db Store, ch string, cl *storage.Claim) (int64, int64) {
		t.Helper()
		l := Start(t, db, ch, 2, 1)
		v, err := db.Save(ctx, l.ID, l.Version, storage.Change{Posts: []json.RawMessage{post}, Claim: cl}, at(0))
		if err != nil {
			t.Fatal(err)
		}
		return l.ID, v
	}
	cl := claim("p1", boot, at(0))
	held, heldV := queue(p1, "discord:1", &cl)
	loose, looseV := queue(p1, "discord:2", nil)
	ids := func(db Store, cl storage.Claim) []int64 {
		t.Helper()
		ps, err := db.ClaimPosts(ctx, "discord:", cl, 10)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, p := range ps {
			out = append(out, p.Match)
			if string(p.Body) != string(post) || p.Channel == "" || !p.Queued.Equal(at(0)) {
				t.Errorf("post %+v", p)
			}
		}
		return out
	}
	want := func(got []int64, w ...int64) {
		t.Helper()
		if fmt.Sprint(got) != fmt.Sprint(w) {
			t.Fatalf("claimed posts of %v, want %v", got, w)
		}
	}
	want(ids(p2, claim("p2", T0, at(1))), loose)
	want(ids(p2, claim("p2", T0, at(2))))
	want(ids(p1, claim("p1", boot, at(2)))) // its own, being delivered
	if err := p2.ReleasePosts(ctx, loose, looseV, "p2"); err != nil {
		t.Fatal(err)
	}
	want(ids(p1, claim("p1", boot, at(3))), loose)
	if err := p1.Delivered(ctx, loose, looseV); err != nil {
		t.Fatal(err)
	}
	// p1 restarted: it takes its own post back at once; p2 waits for the
	// lease.
	want(ids(p2, claim("p2", T0, at(4))))
	want(ids(p1, claim("p1", at(5), at(5))), held)
	if err := p1.ReleasePosts(ctx, held, heldV, "p1"); err != nil {
		t.Fatal(err)
	}
	// Claimed and left: the lease runs out, and p2 takes it.
	want(ids(p1, claim("p1", at(5), at(6))), held)
	want(ids(p2, claim("p2", T0, at(6).Add(lease-time.Millisecond))))
	want(ids(p2, claim("p2", T0, at(6).Add(lease))), held)
	if _, err := p1.ClaimPosts(ctx, "", storage.Claim{Holder: "", Now: at(1), Until: at(2)}, 1); err == nil {
		t.Error("a claim without a holder was taken")
	}
}

// testClaimRace has processes claim the same due timers and posts at once:
// each is handed out exactly once.
func testClaimRace(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 0)
	first := Open(t, b)
	procs := []Store{first, Open(t, b), Open(t, b), Open(t, b)}
	const n = 24
	for i := range n {
		l := Start(t, first, fmt.Sprintf("race:%d", i), 2, uint64(i))
		tm := storage.Timers{Deadline: T0}
		if _, err := first.Save(ctx, l.ID, l.Version, storage.Change{Timers: &tm, Posts: []json.RawMessage{json.RawMessage(`{}`)}}, T0); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	timers, posts := map[int64]string{}, map[int64]string{}
	var wg sync.WaitGroup
	for i, db := range procs {
		for range 2 { // two goroutines per process, sharing its name
			wg.Go(func() {
				me := fmt.Sprintf("p%d", i)
				for range n {
					ts, err := db.ClaimDue(ctx, "race:", claim(me, T0, T0.Add(time.Second)), 2)
					if err != nil {
						t.Error(err)
						return
					}
					ps, err := db.ClaimPosts(ctx, "race:", claim(me, T0, T0.Add(time.Second)), 2)
					if err != nil {
						t.Error(err)
						return
					}
					mu.Lock()
					for _, d := range ts {
						if w, ok := timers[d.Match]; ok && w != me {
							t.Errorf("the timer of match %d went to %s and %s", d.Match, w, me)
						}
						timers[d.Match] = me
					}
					for _, p := range ps {
						if w, ok := posts[p.ID]; ok && w != me {
							t.Errorf("post %d went to %s and %s", p.ID, w, me)
						}
						posts[p.ID] = me
					}
					mu.Unlock()
				}
			})
		}
	}
	wg.Wait()
	if len(timers) != n || len(posts) != n {
		t.Fatalf("%d timers and %d posts claimed, want %d each", len(timers), len(posts), n)
	}
}

// testLease: a named lease has one holder at a time, who may renew it;
// another takes it when it runs out or is let go.
func testLease(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 10)
	p1, p2 := Open(t, b), Open(t, b)
	at := func(s int) time.Time { return T0.Add(time.Duration(s) * time.Second) }
	take := func(db Store, holder string, now time.Time, want bool) {
		t.Helper()
		ok, err := db.Lease(ctx, "bots:discord:1", claim(holder, T0, now))
		if err != nil || ok != want {
			t.Fatalf("%s takes the lease at %v: %v, %v; want %v", holder, now.Sub(T0), ok, err, want)
		}
	}
	take(p1, "p1", at(0), true)
	take(p2, "p2", at(1), false)
	take(p1, "p1", at(50), true) // renewed until 50 s + a minute
	take(p2, "p2", at(0).Add(lease), false)
	take(p2, "p2", at(50).Add(lease), true)
	take(p1, "p1", at(51).Add(lease), false)
	if err := p1.Unlease(ctx, "bots:discord:1", "p1"); err != nil { // not its own
		t.Fatal(err)
	}
	take(p1, "p1", at(52).Add(lease), false)
	if err := p2.Unlease(ctx, "bots:discord:1", "p2"); err != nil {
		t.Fatal(err)
	}
	take(p1, "p1", at(53).Add(lease), true)
	if ok, err := p1.Lease(ctx, "other", claim("p1", T0, at(0))); err != nil || !ok {
		t.Fatalf("another lease: %v, %v", ok, err)
	}
}
