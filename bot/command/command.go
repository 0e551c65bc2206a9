// Package command is the grammar of /risk: its subcommands and options
// (the one source for parsing, help and the Discord registration), the
// parsing of what a request gives them, and the hygiene of what people type
// (names fit to show, territory names looked up forgivingly, with the
// closest names suggested).
package command

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/state"
)

// ReadOnly reports whether a command (by its full name) changes nothing.
func ReadOnly(command string, a Args) bool {
	switch command {
	case "show cards":
		return !a.Has("use")
	case "show status", "me stats", "show odds", "show history", "help", "admin show", "me games", "admin map list", "admin map show":
		return true
	}
	return false
}

// MaxTeams is the most teams a match has: six players in teams of two.
const MaxTeams = state.MaxSeats / 2

// MatchOptions are the options of new and settings.
func MatchOptions() []Option {
	opts := []Option{
		{Name: "rules", Type: String, Choices: []string{"classic", "capitals"}},
		{Name: "map", Type: String, ByMatch: true, Autocomplete: true},
		{Name: "victory", Type: String, Choices: []string{"two-thirds", "domination", "missions"}},
		{Name: "cards", Type: String, Choices: []string{"escalating", "fixed"}},
		{Name: "fortify", Type: String, Choices: []string{"connected", "adjacent"}},
		{Name: "turns", Type: String, Choices: []string{"sequential", "simultaneous"}},
		{Name: "fog", Type: String, Choices: []string{"on", "off"}},
		{Name: "rounds", Type: Integer, Min: 0, Max: state.MaxRounds},
		{Name: "teams", Type: String, Choices: []string{"off", "2", "3"}},
		{Name: "turn-hours", Type: Integer, Min: 1, Max: 720},
		{Name: "on-timeout", Type: String, Choices: []string{"bot", "skip"}},
		{Name: "palette", Type: String, Choices: []string{PaletteStandard, PaletteColorBlind}},
		{Name: "language", Type: String, Choices: []string{"en", "fr"}, Labels: []string{"English", "Français"}},
		{Name: "neutral", Type: String},
		{Name: "capital-troops", Type: Integer, Min: 1, Max: state.MaxCapitalTroops},
	}
	// The same options in /risk new, /risk host settings and /risk-admin
	// defaults: one set of words.
	for i := range opts {
		opts[i] = opts[i].worded("cmd.match")
	}
	return opts
}

// Maps are the values of the map option, of every rule set: the built-in
// world for classic, the sizes of generated islands for capitals (each
// match takes its rule set's: hosted.MapChoices).
func Maps() []string {
	return []string{"classic", "islands-small", "islands-normal", "islands-large", "small", "normal", "large"}
}

// threadOption is /risk new's choice of a thread for the match.
func threadOption() Option {
	return Option{Name: "thread", Type: String, Choices: []string{"on", "off"}}
}

