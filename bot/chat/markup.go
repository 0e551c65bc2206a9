package chat

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/riskbot/riskbot/assets/lang"
)

// Mention returns markup that adapters turn into a mention of user id.
func Mention(id string) string { return "{{mention:" + id + "}}" }

// MentionOf is Mention with the name the user gave, for adapters that show
// mentions as names and do not know every user (a restarted console or
// page): they need not remember it.
func MentionOf(id, name string) string {
	name = strings.Map(func(r rune) rune {
		if r == '{' || r == '}' || r == '|' {
			return -1
		}
		return r
	}, name)
	if name == "" {
		return Mention(id)
	}
	return "{{mention:" + id + "|" + name + "}}"
}

// ChannelLink returns markup that adapters turn into a link to a channel.
func ChannelLink(id string) string { return "{{channel:" + id + "}}" }

// Timestamp returns markup that adapters turn into a relative time.
func Timestamp(t time.Time) string { return "{{time:" + strconv.FormatInt(t.Unix(), 10) + "}}" }

var markup = regexp.MustCompile(`\{\{(mention|channel|time):([^{}]*)\}\}`)

// Markup renders the bot's markup in a message's text, the platform's way.
type Markup struct {
	// Mention gives the form of a mention of a user (by the core's ID).
	Mention func(id string) string
	// Named, if set, gives the form of a mention that carries the user's
	// name (MentionOf); without it, such a mention is Mention's.
	Named func(id, name string) string
	// Channel gives the form of a link to a channel (by the core's ID);
	// nil shows the ID.
	Channel func(id string) string
	// Time gives the form of a time.
	Time func(unix int64) string
}

// Format renders the markup of text.
func (mk Markup) Format(text string) string {
	return markup.ReplaceAllStringFunc(text, func(m string) string {
		sub := markup.FindStringSubmatch(m)
		switch sub[1] {
		case "mention":
			if id, name, ok := strings.Cut(sub[2], "|"); ok {
				if mk.Named != nil {
					return mk.Named(id, name)
				}
				return mk.Mention(id)
			}
			return mk.Mention(sub[2])
		case "channel":
			if mk.Channel == nil {
				return sub[2]
			}
			return mk.Channel(sub[2])
		default:
			n, err := strconv.ParseInt(sub[2], 10, 64)
			if err != nil {
				return sub[2]
			}
			return mk.Time(n)
		}
	})
}

// Format renders the markup of a message's text: mention(id) and time(unix)
// give the platform's form of a mention and of a relative time; channels
// show their ID.
func Format(text string, mention func(id string) string, time func(unix int64) string) string {
	return Markup{Mention: mention, Time: time}.Format(text)
}

// PlainTime renders a time for a text-only client: "in 23 h (Nov 26 21:00 UTC)".
func PlainTime(now time.Time) func(unix int64) string { return PlainTimeIn(now, lang.English) }

// PlainTimeIn is PlainTime in language l: "dans 23 h (26/11 21:00 UTC)".
func PlainTimeIn(now time.Time, l lang.Tag) func(unix int64) string {
	p := lang.For(l)
	return func(unix int64) string {
		t := time.Unix(unix, 0).UTC()
		d := t.Sub(now).Round(time.Minute)
		var rel string
		switch {
		case d >= time.Hour:
			rel = p.T("chat.time.in-hours", "N", int(d.Hours()+0.5))
		case d > 0:
			rel = p.T("chat.time.in-minutes", "N", int(d.Minutes()))
		case d <= -time.Hour:
			rel = p.T("chat.time.hours-ago", "N", int(-d.Hours()+0.5))
		case d < 0:
			rel = p.T("chat.time.minutes-ago", "N", int(-d.Minutes()))
		default:
			rel = p.T("chat.time.now")
		}
		// The date's layout is the catalogue's: Go's reference time, as
		// each language writes a date.
		return p.T("chat.time.at", "Relative", lang.Text(rel), "Date", lang.Text(t.Format(p.T("chat.time.layout"))))
	}
}
