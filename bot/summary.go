package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/bot/hosted"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/engine"
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

// voice writes the chat text of one match, naming its seats with the
// colours of the match's palette.
type voice struct {
	colors []string // colour names, in turn order
	rgb    []int    // the colours as 0xRRGGBB (may be empty)
}

// voice returns the voice of match m.
func (b *Bot) voice(m *hosted.Match) voice {
	p := b.palette(m)
	return voice{colors: p.Colors, rgb: p.RGB}
}

// color is seat i's colour as 0xRRGGBB, for an embed's side bar; 0 if
// unknown.
func (v voice) color(i int) int {
	if i >= 0 && i < len(v.rgb) {
		return v.rgb[i]
	}
	return 0
}

// who names engine seat i with its colour: "🟥 Ann".
func (v voice) who(s *state.State, i int) string {
	if i < 0 || i >= len(s.Seats) {
		return "⬜ neutral"
	}
	return v.swatch(i) + " " + s.Seats[i].Name
}

// swatch is the emoji of seat i's colour.
func (v voice) swatch(i int) string {
	if i < len(v.colors) {
		if e, ok := colorEmoji[v.colors[i]]; ok {
			return e
		}
	}
	return "▪️"
}

// colorName names seat i's colour.
func (v voice) colorName(i int) string {
	if i < len(v.colors) {
		return v.colors[i]
	}
	return fmt.Sprintf("colour %d", i+1)
}

// describe turns events into lines for people. Consecutive rolls of one
// attack (a blitz) become one line. Private events (the card drawn) are
// described without the card.
func (v voice) describe(s *state.State, events []engine.Event) []string {
	var lines []string
	t := s.Map.TerritoryName
	for i := 0; i < len(events); i++ {
		if line, ok := v.describeCapitals(s, events[i]); ok {
			lines = append(lines, line)
			continue
		}
		switch e := events[i].(type) {
		case engine.TurnStarted:
			if hosted.IsCapitals(s) {
				lines = append(lines, fmt.Sprintf("⏩ Turn %d: %s receives %s (3 for each territory)", e.Turn, v.who(s, e.Seat), chat.Plural(e.Armies, "troop", "troops")))
				continue
			}
			lines = append(lines, fmt.Sprintf("⏩ Turn %d: %s receives %s", e.Turn, v.who(s, e.Seat), incomeText(s, e.Income)))
		case engine.SetupDone:
			if hosted.IsCapitals(s) {
				lines = append(lines, "📯 Every capital is chosen: the war begins!")
				continue
			}
			lines = append(lines, "📯 Everyone has placed their armies: the war begins!")
		case engine.Placed:
			// Merge the placements of one seat in a row (an "autoplace", or
			// a bot's placements) into a line, one part per territory.
			var order []int
			armies := map[int]int{}
			total := 0
			for j := i; j < len(events); j++ {
				n, ok := events[j].(engine.Placed)
				if !ok || n.Seat != e.Seat {
					break
				}
				if _, seen := armies[n.Territory]; !seen {
					order = append(order, n.Territory)
				}
				armies[n.Territory] += n.Armies
				total += n.Armies
				i = j
			}
			if len(order) > 4 {
				lines = append(lines, fmt.Sprintf("➕ %s placed %d armies on %d territories", v.who(s, e.Seat), total, len(order)))
				break
			}
			parts := make([]string, len(order))
			for k, terr := range order {
				parts[k] = fmt.Sprintf("%d on %s", armies[terr], t(terr))
			}
			lines = append(lines, fmt.Sprintf("➕ %s placed %s", v.who(s, e.Seat), strings.Join(parts, ", ")))
		case engine.Traded:
			bonus := ""
			if e.Bonus > 0 {
				bonus = fmt.Sprintf(" (+%d on %s)", e.Bonus, t(e.BonusTerritory))
			}
			lines = append(lines, fmt.Sprintf("🃏 %s traded %s for %d armies%s", v.who(s, e.Seat), cardList(s.Map, e.Cards[:]), e.Armies, bonus))
		case engine.Rolled:
			rolls := []engine.Rolled{e}
			for i+1 < len(events) {
				n, ok := events[i+1].(engine.Rolled)
				if !ok || n.From != e.From || n.To != e.To {
					break
				}
				rolls = append(rolls, n)
				i++
			}
			lines = append(lines, v.battleLine(s, rolls))
		case engine.Conquered:
			lines = append(lines, fmt.Sprintf("🚩 %s took %s from %s", v.who(s, e.Seat), t(e.To), v.who(s, e.Defender)))
		case engine.Occupied:
			lines = append(lines, fmt.Sprintf("🚶 %s moved %d into %s", v.who(s, e.Seat), e.Armies, t(e.To)))
		case engine.Fortified:
			lines = append(lines, fmt.Sprintf("🚚 %s moved %d from %s to %s", v.who(s, e.Seat), e.Armies, t(e.From), t(e.To)))
		case engine.CardDrawn:
			lines = append(lines, fmt.Sprintf("🂠 %s drew a card (%d in hand)", v.who(s, e.Seat), s.HandSize(e.Seat)))
		case engine.Discarded:
			lines = append(lines, fmt.Sprintf("🗑️ %s discarded %s", v.who(s, e.Seat), s.Map.CardName(e.Card)))
		case engine.Reshuffled:
			lines = append(lines, fmt.Sprintf("🔀 The %d discarded cards were shuffled into a new deck", e.Cards))
		case engine.Eliminated:
			cards := ""
			if e.Cards > 0 {
				cards = fmt.Sprintf(" and takes %s", chat.Plural(e.Cards, "card", "cards"))
			}
			lines = append(lines, fmt.Sprintf("☠️ %s is eliminated by %s%s", v.who(s, e.Seat), v.who(s, e.By), cards))
		case engine.Surrendered:
			lines = append(lines, fmt.Sprintf("🏳️ %s surrendered; their territories are neutral now", v.who(s, e.Seat)))
		case engine.Won:
			lines = append(lines, fmt.Sprintf("🏆 **%s wins the match!**", v.who(s, e.Seat)))
		case engine.Undone:
			lines = append(lines, fmt.Sprintf("↩️ %s took back: %s", v.who(s, e.Seat), engine.Describe(s.Map, e.Command)))
		}
	}
	return lines
}

