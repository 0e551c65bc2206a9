package fakediscord

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Discord's documented limits, as the fake enforces them.
const (
	MaxContent          = 2000 // characters of a message's content
	MaxRows             = 5    // action rows in a message
	MaxRowButtons       = 5    // buttons in an action row
	MaxCustomID         = 100  // characters of a component's custom_id
	MaxButtonLabel      = 80   // characters of a button's label
	MaxChoices          = 25   // autocomplete results, or choices of an option
	MaxChoiceName       = 100  // characters of a choice's name
	MaxChoiceValue      = 100  // characters of a string choice's value
	MaxFiles            = 10   // files attached to one message
	MaxFileSize         = 10 << 20
	MaxMentionUsers     = 100 // users listed in allowed_mentions
	MaxEmbeds           = 10
	MaxEmbedChars       = 6000 // all the embeds of a message together
	MaxEmbedTitle       = 256
	MaxEmbedDescription = 4096
	MaxEmbedFields      = 25
	MaxEmbedFieldName   = 256
	MaxEmbedFieldValue  = 1024
	MaxEmbedFooter      = 2048
	MaxEmbedAuthor      = 256
	MaxOptions          = 25 // subcommands or options at one level
	MaxCommandChars     = 8000
	MaxName             = 32
	MaxDescription      = 100
	MaxChatCommands     = 100
	MaxStringOptionSize = 6000
	maxSafeInteger      = 1 << 53
)

// Message flags.
const (
	flagSuppressEmbeds        = 1 << 2
	flagEphemeral             = 1 << 6
	flagSuppressNotifications = 1 << 12
)

// nameRE is the pattern of command and option names of chat input commands.
var nameRE = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// chars counts characters as Discord does: Unicode code points.
func chars(s string) int { return utf8.RuneCountInString(s) }

// message is the JSON of a message Discord is asked to create or edit:
// the data of an interaction response, a webhook execution or edit, or a
// channel message. Pointers tell absent fields from empty ones.
type message struct {
	Content         *string           `json:"content"`
	Flags           *int              `json:"flags"`
	Components      []component       `json:"components"`
	Embeds          []json.RawMessage `json:"embeds"`
	AllowedMentions *allowedMentions  `json:"allowed_mentions"`
	Attachments     []json.RawMessage `json:"attachments"`
	StickerIDs      []string          `json:"sticker_ids"`
	Poll            json.RawMessage   `json:"poll"`
	TTS             bool              `json:"tts"`
	// Choices are the results of an autocomplete.
	Choices []choice `json:"choices"`
}

type component struct {
	Type       int         `json:"type"`
	Components []component `json:"components"`
	Style      int         `json:"style"`
	Label      string      `json:"label"`
	CustomID   string      `json:"custom_id"`
	URL        string      `json:"url"`
	SKUID      string      `json:"sku_id"`
	Disabled   bool        `json:"disabled"`
	Emoji      *struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	} `json:"emoji"`
}

type allowedMentions struct {
	Parse       *[]string `json:"parse"`
	Users       []string  `json:"users"`
	Roles       []string  `json:"roles"`
	RepliedUser bool      `json:"replied_user"`
}

type choice struct {
	Name  string `json:"name"`
	Value any    `json:"value"`
}

// problems collects what is wrong with a request.
type problems []string

func (p *problems) add(format string, args ...any) { *p = append(*p, fmt.Sprintf(format, args...)) }

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return fmt.Errorf("%s", strings.Join(p, "; "))
}

// checkMessage checks a message's fields against Discord's limits. files is
// the number of files uploaded with it. allowedFlags are the flags the
// route accepts.
func checkMessage(m *message, files int, allowedFlags int) problems {
	var p problems
	if m.Content != nil && chars(*m.Content) > MaxContent {
		p.add("content: must be %d or fewer in length (has %d)", MaxContent, chars(*m.Content))
	}
	if m.Flags != nil && *m.Flags&^allowedFlags != 0 {
		p.add("flags: %d not allowed here (allowed bits %d)", *m.Flags, allowedFlags)
	}
	if len(m.Embeds) > MaxEmbeds {
		p.add("embeds: at most %d", MaxEmbeds)
	}
	p = append(p, checkEmbeds(m.Embeds)...)
	if files > MaxFiles {
		p.add("files: at most %d files in a message (has %d)", MaxFiles, files)
	}
	p = append(p, checkComponents(m.Components)...)
	if m.AllowedMentions != nil {
		p = append(p, checkAllowedMentions(m.AllowedMentions)...)
	}
	return p
}

// embed is what the fake checks of an embed.
type embed struct {
	Title       string `json:"title"`
	Description string `json:"description"`
	Color       *int64 `json:"color"`
	Fields      []struct {
		Name  string `json:"name"`
		Value string `json:"value"`
	} `json:"fields"`
	Footer *struct {
		Text string `json:"text"`
	} `json:"footer"`
	Author *struct {
		Name string `json:"name"`
	} `json:"author"`
	Image *struct {
		URL string `json:"url"`
	} `json:"image"`
}

