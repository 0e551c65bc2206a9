package discord

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
)

// levels are the computer player levels risk discord offers.
func levels() []string { return ai.Levels() }

// The /risk and /risk-admin trees built from the core's real subcommands
// pass every limit Discord puts on commands (the fake's checks: names,
// descriptions, counts, required options first, choices, autocomplete, the
// 8000 characters), and each subcommand keeps what the core declared.
func TestCommandWithinDiscordLimits(t *testing.T) {
	specs := command.Specs(levels())
	for _, global := range []bool{true, false} {
		cmds := Commands(specs, global)
		body, err := json.Marshal(cmds)
		if err != nil {
			t.Fatal(err)
		}
		if err := fakediscord.CheckCommands(body); err != nil {
			t.Fatalf("global %v: Discord would refuse the commands: %v", global, err)
		}
		var reg []fakediscord.Command
		if err := json.Unmarshal(body, &reg); err != nil {
			t.Fatal(err)
		}
		for i, cmd := range cmds {
			t.Logf("global %v: /%s: %d subcommands and groups, %d of %d characters", global, cmd.Name, len(cmd.Options), fakediscord.CommandChars(reg[i]), fakediscord.MaxCommandChars)
			if global != (cmd.Contexts != nil) {
				t.Errorf("global %v: /%s has contexts %v (only global commands take them)", global, cmd.Name, cmd.Contexts)
			}
		}
	}
	cmds := Commands(specs, true)
	if len(cmds) != 2 || cmds[0].Name != command.CommandName || cmds[1].Name != command.AdminCommandName {
		t.Fatalf("commands %v, want /%s and /%s", names(cmds), command.CommandName, command.AdminCommandName)
	}
	for _, cmd := range cmds {
		if want := topLevel(specs, cmd.Name); len(cmd.Options) != want || want > fakediscord.MaxOptions {
			t.Errorf("/%s with %d subcommands and groups, want %d", cmd.Name, len(cmd.Options), want)
		}
	}
	// Each option keeps what the core declared.
	for i, s := range specs {
		sub := findSub(cmds, s)
		if sub == nil || sub.Name != s.Name || sub.Type != discordgo.ApplicationCommandOptionSubCommand || len(sub.Options) != len(s.Options) {
			t.Errorf("subcommand %d: %+v, want %s with %d options", i, sub, s.Slash(), len(s.Options))
			continue
		}
		for _, o := range s.Options {
			j := slices.IndexFunc(sub.Options, func(x *discordgo.ApplicationCommandOption) bool { return x.Name == o.Name })
			if j < 0 {
				t.Errorf("%s lost option %s", s.Slash(), o.Name)
				continue
			}
			got := sub.Options[j]
			if got.Required != o.Required || got.Autocomplete != o.Autocomplete || len(got.Choices) != len(o.Choices) {
				t.Errorf("%s %s: required %v autocomplete %v choices %d; want %v %v %d", s.Slash(), o.Name,
					got.Required, got.Autocomplete, len(got.Choices), o.Required, o.Autocomplete, len(o.Choices))
			}
			if o.Type == command.Integer && (got.Type != discordgo.ApplicationCommandOptionInteger || (o.Max != 0 && got.MaxValue != float64(o.Max))) {
				t.Errorf("%s %s: type %d max %v, want an integer up to %d", s.Slash(), o.Name, got.Type, got.MaxValue, o.Max)
			}
		}
	}
}

