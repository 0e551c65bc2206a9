package state

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// nameIndex holds, per territory, the normalised forms of its name and
// aliases, for lookups by what people type.
type nameIndex struct {
	forms [][]nameForm // by territory id
}

type nameForm struct {
	words  []string // lower-case words
	joined string   // words without spaces
}

func buildNameIndex(m *Map) nameIndex {
	idx := nameIndex{forms: make([][]nameForm, len(m.Territories))}
	for i, t := range m.Territories {
		for _, s := range append([]string{t.Name}, t.Aliases...) {
			w := normalize(s)
			if len(w) > 0 {
				idx.forms[i] = append(idx.forms[i], nameForm{w, strings.Join(w, "")})
			}
		}
	}
	return idx
}

// normalize lower-cases s, drops its accents (é is e: people type
// "Perou" for "Pérou") and splits it into words of letters and digits;
// everything else (spaces, dots, hyphens, apostrophes) separates words.
func normalize(s string) []string {
	return strings.FieldsFunc(foldAccents(strings.ToLower(s)), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// foldAccents drops the marks letters carry (NFD, then no Mn).
func foldAccents(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		if !unicode.Is(unicode.Mn, r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Renamed is a copy of the map whose territories go by these names (by
// id; an empty one keeps the map's), with their aliases: what people type
// in another language is looked up in it.
func (m *Map) Renamed(names []string) *Map {
	c := *m
	c.Territories = slices.Clone(m.Territories)
	for i := range c.Territories {
		if i < len(names) && names[i] != "" {
			c.Territories[i].Name = names[i]
		}
	}
	c.names = buildNameIndex(&c)
	return &c
}

func normalizeJoined(s string) string { return strings.Join(normalize(s), "") }

// NameError reports a territory name that matches no territory, or several.
type NameError struct {
	Query string
	// Candidates are the territories the query could mean (ambiguous), or the
	// closest names (not found), best first.
	Candidates []string
	Ambiguous  bool
}

func (e *NameError) Error() string {
	q := strings.TrimSpace(e.Query)
	switch {
	case q == "":
		return "no territory given"
	case e.Ambiguous:
		return fmt.Sprintf("%q could be %s: type more of the name", q, orList(e.Candidates))
	case len(e.Candidates) > 0:
		return fmt.Sprintf("no territory %q; did you mean %s?", q, orList(e.Candidates))
	default:
		return fmt.Sprintf("no territory %q", q)
	}
}

func orList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// Lookup finds the territory a person means by q. It ignores case and
// punctuation and accepts aliases ("UK"), unique prefixes ("kamch"), and
// abbreviated words ("e africa", "w. us", "nw territory"). When nothing
// matches, the *NameError suggests the closest names.
func (m *Map) Lookup(q string) (int, error) {
	words := normalize(q)
	if len(words) == 0 {
		return -1, &NameError{Query: q}
	}
	joined := strings.Join(words, "")
	// 1. An exact name or alias wins outright.
	for id, forms := range m.names.forms {
		for _, f := range forms {
			if f.joined == joined {
				return id, nil
			}
		}
	}
	// 2. Abbreviations and prefixes, which must be unique.
	var hits []int
	for id, forms := range m.names.forms {
		for _, f := range forms {
			if matchWords(words, f.words) || strings.HasPrefix(f.joined, joined) {
				hits = append(hits, id)
				break
			}
		}
	}
	if len(hits) == 1 {
		return hits[0], nil
	}
	if len(hits) > 1 {
		e := &NameError{Query: q, Ambiguous: true}
		for _, h := range hits {
			e.Candidates = append(e.Candidates, m.Territories[h].Name)
		}
		slices.Sort(e.Candidates)
		return -1, e
	}
	// 3. A typo: suggest the closest names.
	return -1, &NameError{Query: q, Candidates: m.closest(joined, 3)}
}

// matchWords reports whether every query word abbreviates the name's words in
// order: each query word is a prefix of the next name word, or the initials of
// two or more consecutive name words ("us" for "united states"). Every name
// word must be used, except trailing ones.
func matchWords(q, name []string) bool {
	if len(q) == 0 {
		return true
	}
	if len(name) == 0 {
		return false
	}
	if strings.HasPrefix(name[0], q[0]) && matchWords(q[1:], name[1:]) {
		return true
	}
	w := q[0]
	if len(w) >= 2 && len(w) <= len(name) {
		for i := range len(w) {
			if name[i][0] != w[i] {
				return false
			}
		}
		return matchWords(q[1:], name[len(w):])
	}
	return false
}

// closest returns up to n territory names near the query by edit distance,
// nearest first, within a distance that still looks like a typo.
func (m *Map) closest(joined string, n int) []string {
	type cand struct {
		id, d int
	}
	var cs []cand
	for id, forms := range m.names.forms {
		best := 1 << 30
		for _, f := range forms {
			d := EditDistance(joined, f.joined)
			// A query shorter than the name may be a mistyped prefix.
			if len(joined) < len(f.joined) {
				d = min(d, EditDistance(joined, f.joined[:len(joined)])+1)
			}
			best = min(best, d)
		}
		if best <= max(2, len(joined)*2/5) {
			cs = append(cs, cand{id, best})
		}
	}
	slices.SortStableFunc(cs, func(a, b cand) int { return a.d - b.d })
	var out []string
	for i, c := range cs {
		if i == n || (i > 0 && c.d > cs[0].d+1) {
			break
		}
		out = append(out, m.Territories[c.id].Name)
	}
	return out
}

// Rank orders candidate territories by how well they match what a person is
// typing, best first, dropping those that do not match at all. An empty query
// keeps every candidate, in name order. It feeds autocomplete.
func (m *Map) Rank(q string, candidates []int) []int {
	words := normalize(q)
	joined := strings.Join(words, "")
	type scored struct{ id, score int }
	var out []scored
	for _, id := range candidates {
		if id < 0 || id >= len(m.Territories) {
			continue
		}
		score := -1
		for _, f := range m.names.forms[id] {
			s := -1
			switch {
			case joined == "":
				s = 50
			case f.joined == joined:
				s = 100
			case strings.HasPrefix(f.joined, joined):
				s = 90
			case matchWords(words, f.words):
				s = 80
			case strings.Contains(f.joined, joined):
				s = 60
			case isSubsequence(joined, f.joined):
				s = 40
			default:
				if d := EditDistance(joined, f.joined[:min(len(f.joined), len(joined))]); d <= max(1, len(joined)/3) {
					s = 30 - d
				}
			}
			score = max(score, s)
		}
		if score >= 0 {
			out = append(out, scored{id, score})
		}
	}
	slices.SortStableFunc(out, func(a, b scored) int {
		if a.score != b.score {
			return b.score - a.score
		}
		return strings.Compare(m.Territories[a.id].Name, m.Territories[b.id].Name)
	})
	ids := make([]int, len(out))
	for i, s := range out {
		ids[i] = s.id
	}
	return ids
}

func isSubsequence(q, s string) bool {
	i := 0
	for j := 0; i < len(q) && j < len(s); j++ {
		if q[i] == s[j] {
			i++
		}
	}
	return i == len(q)
}

// EditDistance is the optimal-string-alignment distance: insertions,
// deletions, substitutions and swaps of two neighbouring letters (a swap is
// one mistake, as fingers make it). Territory names and the bot's
// subcommands are matched by it.
func EditDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// MarkupChars are the characters of chat markup: braces of the bot's own,
// angle brackets of Discord's entities, the @ of mass mentions, and
// Markdown's emphasis, strike, spoiler, code, escape, masked-link and
// heading characters. Names shown in messages (players', maps') hold none.
const MarkupChars = "{}<>@*_~|`\\[]#"

// CleanText makes a name fit to show in any message: one line, no control
// or invisible formatting characters (Visible), no character of drop (each
// becomes a space), spaces collapsed, at most max characters. It may
// return "". Dropping every character that can start or end markup makes
// it idempotent.
func CleanText(s, drop string, max int) string {
	s = strings.ToValidUTF8(s, " ")
	s = strings.Map(func(r rune) rune {
		if strings.ContainsRune(drop, r) || !Visible(r) {
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

// Visible reports whether r shows as itself: not a control character, an
// invisible format character (right-to-left overrides, zero-width joiners
// and spaces), a private-use or surrogate code point, a line or paragraph
// separator, or a code point Unicode does not assign.
func Visible(r rune) bool {
	switch {
	case r == unicode.ReplacementChar,
		unicode.IsControl(r),
		unicode.In(r, unicode.Cf, unicode.Co, unicode.Cs, unicode.Zl, unicode.Zp),
		!unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Zs):
		return false
	}
	return true
}