// checkEmbeds checks embeds against Discord's limits: each part, and the
// 6000 characters of all the embeds of a message together.
func checkEmbeds(raw []json.RawMessage) problems {
	var p problems
	total := 0
	for i, r := range raw {
		var e embed
		if err := json.Unmarshal(r, &e); err != nil {
			p.add("embeds[%d]: %v", i, err)
			continue
		}
		limit := func(what, s string, max int) {
			if n := chars(s); n > max {
				p.add("embeds[%d].%s: must be %d or fewer in length (has %d)", i, what, max, n)
			}
			total += chars(s)
		}
		limit("title", e.Title, MaxEmbedTitle)
		limit("description", e.Description, MaxEmbedDescription)
		if len(e.Fields) > MaxEmbedFields {
			p.add("embeds[%d].fields: at most %d (has %d)", i, MaxEmbedFields, len(e.Fields))
		}
		for j, f := range e.Fields {
			if f.Name == "" || f.Value == "" {
				p.add("embeds[%d].fields[%d]: a field needs a name and a value", i, j)
			}
			limit(fmt.Sprintf("fields[%d].name", j), f.Name, MaxEmbedFieldName)
			limit(fmt.Sprintf("fields[%d].value", j), f.Value, MaxEmbedFieldValue)
		}
		if e.Footer != nil {
			limit("footer.text", e.Footer.Text, MaxEmbedFooter)
		}
		if e.Author != nil {
			limit("author.name", e.Author.Name, MaxEmbedAuthor)
		}
		if e.Color != nil && (*e.Color < 0 || *e.Color > 0xFFFFFF) {
			p.add("embeds[%d].color: %d is not an RGB integer", i, *e.Color)
		}
		if e.Image != nil && !strings.HasPrefix(e.Image.URL, "https://") && !strings.HasPrefix(e.Image.URL, "http://") && !strings.HasPrefix(e.Image.URL, "attachment://") {
			p.add("embeds[%d].image.url: %q is not a URL nor attachment://NAME", i, e.Image.URL)
		}
	}
	if total > MaxEmbedChars {
		p.add("embeds: %d characters in all, at most %d", total, MaxEmbedChars)
	}
	return p
}

// empty reports whether a new message would show nothing.
func (m *message) empty(files int) bool {
	return (m.Content == nil || strings.TrimSpace(*m.Content) == "") && len(m.Components) == 0 &&
		len(m.Embeds) == 0 && files == 0 && len(m.StickerIDs) == 0 && len(m.Poll) == 0
}

func checkComponents(rows []component) problems {
	var p problems
	if len(rows) > MaxRows {
		p.add("components: at most %d action rows (has %d)", MaxRows, len(rows))
	}
	ids := map[string]bool{}
	for i, row := range rows {
		if row.Type != 1 {
			p.add("components[%d]: top-level components must be action rows (type 1), not type %d", i, row.Type)
			continue
		}
		if len(row.Components) == 0 {
			p.add("components[%d]: an action row needs 1 to %d components", i, MaxRowButtons)
		}
		buttons := 0
		for j, c := range row.Components {
			where := fmt.Sprintf("components[%d].components[%d]", i, j)
			switch c.Type {
			case 2:
				buttons++
				p = append(p, checkButton(where, c)...)
			case 3, 5, 6, 7, 8:
				if len(row.Components) != 1 {
					p.add("%s: a select menu must be alone in its action row", where)
				}
				if c.CustomID == "" || chars(c.CustomID) > MaxCustomID {
					p.add("%s.custom_id: must be 1 to %d characters", where, MaxCustomID)
				}
			default:
				p.add("%s: component type %d cannot go in an action row", where, c.Type)
			}
			if c.CustomID != "" {
				if ids[c.CustomID] {
					p.add("%s.custom_id: %q is used twice in the message", where, c.CustomID)
				}
				ids[c.CustomID] = true
			}
		}
		if buttons > MaxRowButtons {
			p.add("components[%d]: at most %d buttons in an action row (has %d)", i, MaxRowButtons, buttons)
		}
	}
	return p
}

func checkButton(where string, c component) problems {
	var p problems
	switch {
	case c.Style >= 1 && c.Style <= 4:
		if c.CustomID == "" || chars(c.CustomID) > MaxCustomID {
			p.add("%s.custom_id: must be 1 to %d characters (has %d)", where, MaxCustomID, chars(c.CustomID))
		}
		if c.URL != "" {
			p.add("%s.url: only link buttons have a url", where)
		}
	case c.Style == 5:
		if c.URL == "" || c.CustomID != "" {
			p.add("%s: a link button has a url and no custom_id", where)
		}
	case c.Style == 6:
		if c.SKUID == "" {
			p.add("%s: a premium button needs a sku_id", where)
		}
	default:
		p.add("%s.style: %d is not a button style", where, c.Style)
	}
	if chars(c.Label) > MaxButtonLabel {
		p.add("%s.label: must be %d or fewer in length", where, MaxButtonLabel)
	}
	if c.Label == "" && c.Emoji == nil && c.Style != 6 {
		p.add("%s: a button needs a label or an emoji", where)
	}
	return p
}