// The tree leaves room to grow: /risk has at least 8 of Discord's 25
// places for subcommands and groups free, its groups are the ones players
// expect, and /risk-admin is hidden from members who may not manage the
// server.
func TestCommandTree(t *testing.T) {
	const minFree = 8
	cmds := Commands(command.Specs(levels()), true)
	risk, admin := cmds[0], cmds[1]
	if free := fakediscord.MaxOptions - len(risk.Options); free < minFree {
		t.Errorf("/risk has %d subcommands and groups: %d places free, want at least %d", len(risk.Options), free, minFree)
	}
	want := map[string][]string{
		"host": {"addbot", "kick", "invite", "settings", "rollback", "abandon"},
		"show": {"status", "cards", "odds", "history"},
		"me":   {"notify", "stats", "games", "token"},
	}
	got := map[string][]string{}
	for _, o := range risk.Options {
		if o.Type != discordgo.ApplicationCommandOptionSubCommandGroup {
			continue
		}
		for _, sub := range o.Options {
			got[o.Name] = append(got[o.Name], sub.Name)
		}
		if len(o.Options) > fakediscord.MaxOptions {
			t.Errorf("/risk %s has %d subcommands, more than Discord's %d", o.Name, len(o.Options), fakediscord.MaxOptions)
		}
	}
	for g, subs := range want {
		if !slices.Equal(got[g], subs) {
			t.Errorf("/risk %s has %v, want %v", g, got[g], subs)
		}
	}
	if len(got) != len(want) {
		t.Errorf("/risk has the groups %v, want %v", got, want)
	}
	var adminSubs []string
	for _, o := range admin.Options {
		switch {
		case o.Type == discordgo.ApplicationCommandOptionSubCommandGroup && o.Name == "map":
			var maps []string
			for _, sub := range o.Options {
				maps = append(maps, sub.Name)
			}
			if want := []string{"add", "list", "show", "rename", "remove"}; !slices.Equal(maps, want) {
				t.Errorf("/risk-admin map has %v, want %v", maps, want)
			}
		case o.Type != discordgo.ApplicationCommandOptionSubCommand:
			t.Errorf("/risk-admin %s is no plain subcommand", o.Name)
		}
		adminSubs = append(adminSubs, o.Name)
	}
	if !slices.Equal(adminSubs, []string{"show", "defaults", "limits", "reset", "map"}) {
		t.Errorf("/risk-admin has %v", adminSubs)
	}
	if admin.DefaultMemberPermissions == nil || *admin.DefaultMemberPermissions != discordgo.PermissionManageGuild {
		t.Errorf("/risk-admin's default member permissions %v, want Manage Server (%d)", admin.DefaultMemberPermissions, discordgo.PermissionManageGuild)
	}
	if risk.DefaultMemberPermissions != nil {
		t.Errorf("/risk is restricted to %d: everyone plays", *risk.DefaultMemberPermissions)
	}
	t.Logf("/risk: %d of %d places used; /risk-admin: %d", len(risk.Options), fakediscord.MaxOptions, len(admin.Options))
}

// names lists the commands' names.
func names(cmds []*discordgo.ApplicationCommand) []string {
	var out []string
	for _, c := range cmds {
		out = append(out, c.Name)
	}
	return out
}

// topLevel counts the subcommands and groups of one top-level command.
func topLevel(specs []command.Spec, cmd string) int {
	groups := map[string]bool{}
	n := 0
	for _, s := range specs {
		switch g := s.DiscordGroup(); {
		case s.Command() != cmd:
		case g == "":
			n++
		case !groups[g]:
			groups[g] = true
			n++
		}
	}
	return n
}

// findSub finds the subcommand of a spec among the commands, in its group.
func findSub(cmds []*discordgo.ApplicationCommand, s command.Spec) *discordgo.ApplicationCommandOption {
	i := slices.IndexFunc(cmds, func(c *discordgo.ApplicationCommand) bool { return c.Name == s.Command() })
	if i < 0 {
		return nil
	}
	opts := cmds[i].Options
	if g := s.DiscordGroup(); g != "" {
		i := slices.IndexFunc(opts, func(o *discordgo.ApplicationCommandOption) bool {
			return o.Name == g && o.Type == discordgo.ApplicationCommandOptionSubCommandGroup
		})
		if i < 0 {
			return nil
		}
		opts = opts[i].Options
	}
	i = slices.IndexFunc(opts, func(o *discordgo.ApplicationCommandOption) bool { return o.Name == s.Name })
	if i < 0 {
		return nil
	}
	return opts[i]
}

// A subcommand in a group (/risk host addbot), and one of /risk-admin,
// reach the core by their full names ("host addbot", "admin defaults"),
// with their options; so does /risk admin defaults, as a registration of
// earlier versions (still shown until Discord updates) sends it.
func TestSubcommandGroup(t *testing.T) {
	for _, tc := range []struct {
		command string
		options []any
		want    string
	}{
		{"risk", []any{map[string]any{"type": 2, "name": "host", "options": []any{
			map[string]any{"type": 1, "name": "addbot", "options": []any{map[string]any{"type": 3, "name": "level", "value": "easy"}}},
		}}}, "host addbot"},
		{"risk-admin", []any{map[string]any{"type": 1, "name": "defaults", "options": []any{map[string]any{"type": 4, "name": "turn-hours", "value": 48}}}}, "admin defaults"},
		{"risk", []any{map[string]any{"type": 2, "name": "admin", "options": []any{
			map[string]any{"type": 1, "name": "defaults", "options": []any{map[string]any{"type": 4, "name": "turn-hours", "value": 48}}},
		}}}, "admin defaults"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			m := template(t, "application_command_subcommand.CONSTRUCTED.json")
			retarget(m, dan, channel)
			m["data"].(map[string]any)["name"] = tc.command
			m["data"].(map[string]any)["options"] = tc.options
			var i discordgo.Interaction
			if err := json.Unmarshal(encode(t, m), &i); err != nil {
				t.Fatal(err)
			}
			req, err := requestOf(&i)
			if err != nil {
				t.Fatal(err)
			}
			if req.Command != tc.want || len(req.Options) != 1 || !req.Admin {
				t.Errorf("/%s: request %+v, want %s", tc.command, req, tc.want)
			}
		})
	}
}

