// Package command is the grammar of /risk: its subcommands and options
// (the one source for parsing, help and the Discord registration), the
// parsing of what a request gives them, and the hygiene of what people type
// (names fit to show, territory names looked up forgivingly, with the
// closest names suggested).
package command

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/state"
)

// Alias maps the words of earlier versions, still understood when typed
// (in the console, on the page, or by habit) though no longer registered
// on Discord, to the full names of the subcommands that do their work now:
// the words /risk took before its subcommands moved into groups
// ("addbot" is "host addbot", "status" is "show status"), the short words
// of commands that live in a group ("games" is "me games"), and older ones
// still ("map", "leaderboard", "autoplace", "leave").
func Alias(command string) string {
	if full, ok := oldWords()[command]; ok {
		return full
	}
	return command
}

// oldWords maps each word /risk understood before to the full name of the
// subcommand that does its work now.
func oldWords() map[string]string {
	return map[string]string{
		"autoplace":   "place",
		"leave":       "surrender",
		"addbot":      "host addbot",
		"kick":        "host kick",
		"invite":      "host invite",
		"settings":    "host settings",
		"abandon":     "host abandon",
		"status":      "show status",
		"map":         "show status",
		"cards":       "show cards",
		"odds":        "show odds",
		"history":     "show history",
		"notify":      "me notify",
		"stats":       "me stats",
		"games":       "me games",
		"leaderboard": "me stats",
	}
}

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

// OptionType is the kind of value an option takes.
type OptionType int

// The option types.
const (
	String OptionType = iota + 1
	Integer
	// User is a person: chats that know their members offer them (Discord:
	// a user option, whose value is their ID); others read a name typed
	// as @Name into their ID. The core receives an ID, or a mention.
	User
	// Attachment is a file (Discord: an attachment option). The core
	// receives its name as the value, and its bytes in Request.Files.
	Attachment
)

// Option describes one option of a subcommand.
type Option struct {
	Name        string
	Description string
	Type        OptionType
	Required    bool
	// Choices are the only accepted values (shown as a menu).
	Choices []string
	// Labels, if set, are what the menu shows for each of Choices, in
	// order (Discord: the choice's name; the value is sent), where a
	// value alone says too little: "turn — your turn, step by step".
	Labels []string
	// ByMatch: the values a match accepts depend on the match (map: its
	// rule set's maps), so they are suggested as the user types
	// (Autocomplete), not offered as Choices, a menu that would list
	// every rule set's. Parse only lowercases the value, and leaves its
	// check to the handler, which knows the match and can list the right
	// ones.
	ByMatch bool
	// Autocomplete: the bot suggests values as the user types.
	Autocomplete bool
	Min, Max     int // for integers; 0, 0 = unbounded
}

// Spec describes one subcommand of /risk (or of /risk-admin).
type Spec struct {
	// Group, if set, is the subcommand group the subcommand is in:
	// /risk GROUP NAME (Discord allows 25 subcommands or groups in a
	// command, and a group holds 25 more); the group "admin" is the
	// command /risk-admin (see Command).
	Group       string
	Name        string
	Description string
	Options     []Option
	// Usage is a short example for help texts.
	Usage string
	// Quick commands only read, and answer in text without drawing a map:
	// an adapter may wait for their answer instead of acknowledging them
	// first.
	Quick bool
	// Private commands answer their author only (the moves of a turn:
	// the turn's own message is their public record; the lobby's
	// commands: its message shows what they changed): an adapter may
	// acknowledge them privately at once. What the channel is to hear
	// of them is posted.
	Private bool
}

// CommandName is the top-level slash command of players and hosts.
const CommandName = "risk"

// AdminCommandName is the top-level slash command of server admins: the
// subcommands of the group "admin" (see Spec.Command). A command of its
// own, so that Discord can hide it from members who may not use it, and so
// that /risk keeps room for new subcommands (Discord allows 25 entries in
// a command).
const AdminCommandName = "risk-admin"

// AdminGroup is the group whose subcommands make up /risk-admin.
const AdminGroup = "admin"

// MapGroup is the group of /risk-admin that keeps the server's library of
// maps: /risk-admin map add, ... ("admin map add" in the core).
const MapGroup = AdminGroup + " map"

// MaxTeams is the most teams a match has: six players in teams of two.
const MaxTeams = state.MaxSeats / 2

