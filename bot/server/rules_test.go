package server

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/state"
	"github.com/riskbot/riskbot/storage"
)

// Issue 12, item 12: a server's admins set defaults for its new matches,
// the computer levels allowed, who may open matches, and limits; a reset
// forgets them. Each step is a command and what its answer must say.
func TestAdminRules(t *testing.T) {
	e := newEnv(t, "test:")
	const server = "test:server"
	type step struct {
		who     string
		admin   bool
		command string
		opts    map[string]string
		refused bool
		want    []string
	}
	for i, s := range []step{
		{"Ann", false, "admin defaults", map[string]string{"turn-hours": "48"}, true, []string{"Only the server's admins"}},
		{"Ann", false, "admin limits", map[string]string{"per-host": "1"}, true, []string{"Only the server's admins"}},
		{"Ann", false, "admin reset", nil, true, []string{"Only the server's admins"}},
		{"Dan", true, "admin defaults", map[string]string{"bot-levels": "easy wizard"}, true, []string{`no computer level "wizard"`}},
		{"Dan", true, "admin defaults", map[string]string{"bot-levels": " , "}, true, []string{"Name at least one computer level"}},
		{"Dan", true, "admin defaults", map[string]string{"turn-hours": "0"}, true, []string{"between 1 and 720"}},
		{"Dan", true, "admin defaults", map[string]string{"turn-hours": "48", "victory": "domination", "bot-levels": "easy, normal"}, false,
			[]string{"Saved.", "48 h per turn", "total domination wins", "Computer levels: easy, normal."}},
		{"Ann", false, "admin show", nil, false, []string{"48 h per turn", "Who may open matches: everyone.", "no limit per host", "A lobby closes after 7 days"}},
		{"Dan", true, "admin defaults", map[string]string{"who-starts": "admins"}, false, []string{"Who may open matches: admins only."}},
		{"Dan", true, "admin limits", map[string]string{"per-host": "1", "per-server": "3", "lobby-days": "2"}, false,
			[]string{"1 per host, 3 in the server", "A lobby closes after 2 days", "48 h per turn"}},
		{"Dan", true, "admin reset", nil, false, []string{"24 h per turn", "no limit per host", "Who may open matches: everyone."}},
	} {
		t.Run(fmt.Sprintf("%d %s %v", i, s.command, s.opts), func(t *testing.T) {
			e.t = t
			got, refused := e.do(chat.Request{Channel: "test:a", User: chat.User{ID: "test:" + strings.ToLower(s.who), Name: s.who}, Command: s.command,
				Options: s.opts, Server: server, Admin: s.admin})
			if refused != s.refused {
				t.Errorf("refused %v, want %v: %q", refused, s.refused, got)
			}
			for _, w := range s.want {
				if !strings.Contains(got, w) {
					t.Errorf("got %q, want %q in it", got, w)
				}
			}
		})
	}
	// The reset forgot the rules: nothing is stored.
	if _, err := e.store.Setting(context.Background(), serverScope, server); err == nil {
		t.Error("a reset server keeps a setting")
	}
	// Outside a server there are no server settings.
	for _, c := range []string{"admin show", "admin defaults", "admin reset"} {
		got, refused := e.do(chat.Request{Channel: "dm", User: chat.User{ID: "test:dan"}, Command: c, Admin: true})
		if !refused || got != "Server settings exist only in a server." {
			t.Errorf("/risk %s outside a server: %q, refused %v", c, got, refused)
		}
	}
}

