package web

import (
	"fmt"
	"html"
	"regexp"
	"strings"
	"time"

	"github.com/riskbot/riskbot/bot/chat"
)

// view is a message as the page shows it: its texts made into safe HTML.
type view struct {
	ID  string `json:"id"`
	Rev int    `json:"rev"`
	// To names who alone sees the message ("" for everyone).
	To    string     `json:"to,omitempty"`
	HTML  string     `json:"html,omitempty"`
	Embed *embedView `json:"embed,omitempty"`
	Image string     `json:"image,omitempty"`
	// Board: the image is the match's map at a moment, whose regions
	// (GET /api/matches/{id}/regions) make it clickable; not a replay or
	// a preview.
	Board   bool           `json:"board,omitempty"`
	Buttons [][]buttonView `json:"buttons,omitempty"`
	// Time is when it was posted, Unix milliseconds; Edited is set once
	// it changed.
	Time   int64 `json:"time"`
	Edited bool  `json:"edited,omitempty"`
}

type embedView struct {
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	Color       string      `json:"color,omitempty"`
	Fields      []fieldView `json:"fields,omitempty"`
	Footer      string      `json:"footer,omitempty"`
}

type fieldView struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

type buttonView struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Style string `json:"style"`
}

var styles = map[chat.ButtonStyle]string{chat.Primary: "primary", chat.Secondary: "secondary", chat.Success: "success", chat.Danger: "danger"}

// formatter turns the bot's text (chat markdown and markup) into HTML.
type formatter struct {
	name func(id string) string
	now  time.Time
}

var (
	fence = regexp.MustCompile("(?s)```(?:[a-z]*\n)?(.*?)```")
	code  = regexp.MustCompile("`([^`\n]+)`")
	bold  = regexp.MustCompile(`\*\*(.+?)\*\*`)
	ital  = regexp.MustCompile(`(^|[\s(])_([^_\n]+)_([\s.,:)]|$)`)
	// star is italics written with single stars, as Discord reads them
	// ("Hero *locked*", "*(Posted late…)*"); bold's double stars are
	// made into tags before.
	star = regexp.MustCompile(`(^|[\s(])\*([^*\s][^*\n]*?)\*([\s.,:)]|$)`)
)

// html renders text: escaped first, then the markup (mentions, times) and
// the markdown the bot uses (bold, code, code blocks) made into tags.
func (f formatter) html(text string) string {
	t := html.EscapeString(text)
	t = chat.Markup{
		Mention: func(id string) string {
			return `<span class="mention">@` + html.EscapeString(f.name(html.UnescapeString(id))) + `</span>`
		},
		Named: func(_, name string) string {
			return `<span class="mention">@` + html.EscapeString(html.UnescapeString(name)) + `</span>`
		},
		Channel: func(id string) string {
			return `<span class="mention">#` + html.EscapeString(strings.TrimPrefix(strings.TrimPrefix(html.UnescapeString(id), Prefix), consolePrefix)) + `</span>`
		},
		Time: func(unix int64) string {
			return fmt.Sprintf(`<time datetime="%s">%s</time>`, time.Unix(unix, 0).UTC().Format(time.RFC3339), html.EscapeString(chat.PlainTime(f.now)(unix)))
		},
	}.Format(t)
	t = fence.ReplaceAllString(t, "<pre>$1</pre>")
	t = code.ReplaceAllString(t, "<code>$1</code>")
	t = bold.ReplaceAllString(t, "<b>$1</b>")
	t = ital.ReplaceAllString(t, "$1<i>$2</i>$3")
	t = star.ReplaceAllString(t, "$1<i>$2</i>$3")
	// Line breaks, but none inside a code block (pre keeps them).
	parts := strings.Split(t, "<pre>")
	for i, p := range parts {
		if i == 0 {
			parts[i] = strings.ReplaceAll(p, "\n", "<br>")
			continue
		}
		in, out, _ := strings.Cut(p, "</pre>")
		parts[i] = in + "</pre>" + strings.ReplaceAll(strings.TrimPrefix(out, "\n"), "\n", "<br>")
	}
	return strings.Join(parts, "<pre>")
}

// render makes the view of message m.
func (f formatter) render(m chat.Message) view {
	v := view{HTML: f.html(m.Text)}
	if e := m.Embed; e != nil {
		ev := &embedView{Title: f.html(e.Title), Description: f.html(e.Description), Footer: f.html(e.Footer)}
		if e.Color != 0 {
			ev.Color = fmt.Sprintf("#%06x", e.Color&0xffffff)
		}
		for _, fd := range e.Fields {
			ev.Fields = append(ev.Fields, fieldView{Name: f.html(fd.Name), Value: f.html(fd.Value), Inline: fd.Inline})
		}
		v.Embed = ev
	}
	for _, row := range m.Buttons {
		var r []buttonView
		for _, b := range row {
			st := styles[b.Style]
			if st == "" {
				st = "secondary"
			}
			r = append(r, buttonView{ID: b.ID, Label: b.Label, Style: st})
		}
		v.Buttons = append(v.Buttons, r)
	}
	return v
}
