package console

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/riskbot/riskbot/bot/command"
)

// Kind is what a transcript line is.
type Kind int

// The kinds of lines.
const (
	Blank   Kind = iota
	Comment      // "# ..." is ignored
	Command      // NAME: /risk SUB opt:value ...
	Click        // NAME: /click LABEL
	Name         // /as NAME: later lines without a name are NAME's
)

// Line is a parsed transcript line.
type Line struct {
	Kind    Kind
	User    string
	Command string
	Options map[string]string
	Button  string
}

// maxLine bounds a line; longer lines are refused whole.
const maxLine = 4000

// ParseLine reads one transcript line. Without "NAME:", the line is
// defaultUser's. Values with spaces go in double quotes
// (territory:"East Africa"); a value may also run to the next option, so
// territory:East Africa works too.
func ParseLine(line, defaultUser string) (Line, error) {
	if len(line) > maxLine {
		return Line{}, fmt.Errorf("the line is too long (%d characters)", len(line))
	}
	if !utf8.ValidString(line) {
		return Line{}, fmt.Errorf("the line is not valid text")
	}
	s := strings.TrimSpace(line)
	if s == "" {
		return Line{Kind: Blank}, nil
	}
	if strings.HasPrefix(s, "#") {
		return Line{Kind: Comment}, nil
	}
	user := defaultUser
	if i := strings.Index(s, ":"); i > 0 && !strings.HasPrefix(s, "/") {
		user = strings.TrimSpace(s[:i])
		s = strings.TrimSpace(s[i+1:])
		if err := checkName(user); err != nil {
			return Line{}, err
		}
	}
	switch {
	case strings.HasPrefix(s, "/as "):
		name := strings.TrimSpace(strings.TrimPrefix(s, "/as "))
		if err := checkName(name); err != nil {
			return Line{}, err
		}
		return Line{Kind: Name, User: name}, nil
	case strings.HasPrefix(s, "/click"):
		label := strings.TrimSpace(strings.TrimPrefix(s, "/click"))
		if label == "" {
			return Line{}, fmt.Errorf("say which button: /click LABEL")
		}
		return Line{Kind: Click, User: user, Button: strings.Trim(label, `"[]`)}, nil
	case isCommand(s, command.AdminCommandName):
		// /risk-admin SUB is, in the core, the group admin of /risk.
		rest := strings.TrimSpace(strings.TrimPrefix(s, "/"+command.AdminCommandName))
		sub, rest, _ := strings.Cut(rest, " ")
		if !isWord(sub) || strings.Contains(sub, ":") {
			return Line{}, fmt.Errorf("say which command: /%s show, defaults, limits or reset", command.AdminCommandName)
		}
		// A group of /risk-admin: "/risk-admin map list".
		if next, after, _ := strings.Cut(strings.TrimSpace(rest), " "); isWord(next) && !strings.Contains(next, ":") {
			sub, rest = sub+" "+next, after
		}
		opts, err := parseOptions(rest)
		if err != nil {
			return Line{}, err
		}
		return Line{Kind: Command, User: user, Command: command.AdminGroup + " " + strings.ToLower(sub), Options: opts}, nil
	case strings.HasPrefix(s, "/risk"):
	default:
		whole := strings.TrimSpace(line)
		switch {
		case isSubcommand(s): // "Ann: place"
			return Line{}, fmt.Errorf("commands start with /risk: did you mean %q?", strings.TrimSuffix(whole, s)+"/risk "+s)
		case isSubcommand(whole): // "new teams:2", read as the name "new teams"
			return Line{}, fmt.Errorf("commands start with /risk: did you mean %q?", "/risk "+whole)
		}
		return Line{}, fmt.Errorf("commands start with /risk (like: %s: /risk help)", user)
	}
	rest := strings.TrimSpace(strings.TrimPrefix(s, "/risk"))
	if rest == "" {
		return Line{}, fmt.Errorf("say which command: /risk help lists them")
	}
	sub, rest, _ := strings.Cut(rest, " ")
	if !isWord(sub) {
		return Line{}, fmt.Errorf("%q is not a command name", sub)
	}
	// A subcommand group: "/risk host addbot level:easy". Options always
	// have a colon, so a plain word next is the subcommand.
	if next, after, _ := strings.Cut(strings.TrimSpace(rest), " "); isWord(next) && !strings.Contains(next, ":") {
		sub, rest = sub+" "+next, after
	}
	opts, err := parseOptions(rest)
	if err != nil {
		return Line{}, err
	}
	return Line{Kind: Command, User: user, Command: strings.ToLower(sub), Options: opts}, nil
}

// isCommand reports whether s is the slash command name, alone or
// followed by a space: /risk-admin, not /risk-administer.
func isCommand(s, name string) bool {
	rest, ok := strings.CutPrefix(s, "/"+name)
	return ok && (rest == "" || rest[0] == ' ')
}

func checkName(name string) error {
	if name == "" || len(name) > 32 {
		return fmt.Errorf("a player name has 1 to 32 characters")
	}
	for _, r := range name {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-' && r != '.' && r != ' ' {
			return fmt.Errorf("a player name has letters, digits, spaces, '_', '-' and '.' only, not %q", name)
		}
	}
	return nil
}

func isWord(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '-' && r != '_' {
			return false
		}
	}
	return true
}

// parseOptions reads "name:value name:"a value" name:several words".
func parseOptions(s string) (map[string]string, error) {
	opts := map[string]string{}
	s = strings.TrimSpace(s)
	for s != "" {
		name, rest, ok := strings.Cut(s, ":")
		if !ok || !isWord(name) {
			return nil, fmt.Errorf("options look like name:value, not %q", firstWord(s))
		}
		name = strings.ToLower(name)
		if _, dup := opts[name]; dup {
			return nil, fmt.Errorf("option %s is given twice", name)
		}
		var value string
		if strings.HasPrefix(rest, `"`) {
			end := strings.Index(rest[1:], `"`)
			if end < 0 {
				return nil, fmt.Errorf("the value of %s has no closing quote", name)
			}
			value, rest = rest[1:end+1], rest[end+2:]
		} else {
			// Up to the next " word:" or the end.
			value, rest = untilNextOption(rest)
		}
		opts[name] = strings.TrimSpace(value)
		s = strings.TrimSpace(rest)
	}
	return opts, nil
}

// untilNextOption splits s before the next word that is followed by a
// colon, so unquoted values can have spaces.
func untilNextOption(s string) (value, rest string) {
	fields := strings.Fields(s)
	pos := 0
	for i, f := range fields {
		idx := strings.Index(s[pos:], f) + pos
		if i > 0 {
			if name, _, ok := strings.Cut(f, ":"); ok && isWord(name) {
				return s[:idx], s[idx:]
			}
		}
		pos = idx + len(f)
	}
	return s, ""
}

func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// isSubcommand reports whether line begins with the name of a subcommand
// of /risk, or of a group of them ("place …", "host addbot …"): a command
// typed without its /risk.
func isSubcommand(line string) bool {
	word, _, _ := strings.Cut(line, " ")
	word = strings.ToLower(word)
	for _, sp := range command.Specs(nil) {
		if sp.Group == word || sp.Group == "" && sp.Name == word {
			return true
		}
	}
	return false
}
