package discord

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
)

// Whatever the core writes, what goes to Discord fits its limit, stays
// valid text and closes the code blocks it cuts.
func FuzzTranslate(f *testing.F) {
	f.Add("**Turn 3 — 🟥 Ann**\n⚔️ Ann attacked {{mention:discord:1}} {{time:17}}", 40)
	f.Add("```\nplayer terr\nAnn 12\n", 300)
	f.Add("🟥", 2100)
	f.Fuzz(func(t *testing.T, text string, repeat int) {
		if repeat < 0 || repeat > 3000 || len(text)*repeat > 200000 {
			return
		}
		in := strings.Repeat(text, repeat)
		out := translate(chat.Message{Text: in})
		if n := utf16Len(out.content); n > maxContent {
			t.Fatalf("%d UTF-16 units", n)
		}
		if utf8.ValidString(in) && !utf8.ValidString(out.content) {
			t.Fatalf("cut inside a character: %q", out.content)
		}
		if len(out.cut) > 0 && strings.Count(out.content, "```")%2 != 0 {
			t.Fatalf("a cut left a code block open")
		}
	})
}

// No interaction payload makes the translation panic.
func FuzzInteraction(f *testing.F) {
	for _, name := range []string{"application_command_subcommand.CONSTRUCTED.json", "risk_attack_autocomplete.CONSTRUCTED.json",
		"message_component_button.json", "risk_new_dm.CONSTRUCTED.json", "application_command.json"} {
		f.Add(fixture(f, name))
	}
	f.Fuzz(func(t *testing.T, payload []byte) {
		var i discordgo.Interaction
		if json.Unmarshal(payload, &i) != nil {
			return
		}
		if req, err := requestOf(&i); err == nil && (!strings.HasPrefix(req.Channel, prefix) || !strings.HasPrefix(req.User.ID, prefix)) {
			t.Fatalf("request %+v", req)
		}
		_, _, _ = autocompleteOf(&i)
		_, _ = clickOf(&i)
	})
}