// Specs returns every subcommand of /risk, the single source for parsing,
// help and the Discord registration. levels are the computer player levels.
func Specs(levels []string) []Spec {
	territory := func(name string, required bool) Option {
		return Option{Name: name, Type: String, Required: required, Autocomplete: true}
	}
	return worded(append([]Spec{
		{Name: "new", Options: append(MatchOptions(), threadOption()), Usage: "/risk new fortify:adjacent turn-hours:12", Private: true},
		{Name: "join", Options: []Option{
			{Name: "player", Type: String, Autocomplete: true},
			{Name: "team", Type: Integer, Min: 1, Max: MaxTeams},
		}, Usage: "/risk join", Private: true},
		{Name: "start", Usage: "/risk start"},
		{Name: "place", Options: []Option{
			territory("territory", false),
			{Name: "armies", Type: Integer, Min: 1, Max: 10000},
		}, Usage: "/risk place territory:Alaska armies:3", Private: true},
		{Name: "trade", Options: []Option{
			{Name: "cards", Type: String, Autocomplete: true},
		}, Usage: "/risk trade cards:Alaska, Peru, wild", Private: true},
		{Name: "attack", Options: []Option{
			territory("from", true),
			territory("to", true),
			{Name: "dice", Type: Integer, Min: 1, Max: 3},
			{Name: "until", Type: String, Autocomplete: true},
			{Name: "armies", Type: Integer, Min: 1, Max: 10000},
		}, Usage: "/risk attack from:Alaska to:Kamchatka until:win", Private: true},
		{Name: "occupy", Options: []Option{
			{Name: "armies", Type: Integer, Required: true, Min: 1, Max: 10000},
		}, Usage: "/risk occupy armies:5", Private: true},
		{Name: "fortify", Options: []Option{
			territory("from", true),
			territory("to", true),
			{Name: "armies", Type: Integer, Min: 1, Max: 10000},
			{Name: "ratio", Type: String, Choices: []string{"1/4", "1/2", "3/4", "all"}},
			{Name: "hero", Type: String, Choices: []string{"yes", "no"}},
		}, Usage: "/risk fortify from:Alaska to:Alberta armies:4", Private: true},
		{Name: "port", Options: []Option{
			territory("territory", true),
		}, Usage: "/risk port territory:Kelnor", Private: true},
		{Name: "launch", Usage: "/risk launch", Private: true},
		{Name: "end", Options: []Option{
			{Name: "discard", Type: String, Autocomplete: true},
		}, Usage: "/risk end", Private: true},
		{Name: "undo", Usage: "/risk undo", Private: true},
		{Name: "surrender", Usage: "/risk surrender", Private: true},
		{Name: "help", Options: []Option{
			{Name: "topic", Type: String, Choices: HelpTopics(), Labels: helpLabels()},
			{Name: "rules", Type: String, Choices: []string{"classic", "capitals"}},
		}, Usage: "/risk help topic:turn", Quick: true},
		{Group: "host", Name: "addbot", Options: []Option{
			{Name: "level", Type: String, Choices: levels},
			{Name: "name", Type: String},
		}, Usage: "/risk host addbot level:hard", Private: true},
		{Group: "host", Name: "kick", Options: []Option{
			{Name: "player", Type: String, Required: true, Autocomplete: true},
		}, Usage: "/risk host kick player:Bob", Private: true},
		{Group: "host", Name: "invite", Options: []Option{
			{Name: "player", Type: User, Required: true},
		}, Usage: "/risk host invite player:@Bob", Private: true},
		{Group: "host", Name: "settings", Options: MatchOptions(), Usage: "/risk host settings victory:domination", Private: true},
		{Group: "host", Name: "rollback", Options: []Option{
			{Name: "turn", Type: Integer, Required: true, Min: 1, Max: 100000},
		}, Usage: "/risk host rollback turn:7", Private: true},
		{Group: "host", Name: "abandon", Usage: "/risk host abandon"},
		{Group: "show", Name: "status", Usage: "/risk show status", Private: true},
		{Group: "show", Name: "cards", Options: []Option{
			{Name: "use", Type: String, Choices: []string{"yes"}},
		}, Usage: "/risk show cards", Quick: true},
		{Group: "show", Name: "odds", Options: []Option{
			territory("from", false),
			territory("to", false),
			{Name: "attackers", Type: Integer, Min: 2, Max: 1000},
			{Name: "defenders", Type: Integer, Min: 1, Max: 1000},
		}, Usage: "/risk show odds from:Alaska to:Kamchatka", Quick: true},
		{Group: "show", Name: "history", Options: []Option{
			{Name: "turn", Type: Integer, Min: 0, Max: 100000},
			{Name: "show", Type: String, Choices: []string{"turn", "replay", "strip", "luck", "verify"}},
		}, Usage: "/risk show history turn:3", Private: true},
		notifySpec(),
		{Group: "me", Name: "stats", Options: []Option{
			{Name: "player", Type: String},
			{Name: "rules", Type: String, Choices: []string{"classic", "capitals"}},
		}, Usage: "/risk me stats player:@Ann", Private: true},
		{Group: "me", Name: "games", Usage: "/risk me games", Quick: true, Private: true},
		{Group: "me", Name: "token", Options: []Option{
			{Name: "revoke", Type: String, Choices: []string{"yes"}},
		}, Usage: "/risk me token", Private: true},
	}, adminSpecs(levels)...))
}

