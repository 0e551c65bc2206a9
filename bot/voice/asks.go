package voice

import (
	"fmt"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
)

// The questions of a capitals match: commands the rules allow but that
// cost more than a player in a hurry may think. Each is refused once, with
// the reason and a button that does it all the same; the button is good
// only at the version of the match it was asked at, so it does exactly
// what was asked or nothing.

// PassUnsent refuses /risk end while the turn's reinforcements are unsent:
// the rules let them lapse, but nobody should lose them by a slip.
func (v Voice) PassUnsent(m *hosted.Match, seat int) *chat.Refusal {
	s := m.Game.State
	n := s.Seats[seat].Reserve
	troops := chat.Plural(n, "troop", "troops")
	where := "NAME"
	if c := s.Capital(seat); c >= 0 {
		where = s.Map.TerritoryName(c)
	}
	return &chat.Refusal{
		Msg: fmt.Sprintf("You have not sent this turn's reinforcements (**%s**). Send them first: /risk place territory:%s "+
			"(or any territory of yours). Passing now loses them for good.", troops, where),
		Buttons: [][]chat.Button{{
			{ID: m.ButtonID("endanyway"), Label: "End anyway, losing " + troops, Style: chat.Danger},
		}},
	}
}

// LapseNote is the end of turn's word on the reinforcements it dropped.
func LapseNote(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" The %s not sent %s lost.", chat.Plural(n, "troop", "troops"), plural(n, "was", "were"))
}

// plural picks a word's form by count, for the words chat.Plural does not
// lead with a number.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
