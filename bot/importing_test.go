package bot

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/imports"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/storage"
)

// Whatever the bot stores, it accepts back: lobbies, matches under way
// (with their history and computer players) and finished ones.
func TestImportAcceptsWhatTheBotExports(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	h.do("test:lobby", "Ann", "new", "turn-hours:6", "palette:colorblind")
	h.do("test:lobby", "Ann", "addbot", "level:hard")
	h.started("test:active", []string{"Ann", "Bob"}, "easy")
	h.do("test:active", "Ann", "autoplace")
	h.do("test:active", "Bob", "autoplace")
	h.do("test:over", "Ann", "new")
	h.do("test:over", "Ann", "addbot", "level:easy")
	h.do("test:over", "Ann", "addbot", "level:random")
	h.do("test:over", "Ann", "leave")
	h.do("test:over", "Ann", "start")
	h.bot.Wait()
	for _, ch := range []string{"test:lobby", "test:active", "test:over"} {
		t.Run(ch, func(t *testing.T) {
			x, err := h.db.Export(ctx, h.load(ch).ID)
			if err != nil {
				t.Fatal(err)
			}
			x.Channel = ch + "-copy"
			im, err := h.bot.Import(ctx, x, ImportOptions{})
			if err != nil {
				t.Fatalf("import of a %s match: %v", x.Status, err)
			}
			if m := im.Match; m.Status != x.Status || h.load(ch+"-copy").ID != m.ID {
				t.Errorf("imported %+v", im.Match)
			}
		})
	}
}

// A match whose data does not decode (stored by hand, or by an import
// from before imports were checked) is refused with a word; it used to
// answer every command of the channel "Something went wrong".
func TestDamagedMatchDataIsSaidSo(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	const ch = "test:damaged"
	m, err := h.db.Create(ctx, ch, json.RawMessage(`"surprise"`), h.clock())
	if err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{"status", "join", "new", "start"} {
		r := h.do(ch, "Ann", cmd)
		if strings.Contains(r.Text, "Something went wrong") || !strings.Contains(r.Text, "damaged") && !strings.Contains(r.Text, "already has a match") {
			t.Errorf("/risk %s: %q", cmd, r.Text)
		}
	}
	x, err := h.db.Export(ctx, m.ID)
	if err != nil {
		t.Fatal(err)
	}
	x.Channel = "test:again"
	var ie *imports.Error
	if _, err := h.bot.Import(ctx, x, ImportOptions{}); !errors.As(err, &ie) || !strings.Contains(err.Error(), "meta: must be an object, not a string") {
		t.Errorf("import: %v", err)
	}
	if _, err := h.db.Active(ctx, "test:again"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("the refused import was stored: %v", err)
	}
}

