package command

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"unicode"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/state"
)

// What people type ends up in messages: seat names in every post, typed
// values quoted back in refusals. None of it may become markup, neither
// the bot's own ({{mention:ID}}, which adapters turn into a mention) nor
// the chat's (<@ID> mentions, <#ID> channels, <t:UNIX> times, @everyone,
// Markdown). Removing a substring is not enough: "@every@everyoneone"
// without "@everyone" is "@everyone". So names lose every character that
// can start or end markup, which also makes cleaning idempotent, and
// option values may not hold the bot's braces at all.

// markupChars are the characters of chat markup (state.MarkupChars).
const markupChars = state.MarkupChars

// maxNameRunes bounds a seat name, as Discord bounds a nickname.
const maxNameRunes = 32

// CleanName makes a name fit to show in any message: one line, no control
// or invisible formatting characters, no markup characters (each becomes a
// space), spaces collapsed, at most 32 characters; "Player" if nothing is
// left. cleanName(cleanName(s)) == cleanName(s).
func CleanName(s string) string {
	if s = state.CleanText(s, markupChars, maxNameRunes); s == "" {
		return "Player"
	}
	return s
}

// hasMarkupBraces reports whether a typed value holds the braces of the
// bot's own markup, which no option value needs.
func hasMarkupBraces(s string) bool { return strings.ContainsAny(s, "{}") }

// CheckTyped refuses what a person typed for a name on the map (a
// territory, a card): loose matching forgives case, punctuation, prefixes,
// abbreviations and typos, but control and invisible formatting characters
// (a NUL, a right-to-left override, a zero-width space), emoji, flags and
// other symbols are in no territory's name, and a lookup that skipped them
// would act on a name nobody can read. Spaces, tabs and line breaks are
// harmless: the lookup ignores them.
func CheckTyped(option, q string) error {
	var bad []string
	seen := map[rune]bool{}
	for _, r := range q {
		if nameRune(r) || seen[r] {
			continue
		}
		seen[r] = true
		if state.Visible(r) && !isVariationSelector(r) {
			bad = append(bad, quoted(r))
		} else {
			bad = append(bad, fmt.Sprintf("U+%04X", r))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	shown := strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if !state.Visible(r) || isVariationSelector(r) {
			return -1
		}
		return r
	}, q)), " ")
	return chat.RefuseMsg("command.typed.territory", "Option", lang.Text(option), "Typed", lang.Text(shown), "Chars", charList(bad, "command.typed.an-invisible"))
}

// mentionForm is a mention as Discord puts it in a text option: <@ID>,
// or <@!ID> from older clients.
var mentionForm = regexp.MustCompile(`^<@!?[0-9]+>$`)

// CheckPlayer refuses what a person typed for a player (/risk me stats,
// kick, join): a seat's name never holds markup or invisible characters
// (CleanName takes them out), so a typed name with them names nobody, and
// saying so beats "no such player". A mention (<@ID>) and a leading @
// are how people name someone, and pass.
func CheckPlayer(option, q string) error {
	q = strings.TrimSpace(q)
	if mentionForm.MatchString(q) {
		return nil
	}
	var bad []string
	seen := map[rune]bool{}
	for _, r := range strings.TrimPrefix(q, "@") {
		if seen[r] || (!strings.ContainsRune(markupChars, r) && state.Visible(r)) {
			continue
		}
		seen[r] = true
		if state.Visible(r) {
			bad = append(bad, quoted(r))
		} else {
			bad = append(bad, fmt.Sprintf("U+%04X", r))
		}
	}
	if len(bad) == 0 {
		return nil
	}
	return chat.RefuseMsg("command.typed.player", "Option", lang.Text(option), "Chars", charList(bad, "command.typed.invisible"))
}

// charList words the characters a name may not have: a quoted one as it
// is, an invisible one (U+…) with the words of key.
func charList(bad []string, key string) lang.Or {
	named := make(lang.Or, len(bad))
	for i, b := range bad {
		if strings.HasPrefix(b, "U+") {
			named[i] = lang.M(key, "Code", lang.Text(b))
		} else {
			named[i] = lang.Text(b)
		}
	}
	return named
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

// Territory resolves a territory option typed by a person, by its name
// on the map or in any language of the catalogue ("Pérou", "perou"); a
// miss is answered with the closest names.
func Territory(s *state.State, option, q string) (int, error) {
	if err := CheckTyped(option, q); err != nil {
		return -1, err
	}
	id, err := s.Map.Lookup(q)
	if err == nil {
		return id, nil
	}
	var ne *state.NameError
	if !errors.As(err, &ne) {
		return -1, err
	}
	for _, t := range lang.Tags() {
		if ne.Ambiguous {
			break // the map's own names matched several: say which
		}
		names, ok := placeNames(s.Map, lang.For(t))
		if !ok {
			continue
		}
		id, err := s.Map.Renamed(names).Lookup(q)
		if err == nil {
			return id, nil
		}
		var le *state.NameError
		if errors.As(err, &le) && !le.Ambiguous && len(le.Candidates) > 0 &&
			(len(ne.Candidates) == 0 || distance(q, le.Candidates[0]) < distance(q, ne.Candidates[0])) {
			ne = le // what they typed is closer to this language's names
		}
	}
	typed := strings.TrimSpace(q)
	switch {
	case typed == "":
		return -1, chat.RefuseMsg("command.territory.none", "Option", option)
	case ne.Ambiguous:
		return -1, chat.RefuseMsg("command.territory.ambiguous", "Option", option, "Typed", lang.Text(typed), "Names", orList(ne.Candidates))
	case len(ne.Candidates) > 0:
		return -1, chat.RefuseMsg("command.territory.closest", "Option", option, "Typed", lang.Text(typed), "Names", orList(ne.Candidates))
	}
	return -1, chat.RefuseMsg("command.territory.unknown", "Option", option, "Typed", lang.Text(typed))
}

// distance is how far what was typed is from a name, case and spaces
// aside.
func distance(typed, name string) int {
	squash := func(s string) string { return strings.ReplaceAll(strings.ToLower(s), " ", "") }
	return state.EditDistance(squash(typed), squash(name))
}

// orList is names as a choice: "A, B or C" / "A, B ou C".
func orList(names []string) lang.Or {
	or := make(lang.Or, len(names))
	for i, n := range names {
		or[i] = lang.Text(n)
	}
	return or
}

// placeNames are the map's territories as p names them, and whether any
// differs from the map's own.
func placeNames(m *state.Map, p lang.Printer) ([]string, bool) {
	names := make([]string, len(m.Territories))
	differ := false
	for i, t := range m.Territories {
		if n := p.PlaceName(t.Name); n != t.Name {
			names[i], differ = n, true
		}
	}
	return names, differ
}

// People reads the people typed as @Name in the options of the command
// name that take a person (User) into their IDs (id gives a name's), as
// Discord sends a chosen member's: for the chats that know their people
// by name (the console, the page).
func People(specs []Spec, name string, opts map[string]string, id func(name string) string) {
	spec, ok := Find(specs, Alias(name))
	if !ok {
		return
	}
	for _, o := range spec.Options {
		if v, ok := opts[o.Name]; ok && o.Type == User {
			if n, ok := strings.CutPrefix(strings.TrimSpace(v), "@"); ok && n != "" {
				opts[o.Name] = id(n)
			}
		}
	}
}
