package web

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/riskbot/riskbot/bot"
)

// TestFeed: a living message is replaced in place, and private answers
// reach only the browser that plays their author.
func TestFeed(t *testing.T) {
	s := New(Config{})
	ann := &session{id: "a", users: map[string]bool{}}
	bob := &session{id: "b", users: map[string]bool{}}
	if _, err := s.claim(ann, "Ann"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.claim(bob, "Ann"); err == nil {
		t.Fatal("a second browser took Ann")
	}
	if _, err := s.claim(bob, "Bob"); err != nil {
		t.Fatal(err)
	}
	ch := Prefix + "main"
	sa := &sub{se: ann, ch: make(chan []byte, 8)}
	sb := &sub{se: bob, ch: make(chan []byte, 8)}
	s.subscribe(ch, sa)
	s.subscribe(ch, sb)
	ctx := context.Background()
	id, err := s.Post(ctx, ch, bot.Message{Text: "Turn 1", Embed: &bot.Embed{Title: "Turn 1", Color: 0xff0000}})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Edit(ctx, ch, id, bot.Message{Text: "Turn 1, placed"}); err != nil {
		t.Fatal(err)
	}
	pageReplier{s: s, channel: ch, user: bot.User{ID: userID("Ann"), Name: "Ann"}}.Reply(ctx, bot.Message{Private: true, Text: "your cards"})
	read := func(sb *sub) []view {
		var out []view
		for {
			select {
			case b := <-sb.ch:
				var v view
				if err := json.Unmarshal(b, &v); err != nil {
					t.Fatal(err)
				}
				out = append(out, v)
			default:
				return out
			}
		}
	}
	got := read(sa)
	if len(got) != 3 || got[1].ID != id || got[1].Rev != 1 || !got[1].Edited || got[0].Embed == nil || got[0].Embed.Color != "#ff0000" {
		t.Fatalf("Ann's page got %+v", got)
	}
	if got[2].To != "Ann" || !strings.Contains(got[2].HTML, "your cards") {
		t.Errorf("Ann's private answer: %+v", got[2])
	}
	for _, v := range read(sb) {
		if strings.Contains(v.HTML, "your cards") {
			t.Error("Bob's page shows Ann's private answer")
		}
	}
	if _, err := s.Post(ctx, "discord:1", bot.Message{Text: "x"}); err == nil {
		t.Error("posted to a channel that is not the page's")
	}
}
