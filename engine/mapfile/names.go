package mapfile

import (
	"strings"
	"unicode"
)

// Names from a map file end up in every message about a match on it, so
// they are cleaned as players' names are (bot/command.CleanName, which the
// engine's side cannot import): no chat markup, no mentions, one line,
// bounded. Every character that can start or end markup is dropped, which
// also makes cleaning idempotent. `;` and `=` go too, so that a name never
// reads as a comment or a key when the canonical file is read again.
const markupChars = "{}<>@*_~|`\\[]#;="

// The longest names, in characters.
const (
	maxNameRunes  = 40 // territories and continents
	maxTitleRunes = 64 // the map's title and author
)

// cleanName makes a name fit to show: `_` is a space (the format's own
// rule), markup and invisible characters become spaces, spaces are
// collapsed, at most max characters. It may return "".
func cleanName(s string, max int) string {
	s = strings.ToValidUTF8(s, " ")
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(markupChars, r) || !visible(r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		s = strings.TrimSpace(string(r[:max]))
	}
	return s
}

// visible reports whether r shows as itself: not a control character, an
// invisible format character, a private-use or surrogate code point, a line
// or paragraph separator, or an unassigned code point.
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

// token writes a cleaned name as one token of the file: spaces as `_`.
func token(name string) string { return strings.ReplaceAll(name, " ", "_") }
