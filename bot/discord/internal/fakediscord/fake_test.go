package fakediscord

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
)

func session(t *testing.T, s *Server) *discordgo.Session {
	t.Helper()
	dg, err := discordgo.New("Bot " + Token)
	if err != nil {
		t.Fatal(err)
	}
	dg.Client = s.Client()
	return dg
}

// deliver delivers an interaction of the type (2 command, 3 button, 4
// autocomplete) and returns it as discordgo reads it.
func deliver(t *testing.T, s *Server, typ int) *discordgo.Interaction {
	t.Helper()
	data := `{"id":"1","name":"risk","type":1,"options":[{"type":1,"name":"help"}]}`
	if typ == 3 {
		data = `{"custom_id":"r|1|2|end","component_type":2}`
	}
	payload := fmt.Sprintf(`{"type":%d,"application_id":%q,"channel_id":"645027906669510667","guild_id":"290926798626357999",
		"member":{"user":{"id":"53908232506183680","username":"mason","discriminator":"0"}},"data":%s}`, typ, AppID, data)
	raw, err := s.Interaction([]byte(payload))
	if err != nil {
		t.Fatal(err)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(raw, &i); err != nil {
		t.Fatal(err)
	}
	return &i
}

var none = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}}

func text(content string) *discordgo.InteractionResponse {
	return &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: content, AllowedMentions: none}}
}

func row(n int, id func(int) string) discordgo.ActionsRow {
	var bs []discordgo.MessageComponent
	for i := range n {
		bs = append(bs, discordgo.Button{Label: "b", Style: discordgo.PrimaryButton, CustomID: id(i)})
	}
	return discordgo.ActionsRow{Components: bs}
}

func png(n int) []*discordgo.File {
	var fs []*discordgo.File
	for i := range n {
		fs = append(fs, &discordgo.File{Name: fmt.Sprintf("m%d.png", i), ContentType: "image/png", Reader: bytes.NewReader([]byte("\x89PNG"))})
	}
	return fs
}

