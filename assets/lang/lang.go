// Package lang is what the program says in each language: the catalogue,
// one file per language (en.json, fr.json: a key, and its sentence with
// named placeholders and plural forms), the choice of a language from a
// Discord locale, and the wording of a message from its key and arguments.
//
// A sentence not yet worded is a Msg, a key with its arguments; a check
// raises one as a value (an engine refusal, a bot's answer), and whoever
// shows it words it in the reader's language with a Printer. A translator
// edits one JSON file and reads no Go (docs/translating.md).
//
// The catalogue is read with go-i18n (github.com/nicksnyder/go-i18n/v2):
// its messages have named placeholders a translator can move ({{.Player}}),
// CLDR plural rules (French's "one" is 0 and 1, English's only 1), and a
// fallback to English for a key a language lacks.
package lang

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"text/template"
	"unicode"
	"unicode/utf8"

	"github.com/nicksnyder/go-i18n/v2/i18n"
	i18ntemplate "github.com/nicksnyder/go-i18n/v2/i18n/template"
	"golang.org/x/text/language"
)

// Tag names a language of the catalogue.
type Tag string

// The languages the catalogue has in full.
const (
	English Tag = "en"
	French  Tag = "fr"
)

// Tags lists the catalogue's languages, English first.
func Tags() []Tag { return []Tag{English, French} }

// Name is the language's own name for itself ("English", "Français").
func (t Tag) Name() string {
	switch t {
	case French:
		return "Français"
	default:
		return "English"
	}
}

// Parse reads a language a person or a locale names: "fr", "fr-FR",
// "french", "français", "en-US", … It reports false for a language the
// catalogue does not have.
func Parse(s string) (Tag, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	switch s {
	case "french", "français", "francais":
		return French, true
	case "english", "anglais":
		return English, true
	}
	base, _, _ := strings.Cut(strings.ReplaceAll(s, "_", "-"), "-")
	switch base {
	case "fr":
		return French, true
	case "en":
		return English, true
	}
	return "", false
}

// FromLocale is the language for a Discord locale ("fr", "en-US", "de"…):
// the catalogue's when it has it, else English.
func FromLocale(locale string) Tag {
	if t, ok := Parse(locale); ok {
		return t
	}
	return English
}

// First is the first of the locales the catalogue has, or English: a
// player's choice, then their locale, then the server's.
func First(locales ...string) Tag {
	for _, l := range locales {
		if t, ok := Parse(l); ok {
			return t
		}
	}
	return English
}

// Msg is a sentence not yet worded: a catalogue key and its arguments, as
// name, value pairs ("Territory", lang.Place("Alaska"), "Count", 3). The
// argument named Count chooses the plural form. An argument that is a Msg
// (or a Place, or a List) is worded in the reader's language too.
type Msg struct {
	Key  string
	Args []any
}

// M is the message key with these arguments (name, value pairs).
func M(key string, args ...any) Msg { return Msg{Key: key, Args: args} }

// String words the message in English.
func (m Msg) String() string { return For(English).Msg(m) }

// IsZero reports whether the message is empty (no key).
func (m Msg) IsZero() bool { return m.Key == "" }

// Place is a territory's or a continent's name as its map gives it; the
// catalogue may have it in another language (key "place." and the name,
// lower case, spaces as dashes: "place.eastern-united-states"), else the
// name is shown as the map gives it.
type Place string

// Label is a place's name alone, as an arrow or a label shows it ("Pérou"
// where a sentence says "le Pérou").
type Label string

// List is a list worded as the language joins one: "A, B and C".
type List []any

// Or is a choice worded as the language offers one: "A, B or C".
type Or []any

// Text is an argument shown as it is, never looked up: a player's name, or
// a sentence already worded.
type Text string

// Printer words messages in one language.
type Printer struct {
	tag Tag
	cat *catalog
}

// For is the printer of a language (English for one the catalogue lacks).
func For(t Tag) Printer {
	c := load()
	if _, ok := c.loc[t]; !ok {
		t = English
	}
	return Printer{tag: t, cat: c}
}

// Tag is the printer's language.
func (p Printer) Tag() Tag {
	if p.tag == "" {
		return English
	}
	return p.tag
}

// T words the message key with its arguments (name, value pairs).
func (p Printer) T(key string, args ...any) string {
	return p.Msg(Msg{Key: key, Args: args})
}