// Issue item 3: a match imported live was played on with a seed its
// importer held, and its victory still said every roll could be checked.
// Now a match imported unverified says, when won and when asked, that its
// dice cannot be checked; one imported verified, that its commitment came
// with the import and proves only as much as its importer is trusted.
func TestImportedDiceAreSaidSo(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	const origin = "test:origin"
	h.do(origin, "Ann", "new")
	h.do(origin, "Ann", "addbot", "level:easy")
	h.do(origin, "Ann", "addbot", "level:easy")
	h.do(origin, "Ann", "leave")
	h.do(origin, "Ann", "start")
	h.takePosts()
	x, err := h.db.Export(ctx, h.load(origin).ID)
	if err != nil {
		t.Fatal(err)
	}
	// The match as it stood half way: its computers play it on once
	// imported.
	x.Status = storage.Active
	x.Record.Log = x.Record.Log[:len(x.Record.Log)/2]
	meta, err := hosted.DecodeMeta(x.Meta)
	if err != nil {
		t.Fatal(err)
	}
	meta.Finished, meta.Turn, meta.Steps = time.Time{}, nil, nil
	x.Meta = meta.Encode()
	forged := *x
	forged.Record.Setup.Deal = &engine.Deal{Order: slices.Clone(x.Record.Setup.Deal.Order), Owners: x.Record.Setup.Deal.Owners}
	slices.Reverse(forged.Record.Setup.Deal.Order)

	for _, tt := range []struct {
		name       string
		x          *storage.Export
		unverified bool
		live       string   // /risk history show:verify while it goes on
		won        []string // its victory post
		verify     []string // /risk history show:verify once won
	}{
		{"verified", x, false,
			"It came with the match's import",
			[]string{"Fair dice", "came with the match's import", "only as far as you trust whoever exported and imported the match"},
			[]string{"Fair dice", "verified: every random outcome follows from the committed seed", "came with the match's import, not from a start post here"}},
		{"unverified", &forged, true,
			"This match was imported unverified: its dice cannot be checked, now or when it ends. Why: deal: the recorded turn order",
			[]string{"Unverified dice", "⚠️ Not provably fair: this match was imported unverified, so its dice cannot be checked.", "Why: deal: the recorded turn order"},
			[]string{"Unverified dice", "NOT verified", "imported unverified: its dice cannot be proven fair, whatever this check says. Why: deal: "}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ch := "test:" + tt.name
			y := *tt.x
			y.Channel = ch
			if tt.unverified {
				var ie *imports.Error
				if _, err := h.bot.Import(ctx, &y, ImportOptions{}); !errors.As(err, &ie) {
					t.Fatalf("import of a forged match without --unverified: %v", err)
				}
			}
			im, err := h.bot.Import(ctx, &y, ImportOptions{Unverified: tt.unverified})
			if err != nil {
				t.Fatal(err)
			}
			if (im.Unverified != "") != tt.unverified {
				t.Errorf("imported %+v, unverified %q", im.Match, im.Unverified)
			}
			r := h.do(ch, "Zed", "history", "show:verify")
			wantText(t, r, tt.live)
			if err := h.bot.Resume(ctx); err != nil {
				t.Fatal(err)
			}
			posts := h.takePosts()
			if m := h.load(ch); m.Status != storage.Finished {
				t.Fatalf("the computers stopped at turn %d", m.Game.State.Turn)
			}
			won := posts[len(posts)-1]
			if won.channel != ch || !strings.Contains(all(won.msg), "wins after") {
				t.Fatalf("the last post is not the victory: %q", all(won.msg))
			}
			wantText(t, won.msg, tt.won...)
			if strings.Contains(all(won.msg), "committed at the start") {
				t.Errorf("an imported match claims a commitment of its start: %q", all(won.msg))
			}
			wantPrivate(t, h.do(ch, "Zed", "history", "show:verify"), tt.verify...)
		})
	}
}

// Issue 42, item 6: whoever writes a file chooses whom its seats name, so
// an imported match counts in the leaderboards (/risk me stats) only if
// its operator said so (ImportOptions.Rated), even once it is won here.
func TestImportedMatchesCountOnlyRated(t *testing.T) {
	h := newHarness(t)
	ctx := context.Background()
	const origin = "test:origin"
	h.do(origin, "Ann", "new")
	h.do(origin, "Ann", "addbot", "level:easy")
	h.do(origin, "Ann", "addbot", "level:easy")
	h.do(origin, "Ann", "leave")
	h.do(origin, "Ann", "start")
	h.takePosts()
	x, err := h.db.Export(ctx, h.load(origin).ID)
	if err != nil {
		t.Fatal(err)
	}
	// Half way: the computers play it on once imported, and win here.
	x.Status = storage.Active
	x.Record.Log = x.Record.Log[:len(x.Record.Log)/2]
	meta, err := hosted.DecodeMeta(x.Meta)
	if err != nil {
		t.Fatal(err)
	}
	meta.Finished, meta.Turn, meta.Steps = time.Time{}, nil, nil
	x.Meta = meta.Encode()
	for _, tt := range []struct {
		rated bool
		want  string
	}{
		{false, "No match of these rules has been won here yet."},
		{true, "easy (computer) — 1500 (1 won of 2)"},
	} {
		ch := map[bool]string{false: "test:unrated", true: "test:rated"}[tt.rated]
		t.Run(ch, func(t *testing.T) {
			y := *x
			y.Channel = ch
			im, err := h.bot.Import(ctx, &y, ImportOptions{Rated: tt.rated, Source: "match.json"})
			if err != nil {
				t.Fatal(err)
			}
			if im.Origin.Source != "match.json" || im.Origin.Rated != tt.rated {
				t.Errorf("origin %+v, want match.json rated %v", im.Origin, tt.rated)
			}
			if err := h.bot.Resume(ctx); err != nil {
				t.Fatal(err)
			}
			h.takePosts()
			if m := h.load(ch); m.Status != storage.Finished {
				t.Fatalf("the computers stopped at turn %d", m.Game.State.Turn)
			}
			wantPrivate(t, h.do(ch, "Zed", "stats"), "Leaderboard — classic rules", tt.want)
		})
	}
}