// Every rule the fake enforces, broken once: each request must fail with
// Discord's error, and be recorded as a violation.
func TestFakeRefuses(t *testing.T) {
	tests := []struct {
		name string
		typ  int // interaction type
		do   func(dg *discordgo.Session, s *Server, i *discordgo.Interaction) error
		want string
	}{
		{"content over 2000", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			return dg.InteractionRespond(i, text(strings.Repeat("x", 2001)))
		}, "content: must be 2000"},
		{"empty message", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			return dg.InteractionRespond(i, text(""))
		}, "Cannot send an empty message"},
		{"answered twice", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			if err := dg.InteractionRespond(i, text("one")); err != nil {
				return nil
			}
			return dg.InteractionRespond(i, text("two"))
		}, "already been acknowledged"},
		{"answered after 3 s", 2, func(dg *discordgo.Session, s *Server, i *discordgo.Interaction) error {
			s.Advance(3100 * time.Millisecond)
			return dg.InteractionRespond(i, text("late"))
		}, "Unknown interaction"},
		{"edit before any answer", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			c := "x"
			_, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &c, AllowedMentions: none})
			return err
		}, "Unknown Webhook"},
		{"edit after 15 min", 2, func(dg *discordgo.Session, s *Server, i *discordgo.Interaction) error {
			if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 5}); err != nil {
				return nil
			}
			s.Advance(15*time.Minute + time.Second)
			c := "x"
			_, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &c, AllowedMentions: none})
			return err
		}, "Invalid Webhook Token"},
		{"follow-up after the deferral was deleted", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 5}); err != nil {
				return nil
			}
			if err := dg.InteractionResponseDelete(i); err != nil {
				return nil
			}
			_, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "x", AllowedMentions: none, Flags: 64})
			return err
		}, "Unknown Message"},
		{"deferral with flags other than ephemeral", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 5, Data: &discordgo.InteractionResponseData{Flags: 1<<2 | 64}})
		}, "deferral takes only the EPHEMERAL flag"},
		{"six rows of buttons", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			r := text("x")
			for k := range 6 {
				r.Data.Components = append(r.Data.Components, row(1, func(int) string { return fmt.Sprint("id", k) }))
			}
			return dg.InteractionRespond(i, r)
		}, "at most 5 action rows"},
		{"six buttons in a row", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			r := text("x")
			r.Data.Components = []discordgo.MessageComponent{row(6, func(k int) string { return fmt.Sprint("id", k) })}
			return dg.InteractionRespond(i, r)
		}, "at most 5 buttons"},
		{"custom_id of 101", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			r := text("x")
			r.Data.Components = []discordgo.MessageComponent{row(1, func(int) string { return strings.Repeat("c", 101) })}
			return dg.InteractionRespond(i, r)
		}, "custom_id: must be 1 to 100"},
		{"custom_id twice", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			r := text("x")
			r.Data.Components = []discordgo.MessageComponent{row(2, func(int) string { return "same" })}
			return dg.InteractionRespond(i, r)
		}, "used twice"},
		{"eleven files", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			r := text("x")
			r.Data.Files = png(11)
			return dg.InteractionRespond(i, r)
		}, "at most 10 files"},
		{"no allowed_mentions", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 4, Data: &discordgo.InteractionResponseData{Content: "<@1> hi"}})
		}, "policy: allowed_mentions missing"},
		{"allowed_mentions lets everyone through", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			r := text("@everyone")
			r.Data.AllowedMentions = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeEveryone}}
			return dg.InteractionRespond(i, r)
		}, "allowed_mentions.parse lets"},
		{"allowed_mentions parse:users with users", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			r := text("<@1>")
			r.Data.AllowedMentions = &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{discordgo.AllowedMentionTypeUsers}, Users: []string{"1"}}
			return dg.InteractionRespond(i, r)
		}, "mutually exclusive"},
		{"autocomplete answered with a message", 4, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			return dg.InteractionRespond(i, text("x"))
		}, "answered with type 8"},
		{"26 autocomplete choices", 4, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			var cs []*discordgo.ApplicationCommandOptionChoice
			for k := range 26 {
				cs = append(cs, &discordgo.ApplicationCommandOptionChoice{Name: fmt.Sprint(k), Value: fmt.Sprint(k)})
			}
			return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 8, Data: &discordgo.InteractionResponseData{Choices: cs}})
		}, "choices: at most 25"},
		{"choice value over 100", 4, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			cs := []*discordgo.ApplicationCommandOptionChoice{{Name: "a", Value: strings.Repeat("v", 101)}}
			return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 8, Data: &discordgo.InteractionResponseData{Choices: cs}})
		}, "value: must be 100"},
		{"autocomplete without choices", 4, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			// discordgo omits an empty choices list.
			return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 8, Data: &discordgo.InteractionResponseData{}})
		}, "data.choices: required"},
		{"update message for a command", 2, func(dg *discordgo.Session, _ *Server, i *discordgo.Interaction) error {
			return dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 7, Data: &discordgo.InteractionResponseData{Content: "x", AllowedMentions: none}})
		}, "only for component interactions"},
		{"ephemeral channel message", 2, func(dg *discordgo.Session, _ *Server, _ *discordgo.Interaction) error {
			_, err := dg.ChannelMessageSendComplex("645027906669510667", &discordgo.MessageSend{Content: "x", AllowedMentions: none, Flags: 64})
			return err
		}, "flags: 64 not allowed"},
		{"channel message without allowed_mentions", 2, func(dg *discordgo.Session, _ *Server, _ *discordgo.Interaction) error {
			_, err := dg.ChannelMessageSendComplex("645027906669510667", &discordgo.MessageSend{Content: "<@53908232506183680> your turn"})
			return err
		}, "policy: allowed_mentions missing"},
		{"channel message with a wrong token", 2, func(_ *discordgo.Session, s *Server, _ *discordgo.Interaction) error {
			dg, _ := discordgo.New("Bot wrong")
			dg.Client = s.Client()
			_, err := dg.ChannelMessageSendComplex("645027906669510667", &discordgo.MessageSend{Content: "x", AllowedMentions: none})
			return err
		}, "401"},
		{"a member added to a channel that is no thread", 2, func(dg *discordgo.Session, _ *Server, _ *discordgo.Interaction) error {
			return dg.ThreadMemberAdd("645027906669510667", "53908232506183680")
		}, "Unknown Channel"},
		{"a channel that is no thread archived", 2, func(dg *discordgo.Session, _ *Server, _ *discordgo.Interaction) error {
			archived := true
			_, err := dg.ChannelEdit("645027906669510667", &discordgo.ChannelEdit{Archived: &archived})
			return err
		}, "Unknown Channel"},
		{"a route Discord has but the bot should not use", 2, func(dg *discordgo.Session, _ *Server, _ *discordgo.Interaction) error {
			_, err := dg.GuildMembers("290926798626357999", "", 10)
			return err
		}, "does not serve this route"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := New(t)
			dg := session(t, s)
			err := tt.do(dg, s, deliver(t, s, tt.typ))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
			if v := s.TakeViolations(); len(v) != 1 {
				t.Errorf("violations %q, want 1", v)
			}
		})
	}
}