// battleLine describes one attack, of one roll or many.
func (v voice) battleLine(s *state.State, rolls []engine.Rolled) string {
	first, last := rolls[0], rolls[len(rolls)-1]
	lostA, lostD := 0, 0
	for _, r := range rolls {
		lostA += r.AttackerLost
		lostD += r.DefenderLost
	}
	var dice []string
	for _, r := range rolls {
		dice = append(dice, diceText(r))
	}
	if len(dice) > 4 {
		dice = append(dice[:2], "…", dice[len(dice)-1])
	}
	how := "attacked"
	if len(rolls) > 1 {
		how = fmt.Sprintf("blitzed (%d rolls)", len(rolls))
	}
	return fmt.Sprintf("⚔️ %s %s %s from %s: %s — %s lost %d, %s lost %d",
		v.who(s, first.Seat), how, s.Map.TerritoryName(first.To), s.Map.TerritoryName(first.From),
		strings.Join(dice, " · "), s.Seats[last.Seat].Name, lostA, defenderName(s, first.Defender), lostD)
}

func defenderName(s *state.State, seat int) string {
	if seat < 0 {
		return "neutral"
	}
	return s.Seats[seat].Name
}

// diceText shows a roll: "🎲 6 5 3 v 4 2".
func diceText(r engine.Rolled) string {
	var a, d []string
	for _, x := range r.AttackDice() {
		a = append(a, strconv.Itoa(x))
	}
	for _, x := range r.DefendDice() {
		d = append(d, strconv.Itoa(x))
	}
	return "🎲 " + strings.Join(a, " ") + " v " + strings.Join(d, " ")
}

func incomeText(s *state.State, in state.Income) string {
	text := chat.Plural(in.Total, "army", "armies")
	var parts []string
	parts = append(parts, fmt.Sprintf("%d for territories", in.Territories))
	for _, c := range in.Continents {
		parts = append(parts, fmt.Sprintf("%d for %s", s.Map.Continents[c].Bonus, s.Map.Continents[c].Name))
	}
	if len(parts) > 1 {
		text += " (" + strings.Join(parts, ", ") + ")"
	}
	return text
}

func cardList(m *state.Map, cards []state.Card) string {
	var names []string
	for _, c := range cards {
		names = append(names, m.CardName(c))
	}
	return strings.Join(names, ", ")
}
