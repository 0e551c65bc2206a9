package discord

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/bwmarrin/discordgo"
	"github.com/riskbot/riskbot/bot/chat"
)

func TestTranslateMarkup(t *testing.T) {
	m := chat.Message{
		Text:     "🟥 {{mention:discord:100000000000000002}}, it is your turn. Deadline {{time:1764072000}}. {{mention:bot:1}} waits.",
		Mentions: []string{"discord:100000000000000002", "bot:1", "discord:100000000000000002", "discord:not-a-snowflake"},
	}
	out := translate(m)
	want := "🟥 <@100000000000000002>, it is your turn. Deadline <t:1764072000:R>. bot:1 waits."
	if out.content != want {
		t.Errorf("content %q\nwant    %q", out.content, want)
	}
	if got := out.mentions.Users; !reflect.DeepEqual(got, []string{"100000000000000002"}) {
		t.Errorf("allowed users %v, want only the one Discord user", got)
	}
	// The JSON must say parse:[] (nothing parsed from the text), not omit it.
	b, err := json.Marshal(out.send(nil))
	if err != nil {
		t.Fatal(err)
	}
	if s := string(b); !strings.Contains(s, `"allowed_mentions":{"parse":[],"users":["100000000000000002"],"replied_user":false}`) {
		t.Errorf("allowed_mentions JSON: %s", s)
	}
	if out.ephemeral || len(out.cut) > 0 {
		t.Errorf("ephemeral %v, cut %v", out.ephemeral, out.cut)
	}
}

// A message that mentions nobody still sends allowed_mentions, letting
// nothing through: player names are typed by people ("@everyone").
func TestTranslateNoMentions(t *testing.T) {
	out := translate(chat.Message{Text: "🤖 @everyone (easy bot) takes a seat", Private: true})
	b, _ := json.Marshal(out.response())
	if !strings.Contains(string(b), `"allowed_mentions":{"parse":[],"replied_user":false}`) {
		t.Errorf("JSON: %s", b)
	}
	if out.flags() != discordgo.MessageFlagsEphemeral {
		t.Errorf("flags %d, want ephemeral", out.flags())
	}
}

func TestTruncate(t *testing.T) {
	code := "Standings\n```\n" + strings.Repeat("Ann        12   40    2\n", 100) + "```\nDone."
	tests := []struct {
		name string
		text string
	}{
		{"ascii", strings.Repeat("a", 2500)},
		{"lines", strings.Repeat("⚔️ Ann attacked Kamchatka from Alaska: 🎲 6 5 3 v 4 2\n", 60)},
		{"emoji count twice in UTF-16", strings.Repeat("🟥", 1500)},
		{"open code block is closed", code},
		{"exactly the limit", strings.Repeat("b", maxContent)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := translate(chat.Message{Text: tt.text})
			n := utf16Len(out.content)
			if n > maxContent {
				t.Fatalf("%d UTF-16 units, over %d", n, maxContent)
			}
			if utf16Len(tt.text) <= maxContent {
				if out.content != tt.text || len(out.cut) > 0 {
					t.Errorf("a text within the limit was changed (cut %v)", out.cut)
				}
				return
			}
			if !strings.HasSuffix(out.content, "…") || len(out.cut) == 0 {
				t.Errorf("cut text does not end with … or was not reported: %q, %v", out.content[len(out.content)-20:], out.cut)
			}
			if strings.Count(out.content, "```")%2 != 0 {
				t.Errorf("a code block is left open")
			}
			if !strings.HasPrefix(tt.text, strings.TrimSuffix(strings.TrimSuffix(out.content, "\n…"), "\n```")) {
				t.Errorf("the kept part is not a prefix of the text")
			}
		})
	}
}

func TestComponents(t *testing.T) {
	var rows [][]chat.Button
	for r := range 7 {
		var row []chat.Button
		for b := range 6 {
			row = append(row, chat.Button{ID: fmt.Sprintf("r|1|2|b%d%d", r, b), Label: "Go", Style: chat.Primary})
		}
		rows = append(rows, row)
	}
	rows[0][0].ID = strings.Repeat("x", 101)                       // too long
	rows[0][1].ID = ""                                             // missing
	rows[1][0].ID = rows[0][2].ID                                  // twice
	rows[2] = []chat.Button{{ID: strings.Repeat("y", 101)}}        // a row left empty
	rows[3][0].Label = strings.Repeat("Long label ", 10)           // 110 characters
	rows[3][1].Style, rows[3][2].Style = chat.Danger, chat.Success // styles map
	comps, cut := components(rows)
	if len(comps) != maxRows {
		t.Fatalf("%d rows, want %d", len(comps), maxRows)
	}
	seen := map[string]bool{}
	for i, c := range comps {
		row := c.(discordgo.ActionsRow)
		if n := len(row.Components); n < 1 || n > maxRowButtons {
			t.Errorf("row %d has %d buttons", i, n)
		}
		for _, bc := range row.Components {
			b := bc.(discordgo.Button)
			if b.CustomID == "" || len(b.CustomID) > maxCustomID || seen[b.CustomID] {
				t.Errorf("bad or repeated custom_id %q", b.CustomID)
			}
			seen[b.CustomID] = true
			if utf16Len(b.Label) > maxLabel || b.Label == "" {
				t.Errorf("label %q", b.Label)
			}
		}
	}
	if b := comps[2].(discordgo.ActionsRow).Components[1].(discordgo.Button); b.Style != discordgo.DangerButton {
		t.Errorf("style %d, want danger", b.Style)
	}
	if len(cut) == 0 {
		t.Error("nothing reported cut")
	}
}

func TestChoices(t *testing.T) {
	var cs []chat.Choice
	for i := range 30 {
		cs = append(cs, chat.Choice{Name: fmt.Sprintf("Territory %d (3 armies)", i), Value: fmt.Sprintf("T%d", i)})
	}
	cs[0].Name = strings.Repeat("Kamchatka ", 15)
	cs[1].Value = strings.Repeat("v", 101)
	cs[2].Name = ""
	out, cut := choices(cs)
	if len(out) != maxChoices {
		t.Fatalf("%d choices, want %d", len(out), maxChoices)
	}
	for _, c := range out {
		if n := utf16Len(c.Name); n < 1 || n > maxChoiceText {
			t.Errorf("name %q of %d characters", c.Name, n)
		}
		if v := c.Value.(string); v == cs[1].Value {
			t.Error("a too long value was sent (cut values are other values)")
		}
	}
	if out[1].Name != "T2" {
		t.Errorf("an empty name shows its value: got %q", out[1].Name)
	}
	if len(cut) != 2 {
		t.Errorf("cut %v, want the long value and the extra choices", cut)
	}
	if empty, _ := choices(nil); empty == nil || len(empty) != 0 {
		t.Errorf("no suggestions must be an empty list, not %v", empty)
	}
}