// The documented quirk: a follow-up straight after a deferral edits the
// deferred message, and the ephemeral flag is ignored. The fake models it,
// so that a private answer sent that way shows up as public.
func TestFakeFollowupAfterDeferralEditsIt(t *testing.T) {
	s := New(t)
	dg := session(t, s)
	i := deliver(t, s, 2)
	if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 5}); err != nil {
		t.Fatal(err)
	}
	if _, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "your cards: …", AllowedMentions: none, Flags: 64}); err != nil {
		t.Fatal(err)
	}
	rs := s.Replies(i.ID)
	if len(rs) != 1 || rs[0].Ephemeral || rs[0].Content != "your cards: …" || rs[0].Kind != Response {
		t.Fatalf("replies %+v: want the public deferred message edited", rs)
	}
	// The next follow-up is a new message, ephemeral as asked.
	if _, err := dg.FollowupMessageCreate(i, true, &discordgo.WebhookParams{Content: "more", AllowedMentions: none, Flags: 64}); err != nil {
		t.Fatal(err)
	}
	rs = s.Replies(i.ID)
	if len(rs) != 2 || !rs[1].Ephemeral || rs[1].Kind != Followup {
		t.Fatalf("replies %+v", rs)
	}
}

// What goes right is recorded as Discord would show it.
func TestFakeRecords(t *testing.T) {
	s := New(t)
	dg := session(t, s)
	i := deliver(t, s, 3)
	if err := dg.InteractionRespond(i, &discordgo.InteractionResponse{Type: 5, Data: &discordgo.InteractionResponseData{Flags: 64}}); err != nil {
		t.Fatal(err)
	}
	if m, typ := s.Answer(i.ID); typ != 5 || m == nil || !m.Loading || !m.Ephemeral {
		t.Fatalf("after the deferral: type %d, %+v", typ, m)
	}
	c := "done"
	comps := []discordgo.MessageComponent{row(2, func(k int) string { return fmt.Sprint("r|1|2|x", k) })}
	if _, err := dg.InteractionResponseEdit(i, &discordgo.WebhookEdit{Content: &c, Components: &comps, AllowedMentions: none, Files: png(1)}); err != nil {
		t.Fatal(err)
	}
	m, _ := s.Answer(i.ID)
	if m.Loading || m.Content != "done" || len(m.Files) != 1 || m.Files[0].Name != "m0.png" || len(m.Buttons) != 1 || len(m.Buttons[0]) != 2 || m.Edits != 1 {
		t.Errorf("after the edit: %+v", m)
	}
	if _, err := dg.ChannelMessageSendComplex("645027906669510667", &discordgo.MessageSend{
		Content: "<@53908232506183680> it is your turn", Files: png(1),
		AllowedMentions: &discordgo.MessageAllowedMentions{Parse: []discordgo.AllowedMentionType{}, Users: []string{"53908232506183680"}},
	}); err != nil {
		t.Fatal(err)
	}
	ms := s.Messages()
	last := ms[len(ms)-1]
	if last.Kind != Channel || last.Mentions == nil || last.Mentions.Parse == nil || len(last.Mentions.Users) != 1 || len(last.Files) != 1 {
		t.Errorf("channel message %+v", last)
	}
}

