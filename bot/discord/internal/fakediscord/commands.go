package fakediscord

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Command is an application command as registered: the JSON fields the
// fake checks.
type Command struct {
	ID          string   `json:"id,omitempty"`
	Type        *int     `json:"type"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Options     []Option `json:"options"`
	// The localisations, by locale ("fr"): what users of that language
	// see instead of the name and the description.
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	DMPermission             *bool             `json:"dm_permission,omitempty"`
	Contexts                 []int             `json:"contexts,omitempty"`
	IntegrationTypes         []int             `json:"integration_types,omitempty"`
	// DefaultMemberPermissions is a permission bit set as a string.
	DefaultMemberPermissions *string `json:"default_member_permissions,omitempty"`
}

// Option is an option (or subcommand) of a registered command.
type Option struct {
	Type                     int               `json:"type"`
	Name                     string            `json:"name"`
	NameLocalizations        map[string]string `json:"name_localizations,omitempty"`
	Description              string            `json:"description"`
	DescriptionLocalizations map[string]string `json:"description_localizations,omitempty"`
	Required                 bool              `json:"required"`
	Choices                  []choice          `json:"choices"`
	Options                  []Option          `json:"options"`
	Autocomplete             bool              `json:"autocomplete"`
	MinValue                 *float64          `json:"min_value"`
	MaxValue                 *float64          `json:"max_value"`
	MinLength                *int              `json:"min_length"`
	MaxLength                *int              `json:"max_length"`
	ChannelTypes             []int             `json:"channel_types"`
}

// CheckCommands checks the JSON body of a bulk overwrite of application
// commands against every limit Discord documents for them. It returns nil
// if Discord would accept it.
func CheckCommands(body []byte) error {
	var cmds []Command
	if err := json.Unmarshal(body, &cmds); err != nil {
		return fmt.Errorf("body: not an array of application commands: %w", err)
	}
	return checkCommands(cmds).err()
}

func checkCommands(cmds []Command) problems {
	var p problems
	perType := map[int]int{}
	names := map[string]bool{}
	for i, c := range cmds {
		typ := 1
		if c.Type != nil {
			typ = *c.Type
		}
		perType[typ]++
		key := fmt.Sprintf("%d/%s", typ, c.Name)
		if names[key] {
			p.add("[%d].name: %q is registered twice", i, c.Name)
		}
		names[key] = true
		where := fmt.Sprintf("[%d] (%s)", i, c.Name)
		switch typ {
		case 1:
			p = append(p, checkName(where, c.Name)...)
			p = append(p, checkDescription(where, c.Description)...)
			p = append(p, checkLocalized(where, c.NameLocalizations, c.DescriptionLocalizations)...)
			p = append(p, checkOptions(where, c.Options, 0)...)
			if n := commandChars(c); n > MaxCommandChars {
				p.add("%s: the command has %d characters of names, descriptions and values; at most %d", where, n, MaxCommandChars)
			}
		case 2, 3:
			if c.Description != "" || len(c.Options) > 0 {
				p.add("%s: user and message commands have no description and no options", where)
			}
			if n := chars(c.Name); n < 1 || n > MaxName {
				p.add("%s.name: must be 1 to %d characters", where, MaxName)
			}
		default:
			p.add("%s.type: %d is not a command type", where, typ)
		}
		if dp := c.DefaultMemberPermissions; dp != nil {
			// A permission bit set, in decimal, as a string.
			if _, err := strconv.ParseUint(*dp, 10, 64); err != nil {
				p.add("%s.default_member_permissions: %q is not a permission bit set", where, *dp)
			}
		}
		for _, ctx := range c.Contexts {
			if ctx < 0 || ctx > 2 {
				p.add("%s.contexts: %d is not an interaction context", where, ctx)
			}
		}
		for _, it := range c.IntegrationTypes {
			if it < 0 || it > 1 {
				p.add("%s.integration_types: %d is not an integration type", where, it)
			}
		}
	}
	if perType[1] > MaxChatCommands {
		p.add("at most %d chat input commands (has %d)", MaxChatCommands, perType[1])
	}
	if perType[2] > 5 || perType[3] > 5 {
		p.add("at most 5 user and 5 message commands")
	}
	return p
}

func checkName(where, name string) problems {
	var p problems
	if !nameRE.MatchString(name) {
		p.add("%s.name: %q must match ^[-_'\\p{L}\\p{N}]{1,32}$", where, name)
	}
	if strings.ToLower(name) != name {
		p.add("%s.name: %q must be lower case", where, name)
	}
	return p
}

func checkDescription(where, d string) problems {
	var p problems
	if n := chars(d); n < 1 || n > MaxDescription {
		p.add("%s.description: must be 1 to %d characters (has %d)", where, MaxDescription, n)
	}
	return p
}

// checkOptions checks the options at one level: those of the command
// (parent 0), of a subcommand or of a group (parent is its option type).
func checkOptions(where string, opts []Option, parent int) problems {
	var p problems
	if len(opts) > MaxOptions {
		p.add("%s.options: at most %d (has %d)", where, MaxOptions, len(opts))
	}
	names := map[string]bool{}
	subs, others := 0, 0
	optional := false
	p = append(p, checkLocalizedNames(where, opts)...)
	for i, o := range opts {
		w := fmt.Sprintf("%s.options[%d] (%s)", where, i, o.Name)
		p = append(p, checkName(w, o.Name)...)
		p = append(p, checkDescription(w, o.Description)...)
		p = append(p, checkLocalized(w, o.NameLocalizations, o.DescriptionLocalizations)...)
		if names[o.Name] {
			p.add("%s.name: %q is used twice at this level", w, o.Name)
		}
		names[o.Name] = true
		switch o.Type {
		case optSubcommand, optGroup:
			subs++
			if parent != 0 && !(parent == optGroup && o.Type == optSubcommand) {
				p.add("%s: subcommands go at the top level or in a top-level group; groups only at the top level", w)
			}
			if o.Required || len(o.Choices) > 0 || o.Autocomplete {
				p.add("%s: a subcommand or group cannot be required, have choices or autocomplete", w)
			}
			p = append(p, checkOptions(w, o.Options, o.Type)...)
			continue
		case optString, optInteger, 5, 6, 7, 8, 9, optNumber, 11:
			others++
		default:
			p.add("%s.type: %d is not an option type", w, o.Type)
			continue
		}
		if parent == optGroup {
			p.add("%s: a subcommand group holds only subcommands", w)
		}
		if len(o.Options) > 0 {
			p.add("%s: only subcommands and groups have options", w)
		}
		if o.Required && optional {
			p.add("%s: required options must come before optional ones", w)
		}
		if !o.Required {
			optional = true
		}
		p = append(p, checkValueOption(w, o)...)
	}
	if subs > 0 && others > 0 {
		p.add("%s.options: subcommands and groups cannot be mixed with other options", where)
	}
	return p
}

func checkValueOption(w string, o Option) problems {
	var p problems
	numeric := o.Type == optInteger || o.Type == optNumber
	if len(o.Choices) > 0 {
		if !numeric && o.Type != optString {
			p.add("%s: only string, integer and number options have choices", w)
		}
		if len(o.Choices) > MaxChoices {
			p.add("%s.choices: at most %d (has %d)", w, MaxChoices, len(o.Choices))
		}
		if o.Autocomplete {
			p.add("%s: autocomplete cannot be used with choices", w)
		}
		for j, c := range o.Choices {
			if n := chars(c.Name); n < 1 || n > MaxChoiceName {
				p.add("%s.choices[%d].name: must be 1 to %d characters", w, j, MaxChoiceName)
			}
			for loc, name := range c.NameLocalizations {
				if !locales[loc] {
					p.add("%s.choices[%d].name_localizations: %q is not a locale", w, j, loc)
				}
				if n := chars(name); n < 1 || n > MaxChoiceName {
					p.add("%s.choices[%d].name_localizations[%s]: must be 1 to %d characters", w, j, loc, MaxChoiceName)
				}
			}
			switch v := c.Value.(type) {
			case string:
				if o.Type != optString {
					p.add("%s.choices[%d].value: a %d option needs number values", w, j, o.Type)
				}
				if n := chars(v); n < 1 || n > MaxChoiceValue {
					p.add("%s.choices[%d].value: must be 1 to %d characters", w, j, MaxChoiceValue)
				}
			case float64:
				if o.Type == optString {
					p.add("%s.choices[%d].value: a string option needs string values", w, j)
				}
				if o.Type == optInteger && (v != math.Trunc(v) || math.Abs(v) > maxSafeInteger) {
					p.add("%s.choices[%d].value: not a valid integer", w, j)
				}
			default:
				p.add("%s.choices[%d].value: must be a string or a number", w, j)
			}
		}
	}
	if o.Autocomplete && !numeric && o.Type != optString {
		p.add("%s: only string, integer and number options autocomplete", w)
	}
	if (o.MinValue != nil || o.MaxValue != nil) && !numeric {
		p.add("%s: min_value and max_value are for integer and number options", w)
	}
	for _, v := range []*float64{o.MinValue, o.MaxValue} {
		if v != nil && (math.Abs(*v) > maxSafeInteger || (o.Type == optInteger && *v != math.Trunc(*v))) {
			p.add("%s: min_value/max_value %v out of range", w, *v)
		}
	}
	if o.MinValue != nil && o.MaxValue != nil && *o.MinValue > *o.MaxValue {
		p.add("%s: min_value %v is above max_value %v", w, *o.MinValue, *o.MaxValue)
	}
	if (o.MinLength != nil || o.MaxLength != nil) && o.Type != optString {
		p.add("%s: min_length and max_length are for string options", w)
	}
	if o.MinLength != nil && (*o.MinLength < 0 || *o.MinLength > MaxStringOptionSize) {
		p.add("%s.min_length: must be 0 to %d", w, MaxStringOptionSize)
	}
	if o.MaxLength != nil && (*o.MaxLength < 1 || *o.MaxLength > MaxStringOptionSize) {
		p.add("%s.max_length: must be 1 to %d", w, MaxStringOptionSize)
	}
	return p
}

// checkLocalized checks the localisations of a name and a description:
// known locales, and values under the same rules as the defaults.
func checkLocalized(where string, names, descs map[string]string) problems {
	var p problems
	for _, loc := range sortedKeys(names) {
		if !locales[loc] {
			p.add("%s.name_localizations: %q is not a locale", where, loc)
		}
		p = append(p, checkName(fmt.Sprintf("%s.name_localizations[%s]", where, loc), names[loc])...)
	}
	for _, loc := range sortedKeys(descs) {
		if !locales[loc] {
			p.add("%s.description_localizations: %q is not a locale", where, loc)
		}
		p = append(p, checkDescription(fmt.Sprintf("%s.description_localizations[%s]", where, loc), descs[loc])...)
	}
	return p
}

// checkLocalizedNames checks the localised names of the options at one
// level: Discord wants each distinct from the other options' default
// names, and from the other names in its locale.
func checkLocalizedNames(where string, opts []Option) problems {
	var p problems
	for i, o := range opts {
		for _, loc := range sortedKeys(o.NameLocalizations) {
			name := o.NameLocalizations[loc]
			for j, other := range opts {
				if j == i {
					continue
				}
				if name == other.Name || (other.NameLocalizations[loc] == name && j < i) {
					p.add("%s.options[%d] (%s).name_localizations[%s]: %q is another option's name at this level", where, i, o.Name, loc, name)
				}
			}
		}
	}
	return p
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// locales are the locales Discord knows
// (https://discord.com/developers/docs/reference#locales).
var locales = map[string]bool{
	"id": true, "da": true, "de": true, "en-GB": true, "en-US": true, "es-ES": true, "es-419": true,
	"fr": true, "hr": true, "it": true, "lt": true, "hu": true, "nl": true, "no": true, "pl": true,
	"pt-BR": true, "ro": true, "fi": true, "sv-SE": true, "vi": true, "tr": true, "cs": true, "el": true,
	"bg": true, "ru": true, "uk": true, "hi": true, "th": true, "zh-CN": true, "ja": true, "zh-TW": true, "ko": true,
}

// commandChars counts what Discord counts against a command's size limit:
// the names, descriptions and choice names and values of the command and
// all its options; where a field has localisations, only its longest
// value (the default's or a localisation's) counts.
func commandChars(c Command) int { return commandCharsBy(c, longest) }

// longest is the length of a field's longest value.
func longest(def string, loc map[string]string) int {
	n := chars(def)
	for _, v := range loc {
		n = max(n, chars(v))
	}
	return n
}

// commandCharsBy counts a command's fields, each measured by size.
func commandCharsBy(c Command, size func(def string, loc map[string]string) int) int {
	n := size(c.Name, c.NameLocalizations) + size(c.Description, c.DescriptionLocalizations)
	var walk func([]Option)
	walk = func(opts []Option) {
		for _, o := range opts {
			n += size(o.Name, o.NameLocalizations) + size(o.Description, o.DescriptionLocalizations)
			for _, ch := range o.Choices {
				n += size(ch.Name, ch.NameLocalizations) + chars(fmt.Sprint(ch.Value))
			}
			walk(o.Options)
		}
	}
	walk(c.Options)
	return n
}

// CommandChars returns the size of a registered command as Discord counts
// it against MaxCommandChars: each field by its longest localisation.
func CommandChars(c Command) int { return commandChars(c) }

// CommandCharsIn returns the size of a registered command as users of a
// locale see it ("" for the defaults): each field in that locale, or its
// default.
func CommandCharsIn(c Command, locale string) int {
	return commandCharsBy(c, func(def string, loc map[string]string) int {
		if v, ok := loc[locale]; ok && locale != "" {
			return chars(v)
		}
		return chars(def)
	})
}
