// Package voice is everything the bot says about a match: the events of a
// command told as lines, the record of each turn (its living post, its
// summary, its map), the pings, reminders and digests of the players, the
// answers to their commands, the status, the lobby's card, the help. It is
// pure: it turns a hosted match, the events of a command and the map its
// caller gives into chat-neutral messages; no store, no clock, no I/O.
package voice

import (
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/state"
)

// FitLines joins lines within limit bytes, replacing the ones that do not
// fit by a count.
func FitLines(lines []string, limit int) string {
	return FitLinesAs(lines, limit, "… and %d more (see /risk show history)")
}

// FitLinesAs is fitLines with its own words for the lines left out (a
// format with one %d).
func FitLinesAs(lines []string, limit int, more string) string {
	return fitLines(lines, limit, func(n int) string { return fmt.Sprintf(more, n) })
}

// fitLines is FitLines with the words for the n lines left out worded by
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
}

// In is the voice speaking language t: the player's own for a private
// answer, the server's for a public post.
func (v Voice) In(t lang.Tag) Voice {
	v.p = lang.For(t)
	return v
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
		return "⬜ neutral"
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

// ColorName names seat i's colour.
func (v Voice) ColorName(i int) string {
	if i < len(v.colors) {
		return v.colors[i]
	}
	return fmt.Sprintf("colour %d", i+1)
}

// CardList names cards: "Alaska, Peru, wild".
func CardList(m *state.Map, cards []state.Card) string {
	var names []string
	for _, c := range cards {
		names = append(names, m.CardName(c))
	}
	return strings.Join(names, ", ")
}