// The client reaches only Discord's hosts, rewritten to the fake.
func TestClientRefusesOtherHosts(t *testing.T) {
	s := New(t)
	resp, err := s.Client().Get("https://example.com/")
	if err == nil {
		resp.Body.Close()
		t.Fatal("a request for example.com went out")
	}
	resp, err = s.Client().Get("https://discord.com/api/v9/gateway")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var g struct{ URL string }
	if err := json.NewDecoder(resp.Body).Decode(&g); err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(g.URL, "ws://127.0.0.1:") {
		t.Errorf("gateway: %d %+v %v", resp.StatusCode, g, err)
	}
}

// Every limit on command trees, broken once.
func TestCheckCommands(t *testing.T) {
	sub := func(name, desc string, opts ...Option) Option {
		return Option{Type: optSubcommand, Name: name, Description: desc, Options: opts}
	}
	str := func(name string) Option { return Option{Type: optString, Name: name, Description: "d"} }
	risk := func(opts ...Option) []Command { return []Command{{Name: "risk", Description: "Play", Options: opts}} }
	many := func(n int, f func(i int) Option) []Option {
		var os []Option
		for i := range n {
			os = append(os, f(i))
		}
		return os
	}
	long := strings.Repeat("d", 100)
	fr := func(s string) map[string]string { return map[string]string{"fr": s} }
	loc := func(o Option, name, desc string) Option {
		o.NameLocalizations, o.DescriptionLocalizations = fr(name), fr(desc)
		return o
	}
	tests := []struct {
		name string
		cmds []Command
		want string
	}{
		{"ok", risk(sub("attack", "Attack", Option{Type: optString, Name: "from", Description: "From", Required: true, Autocomplete: true}, str("until"))), ""},
		{"upper case name", risk(sub("Attack", "d")), "lower case"},
		{"space in name", risk(sub("end turn", "d")), "must match"},
		{"name of 33", risk(sub(strings.Repeat("a", 33), "d")), "must match"},
		{"empty description", risk(sub("a", "")), "description: must be 1 to 100"},
		{"description of 101", risk(sub("a", long+"d")), "description: must be 1 to 100"},
		{"26 subcommands", risk(many(26, func(i int) Option { return sub(fmt.Sprintf("s%d", i), "d") })...), "at most 25"},
		{"26 options", risk(sub("a", "d", many(26, func(i int) Option { return str(fmt.Sprintf("o%d", i)) })...)), "at most 25"},
		{"required after optional", risk(sub("a", "d", str("x"), Option{Type: optString, Name: "y", Description: "d", Required: true})), "required options must come before"},
		{"choices and autocomplete", risk(sub("a", "d", Option{Type: optString, Name: "x", Description: "d", Autocomplete: true, Choices: []choice{{Name: "a", Value: "a"}}})), "autocomplete cannot be used with choices"},
		{"26 choices", risk(sub("a", "d", Option{Type: optString, Name: "x", Description: "d", Choices: func() []choice {
			var cs []choice
			for i := range 26 {
				cs = append(cs, choice{Name: fmt.Sprint(i), Value: fmt.Sprint(i)})
			}
			return cs
		}()})), "choices: at most 25"},
		{"same name twice", risk(sub("a", "d"), sub("a", "d")), "used twice"},
		{"two commands, one for managers", []Command{{Name: "risk", Description: "Play", Options: []Option{sub("a", "d")}},
			{Name: "risk-admin", Description: "Admins", Options: []Option{sub("show", "d")}, DefaultMemberPermissions: ptr("32")}}, ""},
		{"the same command twice", []Command{{Name: "risk", Description: "Play"}, {Name: "risk", Description: "Again"}}, "registered twice"},
		{"permissions not a number", []Command{{Name: "risk-admin", Description: "Admins", Options: []Option{sub("show", "d")}, DefaultMemberPermissions: ptr("Manage Server")}}, "not a permission bit set"},
		{"subcommands mixed with options", risk(sub("a", "d"), str("b")), "cannot be mixed"},
		{"min above max", risk(sub("a", "d", Option{Type: optInteger, Name: "n", Description: "d", MinValue: ptr(5.0), MaxValue: ptr(1.0)})), "above max_value"},
		{"min_value on a string", risk(sub("a", "d", Option{Type: optString, Name: "n", Description: "d", MinValue: ptr(1.0)})), "for integer and number options"},
		{"localised", risk(sub("attack", "Attack", Option{Type: optString, Name: "from", Description: "From", Required: true,
			NameLocalizations: fr("de"), DescriptionLocalizations: fr("Depuis"), Choices: []choice{{Name: "a", Value: "a", NameLocalizations: fr("à")}}})), ""},
		{"localised name in upper case", risk(loc(sub("attack", "d"), "Attaquer", "d")), "name_localizations[fr].name: \"Attaquer\" must be lower case"},
		{"localised name with a space", risk(loc(sub("end", "d"), "fin de tour", "d")), "name_localizations[fr].name: \"fin de tour\" must match"},
		{"localised name of 33", risk(loc(sub("end", "d"), strings.Repeat("é", 33), "d")), "must match"},
		{"localised description of 101", risk(loc(sub("end", "d"), "fin", long+"é")), "description_localizations[fr].description: must be 1 to 100"},
		{"not a locale", risk(Option{Type: optSubcommand, Name: "end", Description: "d", NameLocalizations: map[string]string{"french": "fin"}}), "\"french\" is not a locale"},
		{"localised name is another option's", risk(sub("a", "d", str("from"), Option{Type: optString, Name: "to", Description: "d", NameLocalizations: fr("from")})), "another option's name"},
		{"two localised names alike", risk(sub("a", "d", Option{Type: optString, Name: "from", Description: "d", NameLocalizations: fr("de")},
			Option{Type: optString, Name: "of", Description: "d", NameLocalizations: fr("de")})), "another option's name"},
		{"localised choice of 101", risk(sub("a", "d", Option{Type: optString, Name: "x", Description: "d", Choices: []choice{{Name: "a", Value: "a", NameLocalizations: fr(long + "é")}}})), "name_localizations[fr]: must be 1 to 100"},
		{"over 8000 characters by the longest localisation", risk(many(25, func(i int) Option {
			// 400 characters by default; 10,300 in French.
			return sub(fmt.Sprintf("s%d", i), "d", many(4, func(j int) Option {
				return Option{Type: optString, Name: fmt.Sprintf("o%d", j), Description: "d", DescriptionLocalizations: fr(long)}
			})...)
		})...), "at most 8000"},
		{"over 8000 characters", risk(many(25, func(i int) Option {
			return sub(fmt.Sprintf("s%d", i), long, many(3, func(j int) Option {
				return Option{Type: optString, Name: fmt.Sprintf("o%d", j), Description: long}
			})...)
		})...), "at most 8000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body, _ := json.Marshal(tt.cmds)
			err := CheckCommands(body)
			if tt.want == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one saying %q", err, tt.want)
			}
		})
	}
}

