package command

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
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

// Issue 12, fault 2: names cleaned once could still become markup.
func TestCleanName(t *testing.T) {
	tests := []struct{ in, want string }{
		{"Ann", "Ann"},
		{"  Ann   Marie ", "Ann Marie"},
		{"@every@everyoneone", "every everyoneone"},
		{"<<@@123456789012345678>", "123456789012345678"},
		{"{<@{mention:console:bob}<@}", "mention:console:bob"},
		{"{{mention:test:ann}} @everyone\nx", "mention:test:ann everyone x"},
		{"**bold** __under__ ~~gone~~ ||spoiler|| `code`", "bold under gone spoiler code"},
		{"[click](https://evil.example)", "click (https://evil.example)"},
		{"Bob\u202e\u200b\x00", "Bob"},
		{"Zoë 東京 🎲", "Zoë 東京 🎲"},
		{"", "Player"},
		{"@@@", "Player"},
		{"\xff\xfe", "Player"},
		{strings.Repeat("x", 40), strings.Repeat("x", 32)},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got := CleanName(tt.in)
			if got != tt.want {
				t.Errorf("cleanName(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if again := CleanName(got); again != got {
				t.Errorf("not idempotent: %q then %q", got, again)
			}
		})
	}
}

// FuzzCleanName: whatever a person calls themselves, the cleaned name
// carries no markup, cleaning it again changes nothing, and it fits a seat.
func FuzzCleanName(f *testing.F) {
	for _, s := range []string{"@every@everyoneone", "<<@@123456789012345678>", "{<@{mention:console:bob}<@}", "{{{{time:1}}}}", "a\u202eb", "💥", "@@here", "<t:1:R>"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := CleanName(s)
		if bad := markupIn(got); bad != "" {
			t.Fatalf("cleanName(%q) = %q carries %s", s, got, bad)
		}
		if again := CleanName(got); again != got {
			t.Fatalf("cleanName(%q) = %q, cleaned again %q", s, got, again)
		}
		if n := utf8.RuneCountInString(got); !utf8.ValidString(got) || n < 1 || n > maxNameRunes || got != strings.TrimSpace(got) || strings.Contains(got, "  ") {
			t.Fatalf("cleanName(%q) = %q: not a seat name", s, got)
		}
		for _, r := range got {
			if !state.Visible(r) && r != ' ' {
				t.Fatalf("cleanName(%q) = %q keeps %U", s, got, r)
			}
		}
	})
}

// Security issue, item 7: a player typed with markup or invisible
// characters names nobody (seat names have none) and is refused with a
// sentence about players' names; names, computer levels, a leading @ and
// mentions pass.
func TestCheckPlayer(t *testing.T) {
	tests := []struct {
		typed string
		want  string // a part of the refusal, "" if it passes
	}{
		{"Ann", ""},
		{"  Ann Lee ", ""},
		{"@Ann", ""},
		{"<@123456789012345678>", ""},
		{"<@!123456789012345678>", ""},
		{"bot:hard", ""},
		{"Zoë-Ann (2)", ""},
		{"<b>x</b>", "player: a player's name has no “<” or “>” (names lose markup"},
		{"**Ann**", "no “*”"},
		{"<@123> Ann", "no “<”, “@” or “>”"},
		{"<#123456789012345678>", "no “<”, “#” or “>”"},
		{"@everyone@", "no “@”"},
		{"Ann\u202e", "no invisible character (U+202E)"},
		{"An\x00n", "no invisible character (U+0000)"},
	}
	for _, tt := range tests {
		t.Run(tt.typed, func(t *testing.T) {
			err := CheckPlayer("player", tt.typed)
			switch {
			case tt.want == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tt.want != "" && err == nil:
				t.Fatalf("passed, want a refusal saying %q", tt.want)
			case err != nil && !strings.Contains(err.Error(), tt.want):
				t.Errorf("refusal %q lacks %q", err, tt.want)
			case err != nil && strings.Contains(err.Error(), "territor"):
				t.Errorf("refusal %q speaks of territories", err)
			}
		})
	}
}

// classicState is a state on the classic map, for name lookups.
func classicState(t testing.TB) *state.State {
	t.Helper()
	m, err := engine.LoadMap("classic")
	if err != nil {
		t.Fatal(err)
	}
	return &state.State{Map: m}
}

// Issue 12, fault 7: a territory typed with emoji, flags, a right-to-left
// override or a NUL around it was found all the same; loose typing
// (prefixes, abbreviations, case, spaces, typos) keeps working.
func TestPollutedTerritoryNames(t *testing.T) {
	s := classicState(t)
	tests := []struct {
		typed string
		want  string // the territory, or a part of the refusal
		ok    bool
	}{
		{"Bra💥zil", "which no territory name has", false},
		{"🇧🇷 Brazil", "which no territory name has", false},
		{"\u202eBrazil", "invisible character (U+202E)", false},
		{"Brazil\u202e", "invisible character (U+202E)", false},
		{"\x00Brazil", "invisible character (U+0000)", false},
		{"Brazil\x00", "invisible character (U+0000)", false},
		{"Bra\u200bzil", "invisible character (U+200B)", false},
		{"Brazil\ufe0f", "U+FE0F", false},
		{"Brazil ⚔️", "“⚔”", false},
		{"brazil", "Brazil", true},
		{"  BRAZIL \t\n", "Brazil", true},
		{"braz", "Brazil", true},
		{"kamch", "Kamchatka", true},
		{"e africa", "East Africa", true},
		{"w. us", "Western United States", true},
		{"nwt", "Northwest Territory", true},
		{"Brazl", "Did you mean Brazil", false},
	}
	for _, tt := range tests {
		t.Run(tt.typed, func(t *testing.T) {
			id, err := Territory(s, "territory", tt.typed)
			if tt.ok {
				if err != nil || s.Map.Territories[id].Name != tt.want {
					t.Fatalf("territory(%q) = %d, %v; want %s", tt.typed, id, err, tt.want)
				}
				return
			}
			if err == nil {
				t.Fatalf("territory(%q) = %s, want a refusal", tt.typed, s.Map.Territories[id].Name)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("refusal %q lacks %q", err, tt.want)
			}
			for _, r := range err.Error() {
				if !state.Visible(r) && r != ' ' {
					t.Errorf("the refusal %q shows %U", err, r)
				}
			}
		})
	}
}

