package fakediscord

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/riskbot/riskbot/bot/discord/snowflake"
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
	// Nonce with EnforceNonce makes a channel post idempotent: Discord
	// returns the message it created with that nonce a few minutes ago, if
	// any, instead of creating another.
	Nonce        json.RawMessage `json:"nonce"`
	EnforceNonce bool            `json:"enforce_nonce"`
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
	Name              string            `json:"name"`
	Value             any               `json:"value"`
	NameLocalizations map[string]string `json:"name_localizations,omitempty"`
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
		if !snowflake.Valid(u) {
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

// Option types.
const (
	optSubcommand = 1
	optGroup      = 2
	optString     = 3
	optInteger    = 4
	optNumber     = 10
)
