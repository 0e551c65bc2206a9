package bot

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/riskbot/riskbot/bot/chat"
)

// What people type ends up in messages: seat names in every post, typed
// values quoted back in refusals. None of it may become markup, neither
// the bot's own ({{mention:ID}}, which adapters turn into a mention) nor
// the chat's (<@ID> mentions, <#ID> channels, <t:UNIX> times, @everyone,
// Markdown). Removing a substring is not enough: "@every@everyoneone"
// without "@everyone" is "@everyone". So names lose every character that
// can start or end markup, which also makes cleaning idempotent, and
// option values may not hold the bot's braces at all.

// markupChars are the characters of chat markup: braces of the bot's own,
// angle brackets of Discord's entities, the @ of mass mentions, and
// Markdown's emphasis, strike, spoiler, code, escape, masked-link and
// heading characters.
const markupChars = "{}<>@*_~|`\\[]#"

// maxNameRunes bounds a seat name, as Discord bounds a nickname.
const maxNameRunes = 32

// cleanName makes a name fit to show in any message: one line, no control
// or invisible formatting characters, no markup characters (each becomes a
// space), spaces collapsed, at most 32 characters; "Player" if nothing is
// left. cleanName(cleanName(s)) == cleanName(s).
func cleanName(s string) string {
	s = strings.ToValidUTF8(s, " ")
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(markupChars, r) || !visible(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxNameRunes {
		s = strings.TrimSpace(string(r[:maxNameRunes]))
	}
	if s == "" {
		return "Player"
	}
	return s
}

// visible reports whether r shows as itself: not a control character, an
// invisible format character (right-to-left overrides, zero-width joiners
// and spaces), a private-use or surrogate code point, a line or paragraph
// separator, or a code point Unicode does not assign.
func visible(r rune) bool {
	switch {
	case r == unicode.ReplacementChar,
		unicode.IsControl(r),
		unicode.In(r, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp),
		!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs):
		return false
	}
	return true
}

// hasMarkupBraces reports whether a typed value holds the braces of the
// bot's own markup, which no option value needs.
func hasMarkupBraces(s string) bool { return strings.ContainsAny(s, "{}") }

// checkTyped refuses what a person typed for a name on the map (a
// territory, a card): loose matching forgives case, punctuation, prefixes,
// abbreviations and typos, but control and invisible formatting characters
// (a NUL, a right-to-left override, a zero-width space), emoji, flags and
// other symbols are in no territory's name, and a lookup that skipped them
// would act on a name nobody can read. Spaces, tabs and line breaks are
// harmless: the lookup ignores them.
func checkTyped(option, q string) error {
	var bad []string
	seen := map[rune]bool{}
	for _, r := range q {
		if nameRune(r) || seen[r] {
			continue
		}
		seen[r] = true
		if visible(r) && !isVariationSelector(r) {
			bad = append(bad, quoted(r))
		} else {
			bad = append(bad, fmt.Sprintf("an invisible character (U+%04X)", r))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	shown := strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if !visible(r) || isVariationSelector(r) {
			return -1
		}
		return r
	}, q)), " ")
	return chat.Refuse("%s:%s has %s, which no territory name has: type the name in letters.", option, shown, chat.OrList(bad))
}

// nameRune reports whether r may be typed in a name on the map: letters
// with their accents, digits, punctuation and spaces.
func nameRune(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return true
	case isVariationSelector(r), unicode.Is(unicode.Me, r):
		return false
	}
	return unicode.In(r, unicode.L, unicode.Mn, unicode.Mc, unicode.N, unicode.P, unicode.Zs)
}

// isVariationSelector reports whether r picks the look of the character
// before it (text or emoji style): a mark, but part of an emoji.
func isVariationSelector(r rune) bool {
	return unicode.Is(unicode.Variation_Selector, r)
}

// quoted shows a visible character in quotes: “💥”.
func quoted(r rune) string { return "“" + string(r) + "”" }
