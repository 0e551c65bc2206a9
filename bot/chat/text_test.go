package chat

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/riskbot/riskbot/assets/lang"
)

// TestQuote: what a user typed comes back quoted, valid UTF-8, cut at 40
// characters, and never as the bot's markup.
func TestQuote(t *testing.T) {
	for _, tt := range []struct {
		name, in, want string
	}{
		{"plain", "Alaska", `"Alaska"`},
		{"quotes escaped", `say "hi"`, `"say \"hi\""`},
		{"markup's braces become parentheses", "{{mention:test:ann}}", `"((mention:test:ann))"`},
		{"invalid UTF-8 replaced", "a\xffb", `"a�b"`},
		{"40 characters kept", strings.Repeat("é", 40), `"` + strings.Repeat("é", 40) + `"`},
		{"41 cut at 40 with an ellipsis", strings.Repeat("é", 41), `"` + strings.Repeat("é", 40) + `…"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := Quote(tt.in); got != tt.want {
				t.Errorf("Quote(%q): got %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

// TestClip: a text longer than MaxText bytes is cut at a character's
// boundary, with an ellipsis; a shorter one is as it was.
func TestClip(t *testing.T) {
	short := strings.Repeat("a", MaxText)
	if got := Clip(short); got != short {
		t.Errorf("a text of MaxText bytes was clipped to %d bytes", len(got))
	}
	// "é" is two bytes: MaxText+1 bytes of them end in the middle of one.
	long := "a" + strings.Repeat("é", MaxText/2)
	got := Clip(long)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "…") {
		t.Fatalf("clipped text is not valid UTF-8 ending in an ellipsis: ...%q", got[len(got)-8:])
	}
	if body := strings.TrimSuffix(got, "…"); len(body) > MaxText || len(body) < MaxText-1 || !strings.HasPrefix(long, body) {
		t.Errorf("clipped to %d bytes, want the first %d or %d bytes of the text", len(body), MaxText-1, MaxText)
	}
}

// TestTrunc: n characters at most, the last an ellipsis.
func TestTrunc(t *testing.T) {
	for _, tt := range []struct {
		in   string
		n    int
		want string
	}{
		{"Napoleon", 10, "Napoleon"},
		{"Napoleon", 8, "Napoleon"},
		{"Napoleon", 7, "Napole…"},
		{"Éléonore", 4, "Élé…"},
	} {
		if got := Trunc(tt.in, tt.n); got != tt.want {
			t.Errorf("Trunc(%q, %d): got %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

// TestRefusal: a refusal the catalogue words speaks its reader's
// language; one in plain English stays as it is in every language; both
// are errors a caller finds with errors.As.
func TestRefusal(t *testing.T) {
	worded := RefuseMsg("server.no-server")
	plain := Refuse("No player %q here.", "Zed")
	for _, tt := range []struct {
		name   string
		err    error
		en, fr string
	}{
		{"worded", worded, "Server settings exist only in a server.", "Les réglages de serveur n'existent que dans un serveur."},
		{"plain", plain, `No player "Zed" here.`, `No player "Zed" here.`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r, ok := errors.AsType[*Refusal](tt.err)
			if !ok {
				t.Fatalf("got %T, want a *Refusal", tt.err)
			}
			if got := r.Error(); got != tt.en {
				t.Errorf("Error: got %q, want %q", got, tt.en)
			}
			if got := r.In(lang.For(lang.French)); got != tt.fr {
				t.Errorf("In French: got %q, want %q", got, tt.fr)
			}
			if got := lang.For(lang.French).Msg(r.Message()); got != tt.fr {
				t.Errorf("Message in French: got %q, want %q", got, tt.fr)
			}
		})
	}
}

// TestLists: names joined as a sentence does.
func TestLists(t *testing.T) {
	for _, tt := range []struct {
		names   []string
		or, and string
	}{
		{nil, "", ""},
		{[]string{"A"}, "A", "A"},
		{[]string{"A", "B"}, "A or B", "A and B"},
		{[]string{"A", "B", "C"}, "A, B or C", "A, B and C"},
	} {
		if got := OrList(tt.names); got != tt.or {
			t.Errorf("OrList(%q): got %q, want %q", tt.names, got, tt.or)
		}
		if got := AndList(tt.names); got != tt.and {
			t.Errorf("AndList(%q): got %q, want %q", tt.names, got, tt.and)
		}
	}
}

// TestWords: the small writing helpers.
func TestWords(t *testing.T) {
	for _, tt := range []struct{ got, want string }{
		{Plural(1, "army", "armies"), "1 army"},
		{Plural(0, "army", "armies"), "0 armies"},
		{Plural(3, "army", "armies"), "3 armies"},
		{Capitalize("élan"), "Élan"},
		{Capitalize(""), ""},
		{Private("%d seats", 3).Text, "3 seats"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
	if !Private("x").Private {
		t.Error("Private gave a public message")
	}
}

func TestPlainTime(t *testing.T) {
	now := time.Date(2026, 11, 25, 12, 0, 0, 0, time.UTC)
	for _, tt := range []struct {
		at   time.Time
		l    lang.Tag
		want string
	}{
		{now.Add(23 * time.Hour), lang.English, "in 23 h (Nov 26 11:00 UTC)"},
		{now.Add(20 * time.Minute), lang.English, "in 20 min (Nov 25 12:20 UTC)"},
		{now, lang.English, "now (Nov 25 12:00 UTC)"},
		{now.Add(-5 * time.Minute), lang.English, "5 min ago (Nov 25 11:55 UTC)"},
		{now.Add(-49 * time.Hour), lang.English, "49 h ago (Nov 23 11:00 UTC)"},
		{now.Add(90 * time.Minute), lang.French, "dans 2 h (25/11 13:30 UTC)"},
		{now.Add(-5 * time.Minute), lang.French, "il y a 5 min (25/11 11:55 UTC)"},
	} {
		if got := PlainTimeIn(now, tt.l)(tt.at.Unix()); got != tt.want {
			t.Errorf("%v in %s: got %q, want %q", tt.at, tt.l, got, tt.want)
		}
	}
	if got, want := PlainTime(now)(now.Unix()), "now (Nov 25 12:00 UTC)"; got != want {
		t.Errorf("PlainTime: got %q, want %q", got, want)
	}
}
