package discord

import (
	"context"
	"encoding/hex"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
)

var update = flag.Bool("update", false, "rewrite the golden reports in testdata/")

// Check through the real discordgo against the fake Discord: one line a
// check, a fix under each failure, and nothing connected or registered.
func TestCheck(t *testing.T) {
	register := func(t *testing.T, fake *fakediscord.Server, guild string) {
		a, err := New(Config{Token: fakediscord.Token, GuildID: guild, ApplicationID: fakediscord.AppID, HTTPClient: fake.Client()})
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Register(context.Background(), command.Specs(levels())); err != nil {
			t.Fatal(err)
		}
	}
	session := func(t *testing.T, fake *fakediscord.Server) *discordgo.Session {
		s, err := discordgo.New("Bot " + fakediscord.Token)
		if err != nil {
			t.Fatal(err)
		}
		s.Client = fake.Client()
		return s
	}
	here := "channel #general (" + channel + ") in Risk Club"
	tests := []struct {
		name string
		cfg  func(*CheckConfig)
		// setup returns the channel to check, if not the default one.
		setup func(*testing.T, *fakediscord.Server) string
		// want is the start of each finding's mark and subject.
		want []string
		// text is in the report; violations counts the requests the
		// fake holds as broken rules.
		text       []string
		violations int
		// golden is the report's file under testdata, if any.
		golden string
	}{
		{
			// What an operator of the gateway mode runs: DISCORD_TOKEN
			// and DISCORD_GUILD_ID set, --channel.
			name: "all good",
			cfg:  func(c *CheckConfig) { c.ApplicationID = "" },
			setup: func(t *testing.T, fake *fakediscord.Server) string {
				register(t, fake, fakediscord.GuildID)
				fake.SetBotPermissions(channel, fakediscord.DefaultBotPermissions|fakediscord.ThreadPermissions|fakediscord.PermCreatePrivThreads)
				return ""
			},
			want:   []string{"✓ token", "✓ application", "✓ /risk and /risk-admin", "✓ database", "✓ " + here, "✓ threads in #general", "✓ team threads in #general"},
			golden: "check_ok.txt",
		},
		{
			name:  "all good over HTTP",
			cfg:   func(c *CheckConfig) { c.HTTP = true },
			setup: func(t *testing.T, fake *fakediscord.Server) string { register(t, fake, fakediscord.GuildID); return "" },
			want:  []string{"✓ token", "✓ application", "✓ /risk", "✓ public key", "✓ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text:  []string{"DISCORD_PUBLIC_KEY is the application's"},
		},
		{
			name:       "bad token",
			cfg:        func(c *CheckConfig) { c.Token = "not-the-token" },
			want:       []string{"✗ token", "– application", "– /risk", "✓ database", "– channel " + channel},
			text:       []string{"Discord refused it (401 Unauthorized)", "fix: copy the token again"},
			violations: 1,
		},
		{
			name: "a channel without Embed Links",
			setup: func(_ *testing.T, fake *fakediscord.Server) string {
				fake.SetBotPermissions(channel, fakediscord.DefaultBotPermissions&^fakediscord.PermEmbedLinks)
				return ""
			},
			want: []string{"✓ token", "✓ application", "– /risk", "✓ database", "✗ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"the bot lacks Embed Links, which hosting", "fix: give them to the bot's role in the channel",
				"lacks Create Public Threads and Send Messages in Threads, so matches play in the channel itself"},
		},
		{
			name: "a channel without access",
			setup: func(_ *testing.T, fake *fakediscord.Server) string {
				fake.SetBotPermissions(channel, fakediscord.PermSendMessages)
				return ""
			},
			want: []string{"✓ token", "✓ application", "– /risk", "✓ database", "✗ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"the bot lacks View Channel, Embed Links and Attach Files"},
		},
		{
			name:  "an unknown channel",
			setup: func(_ *testing.T, fake *fakediscord.Server) string { fake.DeleteChannel(channel); return "" },
			want:  []string{"✓ token", "✓ application", "– /risk", "✓ database", "✗ channel " + channel},
			text:  []string{"Discord knows no channel of that ID", "fix: copy the ID again"},
		},
		{
			name: "a thread: its channel's permissions",
			setup: func(t *testing.T, fake *fakediscord.Server) string {
				fake.SetBotPermissions(channel, fakediscord.DefaultBotPermissions|fakediscord.ThreadPermissions)
				th, err := session(t, fake).ThreadStartComplex(channel, &discordgo.ThreadStart{Name: "Risk: match of Ann", Type: discordgo.ChannelTypeGuildPublicThread})
				if err != nil {
					t.Fatal(err)
				}
				return th.ID
			},
			want: []string{"✓ token", "✓ application", "– /risk", "✓ database", "✓ " + here, "✓ threads in #general", "– team threads in #general"},
			text: []string{here + `, the channel of thread "Risk: match of Ann": the bot may`,
				"– team threads in #general: the bot lacks Create Private Threads, so team matches (teams:2, teams:3) start without a private thread per team"},
		},
		{
			name: "a direct message channel",
			setup: func(t *testing.T, fake *fakediscord.Server) string {
				dm, err := session(t, fake).UserChannelCreate(ann.id)
				if err != nil {
					t.Fatal(err)
				}
				return dm.ID
			},
			want: []string{"✓ token", "✓ application", "– /risk", "✓ database", "✗ channel "},
			text: []string{"a direct message channel, not a server's"},
		},
		{
			// Invited with the permissions of a thread per match, not a
			// team's: team matches got 403 for their team threads.
			name: "threads but not team threads",
			setup: func(_ *testing.T, fake *fakediscord.Server) string {
				fake.SetBotPermissions(channel, fakediscord.DefaultBotPermissions|fakediscord.PermCreatePublicThreads)
				return ""
			},
			want: []string{"✓ token", "✓ application", "– /risk", "✓ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"threads in #general: the bot lacks Send Messages in Threads, so matches play",
				"team threads in #general: the bot lacks Create Private Threads and Send Messages in Threads, so team matches (teams:2, teams:3) start without"},
		},
		{
			name: "only /risk registered",
			setup: func(t *testing.T, fake *fakediscord.Server) string {
				a, err := New(Config{Token: fakediscord.Token, GuildID: fakediscord.GuildID, ApplicationID: fakediscord.AppID, HTTPClient: fake.Client()})
				if err != nil {
					t.Fatal(err)
				}
				var risk []command.Spec
				for _, s := range command.Specs(levels()) {
					if s.Command() == command.CommandName {
						risk = append(risk, s)
					}
				}
				if err := a.Register(context.Background(), risk); err != nil {
					t.Fatal(err)
				}
				return ""
			},
			want: []string{"✓ token", "✓ application", "– /risk and /risk-admin", "✓ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"/risk-admin not registered in server " + fakediscord.GuildID + " yet: the bot registers both when it starts"},
		},
		{
			name:  "registered globally",
			cfg:   func(c *CheckConfig) { c.GuildID = "" },
			setup: func(t *testing.T, fake *fakediscord.Server) string { register(t, fake, ""); return "" },
			want:  []string{"✓ token", "✓ application", "✓ /risk", "✓ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text:  []string{"registered globally"},
		},
		{
			name: "not registered yet",
			cfg:  func(c *CheckConfig) { c.GuildID = "" },
			want: []string{"✓ token", "✓ application", "– /risk", "✓ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"/risk and /risk-admin not registered globally yet: the bot registers both when it starts"},
		},
		{
			name: "another application",
			cfg:  func(c *CheckConfig) { c.ApplicationID = "1180000000000000099" },
			want: []string{"✓ token", "✗ application", "– /risk", "✓ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"DISCORD_APPLICATION_ID is 1180000000000000099, but the token is the bot of RiskBot", "fix: set DISCORD_APPLICATION_ID=" + fakediscord.AppID},
		},
		{
			name: "http without its settings",
			cfg:  func(c *CheckConfig) { c.HTTP, c.PublicKey, c.ApplicationID = true, "", "" },
			want: []string{"✓ token", "✗ application", "– /risk", "✗ public key", "✓ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"DISCORD_APPLICATION_ID is not set", "fix: export DISCORD_APPLICATION_ID=" + fakediscord.AppID, "DISCORD_PUBLIC_KEY is not set"},
		},
		{
			name: "http with a short key",
			cfg:  func(c *CheckConfig) { c.HTTP, c.PublicKey = true, "abcd" },
			want: []string{"✓ token", "✓ application", "– /risk", "✗ public key", "✓ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"not 64 hexadecimal digits (32 bytes)"},
		},
		{
			name: "http with another application's key",
			cfg:  func(c *CheckConfig) { c.HTTP, c.PublicKey = true, strings.Repeat("ab", 32) },
			want: []string{"✓ token", "✓ application", "– /risk", "✗ public key", "✓ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"not the public key of RiskBot: every request would be refused"},
		},
		{
			name: "the database does not answer",
			cfg: func(c *CheckConfig) {
				c.Database = func(context.Context) error {
					return errors.New("storage: open /var/lib/riskbot/risk.db: unable to open database file")
				}
			},
			want: []string{"✓ token", "✓ application", "– /risk", "✗ database", "✓ " + here, "– threads in #general", "– team threads in #general"},
			text: []string{"✗ database: storage: open /var/lib/riskbot/risk.db: unable to open database file", "fix: check --db"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fake := fakediscord.New(t)
			cfg := CheckConfig{
				Token: fakediscord.Token, ApplicationID: fakediscord.AppID, GuildID: fakediscord.GuildID,
				PublicKey: hex.EncodeToString(fake.PublicKey()), Channel: channel,
				Database: func(context.Context) error { return nil }, DatabaseName: "/var/lib/riskbot/risk.db",
				HTTPClient: fake.Client(),
			}
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			if tt.setup != nil {
				if ch := tt.setup(t, fake); ch != "" {
					cfg.Channel = ch
				}
			}
			puts := fake.Overwrites()
			r, err := Check(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			out := r.String()
			t.Logf("report:\n%s", out)
			var got []string
			for _, f := range r {
				got = append(got, strings.Fields(f.String())[0]+" "+f.What)
				if f.Status == Fail && f.Fix == "" {
					t.Errorf("%q failed without a fix", f.What)
				}
			}
			ok := len(got) == len(tt.want)
			for i := 0; ok && i < len(got); i++ {
				ok = strings.HasPrefix(got[i], tt.want[i])
			}
			if !ok {
				t.Errorf("findings:\n%s\nwant:\n%s\nreport:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"), out)
			}
			for _, s := range tt.text {
				if !strings.Contains(out, s) {
					t.Errorf("report lacks %q:\n%s", s, out)
				}
			}
			if failed := strings.Count(strings.Join(got, "\n"), "✗"); r.Failed() != failed {
				t.Errorf("Failed() = %d, want %d", r.Failed(), failed)
			}
			if v := fake.TakeViolations(); len(v) != tt.violations {
				t.Errorf("violations %q, want %d", v, tt.violations)
			}
			if fake.Overwrites() != puts || fake.Connected() != 0 {
				t.Errorf("the check registered (%d) or connected (%d)", fake.Overwrites()-puts, fake.Connected())
			}
			if tt.golden != "" {
				golden(t, tt.golden, out)
			}
		})
	}
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to write it)", err)
	}
	if got != string(want) {
		t.Errorf("report:\n%s\nwant (%s):\n%s", got, path, want)
	}
}
