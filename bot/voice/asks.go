package voice

import (
	"fmt"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
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

// DroppedNote is the end of turn's word on the planned attacks it dropped.
func DroppedNote(n int) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" The %s planned %s not launched.", chat.Plural(n, "attack", "attacks"), plural(n, "was", "were"))
}

// plural picks a word's form by count, for the words chat.Plural does not
// lead with a number.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// EmptyCapital refuses a move that leaves seat's capital with no troops:
// the rules allow it, but losing the capital puts the player out. after is
// the match as the move would leave it, to say what would still defend
// the capital and what could strike it. The buttons move anyway, or move
// a share that leaves some troops behind.
func (v Voice) EmptyCapital(m *hosted.Match, seat int, mv engine.Move, after *state.State) *chat.Refusal {
	s := m.Game.State
	c := s.Capital(seat)
	name := s.Map.TerritoryName(c)
	hero := 0
	if mv.Hero {
		hero = 1
	}
	what := fmt.Sprintf("all %s", chat.Plural(s.Terr[c].Armies, "troop", "troops"))
	if s.Terr[c].Armies == 0 {
		what = "your hero"
	} else if mv.Hero {
		what += " and your hero"
	}
	// What could strike it is what seat sees: with fog of war, a port in
	// the fog that reaches the capital by sea is not the player's to know.
	after = engine.PlanningView(after, seat)
	defence := after.DefenceTotal(c)
	text := fmt.Sprintf("⚠️ This move takes %s off **%s**, your capital: it would hold 0 troops, defended only by what borders it (defence %s)",
		what, name, state.FormatPower(defence))
	if by, total, ok := strongestThreat(after, c); ok && total > defence {
		text += fmt.Sprintf(", which an attack from %s (total %s) would beat", after.Map.TerritoryName(by), state.FormatPower(total))
	}
	text += ". Lose your capital and you are out of the match."
	row := []chat.Button{{ID: m.ButtonID("move", mv.From, mv.To, mv.Quarters, hero, 1), Label: "Move anyway", Style: chat.Danger}}
	if n := state.MoveCount(s.Terr[c].Armies, 3); n > 0 {
		with := ""
		if mv.Hero {
			with = " + hero"
		}
		row = append(row, chat.Button{ID: m.ButtonID("move", mv.From, mv.To, 3, hero, 0),
			Label: fmt.Sprintf("Move 3/4 (%d)%s instead", n, with), Style: chat.Secondary})
	}
	return &chat.Refusal{Msg: text, Buttons: [][]chat.Button{row}}
}

// strongestThreat finds the enemy territory with the greatest attack
// total on territory t, if any could strike it next turn.
func strongestThreat(s *state.State, t int) (by, total int, ok bool) {
	owner := s.Terr[t].Owner
	by = -1
	for from := range s.Terr {
		o := s.Terr[from].Owner
		if o == owner || o == state.Neutral {
			continue
		}
		if a := s.AttackTotal(from, t, 1); a.Reach != state.NoReach && a.Total > total {
			by, total = from, a.Total
		}
	}
	return by, total, by >= 0
}

// Threat names the strongest enemy total that could strike territory t
// next turn, for a suggestion: ", threatened by Ulora (14.5)"; empty if
// none could.
func Threat(s *state.State, t int) string {
	by, total, ok := strongestThreat(s, t)
	if !ok {
		return ""
	}
	return fmt.Sprintf(", threatened by %s (%s)", s.Map.TerritoryName(by), state.FormatPower(total))
}