func ptr[T any](v T) *T { return &v }

// The bot's permissions in a channel: interactions carry them as
// app_permissions, and posts need them, refused as Discord refuses them
// (not as broken rules: the bot cannot know before trying).
func TestBotPermissions(t *testing.T) {
	s := New(t)
	dg := session(t, s)
	const ch = "645027906669510667"
	if i := deliver(t, s, 2); i.AppPermissions != DefaultBotPermissions {
		t.Errorf("app_permissions %d, want the default %d", i.AppPermissions, DefaultBotPermissions)
	}
	post := func(files []*discordgo.File) error {
		_, err := dg.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "turn 3", AllowedMentions: none, Files: files})
		return err
	}
	for _, tt := range []struct {
		perms int64
		files int
		code  int // 0: posted
	}{
		{DefaultBotPermissions, 1, 0},
		{PermAdministrator, 1, 0},
		{PermViewChannel | PermSendMessages, 0, 0},
		{PermViewChannel | PermSendMessages, 1, 50013},
		{PermViewChannel | PermAttachFiles, 0, 50013},
		{PermSendMessages | PermAttachFiles, 0, 50001},
	} {
		s.SetBotPermissions(ch, tt.perms)
		if i := deliver(t, s, 2); i.AppPermissions != tt.perms {
			t.Errorf("app_permissions %d, want %d", i.AppPermissions, tt.perms)
		}
		err := post(png(tt.files))
		var re *discordgo.RESTError
		switch {
		case tt.code == 0 && err != nil:
			t.Errorf("perms %d, %d files: %v", tt.perms, tt.files, err)
		case tt.code != 0 && (!errors.As(err, &re) || re.Response.StatusCode != http.StatusForbidden || re.Message == nil || re.Message.Code != tt.code):
			t.Errorf("perms %d, %d files: %v, want 403 code %d", tt.perms, tt.files, err, tt.code)
		}
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("refusals counted as violations: %v", v)
	}
}

