package voice

import (
	"fmt"
	"slices"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/button"
	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/bot/news"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// Replies answers a player's action: what an attack, a move, a plan or
// orders did, the odds, and what to do next.
type Replies struct{ v Voice }

// Replies is v answering a player's action.
func (v Voice) Replies() Replies { return Replies{v} }

// Fit joins lines within limit bytes, replacing the ones that do not
// fit by a count.
func (re Replies) Fit(lines []string, limit int) string {
	return re.FitAs(lines, limit, func(n int) lang.Msg { return lang.M("voice.fit.more", "Count", n) })
}

// FitAs is Fit with its own words for the lines left out: more words
// the n lines left out.
func (re Replies) FitAs(lines []string, limit int, more func(n int) lang.Msg) string {
	return fitLines(lines, limit, func(n int) string { return re.v.p.Msg(more(n)) })
}

// Plan lists the plan, each attack with its total against the
// defence as they stand, and offers the launch.
func (re Replies) Plan(m *hosted.Match, seat int, out Said) chat.Message {
	s := m.Game.State
	text := re.Fit(out.Lines, 800) + "\n" + re.PlanText(engine.PlanningView(s, seat))
	text += "\n" + re.v.p.T("voice.plan.launch-hint")
	n := int(s.Cap.NPlan)
	return chat.Message{Text: text, Buttons: [][]chat.Button{{
		{ID: m.ButtonID(button.Launch), Label: re.v.p.T("voice.button.launch", "Attacks", lang.M("n.attacks", "Count", n)), Style: chat.Danger},
		{ID: m.ButtonID(button.End), Label: re.v.p.T("voice.button.pass"), Style: chat.Secondary},
	}}}
}

// PlanText lists the turn's planned attacks with their totals now. With
// fog of war s is the planner's view (engine.PlanningView): each defence is what the
// planner sees of it, as the plan was checked, and the text says that the
// launch counts the whole.
func (re Replies) PlanText(s *state.State) string {
	plans := s.Cap.Planned()
	if len(plans) == 0 {
		return re.v.p.T("voice.plan.none")
	}
	lines := []string{re.v.p.T("voice.plan.head", "Count", len(plans), "Share", re.share(s, len(plans)))}
	for i, p := range plans {
		from, to := int(p.From), int(p.To)
		a := s.AttackTotal(from, to, len(plans))
		sea := ""
		if a.Reach == state.BySea {
			sea = re.v.p.T("voice.plan.by-sea")
		}
		d := s.DefenceTotal(to)
		lo, hi := engine.Damage(a.Total, d, engine.LuckMin), engine.Damage(a.Total, d, engine.LuckMin+engine.LuckSpan-1)
		troops := s.Terr[to].Armies
		outlook := re.v.p.T("voice.plan.kills", "Lo", lo, "Hi", hi, "Troops", lang.M("n.troops", "Count", troops))
		against := re.v.power(d)
		if s.Fogged() {
			against = re.v.p.T("voice.plan.in-sight", "Power", against)
		}
		switch {
		case s.Terr[to].Fog:
			against, outlook = re.v.p.T("voice.plan.fog-against"), re.v.p.T("voice.plan.fog-outlook")
		case lo >= troops:
			outlook = re.v.p.T("voice.plan.sure", "Lo", lo, "Count", troops)
		case hi >= troops:
			outlook = re.v.p.T("voice.plan.luck", "Lo", lo, "Hi", hi, "Count", troops)
		}
		lines = append(lines, re.v.p.T("voice.plan.line", "N", i+1, "From", re.name(s, from), "To", re.name(s, to),
			"Total", re.v.power(a.Total), "Against", against, "Sea", sea, "Outlook", outlook))
	}
	if s.Fogged() {
		lines = append(lines, re.v.p.T("voice.plan.fog"))
	}
	return strings.Join(lines, "\n")
}

// name is territory t's name alone, as a label or an arrow shows it
// ("Pérou").
func (re Replies) name(s *state.State, t int) lang.Text {
	return lang.Text(re.v.p.PlaceName(s.Map.TerritoryName(t)))
}

// share says what each planned attack is worth: full power, or a
// fraction of its troops.
func (re Replies) share(s *state.State, n int) string {
	if n == 1 || s.Cap.Has(state.ItemFullPower) {
		return re.v.p.T("voice.plan.full-power")
	}
	return re.v.p.T("voice.plan.share", "N", n)
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
func (re Replies) MoveChoice(m *hosted.Match, seat, from, to, defQ int, defHero bool) chat.Message {
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
			label := re.v.p.T("voice.move.share", "Ratio", re.ratio(q), "Count", n)
			if hero {
				label += re.v.p.T("voice.move.plus-hero")
			}
			// The label is the warning: a share that empties the capital
			// needs no second question.
			sure := 0
			if from == s.Capital(seat) && armies-n == 0 {
				label += re.v.p.T("voice.move.empties-capital")
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
			row = append(row, chat.Button{ID: m.ButtonID(button.Move, from, to, q, h, sure), Label: label, Style: style})
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	text := re.v.p.T("voice.move.how-much", "From", place(s, from), "Troops", lang.M("n.troops", "Count", armies), "To", place(s, to))
	if from == s.Capital(seat) {
		text += re.v.p.T("voice.move.capital-warning", "Place", place(s, from))
	}
	return chat.Message{Private: true, Buttons: rows, Text: text}
}

// ratio names a move's share of q quarters on its button: "1/4", "1/2",
// "3/4", "all".
func (re Replies) ratio(q int) string {
	if q == 4 {
		return re.v.p.T("voice.move.all")
	}
	return Ratio(q)
}

// ItemWhat says what an item does, in the voice's language. Its key is
// built from the item's stable name (TestItemKeysExist).
func (re Replies) ItemWhat(it state.Item) string {
	if !it.Known() {
		return re.v.p.T("voice.item.unknown")
	}
	return re.v.p.T("voice.item.what." + it.String())
}

// ItemEffect is the reply's reminder of what a used item now allows.
func (re Replies) ItemEffect(it state.Item) string {
	return re.v.p.T("voice.item.in-effect", "What", re.ItemWhat(it))
}

// capitalsNextStep tells the player what to do now in a capitals match.
func (re Replies) capitalsNextStep(m *hosted.Match, seat int) string {
	s := m.Game.State
	if s.Phase == state.PhaseSetup {
		if s.Current == seat {
			return "\n" + re.v.p.T("voice.next.choose-capital")
		}
		return "\n" + re.v.p.T("voice.next.waiting-capital", "Player", lang.Text(s.Seats[s.Current].Name))
	}
	if s.Current != seat {
		return ""
	}
	switch s.Phase {
	case state.PhaseReinforce:
		return "\n" + re.v.p.T("voice.next.send-troops", "Troops", lang.M("n.troops", "Count", s.Seats[seat].Reserve))
	case state.PhaseAction:
		if s.Cap.NPlan > 0 {
			return "\n" + re.PlanText(engine.PlanningView(s, seat)) + "\n" + re.v.p.T("voice.next.launch")
		}
		return "\n" + re.v.p.T("voice.next.action")
	case state.PhaseMove:
		if !s.Cap.Moved {
			q, _ := s.MoveDefault(seat)
			return "\n" + re.v.p.T("voice.next.move-once", "Ratio", Ratio(q))
		}
		return "\n" + re.v.p.T("voice.next.end-turn")
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
func (re Replies) Next(m *hosted.Match, seat int) Reply {
	return func(out Said) chat.Message {
		text := re.Fit(out.Lines, 1600)
		if collectedKept(out.Events, seat) {
			text += "\n" + re.v.p.T("voice.reply.collected-item")
		}
		return chat.Message{Text: text + re.NextStep(m, seat)}
	}
}

// Autoplaced is replyNext for an automatic placement: it says where
// every army went, which the public record only counts.
func (re Replies) Autoplaced(m *hosted.Match, seat int) Reply {
	return func(out Said) chat.Message {
		lines := out.Lines
		if where := re.placedWhere(m.Game.State, out.Events, seat); where != "" {
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
		return chat.Message{Text: re.Fit(lines, 1600) + re.NextStep(m, seat)}
	}
}

// placedWhere lists where seat's placements went, most first: "Where: 4
// on Alaska, 2 on Peru"; empty if they fit the usual line already.
func (re Replies) placedWhere(s *state.State, events []engine.Event, seat int) string {
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
		parts[i] = re.v.p.T("voice.reply.placed-on", "Count", armies[t], "Place", place(s, t))
	}
	return re.v.p.T("voice.reply.placed-where", "List", strings.Join(parts, ", "))
}

// NextStep tells the player what to do now, after their command.
func (re Replies) NextStep(m *hosted.Match, seat int) string {
	s := m.Game.State
	if s.Phase == state.PhaseOver || s.Phase == state.PhaseOrders {
		return "" // a round's replies say what comes next (Orders)
	}
	if hosted.IsCapitals(s) {
		return re.capitalsNextStep(m, seat)
	}
	if s.Phase == state.PhaseSetup {
		if r := s.Seats[seat].Reserve; r > 0 {
			return "\n" + re.v.p.T("voice.next.left-to-place", "Armies", lang.M("n.armies", "Count", r))
		}
		var waiting []string
		for i := range s.Seats {
			if s.Seats[i].Alive() && s.Seats[i].Reserve > 0 {
				waiting = append(waiting, s.Seats[i].Name)
			}
		}
		return "\n" + re.v.p.T("voice.next.all-placed", "Players", lang.Text(strings.Join(waiting, ", ")))
	}
	if s.Current != seat {
		return ""
	}
	switch s.Phase {
	case state.PhaseReinforce:
		if s.Seats[seat].Hand.Len() >= 5 {
			return "\n" + re.v.p.T("voice.next.trade-first", "Count", s.Seats[seat].Hand.Len())
		}
		return "\n" + chat.Capitalize(re.v.p.T("voice.next.reserve", "Armies", lang.M("n.armies", "Count", s.Seats[seat].Reserve)))
	case state.PhaseAttack:
		return "\n" + re.v.p.T("voice.next.attack")
	case state.PhaseOccupy:
		o := s.Occupy
		return "\n" + re.v.p.T("voice.next.occupy", "Min", o.Min, "Max", o.Max, "To", place(s, o.To))
	}
	return ""
}

// Odds words the exact odds of attacking to the end: "81% to take it,
// you keep about 5".
func (re Replies) Odds(o engine.Odds) string {
	return re.v.p.T("voice.reply.odds", "Pct", fmt.Sprintf("%.0f", 100*o.Win), "Left", fmt.Sprintf("%.0f", o.AttackerLeft))
}

// Blitz says why a blitz stopped without taking its target.
func (re Replies) Blitz(s *state.State, from, to, keep int) string {
	switch {
	case s.Phase != state.PhaseAttack || s.Terr[to].Owner == s.Current:
		return ""
	case s.Terr[from].Armies <= 1:
		return re.v.p.T("voice.reply.blitz-stuck", "From", place(s, from), "To", place(s, to), "Count", s.Terr[to].Armies)
	default:
		return re.v.p.T("voice.reply.blitz-stopped", "From", place(s, from), "Left", s.Terr[from].Armies, "To", place(s, to), "Count", s.Terr[to].Armies)
	}
}

// Attack shows the battle and offers the next clicks.
func (re Replies) Attack(m *hosted.Match, seat, from, to int, out Said) chat.Message {
	s := m.Game.State
	msg := chat.Message{Text: re.Fit(out.Lines, 1600)}
	switch {
	case s.Phase == state.PhaseOver:
	case s.Phase == state.PhaseOccupy:
		o := s.Occupy
		half := max(o.Min, (o.Min+o.Max+1)/2)
		msg.Text += "\n" + re.v.p.T("voice.reply.occupy", "Min", o.Min, "Max", o.Max, "To", place(s, o.To))
		row := []chat.Button{{ID: m.ButtonID(button.Occupy, o.Min), Label: re.v.p.T("voice.button.move", "Count", o.Min), Style: chat.Secondary}}
		if half > o.Min && half < o.Max {
			row = append(row, chat.Button{ID: m.ButtonID(button.Occupy, half), Label: re.v.p.T("voice.button.move", "Count", half), Style: chat.Secondary})
		}
		row = append(row, chat.Button{ID: m.ButtonID(button.Occupy, o.Max), Label: re.v.p.T("voice.button.move-all", "Count", o.Max), Style: chat.Primary})
		msg.Buttons = [][]chat.Button{row}
	case s.Phase == state.PhaseReinforce:
		msg.Text += re.NextStep(m, seat)
	case s.Phase == state.PhaseAttack:
		var row []chat.Button
		if s.Terr[to].Owner != seat && s.Terr[from].Armies >= 2 {
			odds, _ := engine.AttackOdds(s.Terr[from].Armies, s.Terr[to].Armies)
			msg.Text += "\n" + re.v.p.T("voice.reply.odds-line", "From", place(s, from), "A", s.Terr[from].Armies,
				"To", place(s, to), "D", s.Terr[to].Armies, "Odds", re.Odds(odds))
			row = append(row,
				chat.Button{ID: m.ButtonID(button.Attack, from, to), Label: re.v.p.T("voice.button.attack-again", "Count", engine.MaxDice(s.Terr[from].Armies)), Style: chat.Danger},
				chat.Button{ID: m.ButtonID(button.Blitz, from, to), Label: re.v.p.T("voice.button.blitz",
					"To", lang.Text(chat.Trunc(string(re.name(s, to)), 24)), "Pct", fmt.Sprintf("%.0f", 100*odds.Win), "Left", fmt.Sprintf("%.0f", odds.AttackerLeft)), Style: chat.Danger},
				chat.Button{ID: m.ButtonID(button.Stop), Label: re.v.p.T("voice.button.stop"), Style: chat.Secondary},
			)
		}
		row = append(row, chat.Button{ID: m.ButtonID(button.End), Label: re.v.p.T("voice.button.end-turn"), Style: chat.Success})
		msg.Buttons = [][]chat.Button{row}
	}
	return msg
}

// Orders is the reply to a command of a simultaneous round: what was
// ordered, the player's orders so far (theirs alone), and what is left to
// do; or, if the command resolved the round, that it did.
func (re Replies) Orders(m *hosted.Match, seat int, msg chat.Message, resolved bool) chat.Message {
	s := m.Game.State
	if resolved || s.Phase != state.PhaseOrders {
		msg.Buttons = nil
		msg.Text = re.v.p.T("voice.order.round-resolved")
		if s.Phase == state.PhaseOrders {
			msg.Text += re.NextOrders(s, seat)
		}
		return msg
	}
	var b strings.Builder
	b.WriteString(msg.Text)
	mine := s.OrdersOf(seat)
	if len(mine) > 0 && !s.Seats[seat].Ready {
		b.WriteString("\n" + re.v.p.T("voice.order.yours", "N", s.Turn))
		for i, o := range mine {
			fmt.Fprintf(&b, "\n%d. %s", i+1, re.v.Teller().Order(s, o))
		}
	}
	b.WriteString(re.NextOrders(s, seat))
	msg.Text = b.String()
	if !s.Seats[seat].Ready && s.Seats[seat].Reserve == 0 {
		msg.Buttons = [][]chat.Button{{{ID: m.ButtonID(button.Ready, s.Turn), Label: re.v.p.T("voice.button.ready"), Style: chat.Success}}}
	}
	return msg
}

// NextOrders says what seat may do next in a round.
func (re Replies) NextOrders(s *state.State, seat int) string {
	switch {
	case s.Seats[seat].Ready:
		return "\n" + re.v.p.T("voice.order.in", "Readiness", lang.Text(re.v.Status().Readiness(s)))
	case s.Seats[seat].Hand.Len() >= 5:
		return "\n" + re.v.p.T("voice.order.trade-first")
	case s.Seats[seat].Reserve > 0:
		return "\n" + re.v.p.T("voice.order.place-first", "Armies", lang.M("n.armies", "Count", s.Seats[seat].Reserve))
	}
	return "\n" + re.v.p.T("voice.order.what-next")
}
