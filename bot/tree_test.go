package bot

import (
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/command"
)

// oldWords returns the subcommands /risk took before its subcommands moved
// into groups and /risk-admin (issue "the first hour", item 11), with the
// older words still understood, and the full name of the subcommand whose
// handler each reaches now: typed in the console or on the page, each
// must keep working.
func oldWords() []struct{ typed, want string } {
	return []struct{ typed, want string }{
		{"new", "new"},
		{"join", "join"},
		{"start", "start"},
		{"place", "place"},
		{"autoplace", "place"},
		{"trade", "trade"},
		{"attack", "attack"},
		{"occupy", "occupy"},
		{"fortify", "fortify"},
		{"port", "port"},
		{"launch", "launch"},
		{"end", "end"},
		{"undo", "undo"},
		{"surrender", "surrender"},
		{"leave", "surrender"},
		{"help", "help"},
		{"addbot", "host addbot"},
		{"kick", "host kick"},
		{"settings", "host settings"},
		{"abandon", "host abandon"},
		{"status", "show status"},
		{"map", "show status"},
		{"cards", "show cards"},
		{"odds", "show odds"},
		{"history", "show history"},
		{"notify", "me notify"},
		{"stats", "me stats"},
		{"games", "me games"},
		{"leaderboard", "me stats"},
		{"admin show", "admin show"},
		{"admin defaults", "admin defaults"},
		{"admin limits", "admin limits"},
		{"admin reset", "admin reset"},
	}
}

// Every word /risk took before the command tree still reaches the handler
// that does its work: the bot resolves it (its meter names the subcommand
// it ran) and has a handler for it (no "not available yet").
func TestOldWordsReachTheirHandlers(t *testing.T) {
	h := newHarness(t)
	rec := &recorder{}
	h.configure = func(c *Config) { c.Meter = rec }
	h.restart()
	for _, tc := range oldWords() {
		t.Run(tc.typed, func(t *testing.T) {
			if _, ok := h.bot.handlers[tc.want]; !ok {
				t.Fatalf("no handler for %s", tc.want)
			}
			ch := "test:old-" + strings.ReplaceAll(tc.typed, " ", "-")
			m := h.do(ch, "Ann", tc.typed)
			if strings.Contains(m.Text, "There is no /risk") || strings.Contains(m.Text, "not available") {
				t.Errorf("/risk %s: %q", tc.typed, m.Text)
			}
			rec.mu.Lock()
			last := rec.events[len(rec.events)-1]
			rec.mu.Unlock()
			if !strings.HasPrefix(last, "command "+tc.want+" ") {
				t.Errorf("/risk %s ran %q, want %s", tc.typed, last, tc.want)
			}
		})
	}
}

// Every registered subcommand has its handler.
func TestEverySubcommandHasAHandler(t *testing.T) {
	h := newHarness(t)
	for _, s := range h.bot.Specs() {
		if _, ok := h.bot.handlers[s.FullName()]; !ok {
			t.Errorf("%s has no handler", s.Slash())
		}
	}
	for name := range h.bot.handlers {
		if _, ok := command.Find(h.bot.Specs(), name); !ok {
			t.Errorf("the handler of %q answers no subcommand", name)
		}
	}
}

// /risk me token gives a seated player their token, privately; and says
// clearly why not to anyone else, or before the match starts.
func TestMeToken(t *testing.T) {
	h := newHarness(t)
	const ch = "test:token"
	wantPrivate(t, h.do(ch, "Ann", "me token"), "no match in this channel")
	h.do(ch, "Ann", "new")
	h.do(ch, "Bob", "join")
	wantPrivate(t, h.do(ch, "Ann", "me token"), "not started yet")
	h.do(ch, "Ann", "start")
	h.bot.Wait()
	wantPrivate(t, h.do(ch, "Zed", "me token"), "no seat")
	m := h.do(ch, "Ann", "me token")
	wantPrivate(t, m, "rk_", "docs/api.md", "risk web", "Authorization: Bearer")
	if strings.Contains(m.Text, "{") {
		t.Errorf("the answer carries markup: %q", m.Text)
	}
}