// Direct messages: one channel per user, which takes posts unless the
// user takes no direct messages.
func TestDirectMessages(t *testing.T) {
	s := New(t)
	dg := session(t, s)
	const user = "100000000000000001"
	a, err := dg.UserChannelCreate(user)
	if err != nil {
		t.Fatal(err)
	}
	b, err := dg.UserChannelCreate(user)
	if err != nil || b.ID != a.ID {
		t.Fatalf("a second DM channel %v (%v), want %s", b, err, a.ID)
	}
	s.SetBotPermissions(a.ID, 0) // a guild channel's settings do not apply
	if _, err := dg.ChannelMessageSendComplex(a.ID, &discordgo.MessageSend{Content: "your turn", AllowedMentions: none}); err != nil {
		t.Fatal(err)
	}
	if dms := s.DMs(user); len(dms) != 1 || dms[0].Content != "your turn" {
		t.Errorf("DMs %+v", dms)
	}
	s.RefuseDMs(user)
	_, err = dg.ChannelMessageSendComplex(a.ID, &discordgo.MessageSend{Content: "again", AllowedMentions: none})
	var re *discordgo.RESTError
	if !errors.As(err, &re) || re.Message == nil || re.Message.Code != 50007 {
		t.Errorf("a DM to a user who takes none: %v, want 403 code 50007", err)
	}
}

