package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// T0 is the suite's clock: times are whole seconds, which every store keeps.
var T0 = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// Run runs the contract suite against the databases newDB makes.
func Run(t *testing.T, newDB New) {
	tests := []struct {
		name string
		f    func(*testing.T, New)
	}{
		{"Create", testCreate},
		{"ChannelBusy", testChannelBusy},
		{"NotFound", testNotFound},
		{"Head", testHead},
		{"Cache", testCache},
		{"StartAndAppend", testStartAndAppend},
		{"Conflict", testConflict},
		{"BadChanges", testBadChanges},
		{"Close", testClose},
		{"SnapshotsEqualReplay", testSnapshotsEqualReplay},
		{"Reopen", testReopen},
		{"Due", testDue},
		{"Outbox", testOutbox},
		{"Scope", testScope},
		{"OpenChannels", testOpenChannels},
		{"ClosedChannels", testClosedChannels},
		{"Requests", testRequests},
		{"Requires", testRequires},
		{"Reads", testReads},
		{"Settings", testSettings},
		{"IdleLobbies", testIdleLobbies},
		{"Finished", testFinished},
		{"History", testHistory},
		{"ExportImport", testExportImport},
		{"ExportLobby", testExportLobby},
		{"ExportLog", testExportLog},
		{"PublicExport", testPublicExport},
		{"Results", testResults},
		{"Origin", testOrigin},
		{"ImportRefuses", testImportRefuses},
		{"ImportCopies", testImportCopies},
		{"RaceLockstep", testRaceLockstep},
		{"RaceFree", testRaceFree},
		{"CorruptMatch", testCorruptMatch},
		{"Canceled", testCanceled},
		{"ClaimDue", testClaimDue},
		{"ClaimPosts", testClaimPosts},
		{"ClaimRace", testClaimRace},
		{"Lease", testLease},
		{"Seats", testSeats},
		{"Library", testLibrary},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { tt.f(t, newDB) })
	}
}

// Open opens a handle on b and closes it when the test ends.
func Open(t testing.TB, b Backend) Store {
	t.Helper()
	db, err := b.Open(context.Background())
	if err != nil {
		t.Fatalf("open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(); err != nil {
			t.Errorf("close: %v", err)
		}
	})
	return db
}

// Start creates a match in channel and starts it with a classic setup for
// players seats drawn from seed. It returns the loaded match.
func Start(t testing.TB, db Store, channel string, players int, seed uint64) *storage.Loaded {
	t.Helper()
	return StartSetup(t, db, channel, NewSetup(players, seed))
}

// started opens a store of newDB (a snapshot every 10 commands) and
// starts a match in channel (Start), and returns them with the random
// source, seeded alike, that plays it on (Play, Move).
func started(t *testing.T, newDB New, channel string, players int, seed uint64) (Store, *storage.Loaded, *rand.Rand) {
	t.Helper()
	db := Open(t, newDB(t, 10))
	return db, Start(t, db, channel, players, seed), rand.New(rand.NewPCG(seed, 0))
}

// StartSetup is Start with a setup of the caller's.
func StartSetup(t testing.TB, db Store, channel string, setup engine.Setup) *storage.Loaded {
	t.Helper()
	ctx := context.Background()
	m, err := db.Create(ctx, channel, json.RawMessage(`{"host":"test"}`), T0)
	if err != nil {
		t.Fatalf("create: %v", err)
	}
	if _, err := db.Save(ctx, m.ID, m.Version, storage.Change{Start: &setup}, T0); err != nil {
		t.Fatalf("start: %v", err)
	}
	l, err := db.Load(ctx, m.ID)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	return l
}

// Play plays n random moves on match id, one Save each, and returns the
// game as played.
func Play(t testing.TB, db Store, id int64, n int, r *rand.Rand) *engine.Game {
	t.Helper()
	ctx := context.Background()
	l, err := db.Load(ctx, id)
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	g, v := l.Game, l.Version
	for i := range n {
		e, err := Move(g, r)
		if errors.Is(err, ErrOver) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if v, err = db.Save(ctx, id, v, storage.Change{Entries: []engine.Entry{e}, Game: g}, T0.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatalf("save move %d: %v", i+1, err)
		}
	}
	return g
}

// Replayed rebuilds match id from scratch: its exported log replayed.
func Replayed(t testing.TB, db Store, id int64) *engine.Game {
	t.Helper()
	x := mustExport(t, db, id)
	g, err := engine.Replay(x.Record.Setup, x.Record.Log)
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	return g
}