// MatchOptions are the options of new and settings.
func MatchOptions() []Option {
	return []Option{
		{Name: "rules", Description: "Rule set (default classic)", Type: String, Choices: []string{"classic", "capitals"}},
		{Name: "map", Description: "Board: classic, islands-small/normal/large, a server's own map; capitals: small, normal, large", Type: String, ByMatch: true, Autocomplete: true},
		{Name: "victory", Description: "Win by two thirds of the map (default), by taking everything, or by a secret mission (classic)", Type: String, Choices: []string{"two-thirds", "domination", "missions"}},
		{Name: "cards", Description: "Card sets worth 4, 6, 8, 10... (escalating, default) or 4 to 10 (fixed)", Type: String, Choices: []string{"escalating", "fixed"}},
		{Name: "fortify", Description: "One move along your territories (connected, default) or many one-step moves (adjacent)", Type: String, Choices: []string{"connected", "adjacent"}},
		{Name: "turns", Description: "One player at a time (sequential, default), or everyone at once in rounds (simultaneous, classic)", Type: String, Choices: []string{"sequential", "simultaneous"}},
		{Name: "fog", Description: "Fog of war: each player sees only their territories and their neighbours (default off)", Type: String, Choices: []string{"on", "off"}},
		{Name: "rounds", Description: "End after this many rounds, the most territories winning (0: play to the end, default)", Type: Integer, Min: 0, Max: state.MaxRounds},
		{Name: "teams", Description: "Teams of 2 or 3 that never attack each other and win together (default off)", Type: String, Choices: []string{"off", "2", "3"}},
		{Name: "turn-hours", Description: "Hours each player has for a turn (default 24)", Type: Integer, Min: 1, Max: 720},
		{Name: "on-timeout", Description: "When time runs out: a careful bot plays the turn (default) or it is skipped", Type: String, Choices: []string{"bot", "skip"}},
		{Name: "palette", Description: "Player colours: the rule book's (standard) or colour-blind safe", Type: String, Choices: []string{PaletteStandard, PaletteColorBlind}},
		{Name: "language", Description: "Language of the match's posts (default the server's)", Type: String, Choices: []string{"en", "fr"}, Labels: []string{"English", "Français"}},
		{Name: "neutral", Description: "Capitals: troops on each neutral territory, a range like 1-5 (default; fortresses 5 more)", Type: String},
		{Name: "capital-troops", Description: "Capitals: troops a capital starts with (default 10)", Type: Integer, Min: 1, Max: state.MaxCapitalTroops},
	}
}

// Maps are the values of the map option, of every rule set: the built-in
// world for classic, the sizes of generated islands for capitals (each
// match takes its rule set's: hosted.MapChoices).
func Maps() []string {
	return []string{"classic", "islands-small", "islands-normal", "islands-large", "small", "normal", "large"}
}

// threadOption is /risk new's choice of a thread for the match.
func threadOption() Option {
	return Option{Name: "thread", Description: "Play in a thread of its own (default on where I may open threads)", Type: String, Choices: []string{"on", "off"}}
}

