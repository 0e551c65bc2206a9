package storetest

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// seatedSetup is a classic setup whose seats are the given user IDs.
func seatedSetup(seed uint64, users ...string) engine.Setup {
	s := engine.Setup{Options: state.DefaultOptions(), Seed: seed}
	for _, u := range users {
		s.Seats = append(s.Seats, engine.SeatInfo{ID: u, Name: "Player " + u})
	}
	return s
}

// testSeats: Seated lists the matches under way a person sits in, from
// their start (or import) to their close, in the scope asked, soonest
// deadline first, at most the limit; never a lobby, never another's.
func testSeats(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	a := StartSetup(t, db, "test:a", seatedSetup(1, "ann", "bob"))
	b := StartSetup(t, db, "test:b", seatedSetup(2, "ann", "cat", "bot:1"))
	other := StartSetup(t, db, "other:c", seatedSetup(3, "ann", "dan"))
	// A lobby's seats are the host's data: it is not listed.
	mustCreate(t, db, "test:lobby", []byte(`{"host":"ann","seats":[{"id":"ann"}]}`))
	// b's deadline comes first, a has none: b is listed first.
	if _, err := db.Save(ctx, b.ID, b.Version, storage.Change{Timers: &storage.Timers{Deadline: T0.Add(time.Hour)}}, T0); err != nil {
		t.Fatal(err)
	}
	ids := func(user, prefix string, limit int) []int64 {
		t.Helper()
		ms, err := db.Seated(ctx, user, prefix, limit)
		if err != nil {
			t.Fatalf("seated %s %q: %v", user, prefix, err)
		}
		out := []int64{}
		for _, m := range ms {
			if m.Status != storage.Active || m.Channel == "" {
				t.Errorf("seated %s: match %d is %s in %q", user, m.ID, m.Status, m.Channel)
			}
			out = append(out, m.ID)
		}
		return out
	}
	check := func(when, user, prefix string, limit int, want ...int64) {
		t.Helper()
		if want == nil {
			want = []int64{}
		}
		if got := ids(user, prefix, limit); !slices.Equal(got, want) {
			t.Errorf("%s: seated %s in %q (limit %d): got matches %v, want %v", when, user, prefix, limit, got, want)
		}
	}
	check("started", "ann", "test:", 0, b.ID, a.ID)
	check("started", "ann", "", 0, b.ID, other.ID, a.ID)
	check("started", "ann", "test:", 1, b.ID)
	check("started", "bob", "test:", 0, a.ID)
	check("started", "bot:1", "", 0, b.ID)
	check("started", "nobody", "", 0)
	check("started", "an", "", 0) // no prefix matching of users

	// The deadline is read at the time of asking.
	d, err := db.Head(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, a.ID, d.Version, storage.Change{Timers: &storage.Timers{Deadline: T0.Add(time.Minute)}}, T0); err != nil {
		t.Fatal(err)
	}
	check("a's deadline sooner", "ann", "test:", 0, a.ID, b.ID)
	ms, err := db.Seated(ctx, "ann", "test:", 0)
	if err != nil || len(ms) == 0 || !ms[0].Timers.Deadline.Equal(T0.Add(time.Minute)) || ms[0].Channel != "test:a" {
		t.Errorf("seated ann: %+v, %v; want test:a with its deadline first", ms, err)
	}

	// Closing a match empties its seats.
	d, err = db.Head(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, a.ID, d.Version, storage.Change{Status: storage.Abandoned}, T0); err != nil {
		t.Fatal(err)
	}
	check("a abandoned", "bob", "", 0)
	check("a abandoned", "ann", "test:", 0, b.ID)
	if _, err := db.Save(ctx, other.ID, other.Version, storage.Change{Status: storage.Finished}, T0); err != nil {
		t.Fatal(err)
	}
	check("other finished", "ann", "", 0, b.ID)

	// An import under way seats its players; an import of a finished
	// match, nobody.
	x := mustExport(t, db, b.ID)
	x.Channel = "test:imported"
	m, err := db.Import(ctx, x, T0)
	if err != nil {
		t.Fatal(err)
	}
	check("imported", "cat", "test:", 0, b.ID, m.ID)
	y := mustExport(t, db, other.ID)
	y.Channel = "test:imported-finished"
	if _, err := db.Import(ctx, y, T0); err != nil {
		t.Fatal(err)
	}
	check("imported finished", "dan", "", 0)

	// Many matches of others do not show, and one's own all do.
	var want []int64
	for i := range 12 {
		l := StartSetup(t, db, fmt.Sprintf("test:many%d", i), seatedSetup(uint64(10+i), "eve", fmt.Sprintf("x%d", i)))
		want = append([]int64{l.ID}, want...)
	}
	check("many", "eve", "test:", 0, want...)
	check("many", "x3", "test:", 0, want[len(want)-4])
}