// FuzzTerritoryName: a name typed with anything that is no part of a
// territory's name (controls, invisible characters, emoji and other
// symbols) is refused, wherever it is put in a real name; whatever is
// accepted is made of letters, marks, digits, punctuation and spaces.
func FuzzTerritoryName(f *testing.F) {
	s := classicState(f)
	f.Add("Bra💥zil", int32('💥'), 3, 11)
	f.Add("kamch", int32(0x202e), 0, 29)
	f.Add("e africa", int32(0), 6, 22)
	f.Add("", int32('🇧'), 0, 0)
	f.Fuzz(func(t *testing.T, q string, r rune, pos, terr int) {
		if id, err := Territory(s, "territory", q); err == nil {
			for _, c := range q {
				if !nameRune(c) {
					t.Fatalf("territory(%q) = %d, though it has %U", q, id, c)
				}
			}
		}
		if nameRune(r) || !utf8.ValidRune(r) || terr < 0 {
			return
		}
		name := s.Map.Territories[terr%len(s.Map.Territories)].Name
		i := max(0, pos) % (len(name) + 1)
		polluted := name[:i] + string(r) + name[i:]
		if _, err := Territory(s, "territory", polluted); err == nil || !strings.Contains(err.Error(), "which no territory name has") {
			t.Fatalf("territory(%q) = %v, want a refusal of %U", polluted, err, r)
		}
	})
}

// TestTerritoryInEveryLanguage: a territory may be typed by its name in
// any language of the catalogue, with or without its accents, and a miss
// suggests names in the language it was typed in.
func TestTerritoryInEveryLanguage(t *testing.T) {
	s := classicState(t)
	for _, c := range []struct{ typed, want string }{
		{"Pérou", "Peru"}, {"perou", "Peru"}, {"Territoires du Nord-Ouest", "Northwest Territory"},
		{"groenland", "Greenland"}, {"Québec", "Quebec"}, {"quebec", "Quebec"}, {"Iakoutie", "Yakutsk"},
		{"Peru", "Peru"}, {"kamtchatka", "Kamchatka"}, {"Afrique du Sud", "South Africa"},
	} {
		id, err := Territory(s, "to", c.typed)
		if err != nil {
			t.Errorf("%q: %v", c.typed, err)
			continue
		}
		if got := s.Map.Territories[id].Name; got != c.want {
			t.Errorf("%q is %s, want %s", c.typed, got, c.want)
		}
	}
	_, err := Territory(s, "to", "Bresill")
	var r *chat.Refusal
	if !errors.As(err, &r) || !strings.Contains(r.In(lang.For(lang.French)), "Tu voulais dire Brésil ?") {
		t.Errorf("a French typo: %v, want a French suggestion of Brésil", err)
	}
	if _, err := Territory(s, "to", "Brazli"); err == nil || err.Error() != "to:Brazli is not a territory. Did you mean Brazil?" {
		t.Errorf("an English typo: %v", err)
	}
}

// TestRefusalsInFrench: what the grammar refuses is worded in its
// reader's language, its English unchanged.
func TestRefusalsInFrench(t *testing.T) {
	spec, _ := Find(Specs([]string{"normal"}), "attack")
	fr := lang.For(lang.French)
	for _, c := range []struct {
		opts     map[string]string
		en, want string
	}{
		{map[string]string{"dice": "9"}, "dice must be between 1 and 3, not 9", "dice doit être entre 1 et 3, pas 9"},
		{map[string]string{"color": "red"}, `/risk attack has no option "color" (it takes from, to, dice, until, armies)`, `/risk attack n'a pas d'option "color" (elle prend from, to, dice, until, armies)`},
	} {
		_, err := Parse(spec, c.opts)
		if err == nil {
			t.Errorf("%v: no refusal", c.opts)
			continue
		}
		if got := err.Error(); got != c.en {
			t.Errorf("%v: English %q, want %q", c.opts, got, c.en)
		}
		if got := fr.Error(err); got != c.want {
			t.Errorf("%v: French %q, want %q", c.opts, got, c.want)
		}
	}
	newSpec, _ := Find(Specs([]string{"normal"}), "new")
	if _, err := Parse(newSpec, map[string]string{"fog": "maybe"}); fr.Error(err) != `fog doit être l'un de on, off, pas "maybe"` {
		t.Errorf("a bad choice in French: %q", fr.Error(err))
	}
	err := CheckTyped("from", "Pér\u200bou💥")
	if got := fr.Error(err); !strings.Contains(got, "contient un caractère invisible (U+200B) ou “💥”") {
		t.Errorf("a name's characters in French: %q", got)
	}
}
