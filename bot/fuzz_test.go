package bot

import (
	"context"
	"testing"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
)

// FuzzHandle sends arbitrary commands and options to a match in progress:
// nothing panics, every answer fits a chat message, and a refusal (a
// private answer) never changes the match.
func FuzzHandle(f *testing.F) {
	h := newHarness(f)
	const ch = "test:fuzz"
	h.started(ch, []string{"Ann", "Bob"})
	h.do(ch, "Ann", "autoplace")
	h.do(ch, "Bob", "autoplace")
	h.bot.Wait()
	for _, seed := range [][4]string{
		{"place", "territory", "alaska", "Ann"},
		{"attack", "from", "kamch", "Bob"},
		{"trade", "cards", "1 2 3", "Ann"},
		{"odds", "attackers", "99999999999999999999", "Bob"},
		{"end", "discard", "wild", "Ann"},
		{"fortify", "armies", "-3", "Bob"},
		{"nuke", "x", "\x00", "Zed"},
	} {
		f.Add(seed[0], seed[1], seed[2], seed[3])
	}
	version := func(t *testing.T) int64 {
		m, err := h.bot.matches.Latest(context.Background(), ch)
		if err != nil {
			t.Fatal(err)
		}
		return m.Version
	}
	f.Fuzz(func(t *testing.T, command, option, value, who string) {
		before := version(t)
		var got chat.Message
		err := h.bot.Handle(context.Background(), chat.Request{Channel: ch, User: user(who), Command: command, Options: map[string]string{option: value}},
			chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil }))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Text) > 2000 {
			t.Fatalf("a reply of %d characters", len(got.Text))
		}
		if after := version(t); got.Refused && after != before && command != "cards" {
			t.Fatalf("refused /risk %s %s:%q changed the match: %s", command, option, value, got.Text)
		}
	})
}

// FuzzCapitals is FuzzHandle for capitals: arbitrary commands and options,
// the capitals ones among them, to a capitals match in progress and to a
// lobby (where new and settings read the capitals options).
func FuzzCapitals(f *testing.F) {
	h := newHarness(f)
	const ch, lobby = "test:fuzzcap", "test:fuzzlobby"
	h.do(ch, "Ann", "new", "rules:capitals", "map:small")
	h.do(ch, "Bob", "join")
	h.do(ch, "Ann", "start")
	for range 2 {
		s := h.load(ch).Game.State
		for _, c := range engine.Legal(s, s.Current) {
			if c, ok := c.(engine.Capital); ok {
				h.do(ch, s.Seats[s.Current].Name, "place", "territory:"+s.Map.TerritoryName(c.Territory))
				break
			}
		}
	}
	h.do(lobby, "Ann", "new", "rules:capitals")
	for _, seed := range []struct {
		lobby                       bool
		command, option, value, who string
	}{
		{false, "place", "territory", "a", "Ann"},
		{false, "attack", "to", "x", "Bob"},
		{false, "fortify", "ratio", "3/4", "Ann"},
		{false, "fortify", "hero", "maybe", "Bob"},
		{false, "port", "territory", "🇧🇷", "Ann"},
		{false, "launch", "x", "", "Ann"},
		{false, "cards", "use", "yes", "Bob"},
		{false, "end", "discard", "1", "Ann"},
		{true, "settings", "neutral", "1-5", "Ann"},
		{true, "settings", "neutral", "9999999999999999999-1", "Ann"},
		{true, "settings", "capital-troops", "0", "Ann"},
		{true, "settings", "map", "large", "Bob"},
		{true, "settings", "rules", "classic", "Ann"},
	} {
		f.Add(seed.lobby, seed.command, seed.option, seed.value, seed.who)
	}
	version := func(t *testing.T, channel string) int64 {
		m, err := h.bot.matches.Latest(context.Background(), channel)
		if err != nil {
			t.Fatal(err)
		}
		return m.Version
	}
	f.Fuzz(func(t *testing.T, inLobby bool, command, option, value, who string) {
		channel := ch
		if inLobby {
			channel = lobby
		}
		before := version(t, channel)
		var got chat.Message
		err := h.bot.Handle(context.Background(), chat.Request{Channel: channel, User: user(who), Command: command, Options: map[string]string{option: value}},
			chat.ReplierFunc(func(_ context.Context, m chat.Message) error { got = m; return nil }))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Text) > 2000 {
			t.Fatalf("a reply of %d characters", len(got.Text))
		}
		if after := version(t, channel); got.Refused && after != before {
			t.Fatalf("refused /risk %s %s:%q changed the match: %s", command, option, value, got.Text)
		}
		m, err := h.bot.matches.Latest(context.Background(), ch)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Game.State.Check(); err != nil {
			t.Fatal(err)
		}
	})
}