// Required options go first even if the core declares them later.
func TestCommandPutsRequiredOptionsFirst(t *testing.T) {
	specs := []command.Spec{{Name: "fortify", Description: "Move armies", Options: []command.Option{
		{Name: "armies", Description: "How many", Type: command.Integer, Min: 1, Max: 10},
		{Name: "from", Description: "From", Type: command.String, Required: true, Autocomplete: true},
		{Name: "to", Description: "To", Type: command.String, Required: true, Autocomplete: true},
	}}}
	cmds := Commands(specs, false)
	var got []string
	for _, o := range cmds[0].Options[0].Options {
		got = append(got, o.Name)
	}
	if !slices.Equal(got, []string{"from", "to", "armies"}) {
		t.Errorf("options in order %v, want from, to, armies", got)
	}
	body, _ := json.Marshal(cmds)
	if err := fakediscord.CheckCommands(body); err != nil {
		t.Error(err)
	}
}

// Registration is one bulk overwrite: in the configured server, or global.
func TestRegister(t *testing.T) {
	for _, guild := range []string{"290926798626357999", ""} {
		e := newEnv(t, nil, 0)
		e.a.guild = guild
		if err := e.a.register(e.ctx, command.Specs(levels())); err != nil {
			t.Fatal(err)
		}
		if err := e.a.register(e.ctx, command.Specs(levels())); err != nil {
			t.Fatal(err) // again, as at every start: same result
		}
		cmds := e.fake.Commands(guild)
		if len(cmds) != 2 || cmds[0].Name != "risk" || cmds[1].Name != "risk-admin" {
			t.Fatalf("scope %q holds %+v", guild, cmds)
		}
		for _, c := range cmds {
			if want := topLevel(command.Specs(levels()), c.Name); len(c.Options) != want {
				t.Errorf("/%s registered with %d subcommands and groups, want %d", c.Name, len(c.Options), want)
			}
		}
		if p := cmds[1].DefaultMemberPermissions; p == nil || *p != strconv.Itoa(discordgo.PermissionManageGuild) {
			t.Errorf("/risk-admin registered for members with %v, want Manage Server (%d)", p, discordgo.PermissionManageGuild)
		}
		if cmds[0].DefaultMemberPermissions != nil {
			t.Errorf("/risk registered for members with %v, want everyone", *cmds[0].DefaultMemberPermissions)
		}
		var groups []string
		for _, o := range cmds[0].Options {
			if o.Type == int(discordgo.ApplicationCommandOptionSubCommandGroup) {
				groups = append(groups, o.Name)
			}
		}
		if !slices.Equal(groups, []string{"host", "show", "me"}) {
			t.Errorf("/risk registered with the groups %v, want host, show, me", groups)
		}
		if e.fake.Overwrites() != 2 {
			t.Errorf("%d bulk overwrites, want 2", e.fake.Overwrites())
		}
		other := "290926798626357999"
		if guild != "" {
			other = ""
		}
		if len(e.fake.Commands(other)) != 0 {
			t.Errorf("registered in scope %q too", other)
		}
	}
}

// A tree Discord would refuse fails registration with Discord's error.
func TestRegisterRefused(t *testing.T) {
	e := newEnv(t, nil, 0)
	bad := []command.Spec{{Name: "Attack", Description: "Upper case is refused"}}
	err := e.a.register(e.ctx, bad)
	if err == nil {
		t.Fatal("registered an invalid command")
	}
	if v := e.fake.TakeViolations(); len(v) != 1 {
		t.Errorf("violations %v", v)
	}
	t.Log(err)
}

// maxCommandChars is the size the commands keep under, 200 characters
// below Discord's 8,000: a command grows with every option, and its
// French is measured with its English (docs/discord.md). /risk is 7,787
// as Discord counts it (go test ./bot/discord -run TestCommandSizePerLocale -v).
const maxCommandChars = 7800

// Each registered command, as users of each language see it and as
// Discord counts it (each field by its longest localisation), stays under
// maxCommandChars: a French description longer than its English costs
// room in every language.
func TestCommandSizePerLocale(t *testing.T) {
	body, err := json.Marshal(Commands(command.Specs(levels()), true))
	if err != nil {
		t.Fatal(err)
	}
	var reg []fakediscord.Command
	if err := json.Unmarshal(body, &reg); err != nil {
		t.Fatal(err)
	}
	for _, c := range reg {
		for _, m := range []struct {
			what string
			n    int
		}{
			{"English", fakediscord.CommandCharsIn(c, "")},
			{"French", fakediscord.CommandCharsIn(c, string(discordgo.French))},
			{"as Discord counts it", fakediscord.CommandChars(c)},
		} {
			t.Logf("/%s, %s: %d characters", c.Name, m.what, m.n)
			if m.n > maxCommandChars {
				t.Errorf("/%s, %s: got %d characters, want at most %d (Discord's limit: %d)", c.Name, m.what, m.n, maxCommandChars, fakediscord.MaxCommandChars)
			}
		}
	}
}
