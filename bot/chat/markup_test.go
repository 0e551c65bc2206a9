package chat

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"
	"time"
)

// TestMarkup: the bot's markup, made by Mention, MentionOf, ChannelLink
// and Timestamp, comes out of Format the platform's way; what is not
// markup is left alone.
func TestMarkup(t *testing.T) {
	at := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	full := Markup{
		Mention: func(id string) string { return "<@" + id + ">" },
		Named:   func(id, name string) string { return "@" + name },
		Channel: func(id string) string { return "<#" + id + ">" },
		Time:    func(unix int64) string { return "<t:" + strconv.FormatInt(unix, 10) + ">" },
	}
	bare := Markup{Mention: full.Mention, Time: full.Time}
	for _, tt := range []struct {
		name       string
		text       string
		full, bare string
	}{
		{"a mention", "hi " + Mention("test:ann"), "hi <@test:ann>", "hi <@test:ann>"},
		{"a mention with its name", MentionOf("test:ann", "Ann"), "@Ann", "<@test:ann>"},
		{"a name's braces and bars dropped", MentionOf("test:ann", "{A|n}n}"), "@Ann", "<@test:ann>"},
		{"a name of braces only is a mention", MentionOf("test:ann", "{}"), "<@test:ann>", "<@test:ann>"},
		{"a channel", "in " + ChannelLink("test:c"), "in <#test:c>", "in test:c"},
		{"a time", Timestamp(at), fmt.Sprintf("<t:%d>", at.Unix()), fmt.Sprintf("<t:%d>", at.Unix())},
		{"a time that is no number", "{{time:soon}}", "soon", "soon"},
		{"no markup", "{{bold:x}} {mention:x}", "{{bold:x}} {mention:x}", "{{bold:x}} {mention:x}"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := full.Format(tt.text); got != tt.full {
				t.Errorf("Format: got %q, want %q", got, tt.full)
			}
			if got := bare.Format(tt.text); got != tt.bare {
				t.Errorf("Format without Named and Channel: got %q, want %q", got, tt.bare)
			}
			if got := Format(tt.text, bare.Mention, bare.Time); got != tt.bare {
				t.Errorf("the function Format: got %q, want %q", got, tt.bare)
			}
		})
	}
}

// TestEmbedText: an embed printed for a chat without cards.
func TestEmbedText(t *testing.T) {
	for _, tt := range []struct {
		name string
		e    Embed
		want string
	}{
		{"whole", Embed{Title: "Lobby", Description: "2/6", Fields: []Field{{Name: "Host", Value: "Ann"}}, Footer: "Join!"}, "**Lobby**\n2/6\nHost: Ann\nJoin!"},
		{"empty parts left out", Embed{Description: "2/6"}, "2/6"},
	} {
		if got := tt.e.Text(); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestImageRendersOnce: an image is drawn when first asked for and kept;
// a failed drawing is not kept, so the next asks again.
func TestImageRendersOnce(t *testing.T) {
	calls := 0
	fail := true
	im := NewImage("map.png", func(context.Context) ([]byte, error) {
		calls++
		if fail {
			return nil, errors.New("cancelled")
		}
		return []byte("png"), nil
	})
	if calls != 0 {
		t.Fatalf("drawn %d times before anyone asked", calls)
	}
	if _, err := im.PNG(context.Background()); err == nil {
		t.Fatal("a failed drawing gave no error")
	}
	fail = false
	for range 3 {
		if b, err := im.PNG(context.Background()); err != nil || string(b) != "png" {
			t.Fatalf("got %q, %v; want the drawing", b, err)
		}
	}
	if calls != 2 {
		t.Errorf("drawn %d times, want 2 (the failure, then once)", calls)
	}
}

// TestRefusedError: a channel's refusal is undeliverable, says why, and
// keeps its cause.
func TestRefusedError(t *testing.T) {
	cause := errors.New("403")
	err := fmt.Errorf("post: %w", &RefusedError{Reason: "Missing Permissions", Needs: []string{"Send Messages"}, Err: cause})
	if !errors.Is(err, ErrUndeliverable) || !errors.Is(err, cause) {
		t.Errorf("%v: undeliverable %v, its cause %v; want both", err, errors.Is(err, ErrUndeliverable), errors.Is(err, cause))
	}
	if got, want := err.Error(), "post: the channel refused the post (Missing Permissions): 403"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	var got Message
	r := ReplierFunc(func(_ context.Context, m Message) error { got = m; return nil })
	if err := r.Reply(context.Background(), Message{Text: "hi"}); err != nil || got.Text != "hi" {
		t.Errorf("ReplierFunc passed %q, %v", got.Text, err)
	}
}