// SameGame fails unless the games are equal bit for bit: state, version and
// undo information, compared by their JSON.
func SameGame(t testing.TB, what string, got, want *engine.Game) {
	t.Helper()
	if a, b := mustJSON(t, got), mustJSON(t, want); !bytes.Equal(a, b) {
		t.Fatalf("%s: games differ:\ngot  %s\nwant %s", what, a, b)
	}
	if err := got.State.Check(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// idsOf returns id(x) of each x of xs, in order: the matches a list
// names, which a test compares.
func idsOf[T any](xs []T, id func(T) int64) []int64 {
	var out []int64
	for _, x := range xs {
		out = append(out, id(x))
	}
	return out
}

// moves is the length of the games the suite plays.
func moves(t *testing.T, n int) int {
	if testing.Short() {
		return n / 4
	}
	return n
}

func testCreate(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	meta := json.RawMessage(`{"seats":["ann","bob"]}`)
	m := mustCreate(t, db, "test:1", meta)
	if m.ID == 0 || m.Channel != "test:1" || m.Status != storage.Lobby || m.Version != 1 || m.Setup != nil ||
		!bytes.Equal(m.Meta, meta) || !m.Created.Equal(T0) || !m.Updated.Equal(T0) {
		t.Fatalf("created %+v", m)
	}
	l, err := db.Active(ctx, "test:1")
	if err != nil {
		t.Fatal(err)
	}
	if l.Game != nil || l.ID != m.ID || l.Status != storage.Lobby || l.Version != 1 || l.Commands != 0 ||
		!bytes.Equal(l.Meta, meta) || !l.Created.Equal(T0) {
		t.Fatalf("active %+v", l)
	}
	m2 := mustCreate(t, db, "test:2", nil)
	l2, err := db.Load(ctx, m2.ID)
	if err != nil {
		t.Fatal(err)
	}
	if l2.Meta != nil || l2.Channel != "test:2" {
		t.Fatalf("no meta: got %+v", l2.Match)
	}
	if _, err := db.Create(ctx, "", nil, T0); err == nil {
		t.Error("a match without a channel was created")
	}
	if _, err := db.Create(ctx, "test:3", json.RawMessage(`{not json`), T0); err == nil {
		t.Error("a match with bad meta was created")
	}
	if _, err := db.Active(ctx, "test:3"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("after a refused create: got %v, want ErrNotFound", err)
	}
}

func testChannelBusy(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	m := mustCreate(t, db, "test:1", nil)
	if _, err := db.Create(ctx, "test:1", nil, T0); !errors.Is(err, storage.ErrChannelBusy) {
		t.Fatalf("second lobby: got %v, want ErrChannelBusy", err)
	}
	setup := NewSetup(3, 1)
	v, err := db.Save(ctx, m.ID, m.Version, storage.Change{Start: &setup}, T0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Create(ctx, "test:1", nil, T0); !errors.Is(err, storage.ErrChannelBusy) {
		t.Fatalf("beside an active match: got %v, want ErrChannelBusy", err)
	}
	if _, err := db.Save(ctx, m.ID, v, storage.Change{Status: storage.Finished}, T0); err != nil {
		t.Fatal(err)
	}
	m2, err := db.Create(ctx, "test:1", nil, T0)
	if err != nil {
		t.Fatalf("after the match finished: %v", err)
	}
	l, err := db.Active(ctx, "test:1")
	if err != nil || l.ID != m2.ID {
		t.Fatalf("active: got %v, %v; want match %d", l, err, m2.ID)
	}
	// Many creators at once: exactly one wins the channel.
	var wg sync.WaitGroup
	var mu sync.Mutex
	wins, busy := 0, 0
	for range 8 {
		wg.Go(func() {
			_, err := db.Create(ctx, "test:race", nil, T0)
			mu.Lock()
			defer mu.Unlock()
			switch {
			case err == nil:
				wins++
			case errors.Is(err, storage.ErrChannelBusy):
				busy++
			default:
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if wins != 1 || busy != 7 {
		t.Fatalf("8 creators in one channel: %d won, %d were told it is busy; want 1 and 7", wins, busy)
	}
}

func testNotFound(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	if _, err := db.Active(ctx, "test:none"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("active: got %v, want ErrNotFound", err)
	}
	if _, err := db.Load(ctx, 12345); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("load: got %v, want ErrNotFound", err)
	}
	if _, err := db.Export(ctx, 12345); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("export: got %v, want ErrNotFound", err)
	}
	if _, err := db.Save(ctx, 12345, 1, storage.Change{Meta: json.RawMessage(`1`)}, T0); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("save: got %v, want ErrNotFound", err)
	}
	if h, err := db.History(ctx, "test:none"); err != nil || len(h) != 0 {
		t.Errorf("history: got %v, %v; want nothing", h, err)
	}
	if f, err := db.Finished(ctx, 10); err != nil || len(f) != 0 {
		t.Errorf("finished: got %v, %v; want nothing", f, err)
	}
	if d, err := db.Due(ctx, "", T0.Add(1000*time.Hour)); err != nil || len(d) != 0 {
		t.Errorf("due: got %v, %v; want nothing", d, err)
	}
}

func testStartAndAppend(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	m := mustCreate(t, db, "test:1", nil)
	setup := NewSetup(4, 42)
	want, err := engine.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.Save(ctx, m.ID, m.Version, storage.Change{Start: &setup, Meta: json.RawMessage(`{"started":true}`)}, T0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	if v != 2 {
		t.Fatalf("version after start: %d, want 2", v)
	}
	l, err := db.Active(ctx, "test:1")
	if err != nil {
		t.Fatal(err)
	}
	if l.Status != storage.Active || l.Version != 2 || l.Setup == nil || l.Setup.Deal == nil || l.Game == nil ||
		string(l.Meta) != `{"started":true}` || !l.Updated.Equal(T0.Add(time.Minute)) || !l.Created.Equal(T0) {
		t.Fatalf("after start: %+v", l.Match)
	}
	SameGame(t, "after start", l.Game, want)

	// One entry per save, then several in one save.
	r := rand.New(rand.NewPCG(42, 0))
	g := l.Game
	for i := range 5 {
		e, err := Move(g, r)
		if err != nil {
			t.Fatal(err)
		}
		if v, err = db.Save(ctx, m.ID, v, storage.Change{Entries: []engine.Entry{e}, Game: g}, T0); err != nil {
			t.Fatal(err)
		}
		if v != int64(3+i) {
			t.Fatalf("version %d after %d moves", v, i+1)
		}
	}
	var batch []engine.Entry
	for range 4 {
		e, err := Move(g, r)
		if err != nil {
			t.Fatal(err)
		}
		batch = append(batch, e)
	}
	if v, err = db.Save(ctx, m.ID, v, storage.Change{Entries: batch, Game: g}, T0); err != nil {
		t.Fatal(err)
	}
	l, err = db.Load(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	if l.Version != v || v != 8 || l.Commands != 9 || g.Version != 9 {
		t.Fatalf("version %d (save said %d), %d commands; want 8 and 9", l.Version, v, l.Commands)
	}
	SameGame(t, "after 9 commands", l.Game, g)
	SameGame(t, "replayed", Replayed(t, db, m.ID), g)

	// Start and the first commands in one change.
	m2 := mustCreate(t, db, "test:2", nil)
	g2, err := engine.NewGame(NewSetup(2, 7))
	if err != nil {
		t.Fatal(err)
	}
	e, err := Move(g2, r)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, m2.ID, m2.Version, storage.Change{Start: &g2.Setup, Entries: []engine.Entry{e}, Game: g2}, T0); err != nil {
		t.Fatal(err)
	}
	l2, err := db.Load(ctx, m2.ID)
	if err != nil {
		t.Fatal(err)
	}
	SameGame(t, "started with a command", l2.Game, g2)
}

func testConflict(t *testing.T, newDB New) {
	ctx := context.Background()
	db, l, r := started(t, newDB, "test:1", 3, 5)
	a, b := l.Game, Replayed(t, db, l.ID)
	ea, err := Move(a, r)
	if err != nil {
		t.Fatal(err)
	}
	eb, err := Move(b, r)
	if err != nil {
		t.Fatal(err)
	}
	v, err := db.Save(ctx, l.ID, l.Version, storage.Change{Entries: []engine.Entry{ea}, Game: a}, T0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []storage.Change{
		{Entries: []engine.Entry{eb}, Game: b},
		{Meta: json.RawMessage(`{}`)},
		{Status: storage.Abandoned},
		{Timers: &storage.Timers{Deadline: T0}},
	} {
		if _, err := db.Save(ctx, l.ID, l.Version, c, T0); !errors.Is(err, storage.ErrConflict) {
			t.Fatalf("stale save %+v: got %v, want ErrConflict", c, err)
		}
	}
	if _, err := db.Save(ctx, l.ID, v+1, storage.Change{Entries: []engine.Entry{eb}, Game: b}, T0); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("save from the future: got %v, want ErrConflict", err)
	}
	got, err := db.Load(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != v || got.Commands != 1 || got.Status != storage.Active || got.Timers != (storage.Timers{}) {
		t.Fatalf("after refused saves: %+v", got.Match)
	}
	SameGame(t, "after refused saves", got.Game, a)
}

func testBadChanges(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 2))
	lobby := mustCreate(t, db, "test:lobby", nil)
	active := Start(t, db, "test:active", 3, 9)
	g := active.Game
	e, err := Move(g, rand.New(rand.NewPCG(9, 9)))
	if err != nil {
		t.Fatal(err)
	}
	bad := NewSetup(1, 1) // one player
	good := NewSetup(2, 1)
	fresh, err := engine.NewGame(good)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		match *storage.Match
		c     storage.Change
	}{
		{"nothing", lobby, storage.Change{}},
		{"bad meta", lobby, storage.Change{Meta: json.RawMessage(`{`)}},
		{"bad setup", lobby, storage.Change{Start: &bad}},
		{"entries in the lobby", lobby, storage.Change{Entries: []engine.Entry{e}, Game: g}},
		{"entries without the game", &active.Match, storage.Change{Entries: []engine.Entry{e}}},
		{"game at the wrong version", &active.Match, storage.Change{Entries: []engine.Entry{e, e}, Game: g}},
		{"game without entries", &active.Match, storage.Change{Game: fresh}},
		{"start twice", &active.Match, storage.Change{Start: &good}},
		{"status lobby", &active.Match, storage.Change{Status: storage.Lobby}},
		{"status active", lobby, storage.Change{Status: storage.Active}},
		{"finish a lobby", lobby, storage.Change{Status: storage.Finished}},
		{"unknown status", lobby, storage.Change{Status: storage.Status(99)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := db.Save(ctx, tt.match.ID, tt.match.Version, tt.c, T0.Add(time.Hour))
			if err == nil {
				t.Fatal("saved")
			}
			if errors.Is(err, storage.ErrConflict) || errors.Is(err, storage.ErrNotFound) {
				t.Fatalf("got %v, want an error about the change", err)
			}
			l, err := db.Load(ctx, tt.match.ID)
			if err != nil {
				t.Fatal(err)
			}
			if l.Version != tt.match.Version || l.Status != tt.match.Status || l.Commands != tt.match.Commands ||
				!l.Updated.Equal(tt.match.Updated) || !bytes.Equal(l.Meta, tt.match.Meta) {
				t.Fatalf("the refused change changed the match: %+v, was %+v", l.Match, *tt.match)
			}
		})
	}
}

func testClose(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	l := Start(t, db, "test:1", 2, 3)
	v, err := db.Save(ctx, l.ID, l.Version, storage.Change{Timers: &storage.Timers{Remind: T0, Deadline: T0.Add(time.Hour)}}, T0)
	if err != nil {
		t.Fatal(err)
	}
	v, err = db.Save(ctx, l.ID, v, storage.Change{Status: storage.Finished, Meta: json.RawMessage(`{"winner":0}`)}, T0.Add(time.Minute))
	if err != nil {
		t.Fatal(err)
	}
	got, err := db.Load(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != storage.Finished || got.Timers != (storage.Timers{}) || got.Game == nil || string(got.Meta) != `{"winner":0}` ||
		!got.Closed.Equal(T0.Add(time.Minute)) {
		t.Fatalf("finished: %+v", got.Match)
	}
	if _, err := db.Active(ctx, "test:1"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("active after finish: got %v, want ErrNotFound", err)
	}
	// A closed match takes meta, and nothing else.
	if v, err = db.Save(ctx, l.ID, v, storage.Change{Meta: json.RawMessage(`{"winner":0,"posted":true}`)}, T0); err != nil {
		t.Fatalf("meta of a finished match: %v", err)
	}
	e, err := Move(got.Game, rand.New(rand.NewPCG(1, 1)))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []storage.Change{
		{Entries: []engine.Entry{e}, Game: got.Game},
		{Status: storage.Abandoned},
		{Timers: &storage.Timers{Deadline: T0}},
	} {
		if _, err := db.Save(ctx, l.ID, v, c, T0); err == nil || errors.Is(err, storage.ErrConflict) {
			t.Fatalf("change %+v to a finished match: got %v, want a refusal", c, err)
		}
	}
	// A lobby can be abandoned.
	m := mustCreate(t, db, "test:1", nil)
	if _, err := db.Save(ctx, m.ID, m.Version, storage.Change{Status: storage.Abandoned}, T0); err != nil {
		t.Fatal(err)
	}
	got, err = db.Load(ctx, m.ID)
	if err != nil || got.Status != storage.Abandoned || got.Game != nil {
		t.Fatalf("abandoned lobby: %+v, %v", got, err)
	}
}

func testSnapshotsEqualReplay(t *testing.T, newDB New) {
	for _, every := range []int{0, 1, 7, 50} {
		t.Run(fmt.Sprintf("every=%d", every), func(t *testing.T) {
			ctx := context.Background()
			b := newDB(t, every)
			db := Open(t, b)
			l := Start(t, db, "test:1", 2+every%5, uint64(every))
			r := rand.New(rand.NewPCG(uint64(every), 1))
			g, v := l.Game, l.Version
			n := moves(t, 400)
			for i := 0; i < n; {
				// Batches of 1 to 3 entries, so that snapshots fall inside
				// batches too.
				var batch []engine.Entry
				for k := r.IntN(3); k >= 0 && i < n; k-- {
					e, err := Move(g, r)
					if err != nil {
						t.Fatal(err)
					}
					batch = append(batch, e)
					i++
				}
				var err error
				if v, err = db.Save(ctx, l.ID, v, storage.Change{Entries: batch, Game: g}, T0); err != nil {
					t.Fatal(err)
				}
				if r.IntN(10) == 0 || i == n {
					got, err := db.Load(ctx, l.ID)
					if err != nil {
						t.Fatal(err)
					}
					SameGame(t, fmt.Sprintf("loaded after %d commands", g.Version), got.Game, g)
				}
			}
			SameGame(t, "replayed in full", Replayed(t, db, l.ID), g)
			db2 := Open(t, b)
			got, err := db2.Active(ctx, "test:1")
			if err != nil {
				t.Fatal(err)
			}
			SameGame(t, "loaded by another handle", got.Game, g)
		})
	}
}

func testReopen(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 5)
	db, err := b.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	l := Start(t, db, "test:1", 3, 11)
	g := Play(t, db, l.ID, 23, rand.New(rand.NewPCG(11, 0)))
	lobby := mustCreate(t, db, "test:2", json.RawMessage(`[1,2]`))
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = Open(t, b)
	got, err := db.Active(ctx, "test:1")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != l.ID || got.Commands != 23 || got.Version != l.Version+23 {
		t.Fatalf("reopened: %+v", got.Match)
	}
	SameGame(t, "reopened", got.Game, g)
	got, err = db.Active(ctx, "test:2")
	if err != nil || got.ID != lobby.ID || string(got.Meta) != `[1,2]` {
		t.Fatalf("reopened lobby: %+v, %v", got, err)
	}
	// And play goes on.
	g = Play(t, db, l.ID, 5, rand.New(rand.NewPCG(11, 1)))
	SameGame(t, "played on", Replayed(t, db, l.ID), g)
}

func testDue(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	at := func(min int) time.Time { return T0.Add(time.Duration(min) * time.Minute) }
	a := Start(t, db, "test:a", 2, 1)
	b := Start(t, db, "test:b", 2, 2)
	c := Start(t, db, "test:c", 2, 3)
	lobby := mustCreate(t, db, "test:lobby", nil)
	set := func(id, v int64, tm storage.Timers) int64 {
		t.Helper()
		v, err := db.Save(ctx, id, v, storage.Change{Timers: &tm}, T0)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	va := set(a.ID, a.Version, storage.Timers{Remind: at(10), Deadline: at(60)})
	vb := set(b.ID, b.Version, storage.Timers{Deadline: at(30)})
	vc := set(c.ID, c.Version, storage.Timers{Remind: at(10), Deadline: at(20)})
	set(lobby.ID, lobby.Version, storage.Timers{Deadline: at(5)}) // lobbies have no turns
	l, err := db.Load(ctx, a.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !l.Timers.Remind.Equal(at(10)) || !l.Timers.Deadline.Equal(at(60)) {
		t.Fatalf("timers read back: %+v", l.Timers)
	}
	type due struct {
		id   int64
		kind storage.TimerKind
		min  int
		v    int64
	}
	check := func(now time.Time, want ...due) {
		t.Helper()
		got, err := db.Due(ctx, "", now)
		if err != nil {
			t.Fatal(err)
		}
		var g []due
		for _, d := range got {
			g = append(g, due{d.Match, d.Kind, int(d.At.Sub(T0) / time.Minute), d.Version})
			if d.Channel == "" || !d.At.Equal(T0.Add(time.Duration(g[len(g)-1].min)*time.Minute)) {
				t.Errorf("timer %+v", d)
			}
		}
		if fmt.Sprint(g) != fmt.Sprint(want) {
			t.Fatalf("due at %v:\ngot  %v\nwant %v", now.Sub(T0), g, want)
		}
	}
	check(at(9))
	check(at(10), due{a.ID, storage.Remind, 10, va}, due{c.ID, storage.Remind, 10, vc})
	check(at(30), due{a.ID, storage.Remind, 10, va}, due{c.ID, storage.Remind, 10, vc}, due{c.ID, storage.Deadline, 20, vc}, due{b.ID, storage.Deadline, 30, vb})
	// Handling a timer means saving new ones (or none).
	va = set(a.ID, va, storage.Timers{Deadline: at(60)})
	vc = set(c.ID, vc, storage.Timers{})
	if _, err := db.Save(ctx, b.ID, vb, storage.Change{Status: storage.Abandoned}, T0); err != nil {
		t.Fatal(err)
	}
	check(at(59))
	check(at(1000), due{a.ID, storage.Deadline, 60, va})
	_ = vc
}

func testFinished(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	var ids []int64
	for i := range 5 {
		l := Start(t, db, fmt.Sprintf("test:%d", i), 2, uint64(i))
		st := storage.Finished
		if i == 3 {
			st = storage.Abandoned
		}
		if _, err := db.Save(ctx, l.ID, l.Version, storage.Change{Status: st}, T0.Add(time.Duration(10-i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, l.ID)
	}
	Start(t, db, "test:open", 2, 9)
	mustCreate(t, db, "test:lobby", nil)
	// A later change to a closed match does not move it in the list.
	last, err := db.Load(ctx, ids[4])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, last.ID, last.Version, storage.Change{Meta: json.RawMessage(`{"posted":true}`)}, T0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	got, err := db.Finished(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	var order []int64
	for _, m := range got {
		order = append(order, m.ID)
		if m.Setup == nil || m.Status.Open() || m.Closed.IsZero() {
			t.Errorf("finished match %+v", m)
		}
	}
	if want := []int64{ids[0], ids[1], ids[2], ids[3], ids[4]}; fmt.Sprint(order) != fmt.Sprint(want) {
		t.Fatalf("finished: got %v, want %v (most recently closed first)", order, want)
	}
	if got[3].Status != storage.Abandoned || got[0].Status != storage.Finished {
		t.Fatalf("statuses %v %v", got[3].Status, got[0].Status)
	}
	if !got[4].Closed.Equal(T0.Add(6*time.Minute)) || !got[4].Updated.Equal(T0.Add(time.Hour)) {
		t.Fatalf("closed %v, updated %v", got[4].Closed, got[4].Updated)
	}
	if got, err := db.Finished(ctx, 2); err != nil || len(got) != 2 || got[0].ID != ids[0] {
		t.Fatalf("limit 2: got %v, %v", got, err)
	}
}

func testHistory(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	var ids []int64
	for range 3 {
		l := Start(t, db, "test:1", 2, 1)
		if _, err := db.Save(ctx, l.ID, l.Version, storage.Change{Status: storage.Finished}, T0); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, l.ID)
	}
	m := mustCreate(t, db, "test:1", nil)
	Start(t, db, "test:2", 2, 1)
	h, err := db.History(ctx, "test:1")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := idsOf(h, func(x storage.Match) int64 { return x.ID }), []int64{m.ID, ids[2], ids[1], ids[0]}; !slices.Equal(got, want) {
		t.Fatalf("history: got %v, want %v", got, want)
	}
}

func testExportImport(t *testing.T, newDB New) {
	ctx := context.Background()
	db, l, r := started(t, newDB, "test:1", 4, 77)
	g := Play(t, db, l.ID, moves(t, 120), r)
	if _, err := db.Save(ctx, l.ID, l.Version+int64(g.Version), storage.Change{Meta: json.RawMessage(`{"k":"v"}`)}, T0); err != nil {
		t.Fatal(err)
	}
	x := mustExport(t, db, l.ID)
	if x.Channel != "test:1" || x.Status != storage.Active || string(x.Meta) != `{"k":"v"}` || len(x.Record.Log) != g.Version {
		t.Fatalf("export: %s %s %s, %d commands", x.Channel, x.Status, x.Meta, len(x.Record.Log))
	}
	b := mustJSON(t, x)
	// The file is an engine record too.
	var rec engine.Record
	if err := json.Unmarshal(b, &rec); err != nil {
		t.Fatalf("read as an engine record: %v", err)
	}
	rg, err := rec.Game(-1)
	if err != nil {
		t.Fatal(err)
	}
	SameGame(t, "the export read as an engine record", rg, g)

	var y storage.Export
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	// Into another database, then into the same one under another channel.
	other := Open(t, newDB(t, 10))
	m, err := other.Import(ctx, &y, T0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if m.Channel != "test:1" || m.Status != storage.Active || m.Commands != g.Version || !m.Created.Equal(T0.Add(time.Hour)) {
		t.Fatalf("imported: %+v", m)
	}
	got, err := other.Active(ctx, "test:1")
	if err != nil {
		t.Fatal(err)
	}
	SameGame(t, "imported", got.Game, g)
	if string(got.Meta) != `{"k":"v"}` {
		t.Fatalf("imported meta %s", got.Meta)
	}
	x2 := mustExport(t, other, m.ID)
	b2 := mustJSON(t, x2)
	if !bytes.Equal(b, b2) {
		t.Fatalf("export, import, export differ:\n%s\n%s", b, b2)
	}
	if _, err := db.Import(ctx, &y, T0); !errors.Is(err, storage.ErrChannelBusy) {
		t.Fatalf("import into a busy channel: got %v, want ErrChannelBusy", err)
	}
	y.Channel = "test:copy"
	m, err = db.Import(ctx, &y, T0)
	if err != nil {
		t.Fatal(err)
	}
	// Play goes on in the copy, snapshots included.
	g2 := Play(t, db, m.ID, 25, rand.New(rand.NewPCG(1, 2)))
	SameGame(t, "played on after import", Replayed(t, db, m.ID), g2)
	// A finished match imports beside an open one in the same channel.
	y.Status = storage.Finished
	y.Channel = "test:1"
	if _, err := db.Import(ctx, &y, T0); err != nil {
		t.Fatalf("import a finished match into a busy channel: %v", err)
	}
}

// ExportLog reads a page of the log: the same entries as the whole
// export's, from after, at most limit, with the whole log's length; past
// the end, none.
func testExportLog(t *testing.T, newDB New) {
	ctx := context.Background()
	db, l, r := started(t, newDB, "test:1", 3, 17)
	Play(t, db, l.ID, 60, r)
	full := mustExport(t, db, l.ID)
	n := len(full.Record.Log)
	if n < 30 {
		t.Fatalf("the match has %d commands, want 30 or more", n)
	}
	tests := []struct{ after, limit, from, to int }{
		{0, 0, 0, n},
		{0, 5, 0, 5},
		{10, 7, 10, 17},
		{n - 3, 100, n - 3, n},
		{n, 10, n, n},
		{n + 5, 10, n, n},
	}
	for _, tt := range tests {
		x, total, err := db.ExportLog(ctx, l.ID, tt.after, tt.limit)
		if err != nil {
			t.Fatalf("after %d, limit %d: %v", tt.after, tt.limit, err)
		}
		if total != n || x.Channel != full.Channel || x.Status != full.Status || !reflect.DeepEqual(x.Record.Setup, full.Record.Setup) {
			t.Errorf("after %d, limit %d: %d commands, head %s %s, want %d, %s %s", tt.after, tt.limit, total, x.Channel, x.Status, n, full.Channel, full.Status)
		}
		if want := full.Record.Log[tt.from:tt.to]; !reflect.DeepEqual(x.Record.Log, want) {
			t.Errorf("after %d, limit %d: %d entries, want entries %d to %d", tt.after, tt.limit, len(x.Record.Log), tt.from+1, tt.to)
		}
	}
	if _, _, err := db.ExportLog(ctx, 12345, 0, 10); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("ExportLog of no match: %v, want ErrNotFound", err)
	}
}

// A live match's public export withholds its seed, replays all the same,
// and cannot be imported; once the match is over its export reveals the
// seed, and the match verifies against the commitment of its start.
func testPublicExport(t *testing.T, newDB New) {
	ctx := context.Background()
	db, l, r := started(t, newDB, "test:1", 3, 91)
	g := Play(t, db, l.ID, moves(t, 80), r)
	commitment := l.Game.Commitment()
	full := mustExport(t, db, l.ID)
	x, err := full.Public()
	if err != nil {
		t.Fatal(err)
	}
	b := mustJSON(t, x)
	if bytes.Contains(b, []byte(`"seed"`)) || !bytes.Contains(b, []byte(`"commitment":"`+commitment+`"`)) {
		t.Fatalf("public export of a live match: %.400s", b)
	}
	var y storage.Export
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	if !y.Record.Told || y.Record.Audience != engine.Public {
		t.Fatalf("a live match's public export is told %v to %d, want to the public (engine.Record.Tell)", y.Record.Told, y.Record.Audience)
	}
	rg, err := y.Record.Game(-1)
	if err != nil {
		t.Fatalf("the public export does not replay: %v", err)
	}
	if rg.Version != g.Version || rg.State.Turn != g.State.Turn {
		t.Fatalf("the public export replays to version %d turn %d, want %d and %d", rg.Version, rg.State.Turn, g.Version, g.State.Turn)
	}
	y.Channel = "test:2"
	if _, err := db.Import(ctx, &y, T0); err == nil || !strings.Contains(err.Error(), "risk export --full") {
		t.Fatalf("import of a sealed export: %v", err)
	}
	if _, err := db.Active(ctx, "test:2"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("the refused import was stored: %v", err)
	}

	if _, err := db.Save(ctx, l.ID, l.Version+int64(g.Version), storage.Change{Status: storage.Finished}, T0); err != nil {
		t.Fatal(err)
	}
	if full, err = db.Export(ctx, l.ID); err != nil {
		t.Fatal(err)
	}
	if x, err = full.Public(); err != nil {
		t.Fatal(err)
	}
	if x.Record.Sealed || x.Record.Setup.Seed != 91 {
		t.Fatalf("a finished match's public export: sealed %v, seed %d", x.Record.Sealed, x.Record.Setup.Seed)
	}
	v, err := engine.Verify(x.Record, commitment)
	if err != nil || !v.OK() {
		t.Fatalf("verify: %v\n%s", err, v)
	}
}

func testExportLobby(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	m := mustCreate(t, db, "test:1", json.RawMessage(`{"seats":["a"]}`))
	x := mustExport(t, db, m.ID)
	b := mustJSON(t, x)
	if want := `{"channel":"test:1","status":"lobby","meta":{"seats":["a"]}}`; string(b) != want {
		t.Fatalf("lobby export: got %s, want %s", b, want)
	}
	var y storage.Export
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatal(err)
	}
	y.Channel = "test:2"
	m2, err := db.Import(ctx, &y, T0)
	if err != nil {
		t.Fatal(err)
	}
	l, err := db.Active(ctx, "test:2")
	if err != nil || l.ID != m2.ID || l.Status != storage.Lobby || l.Game != nil || string(l.Meta) != `{"seats":["a"]}` {
		t.Fatalf("imported lobby: %+v, %v", l, err)
	}
}

func testImportRefuses(t *testing.T, newDB New) {
	ctx := context.Background()
	db, l, r := started(t, newDB, "test:1", 3, 8)
	Play(t, db, l.ID, 40, r)
	x := mustExport(t, db, l.ID)
	var dice int
	for i, e := range x.Record.Log {
		if len(e.Rand) > 0 {
			dice = i
			break
		}
	}
	if dice == 0 {
		t.Skip("no command drew randomness")
	}
	edit := func(f func(x *storage.Export)) *storage.Export {
		b := mustJSON(t, x)
		var y storage.Export
		if err := json.Unmarshal(b, &y); err != nil {
			t.Fatal(err)
		}
		y.Channel = "test:import"
		f(&y)
		return &y
	}
	tests := []struct {
		name string
		x    *storage.Export
	}{
		// Changed dice in range are not caught: a log replays with the
		// outcomes it recorded, whatever the generator would draw now.
		{"dice out of range", edit(func(x *storage.Export) { x.Record.Log[dice].Rand[0] = 99 })},
		{"extra dice", edit(func(x *storage.Export) { x.Record.Log[dice].Rand = append(x.Record.Log[dice].Rand, 0) })},
		{"wrong seat", edit(func(x *storage.Export) { x.Record.Log[len(x.Record.Log)-1].Seat = 7 })},
		{"no setup", edit(func(x *storage.Export) { x.Record = engine.Record{} })},
		{"lobby with a log", edit(func(x *storage.Export) { x.Status = storage.Lobby })},
		{"bad meta", edit(func(x *storage.Export) { x.Meta = json.RawMessage(`{`) })},
		{"no channel", edit(func(x *storage.Export) { x.Channel = "" })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := db.Import(ctx, tt.x, T0); err == nil {
				t.Fatal("imported")
			}
			if h, err := db.History(ctx, "test:import"); err != nil || len(h) != 0 {
				t.Fatalf("a refused import left %v, %v", h, err)
			}
		})
	}
}

// testRaceLockstep has several writers (separate handles, and goroutines
// sharing one) read the same version, then all save at once: exactly one
// wins each round, the others are told the match moved on.
// testImportCopies: an export imported in many channels at once gives a
// match in each, which loads to the export's game; a channel already busy
// refuses them all.
func testImportCopies(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 5))
	l := Start(t, db, "test:source", 3, 4)
	want := Play(t, db, l.ID, 12, rand.New(rand.NewPCG(4, 4)))
	x := mustExport(t, db, l.ID)
	if err := db.ImportCopies(ctx, x, []string{"copy:1", "copy:2", "copy:3"}, T0); err != nil {
		t.Fatal(err)
	}
	for _, ch := range []string{"copy:1", "copy:2", "copy:3"} {
		got, err := db.Active(ctx, ch)
		if err != nil {
			t.Fatalf("%s: %v", ch, err)
		}
		if got.Status != storage.Active || got.Version != 1 || got.Commands != 12 {
			t.Errorf("%s: %+v", ch, got.Match)
		}
		SameGame(t, ch, got.Game, want)
	}
	// The copies' seats are written as Import's are: the source and the
	// three copies are the first player's matches.
	if seated, err := db.Seated(ctx, "p0", "", 0); err != nil || len(seated) != 4 {
		t.Errorf("seated p0: %d matches, %v; want the source and its 3 copies", len(seated), err)
	}
	if err := db.ImportCopies(ctx, x, []string{"copy:4", "copy:1"}, T0); !errors.Is(err, storage.ErrChannelBusy) {
		t.Fatalf("copies into a busy channel: %v, want ErrChannelBusy", err)
	}
	if _, err := db.Active(ctx, "copy:4"); !errors.Is(err, storage.ErrNotFound) {
		t.Fatalf("a refused copy was stored: %v", err)
	}
	x.Status = storage.Finished
	if err := db.ImportCopies(ctx, x, []string{"copy:1", "copy:1"}, T0); err != nil {
		t.Fatalf("finished copies: %v", err)
	}
	if h, err := db.History(ctx, "copy:1"); err != nil || len(h) != 3 {
		t.Fatalf("history of copy:1: %d matches, %v; want 3", len(h), err)
	}
}

// racers opens the four writers of a race on one database of newDB (a
// snapshot every `every` commands): the first and the second on handles
// of their own, the last two on one handle they share.
func racers(t *testing.T, newDB New, every int) []Store {
	b := newDB(t, every)
	first, shared := Open(t, b), Open(t, b)
	return []Store{first, Open(t, b), shared, shared}
}

func testRaceLockstep(t *testing.T, newDB New) {
	ctx := context.Background()
	writers := racers(t, newDB, 4)
	first := writers[0]
	l := Start(t, first, "test:race", 3, 21)
	want := l.Game
	rounds := moves(t, 40)
	for round := range rounds {
		type result struct {
			e   engine.Entry
			g   *engine.Game
			v   int64
			err error
		}
		results := make([]result, len(writers))
		loaded := make([]*storage.Loaded, len(writers))
		for i, w := range writers {
			var err error
			if loaded[i], err = w.Load(ctx, l.ID); err != nil {
				t.Fatal(err)
			}
		}
		go1 := make(chan struct{})
		var wg sync.WaitGroup
		for i, w := range writers {
			wg.Go(func() {
				r := rand.New(rand.NewPCG(uint64(round), uint64(i)))
				g := loaded[i].Game
				e, err := Move(g, r)
				if err != nil {
					results[i].err = err
					return
				}
				<-go1
				v, err := w.Save(ctx, l.ID, loaded[i].Version, storage.Change{Entries: []engine.Entry{e}, Game: g}, T0)
				results[i] = result{e, g, v, err}
			})
		}
		close(go1)
		wg.Wait()
		winners := 0
		for i, r := range results {
			switch {
			case r.err == nil:
				winners++
				want = r.g
				if r.v != loaded[i].Version+1 {
					t.Fatalf("round %d: winner got version %d from %d", round, r.v, loaded[i].Version)
				}
			case errors.Is(r.err, storage.ErrConflict):
			default:
				t.Fatalf("round %d, writer %d: %v", round, i, r.err)
			}
		}
		if winners != 1 {
			t.Fatalf("round %d: %d writers won, want exactly 1", round, winners)
		}
	}
	got, err := first.Load(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Commands != rounds || got.Version != l.Version+int64(rounds) {
		t.Fatalf("after %d rounds: %d commands, version %d", rounds, got.Commands, got.Version)
	}
	SameGame(t, "after the races", got.Game, want)
	SameGame(t, "replayed after the races", Replayed(t, first, l.ID), want)
}

// testRaceFree has writers play on one match as fast as they can, each
// reloading after a conflict: every version has one winner, and the log is
// exactly the winners' entries.
func testRaceFree(t *testing.T, newDB New) {
	ctx := context.Background()
	writers := racers(t, newDB, 5)
	first := writers[0]
	l := Start(t, first, "test:race", 4, 31)
	target := l.Version + int64(moves(t, 80))
	var mu sync.Mutex
	won := map[int64][]byte{} // version -> entry
	conflicts := 0
	var wg sync.WaitGroup
	for i, w := range writers {
		wg.Go(func() {
			r := rand.New(rand.NewPCG(31, uint64(i)))
			for {
				got, err := w.Load(ctx, l.ID)
				if err != nil {
					t.Error(err)
					return
				}
				if got.Version >= target {
					return
				}
				e, err := Move(got.Game, r)
				if err != nil {
					t.Error(err)
					return
				}
				v, err := w.Save(ctx, l.ID, got.Version, storage.Change{Entries: []engine.Entry{e}, Game: got.Game}, T0)
				mu.Lock()
				switch {
				case err == nil:
					if _, dup := won[v]; dup {
						t.Errorf("version %d won twice", v)
					}
					won[v], _ = json.Marshal(e)
				case errors.Is(err, storage.ErrConflict):
					conflicts++
				default:
					t.Error(err)
				}
				mu.Unlock()
				if err != nil && !errors.Is(err, storage.ErrConflict) {
					return
				}
			}
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	x := mustExport(t, first, l.ID)
	if len(x.Record.Log) != len(won) || int64(len(won)) != target-l.Version {
		t.Fatalf("%d entries in the log, %d saves won, want %d", len(x.Record.Log), len(won), target-l.Version)
	}
	for i, e := range x.Record.Log {
		b, _ := json.Marshal(e)
		if w := won[l.Version+int64(i)+1]; !bytes.Equal(b, w) {
			t.Fatalf("log entry %d is %s, the save that won version %d stored %s", i+1, b, l.Version+int64(i)+1, w)
		}
	}
	got, err := first.Load(ctx, l.ID)
	if err != nil {
		t.Fatal(err)
	}
	SameGame(t, "after the race", got.Game, Replayed(t, first, l.ID))
	t.Logf("%d saves won, %d conflicts", len(won), conflicts)
}

func testCorruptMatch(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 0)
	if b.Corrupt == nil {
		t.Skip("the backend cannot corrupt a match")
	}
	db := Open(t, b)
	bad := Start(t, db, "test:bad", 3, 4)
	good := Start(t, db, "test:good", 3, 5)
	Play(t, db, bad.ID, 30, rand.New(rand.NewPCG(4, 0)))
	Play(t, db, good.ID, 30, rand.New(rand.NewPCG(5, 0)))
	for _, id := range []int64{bad.ID, good.ID} {
		l, err := db.Load(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := db.Save(ctx, id, l.Version, storage.Change{Timers: &storage.Timers{Deadline: T0}}, T0); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Corrupt(ctx, bad.ID); err != nil {
		t.Fatal(err)
	}
	var ce *storage.CorruptError
	if _, err := db.Active(ctx, "test:bad"); !errors.As(err, &ce) || ce.Match != bad.ID {
		t.Fatalf("active: got %v, want a *CorruptError for match %d", err, bad.ID)
	}
	if _, err := db.Load(ctx, bad.ID); !errors.As(err, &ce) {
		t.Fatalf("load: got %v, want a *CorruptError", err)
	}
	// The others are served.
	g := Play(t, db, good.ID, 5, rand.New(rand.NewPCG(5, 1)))
	l, err := db.Active(ctx, "test:good")
	if err != nil {
		t.Fatal(err)
	}
	SameGame(t, "the other match", l.Game, g)
	if d, err := db.Due(ctx, "", T0); err != nil || len(d) != 2 {
		t.Fatalf("due: %v, %v; want both timers", d, err)
	}
	// The broken match can still be exported for a bug report, and closed.
	x, err := db.Export(ctx, bad.ID)
	if err != nil {
		t.Fatalf("export of the broken match: %v", err)
	}
	if len(x.Record.Log) != 30 {
		t.Fatalf("export of the broken match: %d commands", len(x.Record.Log))
	}
	if _, err := db.Import(ctx, x, T0); err == nil {
		t.Fatal("the broken match was imported")
	}
	h, err := db.History(ctx, "test:bad")
	if err != nil || len(h) != 1 {
		t.Fatalf("history: %v, %v", h, err)
	}
	if _, err := db.Save(ctx, bad.ID, h[0].Version, storage.Change{Status: storage.Abandoned}, T0); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Create(ctx, "test:bad", nil, T0); err != nil {
		t.Fatalf("a new match where the broken one was: %v", err)
	}
}

func testCanceled(t *testing.T, newDB New) {
	db := Open(t, newDB(t, 10))
	l := Start(t, db, "test:1", 2, 1)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := db.Save(ctx, l.ID, l.Version, storage.Change{Meta: json.RawMessage(`1`)}, T0); !errors.Is(err, context.Canceled) {
		t.Errorf("save: got %v, want context.Canceled", err)
	}
	if _, err := db.Load(ctx, l.ID); !errors.Is(err, context.Canceled) {
		t.Errorf("load: got %v, want context.Canceled", err)
	}
	if _, err := db.Create(ctx, "test:2", nil, T0); !errors.Is(err, context.Canceled) {
		t.Errorf("create: got %v, want context.Canceled", err)
	}
	got, err := db.Load(context.Background(), l.ID)
	if err != nil || got.Version != l.Version || string(got.Meta) != `{"host":"test"}` {
		t.Fatalf("after canceled calls: %+v, %v", got, err)
	}
}

// testOutbox: posts queued by a change are there after it commits, in
// order, until delivered; a refused change queues nothing.
func testOutbox(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 10)
	db := Open(t, b)
	at := func(min int) time.Time { return T0.Add(time.Duration(min) * time.Minute) }
	a := Start(t, db, "test:a", 2, 1)
	c := Start(t, db, "test:c", 2, 2)
	post := func(s string) json.RawMessage { return json.RawMessage(`{"text":"` + s + `"}`) }
	save := func(id, v int64, ch storage.Change, now time.Time) int64 {
		t.Helper()
		v, err := db.Save(ctx, id, v, ch, now)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	va := save(a.ID, a.Version, storage.Change{Posts: []json.RawMessage{post("a1"), post("a2")}}, at(0))
	vc := save(c.ID, c.Version, storage.Change{Meta: json.RawMessage(`{"host":"x"}`), Posts: []json.RawMessage{post("c1")}}, at(1))
	va2 := save(a.ID, va, storage.Change{Status: storage.Finished, Posts: []json.RawMessage{post("a3")}}, at(2))
	check := func(db Store, prefix string, before time.Time, limit int, want ...string) {
		t.Helper()
		got, err := db.Outbox(ctx, prefix, before, limit)
		if err != nil {
			t.Fatal(err)
		}
		var g []string
		for _, p := range got {
			var body struct{ Text string }
			if err := json.Unmarshal(p.Body, &body); err != nil {
				t.Fatalf("post %+v: %v", p, err)
			}
			g = append(g, body.Text)
			want := map[string]struct {
				id, v int64
				ch    string
				min   int
			}{"a1": {a.ID, va, "test:a", 0}, "a2": {a.ID, va, "test:a", 0}, "c1": {c.ID, vc, "test:c", 1}, "a3": {a.ID, va2, "test:a", 2}}[body.Text]
			if p.Match != want.id || p.Version != want.v || p.Channel != want.ch || !p.Queued.Equal(at(want.min)) {
				t.Errorf("post %s: %+v, want match %d version %d channel %s queued %v", body.Text, p, want.id, want.v, want.ch, at(want.min))
			}
		}
		if fmt.Sprint(g) != fmt.Sprint(want) {
			t.Fatalf("outbox before %v (limit %d): got %v, want %v", before.Sub(T0), limit, g, want)
		}
	}
	check(db, "", at(0), 100)
	check(db, "", at(1), 100, "a1", "a2")
	if st, err := db.Stats(ctx); err != nil || st != (storage.Stats{Open: 1, Active: 1, Queued: 4, Oldest: at(0)}) {
		t.Fatalf("stats: %+v, %v; want 1 open and active match (a finished), 4 posts queued since %v", st, err, at(0))
	}
	if err := db.Ready(ctx); err != nil {
		t.Fatalf("ready: %v", err)
	}
	check(db, "", at(10), 100, "a1", "a2", "c1", "a3")
	check(db, "", at(10), 3, "a1", "a2", "c1")

	// Refused changes queue nothing.
	if _, err := db.Save(ctx, c.ID, vc-1, storage.Change{Posts: []json.RawMessage{post("stale")}}, at(3)); !errors.Is(err, storage.ErrConflict) {
		t.Fatalf("stale save: %v, want a conflict", err)
	}
	if _, err := db.Save(ctx, c.ID, vc, storage.Change{Posts: []json.RawMessage{json.RawMessage(`{not json`)}}, at(3)); err == nil {
		t.Fatal("a post that is not JSON was queued")
	}
	check(db, "", at(10), 100, "a1", "a2", "c1", "a3")

	if err := db.Delivered(ctx, a.ID, va); err != nil {
		t.Fatal(err)
	}
	if err := db.Delivered(ctx, a.ID, va); err != nil {
		t.Fatalf("delivered twice: %v", err)
	}
	check(db, "", at(10), 100, "c1", "a3")
	// Another handle (another process, a restart) sees what is left.
	check(Open(t, b), "", at(10), 100, "c1", "a3")
	for _, d := range []struct{ id, v int64 }{{c.ID, vc}, {a.ID, va2}} {
		if err := db.Delivered(ctx, d.id, d.v); err != nil {
			t.Fatal(err)
		}
	}
	check(db, "", at(10), 100)
}

// testScope: the open matches, due timers and queued posts of one kind of
// channel (a prefix) leave the others' alone; the prefix is text, not a
// pattern.
func testScope(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	ids := map[string]int64{}
	for i, ch := range []string{"discord:1", "discord:12", "console:main", "console:x_%", "consolex:1"} {
		l := Start(t, db, ch, 2, uint64(i+1))
		tm := storage.Timers{Deadline: T0}
		if _, err := db.Save(ctx, l.ID, l.Version, storage.Change{Timers: &tm, Posts: []json.RawMessage{json.RawMessage(`{}`)}}, T0); err != nil {
			t.Fatal(err)
		}
		ids[ch] = l.ID
	}
	lobby := mustCreate(t, db, "discord:7", nil)
	done := Start(t, db, "discord:9", 2, 9)
	if _, err := db.Save(ctx, done.ID, done.Version, storage.Change{Status: storage.Abandoned}, T0); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		prefix string
		open   []int64 // in id order
		active []int64
	}{
		{"discord:", []int64{ids["discord:1"], ids["discord:12"], lobby.ID}, []int64{ids["discord:1"], ids["discord:12"]}},
		{"discord:1", []int64{ids["discord:1"], ids["discord:12"]}, []int64{ids["discord:1"], ids["discord:12"]}},
		{"console:", []int64{ids["console:main"], ids["console:x_%"]}, []int64{ids["console:main"], ids["console:x_%"]}},
		{"console:x_", []int64{ids["console:x_%"]}, []int64{ids["console:x_%"]}},
		{"console:_", nil, nil},
		{"%", nil, nil},
		{"", []int64{ids["discord:1"], ids["discord:12"], ids["console:main"], ids["console:x_%"], ids["consolex:1"], lobby.ID},
			[]int64{ids["discord:1"], ids["discord:12"], ids["console:main"], ids["console:x_%"], ids["consolex:1"]}},
	} {
		t.Run(tt.prefix, func(t *testing.T) {
			open, err := db.OpenMatches(ctx, tt.prefix)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range open {
				if !m.Status.Open() || !strings.HasPrefix(m.Channel, tt.prefix) {
					t.Errorf("open match %+v", m)
				}
			}
			due, err := db.Due(ctx, tt.prefix, T0)
			if err != nil {
				t.Fatal(err)
			}
			posts, err := db.Outbox(ctx, tt.prefix, T0.Add(time.Second), 100)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range []struct {
				what      string
				got, want []int64
			}{
				{"open matches", idsOf(open, func(m storage.Match) int64 { return m.ID }), tt.open},
				{"due timers of", idsOf(due, func(d storage.Timer) int64 { return d.Match }), tt.active},
				{"queued posts of", idsOf(posts, func(p storage.Post) int64 { return p.Match }), tt.active},
			} {
				if !slices.Equal(l.got, l.want) {
					t.Errorf("%s %v, want %v", l.what, l.got, l.want)
				}
			}
		})
	}
}

// testRequests: a request recorded with its change applies once; a second
// change under its key fails with ErrDuplicate and changes nothing; the
// latest request of a channel (and of a user) is found with whether it was
// answered.
func testRequests(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 10)
	db := Open(t, b)
	a := Start(t, db, "test:a", 2, 1)
	c := Start(t, db, "test:c", 2, 2)
	at := func(s int) time.Time { return T0.Add(time.Duration(s) * time.Second) }
	req := func(key, user, summary string) *storage.Request {
		return &storage.Request{Key: key, User: user, Summary: summary, Result: "did " + summary}
	}
	meta := json.RawMessage(`{"host":"x"}`)
	va, err := db.Save(ctx, a.ID, a.Version, storage.Change{Meta: meta, Request: req("k1", "ann", "/risk one")}, at(1))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, a.ID, va, storage.Change{Meta: meta, Posts: []json.RawMessage{json.RawMessage(`{}`)}, Request: req("k1", "ann", "/risk one")}, at(2)); !errors.Is(err, storage.ErrDuplicate) {
		t.Fatalf("the same key again: %v, want ErrDuplicate", err)
	}
	if l, err := db.Load(ctx, a.ID); err != nil || l.Version != va {
		t.Fatalf("after the duplicate: version %d, %v; want %d", l.Version, err, va)
	}
	if ps, err := db.Outbox(ctx, "", at(10), 10); err != nil || len(ps) != 0 {
		t.Fatalf("the duplicate queued %d posts (%v)", len(ps), err)
	}
	// Keys are unique across matches.
	if _, err := db.Save(ctx, c.ID, c.Version, storage.Change{Meta: meta, Request: req("k1", "bob", "/risk other")}, at(2)); !errors.Is(err, storage.ErrDuplicate) {
		t.Fatalf("a key of another match: %v, want ErrDuplicate", err)
	}
	va2, err := db.Save(ctx, a.ID, va, storage.Change{Meta: meta, Request: req("k2", "bob", "/risk two")}, at(3))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, a.ID, va2, storage.Change{Request: &storage.Request{User: "x"}}, at(4)); err == nil {
		t.Fatal("a request without a key was recorded")
	}
	got, err := db.Applied(ctx, "k1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Match != a.ID || got.Channel != "test:a" || got.Version != va || got.User != "ann" || got.Summary != "/risk one" || got.Result != "did /risk one" || !got.Created.Equal(at(1)) || !got.Answered.IsZero() {
		t.Errorf("applied k1: %+v", got)
	}
	if _, err := db.Applied(ctx, "k9"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("an unknown key: %v, want ErrNotFound", err)
	}
	last := func(user, want string) {
		t.Helper()
		got, err := db.LastRequest(ctx, "test:a", user)
		if want == "" {
			if !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("last request of %q: %+v, %v; want none", user, got, err)
			}
			return
		}
		if err != nil || got.Key != want {
			t.Errorf("last request of %q: %+v, %v; want %s", user, got, err, want)
		}
	}
	last("", "k2")
	last("ann", "k1")
	last("cat", "")
	if err := db.Answered(ctx, "k1", at(5)); err != nil {
		t.Fatal(err)
	}
	if err := db.Answered(ctx, "k1", at(6)); err != nil {
		t.Fatal(err)
	}
	if got, err := Open(t, b).Applied(ctx, "k1"); err != nil || !got.Answered.Equal(at(5)) {
		t.Errorf("answered k1: %+v, %v; want answered at %v", got, err, at(5))
	}
	if n, err := db.ForgetRequests(ctx, at(3)); err != nil || n != 1 {
		t.Errorf("forgot %d, %v; want 1", n, err)
	}
	last("ann", "")
	last("", "k2")
}

// testSettings: values by scope and id, replaced, deleted, seen by other
// handles.
func testSettings(t *testing.T, newDB New) {
	ctx := context.Background()
	b := newDB(t, 10)
	db := Open(t, b)
	get := func(db Store, scope, id, want string) {
		t.Helper()
		v, err := db.Setting(ctx, scope, id)
		if want == "" {
			if !errors.Is(err, storage.ErrNotFound) {
				t.Errorf("%s %s: %s, %v; want none", scope, id, v, err)
			}
			return
		}
		if err != nil || string(v) != want {
			t.Errorf("%s %s: %s, %v; want %s", scope, id, v, err, want)
		}
	}
	get(db, "server", "discord:1", "")
	for _, s := range []struct{ scope, id, v string }{
		{"server", "discord:1", `{"turn_hours":12}`},
		{"server", "discord:2", `{"turn_hours":48}`},
		{"player", "discord:1", `{"dm":true}`},
		{"server", "discord:1", `{"turn_hours":6}`},
	} {
		if err := db.SetSetting(ctx, s.scope, s.id, json.RawMessage(s.v), T0); err != nil {
			t.Fatal(err)
		}
	}
	get(db, "server", "discord:1", `{"turn_hours":6}`)
	get(Open(t, b), "server", "discord:2", `{"turn_hours":48}`)
	get(db, "player", "discord:1", `{"dm":true}`)
	if err := db.SetSetting(ctx, "server", "discord:1", nil, T0); err != nil {
		t.Fatal(err)
	}
	get(db, "server", "discord:1", "")
	get(db, "player", "discord:1", `{"dm":true}`)
	all, err := db.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, s := range all {
		listed = append(listed, s.Scope+" "+s.ID+" "+string(s.Value))
		if !s.Updated.Equal(T0) {
			t.Errorf("setting %s %s updated at %v, want %v", s.Scope, s.ID, s.Updated, T0)
		}
	}
	if want := []string{`player discord:1 {"dm":true}`, `server discord:2 {"turn_hours":48}`}; fmt.Sprint(listed) != fmt.Sprint(want) {
		t.Errorf("all settings: %q, want %q", listed, want)
	}
	// Several at once: those there are, whatever the keys' order.
	of := func(keys ...storage.Setting) []string {
		t.Helper()
		got, err := db.SettingsOf(ctx, keys...)
		if err != nil {
			t.Fatalf("SettingsOf %v: %v", keys, err)
		}
		var out []string
		for _, s := range got {
			out = append(out, s.Scope+" "+s.ID+" "+string(s.Value))
		}
		slices.Sort(out)
		return out
	}
	for _, tt := range []struct {
		keys []storage.Setting
		want []string
	}{
		{nil, nil},
		{[]storage.Setting{{Scope: "player", ID: "discord:1"}}, []string{`player discord:1 {"dm":true}`}},
		{[]storage.Setting{{Scope: "server", ID: "discord:2"}, {Scope: "server", ID: "discord:1"}, {Scope: "player", ID: "discord:1"}},
			[]string{`player discord:1 {"dm":true}`, `server discord:2 {"turn_hours":48}`}},
		{[]storage.Setting{{Scope: "player", ID: "discord:2"}, {Scope: "server", ID: "discord:3"}}, nil},
	} {
		if got := of(tt.keys...); fmt.Sprint(got) != fmt.Sprint(tt.want) {
			t.Errorf("SettingsOf %v: %q, want %q", tt.keys, got, tt.want)
		}
	}
	if err := db.SetSetting(ctx, "server", "discord:3", json.RawMessage(`{oops`), T0); err == nil {
		t.Error("a value that is not JSON was stored")
	}
	if err := db.SetSetting(ctx, "", "x", json.RawMessage(`1`), T0); err == nil {
		t.Error("a setting without a scope was stored")
	}
}

// testIdleLobbies: lobbies unchanged since a time, of a prefix; started
// and closed matches are not lobbies.
// testOpenChannels: the channels of a prefix are those whose name starts
// with it, byte by byte, whatever characters the prefix ends with; closed
// matches hold no channel; OpenChannels and OpenMatches agree.
func testOpenChannels(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	channels := []string{"web:a", "web:b", "web:é", "web:ê", "web:\u00ff", "web:\U0010FFFF", "web:\U0010FFFFx",
		"web;", "web", "wea", "weé", "web:\x7f", "web:\u0080", "web:a\uD7FF", "web:a\uE000", "discord:1", "x"}
	status := map[string]storage.Status{}
	for i, ch := range channels {
		if i%3 == 0 {
			Start(t, db, ch, 2, uint64(i+1))
			status[ch] = storage.Active
		} else {
			mustCreate(t, db, ch, nil)
			status[ch] = storage.Lobby
		}
	}
	closed := Start(t, db, "web:closed", 2, 1)
	if _, err := db.Save(ctx, closed.ID, closed.Version, storage.Change{Status: storage.Abandoned}, T0); err != nil {
		t.Fatal(err)
	}
	for _, prefix := range []string{"", "web:", "web", "we", "web:a", "web:a\uD7FF", "web:\U0010FFFF", "weé", "web:\x7f", "w", "y", "web:closed"} {
		t.Run(fmt.Sprintf("%+q", prefix), func(t *testing.T) {
			var want []string
			for _, ch := range channels {
				if strings.HasPrefix(ch, prefix) {
					want = append(want, ch)
				}
			}
			slices.Sort(want) // byte by byte
			got, err := db.OpenChannels(ctx, prefix)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, o := range got {
				names = append(names, o.Channel)
				if o.Status != status[o.Channel] || o.ID == 0 {
					t.Errorf("%+q: %+v, want status %v", o.Channel, o, status[o.Channel])
				}
			}
			if fmt.Sprintf("%+q", names) != fmt.Sprintf("%+q", want) {
				t.Errorf("open channels %+q, want %+q", names, want)
			}
			ms, err := db.OpenMatches(ctx, prefix)
			if err != nil {
				t.Fatal(err)
			}
			ids := idsOf(ms, func(m storage.Match) int64 { return m.ID })
			slices.SortFunc(got, func(a, b storage.Occupant) int { return int(a.ID - b.ID) })
			if want2 := idsOf(got, func(o storage.Occupant) int64 { return o.ID }); !slices.Equal(ids, want2) {
				t.Errorf("open matches %v, want those of the open channels, oldest first: %v", ids, want2)
			}
		})
	}
}

// testClosedChannels: the channels of a prefix whose latest match is
// closed, finished or abandoned, started or not; the most recently closed
// first, each once (its latest match), within a limit; a channel whose
// closed match is followed by an open one is not listed.
func testClosedChannels(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	at := func(m int) time.Time { return T0.Add(time.Duration(m) * time.Minute) }
	closeAt := func(l *storage.Match, st storage.Status, when time.Time) *storage.Match {
		t.Helper()
		if _, err := db.Save(ctx, l.ID, l.Version, storage.Change{Status: st}, when); err != nil {
			t.Fatal(err)
		}
		return l
	}
	started := func(ch string) *storage.Match { return &Start(t, db, ch, 2, 1).Match }
	lobby := func(ch string) *storage.Match {
		t.Helper()
		m := mustCreate(t, db, ch, nil)
		return m
	}
	won := closeAt(started("web:won"), storage.Finished, at(1))
	closeAt(started("web:again"), storage.Finished, at(2))
	again := closeAt(started("web:again"), storage.Finished, at(3))
	closeAt(started("web:reopened"), storage.Finished, at(5))
	lobby("web:reopened")
	ended := closeAt(lobby("web:ended"), storage.Abandoned, at(4))
	quit := closeAt(started("web:quit"), storage.Abandoned, at(0))
	started("web:open")
	elsewhere := closeAt(started("discord:1"), storage.Finished, at(6))
	// A later change to a closed match does not move it in the list.
	l, err := db.Load(ctx, won.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Save(ctx, l.ID, l.Version, storage.Change{Meta: json.RawMessage(`{"posted":true}`)}, at(9)); err != nil {
		t.Fatal(err)
	}
	want := func(ms ...*storage.Match) []storage.Occupant {
		out := []storage.Occupant{}
		for _, m := range ms {
			st := storage.Finished
			if m == ended || m == quit {
				st = storage.Abandoned
			}
			out = append(out, storage.Occupant{Channel: m.Channel, ID: m.ID, Status: st})
		}
		return out
	}
	for _, c := range []struct {
		prefix string
		limit  int
		want   []storage.Occupant
	}{
		{"web:", 0, want(ended, again, won, quit)},
		{"web:", 2, want(ended, again)},
		{"", 0, want(elsewhere, ended, again, won, quit)},
		{"web:again", 0, want(again)},
		{"web:reopened", 0, want()},
		{"web:open", 0, want()},
		{"console:", 0, want()},
	} {
		got, err := db.ClosedChannels(ctx, c.prefix, c.limit)
		if err != nil {
			t.Fatal(err)
		}
		if got == nil {
			got = []storage.Occupant{}
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("ClosedChannels(%q, %d): got %v, want %v", c.prefix, c.limit, got, c.want)
		}
	}
}

func testIdleLobbies(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	at := func(h int) time.Time { return T0.Add(time.Duration(h) * time.Hour) }
	lobby := func(ch string, created time.Time) *storage.Match {
		t.Helper()
		m, err := db.Create(ctx, ch, json.RawMessage(`{}`), created)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	old := lobby("discord:1", at(0))
	touched := lobby("discord:2", at(0))
	if _, err := db.Save(ctx, touched.ID, touched.Version, storage.Change{Meta: json.RawMessage(`{"x":1}`)}, at(10)); err != nil {
		t.Fatal(err)
	}
	fresh := lobby("discord:3", at(20))
	console := lobby("console:main", at(0))
	gone := lobby("discord:4", at(0))
	if _, err := db.Save(ctx, gone.ID, gone.Version, storage.Change{Status: storage.Abandoned}, at(0)); err != nil {
		t.Fatal(err)
	}
	Start(t, db, "discord:5", 2, 1) // started at T0: not a lobby
	ids := func(prefix string, before time.Time) []int64 {
		t.Helper()
		ms, err := db.IdleLobbies(ctx, prefix, before)
		if err != nil {
			t.Fatal(err)
		}
		var out []int64
		for _, m := range ms {
			out = append(out, m.ID)
		}
		return out
	}
	if got, want := ids("discord:", at(5)), []int64{old.ID}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("idle before 5 h: %v, want %v", got, want)
	}
	if got, want := ids("discord:", at(30)), []int64{old.ID, touched.ID, fresh.ID}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("idle before 30 h: %v, want %v", got, want)
	}
	if got, want := ids("", at(1)), []int64{old.ID, console.ID}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("idle anywhere before 1 h: %v, want %v", got, want)
	}
}