// Specs returns every subcommand of /risk, the single source for parsing,
// help and the Discord registration. levels are the computer player levels.
func Specs(levels []string) []Spec {
	territory := func(name, desc string, required bool) Option {
		return Option{Name: name, Description: desc, Type: String, Required: required, Autocomplete: true}
	}
	return append([]Spec{
		{Name: "new", Description: "Start a new match in this channel; you host it", Options: append(MatchOptions(), threadOption()), Usage: "/risk new fortify:adjacent turn-hours:12", Private: true},
		{Name: "join", Description: "Take a seat in this channel's match", Options: []Option{
			{Name: "player", Description: "Host only: give a seat on autopilot back to its player", Type: String, Autocomplete: true},
			{Name: "team", Description: "With teams: the team to join or move to (default: one with room, at the start)", Type: Integer, Min: 1, Max: MaxTeams},
		}, Usage: "/risk join", Private: true},
		{Name: "start", Description: "Host: start the match", Usage: "/risk start"},
		{Name: "place", Description: "Place armies (no territory: all automatically); capitals: your capital, or your reinforcements", Options: []Option{
			territory("territory", "Where (leave out to place everything automatically)", false),
			{Name: "armies", Description: "How many (default all you have left)", Type: Integer, Min: 1, Max: 10000},
		}, Usage: "/risk place territory:Alaska armies:3", Private: true},
		{Name: "trade", Description: "Trade a set of three cards for armies", Options: []Option{
			{Name: "cards", Description: "Which cards, by territory: Alaska, Peru, wild (default: the best set)", Type: String, Autocomplete: true},
		}, Usage: "/risk trade cards:Alaska, Peru, wild", Private: true},
		{Name: "attack", Description: "Attack a neighbouring territory (capitals: plan an attack, or capture a neutral one)", Options: []Option{
			territory("from", "Your territory", true),
			territory("to", "The territory to attack (capitals: or the neutral one to capture)", true),
			{Name: "dice", Description: "1 to 3 (default as many as allowed)", Type: Integer, Min: 1, Max: 3},
			{Name: "until", Description: "Keep attacking: 'win', or the armies to keep on your territory", Type: String, Autocomplete: true},
			{Name: "armies", Description: "Simultaneous rounds: the armies the order sends (default all that can go)", Type: Integer, Min: 1, Max: 10000},
		}, Usage: "/risk attack from:Alaska to:Kamchatka until:win", Private: true},
		{Name: "occupy", Description: "Move armies into the territory you conquered", Options: []Option{
			{Name: "armies", Description: "How many in total", Type: Integer, Required: true, Min: 1, Max: 10000},
		}, Usage: "/risk occupy armies:5", Private: true},
		{Name: "fortify", Description: "Move armies between your territories (capitals: the turn's move)", Options: []Option{
			territory("from", "From", true),
			territory("to", "To", true),
			{Name: "armies", Description: "How many (default all that may move)", Type: Integer, Min: 1, Max: 10000},
			{Name: "ratio", Description: "Capitals: the share of the troops that moves (default your last choice)", Type: String, Choices: []string{"1/4", "1/2", "3/4", "all"}},
			{Name: "hero", Description: "Capitals: the hero goes too (default your last choice)", Type: String, Choices: []string{"yes", "no"}},
		}, Usage: "/risk fortify from:Alaska to:Alberta armies:4", Private: true},
		{Name: "port", Description: "Capitals: build a port on one of your territories by the water (your action)", Options: []Option{
			territory("territory", "Where", true),
		}, Usage: "/risk port territory:Kelnor", Private: true},
		{Name: "launch", Description: "Capitals: launch the attacks you planned, in order (your action)", Usage: "/risk launch", Private: true},
		{Name: "end", Description: "End your turn (capitals: pass, at any point)", Options: []Option{
			{Name: "discard", Description: "A card to drop if your hand is full (default: the least useful)", Type: String, Autocomplete: true},
		}, Usage: "/risk end", Private: true},
		{Name: "undo", Description: "Take back your last placement, move or trade of this turn", Usage: "/risk undo", Private: true},
		{Name: "surrender", Description: "Leave the lobby, or give up (asks to confirm): your territories turn neutral", Usage: "/risk surrender", Private: true},
		{Name: "help", Description: "How to play, by topic", Options: []Option{
			{Name: "topic", Description: "What about (default: the short version)", Type: String, Choices: HelpTopics(), Labels: helpLabels()},
			{Name: "rules", Description: "The rule set to explain (default: this channel's match's)", Type: String, Choices: []string{"classic", "capitals"}},
		}, Usage: "/risk help topic:turn", Quick: true},
		{Group: "host", Name: "addbot", Description: "Host: fill a seat with a computer player", Options: []Option{
			{Name: "level", Description: "How well it plays (default normal)", Type: String, Choices: levels},
			{Name: "name", Description: "Its name", Type: String},
		}, Usage: "/risk host addbot level:hard", Private: true},
		{Group: "host", Name: "kick", Description: "Host: remove a player (in a started match a bot takes the seat)", Options: []Option{
			{Name: "player", Description: "Who", Type: String, Required: true, Autocomplete: true},
		}, Usage: "/risk host kick player:Bob", Private: true},
		{Group: "host", Name: "invite", Description: "Host: hold a seat for someone, who is pinged to accept or decline (for a day)", Options: []Option{
			{Name: "player", Description: "Whom to invite", Type: User, Required: true},
		}, Usage: "/risk host invite player:@Bob", Private: true},
		{Group: "host", Name: "settings", Description: "Host: change the match options before it starts (the palette at any time)", Options: MatchOptions(), Usage: "/risk host settings victory:domination", Private: true},
		{Group: "host", Name: "rollback", Description: "Host or admin: go back to the start of a turn (asks to confirm)", Options: []Option{
			{Name: "turn", Description: "Its number", Type: Integer, Required: true, Min: 1, Max: 100000},
		}, Usage: "/risk host rollback turn:7", Private: true},
		{Group: "host", Name: "abandon", Description: "Host or admin: end this channel's match without a winner (asks to confirm)", Usage: "/risk host abandon"},
		{Group: "show", Name: "status", Description: "Where the match stands: the standings and the map, only to you", Usage: "/risk show status", Private: true},
		{Group: "show", Name: "cards", Description: "Show your cards (capitals: your item) only to you", Options: []Option{
			{Name: "use", Description: "Capitals: use your item now", Type: String, Choices: []string{"yes"}},
		}, Usage: "/risk show cards", Quick: true},
		{Group: "show", Name: "odds", Description: "Exact odds of an attack to the end: give the territories, or the numbers", Options: []Option{
			territory("from", "The attacking territory (its armies count)", false),
			territory("to", "The territory attacked", false),
			{Name: "attackers", Description: "Armies on the attacking territory (one stays behind)", Type: Integer, Min: 2, Max: 1000},
			{Name: "defenders", Description: "Armies on the defending territory", Type: Integer, Min: 1, Max: 1000},
		}, Usage: "/risk show odds from:Alaska to:Kamchatka", Quick: true},
		{Group: "show", Name: "history", Description: "Any turn told again from the log; or the whole match: replay, luck, fair dice", Options: []Option{
			{Name: "turn", Description: "The turn to show (0: the setup); the latest if left out", Type: Integer, Min: 0, Max: 100000},
			{Name: "show", Description: "A turn (default); the whole match: replay (animated), strip (small maps), luck, verify (dice)", Type: String, Choices: []string{"turn", "replay", "strip", "luck", "verify"}},
		}, Usage: "/risk show history turn:3", Private: true},
		notifySpec(),
		{Group: "me", Name: "stats", Description: "This server's leaderboard, and a player's matches, wins and rating", Options: []Option{
			{Name: "player", Description: "Whose stats (default yours): a name, a mention, or a computer level like bot:hard", Type: String},
			{Name: "rules", Description: "The rule set of the leaderboard (default classic)", Type: String, Choices: []string{"classic", "capitals"}},
		}, Usage: "/risk me stats player:@Ann", Private: true},
		{Group: "me", Name: "games", Description: "Your matches under way in this server: whose move, deadlines, links; only to you", Usage: "/risk me games", Quick: true, Private: true},
		{Group: "me", Name: "token", Description: "Your seat's token for the match API (for your own scripts), only to you", Options: []Option{
			{Name: "revoke", Description: "yes: end every token of your seat here instead", Type: String, Choices: []string{"yes"}},
		}, Usage: "/risk me token", Private: true},
	}, adminSpecs(levels)...)
}

