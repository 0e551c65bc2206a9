package bot

import (
	"context"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/command"
)

// markupIn names the markup a text would carry to a chat, or "" if none:
// the bot's own (anything Format would change), Discord's entities and
// mass mentions, and Markdown.
func markupIn(s string) string {
	if f := chat.Format(s, func(string) string { return "<MENTION>" }, func(int64) string { return "<TIME>" }); f != s {
		return "bot markup"
	}
	for _, bad := range []string{"{{", "}}", "<@", "<#", "<t:", "<:", "@everyone", "@here", "**", "__", "~~", "||", "`", "](", "\\"} {
		if strings.Contains(s, bad) {
			return bad
		}
	}
	return ""
}

// The names of the issue, given to a person joining and to a bot, never
// show as markup in what the bot says, nor in the seats it stores.
func TestNamesNeverBecomeMarkup(t *testing.T) {
	h := newHarness(t)
	const ch = "test:markup"
	h.do(ch, "Ann", "new")
	evil := []string{"@every@everyoneone", "<<@@123456789012345678>", "{<@{mention:test:ann}<@}"}
	var said []string
	for i, name := range evil[:2] {
		var got chat.Message
		err := h.bot.Handle(context.Background(), chat.Request{Channel: ch, User: chat.User{ID: "test:evil" + string(rune('a'+i)), Name: name}, Command: "join"},
			chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil }))
		if err != nil {
			t.Fatal(err)
		}
		said = append(said, got.Text)
	}
	// A bot's name is an option: braces are refused, the rest cleaned.
	wantPrivate(t, h.doOpts(ch, "Ann", "addbot", map[string]string{"name": evil[2]}), "cannot contain { or }")
	said = append(said, h.doOpts(ch, "Ann", "addbot", map[string]string{"name": "<@@every@everyoneone>"}).Text)
	said = append(said, h.do(ch, "Ann", "status").Text)
	for _, text := range said {
		if bad := markupIn(text); bad != "" {
			t.Errorf("a name put %s in %q", bad, text)
		}
	}
	for _, s := range h.load(ch).Meta.Seats {
		if bad := markupIn(s.Name); bad != "" || s.Name != command.CleanName(s.Name) {
			t.Errorf("seat name %q (%s)", s.Name, bad)
		}
	}
	// A typed value quoted back is not markup either.
	if r := h.doOpts(ch, "Ann", "{{mention:test:ann}}", nil); markupIn(r.Text) != "" {
		t.Errorf("an unknown command was quoted back as markup: %q", r.Text)
	}
}

// TestHelpSpeaksOfTheChannelsRules: /risk help answers for the rules of
// the channel's match, lobby included, or those asked for; every topic
// fits a message.
func TestHelpSpeaksOfTheChannelsRules(t *testing.T) {
	h := newHarness(t)
	h.do("cap", "Ann", "new", "rules:capitals")
	for _, tc := range []struct {
		channel string
		opts    []string
		want    string
	}{
		{"cap", nil, "hold your capital"},
		{"cap", []string{"topic:turn"}, "A turn in capitals"},
		{"none", nil, "conquer the world with dice"},
		{"none", []string{"topic:turn", "rules:capitals"}, "A turn in capitals"},
		{"cap", []string{"topic:turn", "rules:classic"}, "A turn in classic Risk"},
		{"cap", []string{"topic:commands"}, "`launch`"},
	} {
		m := h.do(tc.channel, "Ann", "help", tc.opts...)
		if !strings.Contains(m.Text, tc.want) || !m.Private || len([]rune(m.Text)) > chat.MaxText {
			t.Errorf("/risk help %v in %s: %q, want %q, private, at most %d characters", tc.opts, tc.channel, m.Text, tc.want, chat.MaxText)
		}
	}
	if m := h.do("cap", "Ann", "help", "topic:everything"); !strings.Contains(m.Text, "one of start, turn") {
		t.Errorf("/risk help topic:everything: %q", m.Text)
	}
}