// Embeds are held to Discord's limits, each part and all together.
func TestEmbedLimits(t *testing.T) {
	s := New(t)
	dg := session(t, s)
	post := func(es ...*discordgo.MessageEmbed) error {
		_, err := dg.ChannelMessageSendComplex("645027906669510667", &discordgo.MessageSend{Embeds: es, AllowedMentions: none})
		return err
	}
	fields := func(n int, value string) []*discordgo.MessageEmbedField {
		var fs []*discordgo.MessageEmbedField
		for range n {
			fs = append(fs, &discordgo.MessageEmbedField{Name: "Ann", Value: value})
		}
		return fs
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, tt := range []struct {
		name   string
		embeds []*discordgo.MessageEmbed
		want   string // "" if accepted
	}{
		{"a turn", []*discordgo.MessageEmbed{{Title: "Turn 3", Description: "⚔️ Ann attacked", Color: 0xd55e00, Fields: fields(6, "12 territories"),
			Image: &discordgo.MessageEmbedImage{URL: "attachment://map.png"}}}, ""},
		{"long title", []*discordgo.MessageEmbed{{Title: long(257)}}, "title: must be 256 or fewer"},
		{"long description", []*discordgo.MessageEmbed{{Description: long(4097)}}, "description: must be 4096 or fewer"},
		{"too many fields", []*discordgo.MessageEmbed{{Fields: fields(26, "1")}}, "fields: at most 25"},
		{"long field", []*discordgo.MessageEmbed{{Fields: fields(1, long(1025))}}, "value: must be 1024 or fewer"},
		{"too much in all", []*discordgo.MessageEmbed{{Description: long(4000)}, {Description: long(2001)}}, "6001 characters in all, at most 6000"},
		{"bad colour", []*discordgo.MessageEmbed{{Title: "x", Color: 0x1000000}}, "not an RGB integer"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := post(tt.embeds...)
			v := s.TakeViolations()
			if tt.want == "" {
				if err != nil || len(v) > 0 {
					t.Errorf("refused: %v %v", err, v)
				}
				return
			}
			if err == nil || len(v) != 1 || !strings.Contains(v[0], tt.want) {
				t.Errorf("error %v, violations %v; want %q", err, v, tt.want)
			}
		})
	}
}

// What the bot reads of a channel, its server and itself gives back, as
// discordgo computes it, the permissions the fake holds for the channel;
// a deleted channel is unknown, to reads and posts alike.
func TestChannelInfo(t *testing.T) {
	s := New(t)
	dg := session(t, s)
	const ch = "645027906669510667"
	perms := func() (int64, error) {
		c, err := dg.Channel(ch)
		if err != nil {
			return 0, err
		}
		g, err := dg.Guild(c.GuildID)
		if err != nil {
			return 0, err
		}
		m, err := dg.GuildMember(g.ID, BotID)
		if err != nil {
			return 0, err
		}
		st := discordgo.NewState()
		for _, err := range []error{st.GuildAdd(g), st.ChannelAdd(c), st.MemberAdd(m)} {
			if err != nil {
				return 0, err
			}
		}
		return st.UserChannelPermissions(BotID, ch)
	}
	for _, p := range []int64{DefaultBotPermissions, DefaultBotPermissions | ThreadPermissions, PermViewChannel | PermSendMessages, 0} {
		s.SetBotPermissions(ch, p)
		if got, err := perms(); err != nil || got != p {
			t.Errorf("permissions %d (%v), want %d", got, err, p)
		}
	}
	s.SetBotPermissions(ch, PermAdministrator)
	if got, err := perms(); err != nil || got&DefaultBotPermissions != DefaultBotPermissions {
		t.Errorf("an administrator's permissions %d (%v), want all", got, err)
	}
	if _, err := dg.GuildMember(GuildID, "100000000000000001"); err == nil {
		t.Error("the fake knows a member other than the bot")
	}
	s.DeleteChannel(ch)
	var re *discordgo.RESTError
	if _, err := dg.Channel(ch); !errors.As(err, &re) || re.Response.StatusCode != http.StatusNotFound || re.Message == nil || re.Message.Code != 10003 {
		t.Errorf("a deleted channel: %v, want 404 Unknown Channel", err)
	}
	_, err := dg.ChannelMessageSendComplex(ch, &discordgo.MessageSend{Content: "turn 3", AllowedMentions: none})
	if !errors.As(err, &re) || re.Response.StatusCode != http.StatusNotFound {
		t.Errorf("a post to a deleted channel: %v, want 404", err)
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations %v", v)
	}
}