// helpTopic is a topic of /risk help and what it is about.
type helpTopic struct{ name, about string }

// helpTopics are the topics of /risk help, in the order its overview
// lists them.
func helpTopics() []helpTopic {
	return []helpTopic{
		{"start", "opening a match, seats, bots"},
		{"turn", "your turn, step by step"},
		{"rules", "the rules in short"},
		{"commands", "every command"},
		{"notify", "pings, reminders, away"},
		{"admin", "hosts and server admins"},
	}
}

// HelpTopics are the topics of /risk help, in the order its overview
// lists them.
func HelpTopics() []string {
	var out []string
	for _, t := range helpTopics() {
		out = append(out, t.name)
	}
	return out
}

// helpLabels name the topics of /risk help as its menu shows them: each
// with what it is about (a menu shows no description of its own).
func helpLabels() []string {
	var out []string
	for _, t := range helpTopics() {
		out = append(out, t.name+" — "+t.about)
	}
	return out
}

// FullName is the subcommand's name in the core, as typed after /risk in
// the console and on the page: "start", or "show status" in a group. The
// subcommands of /risk-admin are "admin show", "admin defaults", ...
func (s Spec) FullName() string {
	if s.Group == "" {
		return s.Name
	}
	return s.Group + " " + s.Name
}

// Command is the top-level slash command the subcommand is registered
// under: /risk-admin for the group "admin", else /risk.
func (s Spec) Command() string {
	if s.admin() {
		return AdminCommandName
	}
	return CommandName
}

// DiscordGroup is the subcommand group the subcommand is in within its
// top-level command: none for /risk-admin's, which are its own.
func (s Spec) DiscordGroup() string {
	if s.admin() {
		return strings.TrimPrefix(strings.TrimPrefix(s.Group, AdminGroup), " ")
	}
	return s.Group
}