// HelpTopics are the topics of /risk help, in the order its overview
// lists them.
func HelpTopics() []string {
	return []string{"start", "turn", "rules", "commands", "notify", "admin"}
}

// helpLabels name the topics of /risk help as its menu shows them, in
// English: each with what it is about (a menu shows no description of its
// own), "turn — your turn, step by step".
func helpLabels() []string {
	o := Option{Key: "cmd.help.opt.topic", Choices: HelpTopics()}
	var out []string
	for i := range o.Choices {
		out = append(out, o.ChoiceName(lang.Printer{}, i))
	}
	return out
}

// GroupDescriptions describes the subcommand groups of /risk by name, and
// /risk-admin by its group's name, in English.
func GroupDescriptions() map[string]string {
	out := map[string]string{}
	for _, g := range []string{"host", "show", "me", AdminGroup, MapGroup} {
		out[g] = GroupDescribe(lang.Printer{}, g)
	}
	return out
}

// maxOptionLen bounds any option value: longer is garbage.
const maxOptionLen = 200

// Parse checks a request's options against the subcommand's spec.
func Parse(spec Spec, raw map[string]string) (Args, error) {
	a := Args{Str: map[string]string{}, Num: map[string]int{}}
	for name, v := range raw {
		i := slices.IndexFunc(spec.Options, func(o Option) bool { return o.Name == name })
		if i < 0 {
			return a, lang.Refuse("command.parse.no-option", "Command", lang.Text(spec.Slash()), "Option", lang.Text(chat.Quote(name)), "Takes", optionList(spec))
		}
		o := spec.Options[i]
		v = strings.TrimSpace(v)
		if !utf8.ValidString(v) || len(v) > maxOptionLen {
			return a, lang.Refuse("command.parse.not-text", "Option", lang.Text(name), "Max", maxOptionLen)
		}
		if hasMarkupBraces(v) {
			// Typed values are quoted back in answers: they must not carry
			// the bot's markup.
			return a, lang.Refuse("command.parse.braces", "Option", lang.Text(name))
		}
		switch o.Type {
		case Integer:
			n, err := strconv.Atoi(v)
			if err != nil {
				f, ferr := strconv.ParseFloat(v, 64)
				if ferr != nil || f != math.Trunc(f) {
					return a, lang.Refuse("command.parse.not-number", "Option", lang.Text(name), "Typed", lang.Text(strconv.Quote(v)))
				}
				n = math.MaxInt // too big for an int: out of any range below
			}
			if (o.Min != 0 || o.Max != 0) && (n < o.Min || n > o.Max) {
				return a, lang.Refuse("command.parse.range", "Option", lang.Text(name), "Min", o.Min, "Max", o.Max, "Typed", lang.Text(v))
			}
			a.Num[name] = n
		default:
			if len(o.Choices) > 0 && !o.ByMatch && !slices.Contains(o.Choices, strings.ToLower(v)) {
				return a, lang.Refuse("command.parse.choice", "Option", lang.Text(name), "Choices", lang.Text(strings.Join(o.Choices, ", ")), "Typed", lang.Text(strconv.Quote(v)))
			}
			if len(o.Choices) > 0 || o.ByMatch {
				v = strings.ToLower(v)
			}
			a.Str[name] = v
		}
	}
	for _, o := range spec.Options {
		if o.Required && !a.Has(o.Name) {
			return a, &Missing{Spec: spec, Option: o.Name}
		}
	}
	return a, nil
}

// Missing is Parse's error when a required option is left out. Its
// words give the subcommand's usage, whose names are the classic map's:
// a handler that knows the match may give an example in its own names.
type Missing struct {
	Spec   Spec
	Option string
}

// Error says what is missing, with the usage, in English.
func (e *Missing) Error() string { return e.Message().String() }

// Message says what is missing, with the usage (lang.Worded).
func (e *Missing) Message() lang.Msg {
	return lang.M("command.parse.missing", "Command", lang.Text(e.Spec.Slash()), "Option", lang.Text(e.Option), "Usage", lang.Text(e.Spec.Usage))
}

func optionList(spec Spec) lang.Msg {
	if len(spec.Options) == 0 {
		return lang.M("command.parse.takes-none")
	}
	var names []string
	for _, o := range spec.Options {
		names = append(names, o.Name)
	}
	return lang.M("command.parse.takes", "Options", lang.Text(strings.Join(names, ", ")))
}