// Msg words a message.
func (p Printer) Msg(m Msg) string {
	if p.cat == nil {
		p = For(p.tag)
	}
	if m.Key == "" {
		return ""
	}
	data := make(map[string]any, len(m.Args)/2+1)
	var count any
	for i := 0; i+1 < len(m.Args); i += 2 {
		name, _ := m.Args[i].(string)
		v := p.arg(m.Args[i+1])
		data[name] = v
		if name == "Count" {
			count = v
		}
	}
	cfg := &i18n.LocalizeConfig{MessageID: m.Key, TemplateData: data, TemplateParser: sentences}
	if count != nil {
		cfg.PluralCount = count
	}
	s, err := p.cat.loc[p.Tag()].Localize(cfg)
	if err != nil && s == "" {
		// A key missing from every language is a defect the catalogue's
		// tests catch; the reader still gets something to go by.
		return m.Key
	}
	return s
}

// arg is an argument as the template sees it: numbers stay numbers (for
// the plural rules), the rest become words in the printer's language.
func (p Printer) arg(v any) any {
	switch v := v.(type) {
	case Msg:
		return p.Msg(v)
	case *Msg:
		if v == nil {
			return ""
		}
		return p.Msg(*v)
	case Place:
		return p.Place(string(v))
	case Label:
		return p.PlaceName(string(v))
	case List:
		words := make([]string, len(v))
		for i, x := range v {
			words[i] = fmt.Sprint(p.arg(x))
		}
		return p.Join(words)
	case Or:
		words := make([]string, len(v))
		for i, x := range v {
			words[i] = fmt.Sprint(p.arg(x))
		}
		if len(words) < 2 {
			return strings.Join(words, "")
		}
		return p.T("list.or", "Head", strings.Join(words[:len(words)-1], ", "), "Last", words[len(words)-1])
	case Text:
		return string(v)
	case error:
		return p.Error(v)
	}
	return v
}

// Place is a place's name in the printer's language as a sentence uses it
// (French with its article: "le Pérou", "l'Alaska", "Madagascar"): the
// catalogue's, or the map's own.
func (p Printer) Place(name string) string {
	if p.cat == nil {
		p = For(p.tag)
	}
	if w, ok := p.cat.places[p.Tag()][PlaceKey(name)]; ok {
		return w
	}
	return name
}

// PlaceName is a place's name alone, as a label shows it ("Pérou").
func (p Printer) PlaceName(name string) string {
	return bare(p.Place(name))
}

// PlaceKey is the catalogue key of a place's name.
func PlaceKey(name string) string {
	return "place." + strings.ReplaceAll(strings.ToLower(strings.TrimSpace(name)), " ", "-")
}

// Colour names a colour of the palettes ("red", "sky blue") in the
// printer's language: the catalogue's "colour." entry, else the name as
// it is. The map and the chat name a seat's colour with the same word.
func (p Printer) Colour(name string) string {
	if p.cat == nil {
		p = For(p.tag)
	}
	key := "colour." + strings.ReplaceAll(name, " ", "-")
	if !p.cat.keys[key] {
		return name
	}
	return p.T(key)
}

// Join words a list: "A", "A and B", "A, B and C".
func (p Printer) Join(words []string) string {
	switch len(words) {
	case 0:
		return ""
	case 1:
		return words[0]
	}
	return p.T("list.and", "Head", strings.Join(words[:len(words)-1], ", "), "Last", words[len(words)-1])
}

// N words a count with its noun: key's plural forms, with Count.
func (p Printer) N(key string, n int) string { return p.T(key, "Count", n) }

// Worded is an error that carries its own message, a refusal raised as a
// value; Printer.Error words it in the reader's language.
type Worded interface {
	error
	Message() Msg
}

// Error words an error: a Worded one (anywhere in its chain) in the
// printer's language, any other as it says itself.
func (p Printer) Error(err error) string {
	if err == nil {
		return ""
	}
	var w Worded
	if errors.As(err, &w) {
		return p.Msg(w.Message())
	}
	return err.Error()
}

// Refusal is a refusal as a value: a message, worded in English by Error
// and in the reader's language by Printer.Error.
type Refusal struct{ Msg Msg }

// Refuse is a refusal with this key and arguments.
func Refuse(key string, args ...any) *Refusal { return &Refusal{Msg: M(key, args...)} }

func (r *Refusal) Error() string { return r.Msg.String() }

// Message is the refusal's message.
func (r *Refusal) Message() Msg { return r.Msg }

// funcs are what a sentence may do with a word: French contracts its
// articles after "de" and "à" ({{de .From}}: "du Pérou", "de l'Alaska",
// "d'Orvane", "des Territoires…"; {{a .To}}: "au Pérou"), and a sentence
// may begin with a place ({{cap .To}}: "Le Pérou").
var funcs = template.FuncMap{
	"de":  deFR,
	"a":   aFR,
	"cap": capFirst,
}