// admin reports whether the subcommand is /risk-admin's: of the group
// "admin", or of a group within it ("admin map": /risk-admin map add).
func (s Spec) admin() bool {
	return s.Group == AdminGroup || strings.HasPrefix(s.Group, AdminGroup+" ")
}

// Slash is the subcommand as a Discord user types it: "/risk show status",
// "/risk-admin defaults".
func (s Spec) Slash() string {
	if g := s.DiscordGroup(); g != "" {
		return "/" + s.Command() + " " + g + " " + s.Name
	}
	return "/" + s.Command() + " " + s.Name
}

// Slash is a subcommand, by its full name (or a word Alias knows), as a
// Discord user types it: Slash("admin show") is "/risk-admin show". A
// name that is no subcommand is put after /risk.
func Slash(name string) string {
	name = Alias(name)
	if g, n, ok := strings.Cut(name, " "); ok {
		return Spec{Group: g, Name: n}.Slash()
	}
	return "/" + CommandName + " " + name
}

// GroupDescriptions describes the subcommand groups of /risk by name, and
// /risk-admin by its group's name.
func GroupDescriptions() map[string]string {
	return map[string]string{
		"host":     "Host (or admin): bots, invitations, seats, settings, rolling back or abandoning the match",
		"show":     "Look, only you: the match, your cards, odds, history",
		"me":       "You: your matches, how you are told of your turn, your record, your API token",
		AdminGroup: "Server admins: defaults and limits for this server's matches",
		MapGroup:   "This server's own maps: add, list, show, rename, remove",
	}
}

// Find finds a subcommand by its full name.
func Find(specs []Spec, name string) (Spec, bool) {
	for _, s := range specs {
		if s.FullName() == name {
			return s, true
		}
	}
	return Spec{}, false
}

// Args are the parsed options of a request.
type Args struct {
	Str map[string]string
	Num map[string]int
}

// Has reports whether an option was given.
func (a Args) Has(name string) bool {
	_, s := a.Str[name]
	_, n := a.Num[name]
	return s || n
}

// maxOptionLen bounds any option value: longer is garbage.
const maxOptionLen = 200