func checkAllowedMentions(am *allowedMentions) problems {
	var p problems
	parse := map[string]bool{}
	if am.Parse != nil {
		for _, t := range *am.Parse {
			if t != "users" && t != "roles" && t != "everyone" {
				p.add("allowed_mentions.parse: unknown type %q", t)
			}
			parse[t] = true
		}
	}
	if parse["users"] && len(am.Users) > 0 {
		p.add("allowed_mentions: parse:[users] and users are mutually exclusive")
	}
	if parse["roles"] && len(am.Roles) > 0 {
		p.add("allowed_mentions: parse:[roles] and roles are mutually exclusive")
	}
	if len(am.Users) > MaxMentionUsers || len(am.Roles) > MaxMentionUsers {
		p.add("allowed_mentions: at most %d users and %d roles", MaxMentionUsers, MaxMentionUsers)
	}
	for _, u := range am.Users {
		if !isSnowflake(u) {
			p.add("allowed_mentions.users: %q is not a snowflake", u)
		}
	}
	return p
}

// checkPolicy enforces the project's rule on every message that can notify
// people: allowed_mentions is always given and lets through no @everyone,
// @here or role mention. Discord itself would accept a message without it
// (and then ping whoever the text mentions).
func checkPolicy(m *message) problems {
	var p problems
	am := m.AllowedMentions
	if am == nil {
		p.add("policy: allowed_mentions missing (Discord would ping whoever the text mentions)")
		return p
	}
	if am.Parse == nil {
		p.add("policy: allowed_mentions.parse missing (give [] so that nothing is parsed)")
	} else {
		for _, t := range *am.Parse {
			p.add("policy: allowed_mentions.parse lets %q through", t)
		}
	}
	if len(am.Roles) > 0 {
		p.add("policy: allowed_mentions lets roles through")
	}
	return p
}

func checkChoices(cs []choice) problems {
	var p problems
	if len(cs) > MaxChoices {
		p.add("choices: at most %d (has %d)", MaxChoices, len(cs))
	}
	for i, c := range cs {
		if n := chars(c.Name); n < 1 || n > MaxChoiceName {
			p.add("choices[%d].name: must be 1 to %d characters (has %d)", i, MaxChoiceName, n)
		}
		switch v := c.Value.(type) {
		case string:
			if chars(v) > MaxChoiceValue {
				p.add("choices[%d].value: must be %d or fewer in length (has %d)", i, MaxChoiceValue, chars(v))
			}
		case float64:
		default:
			p.add("choices[%d].value: must be a string or a number", i)
		}
	}
	return p
}

func isSnowflake(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// Command is an application command as registered: the JSON fields the
// fake checks.
type Command struct {
	ID               string   `json:"id,omitempty"`
	Type             *int     `json:"type"`
	Name             string   `json:"name"`
	Description      string   `json:"description"`
	Options          []Option `json:"options"`
	DMPermission     *bool    `json:"dm_permission,omitempty"`
	Contexts         []int    `json:"contexts,omitempty"`
	IntegrationTypes []int    `json:"integration_types,omitempty"`
	// DefaultMemberPermissions is a permission bit set as a string.
	DefaultMemberPermissions *string `json:"default_member_permissions,omitempty"`
}

// Option is an option (or subcommand) of a registered command.
type Option struct {
	Type         int      `json:"type"`
	Name         string   `json:"name"`
	Description  string   `json:"description"`
	Required     bool     `json:"required"`
	Choices      []choice `json:"choices"`
	Options      []Option `json:"options"`
	Autocomplete bool     `json:"autocomplete"`
	MinValue     *float64 `json:"min_value"`
	MaxValue     *float64 `json:"max_value"`
	MinLength    *int     `json:"min_length"`
	MaxLength    *int     `json:"max_length"`
	ChannelTypes []int    `json:"channel_types"`
}

// Option types.
const (
	optSubcommand = 1
	optGroup      = 2
	optString     = 3
	optInteger    = 4
	optNumber     = 10
)

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
	for i, o := range opts {
		w := fmt.Sprintf("%s.options[%d] (%s)", where, i, o.Name)
		p = append(p, checkName(w, o.Name)...)
		p = append(p, checkDescription(w, o.Description)...)
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

// commandChars counts what Discord counts against a command's size limit:
// the names, descriptions and choice names and values of the command and
// all its options.
func commandChars(c Command) int {
	n := chars(c.Name) + chars(c.Description)
	var walk func([]Option)
	walk = func(opts []Option) {
		for _, o := range opts {
			n += chars(o.Name) + chars(o.Description)
			for _, ch := range o.Choices {
				n += chars(ch.Name) + chars(fmt.Sprint(ch.Value))
			}
			walk(o.Options)
		}
	}
	walk(c.Options)
	return n
}

// CommandChars returns the size of a registered command as Discord counts
// it against MaxCommandChars.
func CommandChars(c Command) int { return commandChars(c) }
