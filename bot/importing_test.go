package bot

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/hosted"
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
	var ie *hosted.ImportError
	if _, err := h.bot.Import(ctx, x, ImportOptions{}); !errors.As(err, &ie) || !strings.Contains(err.Error(), "meta: must be an object, not a string") {
		t.Errorf("import: %v", err)
	}
	if _, err := h.db.Active(ctx, "test:again"); !errors.Is(err, storage.ErrNotFound) {
		t.Errorf("the refused import was stored: %v", err)
	}
}