// TestDefaultsAndLevels: the rules' defaults are the settings of a new
// match before its host's choices; a computer level the server does not
// allow is refused when chosen, replaced by the first allowed when not.
func TestDefaultsAndLevels(t *testing.T) {
	e := newEnv(t, "test:")
	set, err := e.sv.Defaults(Rules{Defaults: map[string]string{"turn-hours": "48", "victory": "domination"}})
	if err != nil || set.TurnHours != 48 || set.Options.Victory != state.Domination {
		t.Errorf("defaults: %d h, victory %v, %v; want 48 h, domination", set.TurnHours, set.Options.Victory, err)
	}
	set, err = e.sv.Defaults(Rules{Defaults: map[string]string{"palette": "sepia"}})
	if err == nil || set.TurnHours != hosted.DefaultSettings().TurnHours {
		t.Errorf("a default the bot no longer offers: %+v, %v; want the bot's settings and an error", set, err)
	}
	// The admins see it in the rules.
	if got := e.sv.rulesText(readerOf(chat.Request{}), Rules{Defaults: map[string]string{"palette": "sepia"}}); !strings.Contains(got, "A default no longer applies") {
		t.Errorf("rules with a stale default: %q", got)
	}
	for _, tt := range []struct {
		name   string
		levels []string
		level  string
		chosen bool
		want   string
		refuse string
	}{
		{"every level allowed", nil, "hard", true, "hard", ""},
		{"an allowed level", []string{"easy", "normal"}, "normal", true, "normal", ""},
		{"the default not allowed: the first allowed", []string{"easy"}, "normal", false, "easy", ""},
		{"a level chosen not allowed", []string{"easy", "normal"}, "hard", true, "", "On this server, computer players are easy or normal only."},
		{"one level allowed", []string{"easy"}, "hard", true, "", "On this server, computer players are easy only."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got, err := e.sv.LevelAllowed(Rules{Levels: tt.levels}, tt.level, tt.chosen)
			if got != tt.want || (err == nil) != (tt.refuse == "") || (err != nil && err.Error() != tt.refuse) {
				t.Errorf("got %q, %v; want %q, %q", got, err, tt.want, tt.refuse)
			}
		})
	}
	for _, tt := range []struct {
		bot  time.Duration
		days int
		want time.Duration
	}{
		{72 * time.Hour, 0, 72 * time.Hour},
		{72 * time.Hour, 2, 48 * time.Hour},
		{72 * time.Hour, 1, 24 * time.Hour},
		{-1, 0, -1},
	} {
		sv := New(Config{LobbyTTL: tt.bot})
		if got := sv.LobbyTTL(Rules{LobbyDays: tt.days}); got != tt.want {
			t.Errorf("the bot's %v, the server's %d days: got %v, want %v", tt.bot, tt.days, got, tt.want)
		}
	}
	if got := New(Config{LobbyTTL: -1}).rulesText(readerOf(chat.Request{}), Rules{}); !strings.Contains(got, "Lobbies wait as long as it takes.") {
		t.Errorf("the rules of a bot whose lobbies never close: %q", got)
	}
}

// TestMayOpen: a server may let only its admins open matches, and bound
// the open matches of a host and of the whole server; other servers'
// matches, and those of another scope, do not count.
func TestMayOpen(t *testing.T) {
	e := newEnv(t, "test:")
	const server = "test:s1"
	ctx := context.Background()
	lobby := func(channel, host, server string) {
		t.Helper()
		meta := hosted.Meta{Host: "test:" + host, Server: server, Settings: hosted.DefaultSettings()}
		if _, err := e.store.Create(ctx, channel, meta.Encode(), e.now); err != nil {
			t.Fatal(err)
		}
	}
	lobby("test:a", "ann", server)
	lobby("test:b", "bob", server)
	lobby("test:c", "ann", "test:s2") // another server's
	lobby("other:d", "ann", server)   // another scope's
	lobby("test:e", "ann", "")        // outside any server
	closed := e.open(server, "test:f", time.Hour, "Ann", "Bob")
	if _, err := e.store.Save(ctx, closed.ID, closed.Version, storage.Change{Status: storage.Abandoned}, e.now); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name   string
		rules  Rules
		who    string
		admin  bool
		refuse string
	}{
		{"no rules", Rules{}, "ann", false, ""},
		{"admins only, a player", Rules{Starters: "admins"}, "ann", false, "On this server only admins open matches. Join one of theirs, or ask them."},
		{"admins only, an admin", Rules{Starters: "admins"}, "ann", true, ""},
		{"one per host, Ann has one here", Rules{PerHost: 1}, "ann", false, "You host 1 open match on this server already, the most it allows: finish or end one first (/risk host abandon)."},
		{"two per host", Rules{PerHost: 2}, "ann", false, ""},
		{"one per host, Cat has none", Rules{PerHost: 1}, "cat", false, ""},
		{"two in the server", Rules{PerServer: 2}, "cat", false, "This server has 2 open matches, the most it allows: try again when one ends."},
		{"three in the server", Rules{PerServer: 3}, "cat", false, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := e.sv.MayOpen(ctx, chat.Request{Channel: "test:new", User: chat.User{ID: "test:" + tt.who}, Server: server, Admin: tt.admin}, tt.rules)
			if (err == nil) != (tt.refuse == "") || (err != nil && err.Error() != tt.refuse) {
				t.Errorf("got %v, want %q", err, tt.refuse)
			}
		})
	}
}

// TestRulesStored: the rules read back as stored; a server without any
// has none; rules that do not decode are an error, not the bot's rules.
func TestRulesStored(t *testing.T) {
	e := newEnv(t, "test:")
	ctx := context.Background()
	if r, err := e.sv.Rules(ctx, ""); err != nil || !isZero(r) {
		t.Errorf("outside a server: %+v, %v", r, err)
	}
	if r, err := e.sv.Rules(ctx, "test:new"); err != nil || !isZero(r) {
		t.Errorf("a server without rules: %+v, %v", r, err)
	}
	if err := e.store.SetSetting(ctx, serverScope, "test:bad", []byte(`{"per_host":"x"}`), e.now); err != nil {
		t.Fatal(err)
	}
	if _, err := e.sv.Rules(ctx, "test:bad"); err == nil {
		t.Error("rules that do not decode gave no error")
	}
}
