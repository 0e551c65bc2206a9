package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/riskbot/riskbot/engine"

	"github.com/riskbot/riskbot/storage"
)

// testHead: a match's head follows every change (its version, its status),
// by id and by its open channel, and is not found where Load and Active
// are not.
func testHead(t *testing.T, newDB New) {
	ctx := context.Background()
	db := Open(t, newDB(t, 10))
	if _, err := db.Head(ctx, 12345); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("head of no match: got %v, want ErrNotFound", err)
	}
	if _, err := db.OpenHead(ctx, "test:none"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("open head of an empty channel: got %v, want ErrNotFound", err)
	}
	m := mustCreate(t, db, "test:head", nil)
	check := func(when string, want storage.Head) {
		t.Helper()
		if h, err := db.Head(ctx, m.ID); err != nil || h != want {
			t.Errorf("%s: head %+v, %v; want %+v", when, h, err, want)
		}
		h, err := db.OpenHead(ctx, "test:head")
		if want.Status.Open() && (err != nil || h != want) {
			t.Errorf("%s: open head %+v, %v; want %+v", when, h, err, want)
		}
		if !want.Status.Open() && !errors.Is(err, storage.ErrNotFound) {
			t.Errorf("%s: open head %+v, %v; want ErrNotFound", when, h, err)
		}
		l, err := db.Load(ctx, m.ID)
		if err != nil || l.Version != want.Version || l.Status != want.Status || l.Commands != want.Commands {
			t.Errorf("%s: loaded at version %d, %v (%v); the head says %d, %v", when, l.Version, l.Status, err, want.Version, want.Status)
		}
	}
	check("lobby", storage.Head{ID: m.ID, Channel: "test:head", Status: storage.Lobby, Version: 1})
	setup := NewSetup(3, 7)
	v, err := db.Save(ctx, m.ID, 1, storage.Change{Start: &setup}, T0)
	if err != nil {
		t.Fatal(err)
	}
	check("started", storage.Head{ID: m.ID, Channel: "test:head", Status: storage.Active, Version: v})
	v, err = db.Save(ctx, m.ID, v, storage.Change{Meta: json.RawMessage(`{"x":1}`)}, T0)
	if err != nil {
		t.Fatal(err)
	}
	g, err := engine.NewGame(setup)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Move(g, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	v, err = db.Save(ctx, m.ID, v, storage.Change{Entries: []engine.Entry{e}, Game: g}, T0)
	if err != nil {
		t.Fatal(err)
	}
	check("a command played", storage.Head{ID: m.ID, Channel: "test:head", Status: storage.Active, Version: v, Commands: 1})
	check("meta changed", storage.Head{ID: m.ID, Channel: "test:head", Status: storage.Active, Version: v, Commands: 1})
	v, err = db.Save(ctx, m.ID, v, storage.Change{Status: storage.Abandoned}, T0)
	if err != nil {
		t.Fatal(err)
	}
	check("abandoned", storage.Head{ID: m.ID, Channel: "test:head", Status: storage.Abandoned, Version: v, Commands: 1})
}
