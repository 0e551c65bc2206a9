// Package voice is everything the bot says about a match: the events of a
// command told as lines, the record of each turn (its living post, its
// summary, its map), the pings, reminders and digests of the players, the
// answers to their commands, the status, the lobby's card, the help. It is
// pure: it turns a hosted match, the events of a command and the map its
// caller gives into chat-neutral messages; no store, no clock, no I/O.
//
// Voice is the value every job shares: the seats' colours, the language,
// the audience. What it says is split by job, each a small type reached
// from it (Teller, Turns, Digests, Recap, Replies, Asks, Lobby, Status,
// Missions): v.Replies().Attack(…), v.Turns().Live(m).
package voice

import (
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/state"
)

// colorEmoji gives a square of roughly the seat's colour for chat text, so
// that the colour is never only on the map.
var colorEmoji = map[string]string{
	"red": "🟥", "cyan": "🟦", "blue": "🟦", "yellow": "🟨", "violet": "🟪", "purple": "🟪",
	"black": "⬛", "pink": "🩷", "magenta": "🩷", "orange": "🟧", "green": "🟩", "brown": "🟫", "white": "⬜",
	// The colour-blind palette (render.ColorBlind).
	"vermillion": "🟧", "sky blue": "🟦",
}

// Voice writes the chat text of one match, naming its seats with the
// colours of the match's palette.
type Voice struct {
	colors []string // colour names, in turn order
	rgb    []int    // the colours as 0xRRGGBB (may be empty)
	// mapOf is the map of a match as it stands, drawn when first shown, as
	// a seat sees it (-1: the public map).
	mapOf func(m *hosted.Match, viewer int) *chat.Image
	// to is whom the voice speaks to, in a match with fog of war.
	to audience
	// p words what the voice says, in its reader's language (the zero
	// printer speaks English).
	p lang.Printer
	// onMap: the turn's living post offers to play on the map (OnMap).
	onMap bool
}

// OnMap returns the voice of a bot whose matches are played on their map
// in the chat too (Discord's Activity): the turn's living post carries a
// button that opens it.
func (v Voice) OnMap() Voice {
	v.onMap = true
	return v
}

// In is the voice speaking language t: the player's own for a private
// answer, the server's for a public post.
func (v Voice) In(t lang.Tag) Voice {
	v.p = lang.For(t)
	return v
}

// Speaking is a voice of no match's colours in language t: for the posts
// and answers that name no seat's colour (a lobby, the help, a list).
func Speaking(t lang.Tag) Voice { return Voice{}.In(t) }

// Level names a computer player's level as its reader says it ("easy",
// "facile"); a level the catalogue lacks goes by its own name.
func Level(level string) lang.Msg {
	switch level {
	case "random":
		return lang.M("voice.level.random")
	case "easy":
		return lang.M("voice.level.easy")
	case "normal":
		return lang.M("voice.level.normal")
	case "hard":
		return lang.M("voice.level.hard")
	}
	return lang.M("chat.as-is", "Text", lang.Text(level))
}

// Lang is the printer the voice speaks with.
func (v Voice) Lang() lang.Printer { return v.p }

// New returns the voice of a match whose seats have these colours
// (names, and 0xRRGGBB values, which may be missing); mapOf gives the map
// of a match as it stands, as a seat sees it (-1: the public map).
func New(colors []string, rgb []int, mapOf func(m *hosted.Match, viewer int) *chat.Image) Voice {
	return Voice{colors: colors, rgb: rgb, mapOf: mapOf}
}

// Color is seat i's colour as 0xRRGGBB, for an embed's side bar; 0 if
// unknown.
func (v Voice) Color(i int) int {
	if i >= 0 && i < len(v.rgb) {
		return v.rgb[i]
	}
	return 0
}

// Who names engine seat i with its colour: "🟥 Ann".
func (v Voice) Who(s *state.State, i int) string {
	if i < 0 || i >= len(s.Seats) {
		return v.p.T("voice.who.neutral")
	}
	return v.Swatch(i) + " " + s.Seats[i].Name
}

// Swatch is the emoji of seat i's colour.
func (v Voice) Swatch(i int) string {
	if i < len(v.colors) {
		if e, ok := colorEmoji[v.colors[i]]; ok {
			return e
		}
	}
	return "▪️"
}

// ColorName names seat i's colour, in the voice's language.
func (v Voice) ColorName(i int) string {
	if i < len(v.colors) {
		return v.p.Colour(v.colors[i])
	}
	return v.p.T("voice.color.nth", "N", i+1)
}

// power words a strength of the capitals rules ("14.5"), with the decimal
// mark of the voice's language.
func (v Voice) power(units int) string {
	s := state.FormatPower(units)
	if v.p.Tag() == lang.French {
		s = strings.Replace(s, ".", ",", 1)
	}
	return s
}

// place is territory t's name as a sentence uses it ("le Pérou").
func place(s *state.State, t int) lang.Place {
	return lang.Place(s.Map.TerritoryName(t))
}

// audience is whom a voice speaks to in a match with fog of war.
type audience struct {
	fog  bool // the match has fog: tell what the audience sees only
	seat int  // the seat spoken to, or -1 for everyone
}

// fitLines is Fit with the words for the n lines left out worded by
// more.
func fitLines(lines []string, limit int, more func(n int) string) string {
	total := 0
	for i, l := range lines {
		total += len(l) + 1
		if total > limit-40 && i < len(lines)-1 {
			return strings.Join(lines[:i], "\n") + "\n" + more(len(lines)-i)
		}
	}
	return strings.Join(lines, "\n")
}
