package voice

import (
	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Asks words the refusals that need a match's words and the questions the
// bot asks: a pass with orders unsent, a capital left empty, a rollback to
// agree on.
type Asks struct{ v Voice }

// Asks is v refusing or asking.
func (v Voice) Asks() Asks { return Asks{v} }

// The questions of a capitals match: commands the rules allow but that
// cost more than a player in a hurry may think. Each is refused once, with
// the reason and a button that does it all the same; the button is good
// only at the version of the match it was asked at, so it does exactly
// what was asked or nothing.

// PassUnsent refuses /risk end while the turn's reinforcements are unsent:
// the rules let them lapse, but nobody should lose them by a slip.
func (ak Asks) PassUnsent(m *hosted.Match, seat int) *chat.Refusal {
	s := m.Game.State
	n := s.Seats[seat].Reserve
	troops := lang.M("n.troops", "Count", n)
	where := ak.v.p.T("voice.ask.name")
	if c := s.Capital(seat); c >= 0 {
		// The command's option takes the map's own name.
		where = s.Map.TerritoryName(c)
	}
	return &chat.Refusal{
		Msg: ak.v.p.T("voice.ask.pass-unsent", "Troops", troops, "Where", lang.Text(where)),
		Buttons: [][]chat.Button{{
			{ID: m.ButtonID(button.EndAnyway), Label: ak.v.p.T("voice.button.end-anyway", "Troops", troops), Style: chat.Danger},
		}},
	}
}

// LapseNote is the end of turn's word on the reinforcements it dropped.
func (ak Asks) LapseNote(n int) string {
	if n <= 0 {
		return ""
	}
	return " " + ak.v.p.T("voice.ask.lapsed", "Count", n)
}

// DroppedNote is the end of turn's word on the planned attacks it dropped.
func (ak Asks) DroppedNote(n int) string {
	if n <= 0 {
		return ""
	}
	return " " + ak.v.p.T("voice.ask.dropped", "Count", n)
}

// EmptyCapital refuses a move that leaves seat's capital with no troops:
// the rules allow it, but losing the capital puts the player out. after is
// the match as the move would leave it, to say what would still defend
// the capital and what could strike it. The buttons move anyway, or move
// a share that leaves some troops behind.
func (ak Asks) EmptyCapital(m *hosted.Match, seat int, mv engine.Move, after *state.State) *chat.Refusal {
	s := m.Game.State
	c := s.Capital(seat)
	hero := 0
	if mv.Hero {
		hero = 1
	}
	what := ak.v.p.T("voice.ask.all-troops", "Count", s.Terr[c].Armies)
	if s.Terr[c].Armies == 0 {
		what = ak.v.p.T("voice.ask.your-hero")
	} else if mv.Hero {
		what = ak.v.p.T("voice.ask.and-hero", "What", lang.Text(what))
	}
	// What could strike it is what seat sees: with fog of war, a port in
	// the fog that reaches the capital by sea is not the player's to know.
	after = engine.PlanningView(after, seat)
	defence := after.DefenceTotal(c)
	text := ak.v.p.T("voice.ask.empty-capital", "What", lang.Text(what), "Place", place(s, c), "Defence", ak.v.power(defence))
	if by, total, ok := strongestThreat(after, c); ok && total > defence {
		text += ak.v.p.T("voice.ask.would-beat", "From", place(after, by), "Total", ak.v.power(total))
	}
	text += ak.v.p.T("voice.ask.capital-out")
	row := []chat.Button{{ID: m.ButtonID(button.Move, mv.From, mv.To, mv.Quarters, hero, 1), Label: ak.v.p.T("voice.button.move-anyway"), Style: chat.Danger}}
	if n := state.MoveCount(s.Terr[c].Armies, 3); n > 0 {
		with := ""
		if mv.Hero {
			with = ak.v.p.T("voice.move.plus-hero")
		}
		row = append(row, chat.Button{ID: m.ButtonID(button.Move, mv.From, mv.To, 3, hero, 0),
			Label: ak.v.p.T("voice.button.move-three-quarters", "Count", n, "With", with), Style: chat.Secondary})
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
func (ak Asks) Threat(s *state.State, t int) string {
	by, total, ok := strongestThreat(s, t)
	if !ok {
		return ""
	}
	return ak.v.p.T("voice.ask.threat", "From", place(s, by), "Total", ak.v.power(total))
}

// CapitalsNoUndo is the answer to /risk undo in a capitals match when the
// player has nothing to take back: what undo takes back there, and what it
// never does (the engine's words speak of dice and cards).
func (ak Asks) CapitalsNoUndo(s *state.State) string {
	if s.Phase == state.PhaseSetup {
		return ak.v.p.T("help.undo.capitals.setup")
	}
	return ak.v.p.T("help.undo.capitals")
}
