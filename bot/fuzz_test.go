package bot

import (
	"context"
	"testing"
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
		m, err := h.bot.loadLatest(context.Background(), ch)
		if err != nil {
			t.Fatal(err)
		}
		return m.Version
	}
	f.Fuzz(func(t *testing.T, command, option, value, who string) {
		before := version(t)
		var got Message
		err := h.bot.Handle(context.Background(), Request{Channel: ch, User: user(who), Command: command, Options: map[string]string{option: value}},
			ReplierFunc(func(_ context.Context, m Message) error { got = m; return nil }))
		if err != nil {
			t.Fatal(err)
		}
		if len(got.Text) > 2000 {
			t.Fatalf("a reply of %d characters", len(got.Text))
		}
		if after := version(t); got.Private && after != before && command != "cards" {
			t.Fatalf("refused /risk %s %s:%q changed the match: %s", command, option, value, got.Text)
		}
	})
}