// Parse checks a request's options against the subcommand's spec.
func Parse(spec Spec, raw map[string]string) (Args, error) {
	a := Args{Str: map[string]string{}, Num: map[string]int{}}
	for name, v := range raw {
		i := slices.IndexFunc(spec.Options, func(o Option) bool { return o.Name == name })
		if i < 0 {
			return a, fmt.Errorf("%s has no option %s%s", spec.Slash(), chat.Quote(name), optionList(spec))
		}
		o := spec.Options[i]
		v = strings.TrimSpace(v)
		if !utf8.ValidString(v) || len(v) > maxOptionLen {
			return a, fmt.Errorf("the value of %s is not valid text (or longer than %d characters)", name, maxOptionLen)
		}
		if hasMarkupBraces(v) {
			// Typed values are quoted back in answers: they must not carry
			// the bot's markup.
			return a, fmt.Errorf("the value of %s cannot contain { or }", name)
		}
		switch o.Type {
		case Integer:
			n, err := strconv.Atoi(v)
			if err != nil {
				f, ferr := strconv.ParseFloat(v, 64)
				if ferr != nil || f != math.Trunc(f) {
					return a, fmt.Errorf("%s must be a whole number, not %q", name, v)
				}
				n = math.MaxInt // too big for an int: out of any range below
			}
			if (o.Min != 0 || o.Max != 0) && (n < o.Min || n > o.Max) {
				return a, fmt.Errorf("%s must be between %d and %d, not %s", name, o.Min, o.Max, v)
			}
			a.Num[name] = n
		default:
			if len(o.Choices) > 0 && !o.ByMatch && !slices.Contains(o.Choices, strings.ToLower(v)) {
				return a, fmt.Errorf("%s must be one of %s, not %q", name, strings.Join(o.Choices, ", "), v)
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

// Error says what is missing, with the usage.
func (e *Missing) Error() string {
	return fmt.Sprintf("%s needs %s: %s", e.Spec.Slash(), e.Option, e.Spec.Usage)
}

func optionList(spec Spec) string {
	if len(spec.Options) == 0 {
		return " (it takes none)"
	}
	var names []string
	for _, o := range spec.Options {
		names = append(names, o.Name)
	}
	return " (it takes " + strings.Join(names, ", ") + ")"
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
	return Spec{Group: "me", Name: "notify", Description: "How the bot tells you it is your turn: direct messages, reminders, quiet hours", Options: []Option{
		{Name: "dm", Description: "A direct message too when it is your turn", Type: String, Choices: []string{"on", "off"}},
		{Name: "reminders", Description: "The reminder when three quarters of your time has passed", Type: String, Choices: []string{"on", "off"}},
		{Name: "quiet", Description: "Hours with no pings, your turn's clock stopped: like 22-7, or off", Type: String},
		{Name: "utc-offset", Description: "Your time zone as hours from UTC, like +2 or -5 (for quiet hours)", Type: String},
		{Name: "away", Description: "Away for days (3d) or until a date (2026-12-24): your orders play at once; off", Type: String},
		{Name: "defend", Description: "Standing orders: the continent to reinforce first (off for none)", Type: String},
		{Name: "attack", Description: "Standing orders: whether your seat attacks when played for you", Type: String, Choices: []string{"on", "off"}},
		{Name: "caution", Description: "Standing orders: how your seat plays for you (default careful)", Type: String, Choices: []string{"careful", "balanced", "bold"}},
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
		Option{Name: "bot-levels", Description: "Computer levels allowed, like 'easy normal' (default: " + strings.Join(levels, ", ") + ")", Type: String},
		Option{Name: "who-starts", Description: "Who may open matches (default everyone)", Type: String, Choices: []string{"everyone", "admins"}},
	)
	return []Spec{
		{Group: "admin", Name: "show", Description: "This server's defaults and limits for matches", Usage: "/risk-admin show", Quick: true},
		{Group: "admin", Name: "defaults", Description: "Set defaults for this server's new matches", Options: defaults, Usage: "/risk-admin defaults turn-hours:48 victory:domination"},
		{Group: "admin", Name: "limits", Description: "Set limits on this server's matches (0: none)", Options: []Option{
			{Name: "per-host", Description: "Open matches one person may host", Type: Integer, Min: 0, Max: 100},
			{Name: "per-server", Description: "Open matches in the whole server", Type: Integer, Min: 0, Max: 10000},
			{Name: "lobby-days", Description: "Days a lobby may wait without a change before it closes", Type: Integer, Min: 0, Max: 365},
		}, Usage: "/risk-admin limits per-host:2 per-server:20"},
		{Group: "admin", Name: "reset", Description: "Forget this server's defaults and limits", Usage: "/risk-admin reset"},
		{Group: MapGroup, Name: "add", Description: "Add a map: a .zip of its three files, or the .map with its two images", Options: []Option{
			{Name: "file", Description: "A .zip of the map's files, or its .map file", Type: Attachment, Required: true},
			{Name: "picture", Description: "With a .map file: the picture players see (its pic)", Type: Attachment},
			{Name: "index", Description: "With a .map file: the index image of its territories (its map)", Type: Attachment},
			{Name: "name", Description: "What to call it here (default: its title)", Type: String},
			{Name: "mutual", Description: "Make one-way borders two-way (on), or refuse the map (off, default)", Type: String, Choices: []string{"on", "off"}},
		}, Usage: "/risk-admin map add file:old-town.zip"},
		{Group: MapGroup, Name: "list", Description: "This server's maps", Usage: "/risk-admin map list", Quick: true},
		{Group: MapGroup, Name: "show", Description: "A map of this server: its picture, territories and borders", Options: []Option{
			libraryMap("The map"),
		}, Usage: "/risk-admin map show name:Old Town"},
		{Group: MapGroup, Name: "rename", Description: "Rename a map of this server", Options: []Option{
			libraryMap("The map"),
			{Name: "to", Description: "Its new name", Type: String, Required: true},
		}, Usage: "/risk-admin map rename name:Old Town to:Harbour"},
		{Group: MapGroup, Name: "remove", Description: "Remove a map no match is playing (matches played on it still replay)", Options: []Option{
			libraryMap("The map"),
		}, Usage: "/risk-admin map remove name:Harbour"},
	}
}

// libraryMap is the option naming a map of the server's library.
func libraryMap(desc string) Option {
	return Option{Name: "name", Description: desc, Type: String, Required: true, Autocomplete: true}
}

// The names of the standard palettes, as /risk new palette: offers them.
const (
	PaletteStandard   = "standard"   // the rule book's colours (render.Default)
	PaletteColorBlind = "colorblind" // Okabe–Ito (render.ColorBlind)
)
