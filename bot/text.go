package bot

import (
	"strings"
	"unicode"
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
