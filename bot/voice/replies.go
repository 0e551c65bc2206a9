package voice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// PlanReply lists the plan, each attack with its total against the
// defence as they stand, and offers the launch.
func (v Voice) PlanReply(m *hosted.Match, seat int, out Said) chat.Message {
	s := m.Game.State
	text := FitLines(out.Lines, 800) + "\n" + PlanText(engine.PlanningView(s, seat))
	text += "\nLaunch them in this order with /risk launch (or the button); plan more with /risk attack; /risk undo takes the last one back."
	n := int(s.Cap.NPlan)
	return chat.Message{Text: text, Buttons: [][]chat.Button{{
		{ID: m.ButtonID("launch"), Label: fmt.Sprintf("Launch %s", chat.Plural(n, "attack", "attacks")), Style: chat.Danger},
		{ID: m.ButtonID("end"), Label: "Pass", Style: chat.Secondary},
	}}}
}

// PlanText lists the turn's planned attacks with their totals now. With
// fog of war s is the planner's view (engine.PlanningView): each defence is what the
// planner sees of it, as the plan was checked, and the text says that the
// launch counts the whole.
func PlanText(s *state.State) string {
	plans := s.Cap.Planned()
	if len(plans) == 0 {
		return "No attack is planned."
	}
	each := "each at "
	if len(plans) == 1 {
		each = "at "
	}
	lines := []string{fmt.Sprintf("Planned (%s, %s%s):", chat.Plural(len(plans), "attack", "attacks"), each, shareText(s, len(plans)))}
	for i, p := range plans {
		from, to := int(p.From), int(p.To)
		a := s.AttackTotal(from, to, len(plans))
		sea := ""
		if a.Reach == state.BySea {
			sea = ", by sea (half)"
		}
		d := s.DefenceTotal(to)
		lo, hi := engine.Damage(a.Total, d, engine.LuckMin), engine.Damage(a.Total, d, engine.LuckMin+engine.LuckSpan-1)
		troops := s.Terr[to].Armies
		outlook := fmt.Sprintf("kills %d to %d of its %s", lo, hi, chat.Plural(troops, "troop", "troops"))
		against := state.FormatPower(d)
		if s.Fogged() {
			against += " in sight"
		}
		switch {
		case s.Terr[to].Fog:
			against, outlook = "what the fog hides", "its holder and troops lie in the fog"
		case lo >= troops:
			outlook = fmt.Sprintf("takes it for sure (kills at least %d of its %d)", lo, troops)
		case hi >= troops:
			outlook = fmt.Sprintf("takes it with luck (kills %d to %d of its %d)", lo, hi, troops)
		}
		lines = append(lines, fmt.Sprintf("%d. %s → %s: total %s against %s%s; %s",
			i+1, s.Map.TerritoryName(from), s.Map.TerritoryName(to), state.FormatPower(a.Total), against, sea, outlook))
	}
	if s.Fogged() {
		lines = append(lines, "Fog of war: a defence counts what you see; the launch counts the whole of it, and an attack that does not beat it is skipped.")
	}
	return strings.Join(lines, "\n")
}

// shareText says what each planned attack is worth: full power, or a
// fraction of its troops.
func shareText(s *state.State, n int) string {
	if n == 1 || s.Cap.Has(state.ItemFullPower) {
		return "full power"
	}
	return fmt.Sprintf("1/%d of its troops", n)
}

// Ratio names a move's share of q quarters (1 to 4) as /risk fortify's
// ratio option takes it: "1/4", "1/2", "3/4", "all".
func Ratio(q int) string {
	if q < 1 || q > 4 {
		return ""
	}
	return [...]string{"1/4", "1/2", "3/4", "all"}[q-1]
}