// OptionRange returns the integer option of /risk new, for its bounds.
func OptionRange(name string) Option {
	for _, o := range MatchOptions() {
		if o.Name == name {
			return o
		}
	}
	panic("bot: no match option " + name)
}

// notifySpec is /risk me notify.
func notifySpec() Spec {
	return Spec{Group: "me", Name: "notify", Options: []Option{
		{Name: "dm", Type: String, Choices: []string{"on", "off"}},
		{Name: "language", Type: String, Choices: []string{"auto", "en", "fr"}, Labels: []string{"auto", "English", "Français"}},
		{Name: "reminders", Type: String, Choices: []string{"on", "off"}},
		{Name: "quiet", Type: String},
		{Name: "utc-offset", Type: String},
		{Name: "away", Type: String},
		{Name: "defend", Type: String},
		{Name: "attack", Type: String, Choices: []string{"on", "off"}},
		{Name: "caution", Type: String, Choices: []string{"careful", "balanced", "bold"}},
	}, Usage: "/risk me notify away:3d defend:Europe attack:off"}
}

// DefaultOptions are the options of /risk new a server may set a default
// for.
func DefaultOptions() []Option {
	var out []Option
	for _, o := range MatchOptions() {
		if o.Name != "rules" && o.Name != "map" { // one choice each, for now
			out = append(out, o)
		}
	}
	return out
}

// adminSpecs are the subcommands of /risk-admin (in the core, the group
// "admin": their full names are "admin show", "admin defaults", ...).
func adminSpecs(levels []string) []Spec {
	defaults := append(DefaultOptions(),
		Option{Name: "bot-levels", DescArgs: []any{"Levels", strings.Join(levels, ", ")}, Type: String},
		Option{Name: "who-starts", Type: String, Choices: []string{"everyone", "admins"}},
	)
	return []Spec{
		{Group: "admin", Name: "show", Usage: "/risk-admin show", Quick: true},
		{Group: "admin", Name: "defaults", Options: defaults, Usage: "/risk-admin defaults turn-hours:48 victory:domination"},
		{Group: "admin", Name: "limits", Options: []Option{
			{Name: "per-host", Type: Integer, Min: 0, Max: 100},
			{Name: "per-server", Type: Integer, Min: 0, Max: 10000},
			{Name: "lobby-days", Type: Integer, Min: 0, Max: 365},
		}, Usage: "/risk-admin limits per-host:2 per-server:20"},
		{Group: "admin", Name: "reset", Usage: "/risk-admin reset"},
		{Group: MapGroup, Name: "add", Options: []Option{
			{Name: "file", Type: Attachment, Required: true},
			{Name: "picture", Type: Attachment},
			{Name: "index", Type: Attachment},
			{Name: "name", Type: String},
			{Name: "mutual", Type: String, Choices: []string{"on", "off"}},
		}, Usage: "/risk-admin map add file:old-town.zip"},
		{Group: MapGroup, Name: "list", Usage: "/risk-admin map list", Quick: true},
		{Group: MapGroup, Name: "show", Options: []Option{
			libraryMap(),
		}, Usage: "/risk-admin map show name:Old Town"},
		{Group: MapGroup, Name: "rename", Options: []Option{
			libraryMap(),
			{Name: "to", Type: String, Required: true},
		}, Usage: "/risk-admin map rename name:Old Town to:Harbour"},
		{Group: MapGroup, Name: "remove", Options: []Option{
			libraryMap(),
		}, Usage: "/risk-admin map remove name:Harbour"},
	}
}

// libraryMap is the option naming a map of the server's library (one
// key for the three subcommands that take it).
func libraryMap() Option {
	return Option{Name: "name", Key: "cmd.admin.map.opt.name", Type: String, Required: true, Autocomplete: true}
}

// The names of the standard palettes, as /risk new palette: offers them.
const (
	PaletteStandard   = "standard"   // the rule book's colours (render.Default)
	PaletteColorBlind = "colorblind" // Okabe–Ito (render.ColorBlind)
)