// sentences parses each sentence once: go-i18n's own parser with functions
// parses a sentence on every use (about 15 µs a sentence).
var sentences = cachedParser{&i18ntemplate.TextParser{Funcs: funcs}}

type cachedParser struct{ *i18ntemplate.TextParser }

// Cacheable reports that a sentence's parse may be kept: the functions
// never change.
func (cachedParser) Cacheable() bool { return true }

// bare strips a French article.
func bare(s string) string {
	for _, a := range []string{"le ", "la ", "les ", "l'", "l’"} {
		if strings.HasPrefix(s, a) {
			return s[len(a):]
		}
	}
	return s
}

// deFR is "de" before s: « du Pérou », « des Territoires… », « d'Orvane »,
// « de l'Alaska ».
func deFR(s string) string { return prepFR(s, "du ", "des ", "d'", "de ") }

// aFR is "à" before s: « au Pérou », « aux Territoires… », « à Orvane ».
func aFR(s string) string { return prepFR(s, "au ", "aux ", "à ", "à ") }

// prepFR puts a French preposition before s: contracted with s's article
// le or les (le, les stand for the preposition and the article), elided
// before a vowel (elided), else plain.
func prepFR(s, le, les, elided, plain string) string {
	switch {
	case strings.HasPrefix(s, "le "):
		return le + s[3:]
	case strings.HasPrefix(s, "les "):
		return les + s[4:]
	case startsWithVowel(s):
		return elided + s
	}
	return plain + s
}

func startsWithVowel(s string) bool {
	r, n := utf8.DecodeRuneInString(s)
	if r == 'Y' || r == 'y' {
		// A y before a vowel is a consonant: « de Yarorin », « d'Yves ».
		next, _ := utf8.DecodeRuneInString(s[n:])
		return !isVowel(next)
	}
	return isVowel(r)
}

func isVowel(r rune) bool {
	return strings.ContainsRune("AEIOUÀÂÄÉÈÊËÎÏÔÖÛÜaeiouàâäéèêëîïôöûü", r)
}

func capFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

//go:embed *.json
var files embed.FS

// catalog is the loaded catalogue: one localizer per language, and the
// places each language names its own way.
type catalog struct {
	loc    map[Tag]*i18n.Localizer
	places map[Tag]map[string]string
	keys   map[string]bool // English's, which every language has
}

// load reads the catalogue once; it never changes after.
var load = sync.OnceValue(func() *catalog {
	c, err := parse(files)
	if err != nil {
		// The files are compiled in and tested: a broken one never ships.
		panic(err)
	}
	return c
})

// parse reads a catalogue: every NAME.json of fsys, NAME a language.
func parse(fsys fs.FS) (*catalog, error) {
	b := i18n.NewBundle(language.English)
	c := &catalog{loc: map[Tag]*i18n.Localizer{}, places: map[Tag]map[string]string{}, keys: map[string]bool{}}
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		data, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("lang: %w", err)
		}
		t := Tag(strings.TrimSuffix(name, ".json"))
		if _, err := b.ParseMessageFileBytes(data, name); err != nil {
			return nil, fmt.Errorf("lang: %s: %w", name, err)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(data, &raw); err != nil {
			return nil, fmt.Errorf("lang: %s: %w", name, err)
		}
		c.places[t] = map[string]string{}
		for k, v := range raw {
			if t == English {
				c.keys[k] = true
			}
			var s string
			if strings.HasPrefix(k, "place.") && json.Unmarshal(v, &s) == nil {
				c.places[t][k] = s
			}
		}
	}
	for t := range c.places {
		c.loc[t] = i18n.NewLocalizer(b, string(t))
	}
	if _, ok := c.loc[English]; !ok {
		return nil, fmt.Errorf("lang: no en.json")
	}
	return c, nil
}

// Keys lists the catalogue's keys in a language, sorted (for tests and
// tools).
func Keys(t Tag) []string {
	raw, err := Raw(t)
	if err != nil {
		return nil
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Raw is a language's file as read: each key's sentence, or its plural
// forms ("one", "other", …) — what a translator sees.
func Raw(t Tag) (map[string]map[string]string, error) {
	data, err := files.ReadFile(string(t) + ".json")
	if err != nil {
		return nil, fmt.Errorf("lang: %w", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return nil, fmt.Errorf("lang: %s.json: %w", t, err)
	}
	out := make(map[string]map[string]string, len(raw))
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = map[string]string{"other": s}
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil {
			return nil, fmt.Errorf("lang: %s.json: key %q: %w", t, k, err)
		}
		delete(forms, "description")
		out[k] = forms
	}
	return out, nil
}
