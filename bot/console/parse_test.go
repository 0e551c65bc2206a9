package console

import (
	"testing"

	"github.com/riskbot/riskbot/bot/command"
)

// Lines typed in the console (and on the page, which reads them the same
// way) reach the subcommand they mean: old words, the groups of /risk, and
// /risk-admin, which is /risk admin in the core.
func TestParseCommandTree(t *testing.T) {
	specs := command.Specs([]string{"easy", "normal", "hard"})
	for _, tc := range []struct {
		line, want string
		opts       int
	}{
		{"Ann: /risk addbot level:easy", "host addbot", 1},
		{"Ann: /risk host addbot level:easy", "host addbot", 1},
		{"/risk status", "show status", 0},
		{"/risk show status", "show status", 0},
		{"/risk map", "show status", 0},
		{"/risk history show:replay", "show history", 1},
		{"/risk show history show:replay", "show history", 1},
		{"/risk me notify away:3d", "me notify", 1},
		{"/risk leaderboard", "me stats", 0},
		{"/risk admin defaults turn-hours:12", "admin defaults", 1},
		{"/risk-admin defaults turn-hours:12", "admin defaults", 1},
		{"/risk-admin show", "admin show", 0},
		{"/risk-admin Show", "admin show", 0},
		{"/risk attack from:Alaska to:Kamchatka", "attack", 2},
	} {
		l, err := ParseLine(tc.line, "Ann")
		if err != nil {
			t.Errorf("%s: %v", tc.line, err)
			continue
		}
		s, ok := command.Find(specs, command.Alias(l.Command))
		if l.Kind != Command || !ok || s.FullName() != tc.want || len(l.Options) != tc.opts {
			t.Errorf("%s: %q with %d options, want %s with %d", tc.line, l.Command, len(l.Options), tc.want, tc.opts)
		}
	}
	for _, bad := range []string{"/risk-admin", "/risk-admin turn-hours:12", "/risk-administer show"} {
		if l, err := ParseLine(bad, "Ann"); err == nil && l.Kind == Command {
			if _, ok := command.Find(specs, command.Alias(l.Command)); ok {
				t.Errorf("%s: read as %q", bad, l.Command)
			}
		}
	}
}
