package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// testRequires: a change that requires a setting (Change.Requires) is
// written only while the setting holds the value it names (the same JSON,
// however spaced), or is absent for none; otherwise it fails with
// ErrRequirement and changes nothing. Both kinds of change are tried: a
// command (which a store may write in one statement) and a meta alone.
func testRequires(t *testing.T, newDB New) {
	ctx := context.Background()
	db, l, r := started(t, newDB, "test:1", 3, 7)
	g, v := l.Game, l.Version
	const scope, key = "web-token-gen", "1/discord:1"
	tests := []struct {
		name    string
		setting string // the setting's value before the save ("" for none)
		require string // what the change requires ("" for no setting)
		ok      bool
	}{
		{"absent, required absent", "", "", true},
		{"absent, required a value", "", `{"gen":1}`, false},
		{"a value, required absent", `{"gen":1}`, "", false},
		{"a value, required it", `{"gen":1}`, `{"gen":1}`, true},
		{"a value, required it spaced", `{"gen":1}`, ` { "gen" : 1 } `, true},
		{"a value, required another", `{"gen":2}`, `{"gen":1}`, false},
		{"deleted, required the old value", "", `{"gen":2}`, false},
	}
	for _, tt := range tests {
		for _, kind := range []string{"command", "meta"} {
			t.Run(tt.name+"/"+kind, func(t *testing.T) {
				var value json.RawMessage
				if tt.setting != "" {
					value = json.RawMessage(tt.setting)
				}
				if err := db.SetSetting(ctx, scope, key, value, T0); err != nil {
					t.Fatal(err)
				}
				req := &storage.Setting{Scope: scope, ID: key}
				if tt.require != "" {
					req.Value = json.RawMessage(tt.require)
				}
				c := storage.Change{Meta: json.RawMessage(`{"host":"` + tt.name + `"}`), Requires: req}
				next := g
				if kind == "command" {
					next = g.Clone()
					e, err := Move(next, r)
					if err != nil {
						t.Fatal(err)
					}
					c.Entries, c.Game = []engine.Entry{e}, next
				}
				got, err := db.Save(ctx, l.ID, v, c, T0)
				switch {
				case tt.ok && err != nil:
					t.Fatalf("save: %v, want it saved", err)
				case tt.ok:
					if got != v+1 {
						t.Fatalf("saved as version %d, want %d", got, v+1)
					}
					g, v = next, got
				case !errors.Is(err, storage.ErrRequirement):
					t.Fatalf("save: got %v, want ErrRequirement", err)
				}
				after := mustLoad(t, db, l.ID)
				if after.Version != v {
					t.Fatalf("the match is at version %d, want %d", after.Version, v)
				}
				SameGame(t, "after the save", after.Game, g)
			})
		}
	}
	// A requirement that names no setting is refused before anything is
	// read.
	if _, err := db.Save(ctx, l.ID, v, storage.Change{Meta: json.RawMessage(`{}`), Requires: &storage.Setting{Scope: scope}}, T0); err == nil || errors.Is(err, storage.ErrRequirement) {
		t.Errorf("a requirement without an id: got %v, want a refusal", err)
	}
}

// testReads: a change may read settings in its transaction for its
// caller (Change.Reads): those there are, as they are when it is saved,
// and none if it is not. Both kinds of change are tried, as in
// testRequires.
func testReads(t *testing.T, newDB New) {
	ctx := context.Background()
	db, l, r := started(t, newDB, "test:1", 3, 9)
	g, v := l.Game, l.Version
	for _, s := range []struct{ scope, id, value string }{
		{"channel", "test:1", `{"reason":"gone"}`},
		{"player", "test:ann", `{"dm":true}`},
		{"player", "test:bob", `{"away":1}`},
	} {
		if err := db.SetSetting(ctx, s.scope, s.id, json.RawMessage(s.value), T0); err != nil {
			t.Fatal(err)
		}
	}
	keys := []storage.Setting{{Scope: "channel", ID: "test:1"}, {Scope: "player", ID: "test:ann"}, {Scope: "player", ID: "test:cid"}}
	for _, kind := range []string{"command", "meta"} {
		t.Run(kind, func(t *testing.T) {
			if err := db.SetSetting(ctx, "player", "test:ann", json.RawMessage(`{"dm":true,"kind":"`+kind+`"}`), T0); err != nil {
				t.Fatal(err)
			}
			change := func() storage.Change {
				c := storage.Change{Meta: json.RawMessage(`{"host":"` + kind + `"}`), Reads: &storage.Reads{Keys: keys}}
				if kind == "command" {
					next := g.Clone()
					e, err := Move(next, r)
					if err != nil {
						t.Fatal(err)
					}
					c.Entries, c.Game = []engine.Entry{e}, next
				}
				return c
			}
			stale := change()
			if _, err := db.Save(ctx, l.ID, v-1, stale, T0); !errors.Is(err, storage.ErrConflict) {
				t.Fatalf("a stale save: %v, want ErrConflict", err)
			}
			if stale.Reads.Read || stale.Reads.Found != nil {
				t.Errorf("a change not saved read %+v", stale.Reads)
			}
			c := change()
			got, err := db.Save(ctx, l.ID, v, c, T0)
			if err != nil {
				t.Fatal(err)
			}
			if c.Game != nil {
				g = c.Game
			}
			v = got
			if !c.Reads.Read {
				t.Fatal("a change saved did not say it read its settings")
			}
			var found []string
			for _, s := range c.Reads.Found {
				found = append(found, s.Scope+" "+s.ID+" "+string(s.Value))
			}
			slices.Sort(found)
			want := []string{`channel test:1 {"reason":"gone"}`, `player test:ann {"dm":true,"kind":"` + kind + `"}`}
			if fmt.Sprint(found) != fmt.Sprint(want) {
				t.Errorf("read %q, want %q", found, want)
			}
			if got := string(c.Reads.Value("player", "test:ann")); got != `{"dm":true,"kind":"`+kind+`"}` {
				t.Errorf("Value of player test:ann: %s", got)
			}
			if got := c.Reads.Value("player", "test:cid"); got != nil {
				t.Errorf("Value of a setting absent: %s, want none", got)
			}
		})
	}
}
