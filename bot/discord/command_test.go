package discord

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/ai"
	"github.com/riskbot/riskbot/bot/command"
	"github.com/riskbot/riskbot/bot/discord/internal/fakediscord"
)

// levels are the computer player levels risk discord offers.
func levels() []string { return ai.Levels() }

// The /risk tree built from the core's real subcommands passes every limit
// Discord puts on commands (the fake's checks: names, descriptions, counts,
// required options first, choices, autocomplete, the 8000 characters).
func TestCommandWithinDiscordLimits(t *testing.T) {
	specs := command.Specs(levels())
	for _, global := range []bool{true, false} {
		cmd := Command(specs, global)
		body, err := json.Marshal([]*discordgo.ApplicationCommand{cmd})
		if err != nil {
			t.Fatal(err)
		}
		if err := fakediscord.CheckCommands(body); err != nil {
			t.Fatalf("global %v: Discord would refuse /risk: %v", global, err)
		}
		var reg []fakediscord.Command
		if err := json.Unmarshal(body, &reg); err != nil {
			t.Fatal(err)
		}
		n := fakediscord.CommandChars(reg[0])
		t.Logf("global %v: %d subcommands, %d of %d characters", global, len(cmd.Options), n, fakediscord.MaxCommandChars)
		if global != (cmd.Contexts != nil) {
			t.Errorf("global %v: contexts %v (only global commands take them)", global, cmd.Contexts)
		}
	}
	cmd := Command(specs, true)
	if cmd.Name != command.CommandName || len(cmd.Options) != topLevel(specs) || len(cmd.Options) > fakediscord.MaxOptions {
		t.Fatalf("/%s with %d subcommands and groups, want /%s with %d", cmd.Name, len(cmd.Options), command.CommandName, topLevel(specs))
	}
	// Each option keeps what the core declared.
	for i, s := range specs {
		sub := findSub(cmd, s)
		if sub == nil || sub.Name != s.Name || sub.Type != discordgo.ApplicationCommandOptionSubCommand || len(sub.Options) != len(s.Options) {
			t.Errorf("subcommand %d: %+v, want %s with %d options", i, sub, s.FullName(), len(s.Options))
			continue
		}
		for _, o := range s.Options {
			j := slices.IndexFunc(sub.Options, func(x *discordgo.ApplicationCommandOption) bool { return x.Name == o.Name })
			if j < 0 {
				t.Errorf("/risk %s lost option %s", s.Name, o.Name)
				continue
			}
			got := sub.Options[j]
			if got.Required != o.Required || got.Autocomplete != o.Autocomplete || len(got.Choices) != len(o.Choices) {
				t.Errorf("/risk %s %s: required %v autocomplete %v choices %d; want %v %v %d", s.Name, o.Name,
					got.Required, got.Autocomplete, len(got.Choices), o.Required, o.Autocomplete, len(o.Choices))
			}
			if o.Type == command.Integer && (got.Type != discordgo.ApplicationCommandOptionInteger || (o.Max != 0 && got.MaxValue != float64(o.Max))) {
				t.Errorf("/risk %s %s: type %d max %v, want an integer up to %d", s.Name, o.Name, got.Type, got.MaxValue, o.Max)
			}
		}
	}
}

// topLevel counts the subcommands and groups of /risk.
func topLevel(specs []command.Spec) int {
	groups := map[string]bool{}
	n := 0
	for _, s := range specs {
		switch {
		case s.Group == "":
			n++
		case !groups[s.Group]:
			groups[s.Group] = true
			n++
		}
	}
	return n
}

// findSub finds the subcommand of a spec in the command, in its group.
func findSub(cmd *discordgo.ApplicationCommand, s command.Spec) *discordgo.ApplicationCommandOption {
	opts := cmd.Options
	if s.Group != "" {
		i := slices.IndexFunc(opts, func(o *discordgo.ApplicationCommandOption) bool {
			return o.Name == s.Group && o.Type == discordgo.ApplicationCommandOptionSubCommandGroup
		})
		if i < 0 {
			return nil
		}
		opts = opts[i].Options
	}
	i := slices.IndexFunc(opts, func(o *discordgo.ApplicationCommandOption) bool { return o.Name == s.Name })
	if i < 0 {
		return nil
	}
	return opts[i]
}

// A subcommand group (/risk admin defaults) reaches the core as
// "admin defaults", with its options.
func TestSubcommandGroup(t *testing.T) {
	m := template(t, "application_command_subcommand.CONSTRUCTED.json")
	retarget(m, dan, channel)
	m["data"].(map[string]any)["options"] = []any{map[string]any{"type": 2, "name": "admin", "options": []any{
		map[string]any{"type": 1, "name": "defaults", "options": []any{map[string]any{"type": 4, "name": "turn-hours", "value": 48}}},
	}}}
	var i discordgo.Interaction
	if err := json.Unmarshal(encode(t, m), &i); err != nil {
		t.Fatal(err)
	}
	req, err := requestOf(&i)
	if err != nil {
		t.Fatal(err)
	}
	if req.Command != "admin defaults" || req.Options["turn-hours"] != "48" || !req.Admin {
		t.Errorf("request %+v", req)
	}
}

// Required options go first even if the core declares them later.
func TestCommandPutsRequiredOptionsFirst(t *testing.T) {
	specs := []command.Spec{{Name: "fortify", Description: "Move armies", Options: []command.Option{
		{Name: "armies", Description: "How many", Type: command.Integer, Min: 1, Max: 10},
		{Name: "from", Description: "From", Type: command.String, Required: true, Autocomplete: true},
		{Name: "to", Description: "To", Type: command.String, Required: true, Autocomplete: true},
	}}}
	cmd := Command(specs, false)
	var names []string
	for _, o := range cmd.Options[0].Options {
		names = append(names, o.Name)
	}
	if !slices.Equal(names, []string{"from", "to", "armies"}) {
		t.Errorf("options in order %v, want from, to, armies", names)
	}
	body, _ := json.Marshal([]*discordgo.ApplicationCommand{cmd})
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
		if len(cmds) != 1 || cmds[0].Name != "risk" || len(cmds[0].Options) != topLevel(command.Specs(levels())) {
			t.Fatalf("scope %q holds %+v", guild, cmds)
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
