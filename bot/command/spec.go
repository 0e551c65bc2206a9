package command

import "strings"

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
	Name string
	// Description says what the option takes, in English: the catalogue's
	// Key+".desc" (see Describe for another language).
	Description string
	// Key is the catalogue key of the option's words: Key+".desc" its
	// description (with DescArgs), Key+".name" its name as Discord shows
	// it in a language, Key+".choice."+value the menu name of a choice.
	// Specs sets it (SPEC-KEY.opt.NAME) unless the option is shared and
	// has its own.
	Key      string
	DescArgs []any
	Type     OptionType
	Required bool
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