// MoveChoice offers the move's shares as buttons: a row without the hero
// and, where the hero stands, one with it; the remembered choice stands out.
func (v Voice) MoveChoice(m *hosted.Match, seat, from, to, defQ int, defHero bool) chat.Message {
	s := m.Game.State
	armies := s.Terr[from].Armies
	rows := [][]chat.Button{}
	for _, hero := range []bool{false, true} {
		if hero && s.Hero(seat) != from {
			continue
		}
		var row []chat.Button
		for q := 1; q <= 4; q++ {
			n := state.MoveCount(armies, q)
			if n == 0 && !hero {
				continue
			}
			label := fmt.Sprintf("%s (%d)", Ratio(q), n)
			if hero {
				label += " + hero"
			}
			// The label is the warning: a share that empties the capital
			// needs no second question.
			sure := 0
			if from == s.Capital(seat) && armies-n == 0 {
				label += ", capital left empty"
				sure = 1
			}
			style := chat.Secondary
			if q == defQ && hero == defHero {
				style = chat.Primary
			}
			h := 0
			if hero {
				h = 1
			}
			row = append(row, chat.Button{ID: m.ButtonID("move", from, to, q, h, sure), Label: label, Style: style})
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	text := fmt.Sprintf("Move from %s (%s) to %s: how much? Your last choice is highlighted; one troop stays unless all go.",
		s.Map.TerritoryName(from), chat.Plural(armies, "troop", "troops"), s.Map.TerritoryName(to))
	if from == s.Capital(seat) {
		text += fmt.Sprintf(" ⚠️ %s is your capital: all would leave it with 0 troops, and losing it puts you out.", s.Map.TerritoryName(from))
	}
	return chat.Message{Private: true, Buttons: rows, Text: text}
}

// ItemWhat says what an item does.
func ItemWhat(it state.Item) string {
	switch it {
	case state.ItemDistant:
		return "this turn you may plan attacks on any enemy territory but a capital, as if next door"
	case state.ItemFullPower:
		return "this turn every planned attack strikes at full power, not divided by their number"
	case state.ItemAttackPort:
		return "this turn you may build a port and attack too"
	case state.ItemTwoTurns:
		return "you play another whole turn after this one"
	case state.ItemTroopBonus:
		return "10% more troops on each of your territories"
	case state.ItemTroopMalus:
		return "10% fewer troops on each of your territories"
	case state.ItemLoseLand:
		return "one of your territories turns neutral"
	case state.ItemFat:
		return "the biggest territory of each of the two strongest other players becomes yours"
	}
	return "nothing known"
}

// ItemEffect is the reply's reminder of what a used item now allows.
func ItemEffect(it state.Item) string {
	return "In effect for the rest of your turn: " + ItemWhat(it) + "."
}

// capitalsNextStep tells the player what to do now in a capitals match.
func (v Voice) capitalsNextStep(m *hosted.Match, seat int) string {
	s := m.Game.State
	if s.Phase == state.PhaseSetup {
		if s.Current == seat {
			return "\nChoose your capital: /risk place territory:NAME."
		}
		return fmt.Sprintf("\nWaiting for %s to choose a capital.", s.Seats[s.Current].Name)
	}
	if s.Current != seat {
		return ""
	}
	switch s.Phase {
	case state.PhaseReinforce:
		return fmt.Sprintf("\nSend your %s to one territory: /risk place territory:NAME.", chat.Plural(s.Seats[seat].Reserve, "troop", "troops"))
	case state.PhaseAction:
		if s.Cap.NPlan > 0 {
			return "\n" + PlanText(engine.PlanningView(s, seat)) + "\nLaunch with /risk launch; plan more with /risk attack."
		}
		return "\nYour action: /risk attack on a neutral territory captures it, on an enemy one plans an attack; /risk port builds a port. Or go on to /risk fortify, or /risk end."
	case state.PhaseMove:
		if !s.Cap.Moved {
			q, _ := s.MoveDefault(seat)
			return fmt.Sprintf("\nMove troops once: /risk fortify from:… to:… (ratio %s by default), or /risk end.", Ratio(q))
		}
		return "\nEnd your turn with /risk end."
	}
	return ""
}

// Said is what a command did, as it is told: what an answer is made from.
type Said struct {
	Events []engine.Event
	// Lines describe the events, for the reply.
	Lines []string
	// Turns are the turns that ended (with the setup as turn 0).
	Turns []news.TurnRecord
}

// Reply words the answer to a command from what it did.
type Reply func(Said) chat.Message

// Next is the usual reply to a command: what happened, then what to
// do next.
func (v Voice) Next(m *hosted.Match, seat int) Reply {
	return func(out Said) chat.Message {
		text := FitLines(out.Lines, 1600)
		if collectedKept(out.Events, seat) {
			text += "\nYou collected an item: /risk show cards shows what it is (only to you)."
		}
		return chat.Message{Text: text + v.NextStep(m, seat)}
	}
}

// Autoplaced is replyNext for an automatic placement: it says where
// every army went, which the public record only counts.
func (v Voice) Autoplaced(m *hosted.Match, seat int) Reply {
	return func(out Said) chat.Message {
		lines := out.Lines
		if where := placedWhere(m.Game.State, out.Events, seat); where != "" {
			// Right under the line that counts them.
			at := 0
			for i, l := range lines {
				if strings.HasPrefix(l, "➕") {
					at = i + 1
					break
				}
			}
			lines = slices.Insert(slices.Clone(lines), at, where)
		}
		return chat.Message{Text: FitLines(lines, 1600) + v.NextStep(m, seat)}
	}
}

// placedWhere lists where seat's placements went, most first: "Where: 4
// on Alaska, 2 on Peru"; empty if they fit the usual line already.
func placedWhere(s *state.State, events []engine.Event, seat int) string {
	armies := map[int]int{}
	var order []int
	for _, e := range events {
		if p, ok := e.(engine.Placed); ok && p.Seat == seat {
			if _, seen := armies[p.Territory]; !seen {
				order = append(order, p.Territory)
			}
			armies[p.Territory] += p.Armies
		}
	}
	if len(order) <= 4 {
		return ""
	}
	slices.SortStableFunc(order, func(a, b int) int { return armies[b] - armies[a] })
	parts := make([]string, len(order))
	for i, t := range order {
		parts[i] = fmt.Sprintf("%d on %s", armies[t], s.Map.TerritoryName(t))
	}
	return "Where: " + strings.Join(parts, ", ") + "."
}

// NextStep tells the player what to do now, after their command.
func (v Voice) NextStep(m *hosted.Match, seat int) string {
	s := m.Game.State
	if s.Phase == state.PhaseOver || s.Phase == state.PhaseOrders {
		return "" // a round's replies say what comes next (OrdersReply)
	}
	if hosted.IsCapitals(s) {
		return v.capitalsNextStep(m, seat)
	}
	if s.Phase == state.PhaseSetup {
		if r := s.Seats[seat].Reserve; r > 0 {
			return fmt.Sprintf("\nYou have %s left to place.", chat.Plural(r, "army", "armies"))
		}
		var waiting []string
		for i := range s.Seats {
			if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
				waiting = append(waiting, s.Seats[i].Name)
			}
		}
		return fmt.Sprintf("\nAll placed. Waiting for %s.", strings.Join(waiting, ", "))
	}
	if s.Current != seat {
		return ""
	}
	switch s.Phase {
	case state.PhaseReinforce:
		if s.Seats[seat].Hand.Len() >= 5 {
			return fmt.Sprintf("\nYou hold %d cards: trade a set (/risk trade) before placing.", s.Seats[seat].Hand.Len())
		}
		return fmt.Sprintf("\n%s left to place.", chat.Capitalize(chat.Plural(s.Seats[seat].Reserve, "army", "armies")))
	case state.PhaseAttack:
		return "\nNext: /risk attack, /risk fortify, or /risk end."
	case state.PhaseOccupy:
		o := s.Occupy
		return fmt.Sprintf("\nMove %d to %d armies into %s with /risk occupy.", o.Min, o.Max, s.Map.TerritoryName(o.To))
	}
	return ""
}

// OddsText words the exact odds of attacking to the end: "81% to take it,
// you keep about 5".
func OddsText(o engine.Odds) string {
	return fmt.Sprintf("%.0f%% to take it, you keep about %.0f", 100*o.Win, o.AttackerLeft)
}

// BlitzNote says why a blitz stopped without taking its target.
func BlitzNote(s *state.State, from, to, keep int) string {
	switch {
	case s.Phase != state.PhaseAttack || s.Terr[to].Owner == s.Current:
		return ""
	case s.Terr[from].Armies <= 1:
		return fmt.Sprintf("Stopped: %s has 1 army left and cannot attack; %s still holds %d.", s.Map.TerritoryName(from), s.Map.TerritoryName(to), s.Terr[to].Armies)
	default:
		return fmt.Sprintf("Stopped: %s is down to %d, as asked; %s still holds %d.", s.Map.TerritoryName(from), s.Terr[from].Armies, s.Map.TerritoryName(to), s.Terr[to].Armies)
	}
}

// AttackReply shows the battle and offers the next clicks.
func (v Voice) AttackReply(m *hosted.Match, seat, from, to int, out Said) chat.Message {
	s := m.Game.State
	msg := chat.Message{Text: FitLines(out.Lines, 1600)}
	switch {
	case s.Phase == state.PhaseOver:
	case s.Phase == state.PhaseOccupy:
		o := s.Occupy
		half := max(o.Min, (o.Min+o.Max+1)/2)
		msg.Text += fmt.Sprintf("\nMove %d to %d armies into %s: /risk occupy, or click.", o.Min, o.Max, s.Map.TerritoryName(o.To))
		row := []chat.Button{{ID: m.ButtonID("occupy", o.Min), Label: fmt.Sprintf("Move %d", o.Min), Style: chat.Secondary}}
		if half > o.Min && half < o.Max {
			row = append(row, chat.Button{ID: m.ButtonID("occupy", half), Label: fmt.Sprintf("Move %d", half), Style: chat.Secondary})
		}
		row = append(row, chat.Button{ID: m.ButtonID("occupy", o.Max), Label: fmt.Sprintf("Move all %d", o.Max), Style: chat.Primary})
		msg.Buttons = [][]chat.Button{row}
	case s.Phase == state.PhaseReinforce:
		msg.Text += v.NextStep(m, seat)
	case s.Phase == state.PhaseAttack:
		var row []chat.Button
		if s.Terr[to].Owner != seat && s.Terr[from].Armies >= 2 {
			odds, _ := engine.AttackOdds(s.Terr[from].Armies, s.Terr[to].Armies)
			msg.Text += fmt.Sprintf("\n%s has %d, %s has %d: %s attacking to the end.",
				s.Map.TerritoryName(from), s.Terr[from].Armies, s.Map.TerritoryName(to), s.Terr[to].Armies, OddsText(odds))
			row = append(row,
				chat.Button{ID: m.ButtonID("attack", from, to), Label: fmt.Sprintf("Attack again (%d dice)", engine.MaxDice(s.Terr[from].Armies)), Style: chat.Danger},
				chat.Button{ID: m.ButtonID("blitz", from, to), Label: fmt.Sprintf("Blitz %s: %.0f%%, keep ~%.0f", chat.Trunc(s.Map.TerritoryName(to), 24), 100*odds.Win, odds.AttackerLeft), Style: chat.Danger},
				chat.Button{ID: m.ButtonID("stop"), Label: "Stop", Style: chat.Secondary},
			)
		}
		row = append(row, chat.Button{ID: m.ButtonID("end"), Label: "End turn", Style: chat.Success})
		msg.Buttons = [][]chat.Button{row}
	}
	return msg
}
