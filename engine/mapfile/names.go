package mapfile

import (
	"strings"

	"github.com/riskbot/riskbot/state"
)

// Names from a map file end up in every message about a match on it, so
// they are cleaned as players' names are (bot/command.CleanName, which the
// engine's side cannot import): no chat markup, no mentions, one line,
// bounded. Every character that can start or end markup is dropped, which
// also makes cleaning idempotent. `;` and `=` go too, so that a name never
// reads as a comment or a key when the canonical file is read again.
const markupChars = state.MarkupChars + ";="

// The longest names, in characters.
const (
	maxNameRunes  = 40 // territories and continents
	maxTitleRunes = 64 // the map's title and author
)

// cleanName makes a name fit to show: `_` is a space (the format's own
// rule, and a markup character), markup and invisible characters become
// spaces, spaces are collapsed, at most max characters. It may return "".
func cleanName(s string, max int) string { return state.CleanText(s, markupChars, max) }

// token writes a cleaned name as one token of the file: spaces as `_`.
func token(name string) string { return strings.ReplaceAll(name, " ", "_") }
