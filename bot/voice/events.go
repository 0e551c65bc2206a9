package voice

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/assets/lang"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// capitals turns a capitals event into a line for people, or
// reports that it is not one.
func (tl Teller) capitals(s *state.State, e engine.Event) (string, bool) {
	if !hosted.IsCapitals(s) {
		return "", false
	}
	t := func(i int) lang.Place { return lang.Place(s.Map.TerritoryName(i)) }
	who := func(i int) lang.Text { return lang.Text(tl.v.Who(s, i)) }
	troops := func(n int) lang.Msg { return lang.M("n.troops", "Count", n) }
	p := tl.v.p
	switch e := e.(type) {
	case engine.CapitalChosen:
		return p.T("voice.tell.capital-chosen", "Player", who(e.Seat), "Territory", t(e.Territory), "Troops", troops(e.Troops)), true
	case engine.Captured:
		args := []any{"Player", who(e.Seat), "To", t(e.To), "Troops", troops(e.Troops), "From", t(e.From)}
		if !s.Map.Adjacent(e.From, e.To) {
			return p.T("voice.tell.captured-by-sea", args...), true
		}
		return p.T("voice.tell.captured", args...), true
	case engine.Placed:
		if s.Phase == state.PhaseSetup {
			return "", false
		}
		return p.T("voice.tell.sent", "Player", who(e.Seat), "Troops", troops(e.Armies), "Territory", t(e.Territory)), true
	case engine.PortBuilt:
		return p.T("voice.tell.port-built", "Player", who(e.Seat), "Territory", t(e.Territory)), true
	case engine.AttackPlanned:
		args := []any{"Player", who(e.Seat), "Order", e.Order, "From", t(e.From), "To", t(e.To),
			"Attack", state.FormatPower(e.Attack), "Defence", state.FormatPower(e.Defence)}
		switch {
		case tl.v.hidesFrom(s, e.Seat):
			// With fog of war the defence is what the planner sees,
			// which may be more than this audience does.
			return p.T("voice.tell.planned", args...), true
		case s.HasFog() && !s.Sight(e.Seat).Has(e.To):
			return p.T("voice.tell.planned-into-fog", args...), true
		case s.HasFog():
			return p.T("voice.tell.planned-in-sight", args...), true
		}
		return p.T("voice.tell.planned-against", args...), true
	case engine.Struck:
		args := []any{"Order", e.Order, "Player", who(e.Seat), "To", t(e.To), "From", t(e.From),
			"Attack", state.FormatPower(e.Attack), "Defence", state.FormatPower(e.Defence),
			"Luck", FormatLuck(e.Luck), "Killed", troops(e.Damage), "Left", troops(e.Left)}
		if e.Reach == state.BySea {
			return p.T("voice.tell.struck-by-sea", args...), true
		}
		return p.T("voice.tell.struck", args...), true
	case engine.AttackSkipped:
		return p.T("voice.tell.attack-skipped", "Order", e.Order, "From", t(e.From), "To", t(e.To), "Why", e.Why), true
	case engine.CapitalTaken:
		return p.T("voice.tell.capital-taken", "Player", who(e.Seat), "Capital", t(e.Capital), "Defender", who(e.Defender),
			"Name", lang.Text(s.Seats[e.Defender].Name), "Territories", lang.M("n.territories", "Count", e.Territories)), true
	case engine.Moved:
		args := []any{"Player", who(e.Seat), "Troops", troops(e.Troops), "From", t(e.From), "To", t(e.To)}
		if e.Hero {
			return p.T("voice.tell.moved-with-hero", args...), true
		}
		return p.T("voice.tell.moved", args...), true
	case engine.HeroUnlocked:
		return p.T("voice.tell.hero-unlocked", "Player", who(e.Seat), "Territory", t(e.Territory)), true
	case engine.HeroDied:
		return p.T("voice.tell.hero-died", "Player", who(e.Seat), "Territory", t(e.Territory)), true
	case engine.ItemSpawned:
		if e.Kind == state.ItemFat {
			// What the fat bonus does is said where the chat first names
			// it: the name alone tells nobody.
			return p.T("voice.tell.fat-spawned", "Territory", t(e.Territory), "Turns", state.ItemLife, "What", lang.M("voice.tell.fat-what")), true
		}
		return p.T("voice.tell.item-spawned", "Territory", t(e.Territory), "Turns", state.ItemLife), true
	case engine.ItemVanished:
		return p.T("voice.tell.item-vanished", "Territory", t(e.Territory)), true
	case engine.ItemCollected:
		if e.Kind.Kept() {
			// The kind stays secret: its owner reads it with /risk show cards.
			return p.T("voice.tell.item-collected-kept", "Player", who(e.Seat), "Territory", t(e.Territory)), true
		}
		return p.T("voice.tell.item-collected", "Player", who(e.Seat), "Territory", t(e.Territory), "Item", lang.Text(e.Kind.Title())), true
	case engine.ItemUsed:
		return p.T("voice.tell.item-used", "Player", who(e.Seat), "Item", lang.Text(e.Kind.Title())), true
	case engine.TroopsScaled:
		return p.T("voice.tell.troops-scaled", "Player", who(e.Seat), "Percent", fmt.Sprintf("%+d", e.Percent), "Change", fmt.Sprintf("%+d", e.Change)), true
	case engine.TerritoryLost:
		return p.T("voice.tell.territory-lost", "Player", who(e.Seat), "Territory", t(e.Territory)), true
	case engine.Seized:
		return p.T("voice.tell.seized", "Player", who(e.Seat), "Territory", t(e.Territory), "Victim", who(e.Victim), "Troops", troops(e.Troops)), true
	}
	return "", false
}

// FormatLuck writes a luck factor, drawn in thousandths, exactly: "×1.165".
// Rounded to two decimals it read ×1.17 where the damage, rounded down,
// came from 1.165: the shown numbers did not give the shown result.
func FormatLuck(thousandths int) string {
	return fmt.Sprintf("×%d.%03d", thousandths/1000, thousandths%1000)
}

// collectedKept reports whether seat collected a kept item in events: the
// reply tells them to look at it privately.
func collectedKept(events []engine.Event, seat int) bool {
	for _, e := range events {
		if c, ok := e.(engine.ItemCollected); ok && c.Seat == seat && c.Kind.Kept() {
			return true
		}
	}
	return false
}

// Describe turns events into lines for people. Consecutive rolls of one
// attack (a blitz) become one line. Private events (the card drawn) are
// described without the card.
func (tl Teller) Describe(s *state.State, events []engine.Event) []string {
	events = tl.seenOnly(s, events)
	var lines []string
	p := tl.v.p
	t := func(i int) lang.Place { return lang.Place(s.Map.TerritoryName(i)) }
	who := func(i int) lang.Text { return lang.Text(tl.v.Who(s, i)) }
	for i := 0; i < len(events); i++ {
		if line, ok := tl.capitals(s, events[i]); ok {
			lines = append(lines, line)
			continue
		}
		if line, ok := tl.orders(s, events[i]); ok {
			lines = append(lines, line)
			continue
		}
		switch e := events[i].(type) {
		case engine.TurnStarted:
			if hosted.IsCapitals(s) {
				lines = append(lines, p.T("voice.tell.turn-started-capitals", "Turn", e.Turn, "Round", lang.Text(tl.round(s, e.Round)),
					"Player", who(e.Seat), "Troops", lang.M("n.troops", "Count", e.Armies)))
				continue
			}
			lines = append(lines, p.T("voice.tell.turn-started", "Turn", e.Turn, "Round", lang.Text(tl.round(s, e.Round)),
				"Player", who(e.Seat), "Income", lang.Text(tl.income(s, e.Income))))
		case engine.RoundLimit:
			lines = append(lines, tl.roundLimit(s, e.Round))
		case engine.SetupDone:
			if hosted.IsCapitals(s) {
				lines = append(lines, p.T("voice.tell.capitals-chosen"))
				continue
			}
			lines = append(lines, p.T("voice.tell.setup-done"))
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
				args := []any{"Player", who(e.Seat), "Armies", total, "Territories", len(order)}
				if tl.seenPart(s, e.Seat) {
					lines = append(lines, p.T("voice.tell.placed-many-seen", args...))
					break
				}
				lines = append(lines, p.T("voice.tell.placed-many", args...))
				break
			}
			parts := make([]string, len(order))
			for k, terr := range order {
				parts[k] = p.T("voice.tell.placed-part", "Armies", armies[terr], "Territory", t(terr))
			}
			lines = append(lines, p.T("voice.tell.placed", "Player", who(e.Seat), "Parts", lang.Text(strings.Join(parts, ", "))))
		case engine.Traded:
			args := []any{"Player", who(e.Seat), "Cards", lang.Text(tl.Cards(s.Map, e.Cards[:])), "Armies", e.Armies}
			if e.Bonus > 0 {
				lines = append(lines, p.T("voice.tell.traded-bonus", append(args, "Bonus", e.Bonus, "Territory", t(e.BonusTerritory))...))
				break
			}
			lines = append(lines, p.T("voice.tell.traded", args...))
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
			lines = append(lines, tl.battle(s, rolls))
		case engine.Conquered:
			lines = append(lines, p.T("voice.tell.conquered", "Player", who(e.Seat), "To", t(e.To), "Defender", who(e.Defender)))
		case engine.Occupied:
			lines = append(lines, p.T("voice.tell.occupied", "Player", who(e.Seat), "Armies", e.Armies, "To", t(e.To)))
		case engine.Fortified:
			lines = append(lines, p.T("voice.tell.fortified", "Player", who(e.Seat), "Armies", e.Armies, "From", t(e.From), "To", t(e.To)))
		case engine.CardDrawn:
			lines = append(lines, p.T("voice.tell.card-drawn", "Player", who(e.Seat), "Hand", s.HandSize(e.Seat)))
		case engine.Discarded:
			lines = append(lines, p.T("voice.tell.discarded", "Player", who(e.Seat), "Card", lang.Text(tl.card(s.Map, e.Card))))
		case engine.Reshuffled:
			lines = append(lines, p.T("voice.tell.reshuffled", "Count", e.Cards))
		case engine.Eliminated:
			if e.Cards > 0 {
				lines = append(lines, p.T("voice.tell.eliminated-cards", "Player", who(e.Seat), "By", who(e.By), "Cards", lang.M("n.cards", "Count", e.Cards)))
				break
			}
			lines = append(lines, p.T("voice.tell.eliminated", "Player", who(e.Seat), "By", who(e.By)))
		case engine.Surrendered:
			lines = append(lines, p.T("voice.tell.surrendered", "Player", who(e.Seat)))
		case engine.MissionFulfilled:
			// The match is over: the mission is no secret any more.
			lines = append(lines, p.T("voice.tell.mission-fulfilled", "Player", who(e.Seat), "Mission", lang.Text(tl.v.Missions().Text(s, e.Seat))))
		case engine.Won:
			if e.Team != 0 {
				lines = append(lines, p.T("voice.tell.won", "Winner", lang.Text(tl.v.Lobby().TeamName(s, e.Team))))
				break
			}
			lines = append(lines, p.T("voice.tell.won", "Winner", who(e.Seat)))
		case engine.Undone:
			lines = append(lines, p.T("voice.tell.undone", "Player", who(e.Seat), "Command", engine.DescribeMsg(s.Map, e.Command)))
		case engine.RolledBack:
			lines = append(lines, tl.rolledBack(s, e))
		}
	}
	return lines
}

// round places a turn of round in a match with a round limit:
// " (round 3 of 20)", " (last round)"; nothing without a limit.
func (tl Teller) round(s *state.State, round int) string {
	switch limit := s.Options.Rounds; {
	case limit <= 0 || round <= 0:
		return ""
	case round >= limit:
		return tl.v.p.T("voice.tell.last-round")
	default:
		return tl.v.p.T("voice.tell.round-of", "Round", round, "Limit", limit)
	}
}

// roundLimit tells the end of a match at its round limit, with the
// standings that decided it.
func (tl Teller) roundLimit(s *state.State, round int) string {
	var seats []int
	for i := range s.Seats {
		if s.Seats[i].Alive() {
			seats = append(seats, i)
		}
	}
	// The order of engine.RoundLimitWinner: territories, armies, later seat.
	slices.SortFunc(seats, func(a, b int) int {
		return cmp.Or(cmp.Compare(s.Owned(b), s.Owned(a)), cmp.Compare(s.Armies(b), s.Armies(a)), cmp.Compare(b, a))
	})
	capitals := hosted.IsCapitals(s)
	var standings []string
	for _, i := range seats {
		// "1 armies": the count is the unit's, as it always read.
		args := []any{"Player", lang.Text(tl.v.Who(s, i)), "Territories", lang.M("n.territories", "Count", s.Owned(i)), "Armies", s.Armies(i)}
		if capitals {
			standings = append(standings, tl.v.p.T("voice.tell.standing-capitals", args...))
			continue
		}
		standings = append(standings, tl.v.p.T("voice.tell.standing", args...))
	}
	if capitals {
		return tl.v.p.T("voice.tell.round-limit-capitals", "Round", round, "Standings", lang.Text(strings.Join(standings, tl.v.p.T("voice.tell.semicolon"))))
	}
	return tl.v.p.T("voice.tell.round-limit", "Round", round, "Standings", lang.Text(strings.Join(standings, tl.v.p.T("voice.tell.semicolon"))))
}

// battle describes one attack, of one roll or many.
func (tl Teller) battle(s *state.State, rolls []engine.Rolled) string {
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
	args := []any{"Player", lang.Text(tl.v.Who(s, first.Seat)), "Rolls", len(rolls),
		"To", lang.Place(s.Map.TerritoryName(first.To)), "From", lang.Place(s.Map.TerritoryName(first.From)),
		"Dice", strings.Join(dice, " · "), "Attacker", lang.Text(s.Seats[last.Seat].Name), "LostA", lostA,
		"Defender", lang.Text(tl.defender(s, first.Defender)), "LostD", lostD}
	if len(rolls) > 1 {
		return tl.v.p.T("voice.tell.blitzed", args...)
	}
	return tl.v.p.T("voice.tell.attacked", args...)
}

func (tl Teller) defender(s *state.State, seat int) string {
	if seat < 0 {
		return tl.v.p.T("voice.tell.neutral")
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

// income words an income: "5 armies (3 for territories, 2 for
// Australia)".
func (tl Teller) income(s *state.State, in state.Income) string {
	if len(in.Continents) == 0 {
		return tl.v.p.N("n.armies", in.Total)
	}
	parts := []string{tl.v.p.T("voice.tell.income-territories", "Armies", in.Territories)}
	for _, c := range in.Continents {
		parts = append(parts, tl.v.p.T("voice.tell.income-continent", "Armies", s.Map.Continents[c].Bonus, "Continent", lang.Place(s.Map.Continents[c].Name)))
	}
	return tl.v.p.T("voice.tell.income", "Armies", lang.M("n.armies", "Count", in.Total), "Parts", lang.Text(strings.Join(parts, ", ")))
}

// card names a card in v's language: "Alaska (infantry)", "wild".
func (tl Teller) card(m *state.Map, c state.Card) string {
	t, ok := m.CardTerritory(c)
	if !ok {
		return tl.v.p.T("voice.tell.card.wild")
	}
	kind := lang.M("voice.tell.card.infantry")
	switch m.CardKind(c) {
	case state.Cavalry:
		kind = lang.M("voice.tell.card.cavalry")
	case state.Artillery:
		kind = lang.M("voice.tell.card.artillery")
	}
	return tl.v.p.T("voice.tell.card", "Territory", tl.v.p.PlaceName(m.Territories[t].Name), "Kind", kind)
}

// Cards names cards in the voice's language: "Alaska, Peru, wild".
func (tl Teller) Cards(m *state.Map, cards []state.Card) string {
	names := make([]string, len(cards))
	for i, c := range cards {
		names[i] = tl.card(m, c)
	}
	return strings.Join(names, ", ")
}

// orders turns an event of a simultaneous round into a line for
// people, or reports that it is not one.
func (tl Teller) orders(s *state.State, e engine.Event) (string, bool) {
	if !IsSimultaneous(s) {
		return "", false
	}
	who := func(seat int) lang.Text { return lang.Text(tl.v.Who(s, seat)) }
	switch e := e.(type) {
	case engine.Ordered:
		return tl.v.p.T("voice.order.ordered", "Order", lang.Text(tl.Order(s, e.Order))), true
	case engine.Unordered:
		return tl.v.p.T("voice.order.taken-back", "Order", lang.Text(tl.Order(s, e.Order))), true
	case engine.Committed:
		return tl.v.p.T("voice.order.committed", "Player", who(e.Seat), "N", e.Round), true
	case engine.RoundResolved:
		names := make([]string, len(e.Order))
		for i, seat := range e.Order {
			names[i] = tl.v.Who(s, seat)
		}
		return tl.v.p.T("voice.order.resolved", "N", e.Round, "Players", lang.Text(strings.Join(names, ", "))), true
	case engine.RoundStarted:
		return tl.v.p.T("voice.order.round-started", "N", e.Round, "Note", lang.Text(tl.round(s, e.Round))), true
	case engine.TurnStarted:
		return tl.v.p.T("voice.order.receives", "Player", who(e.Seat), "Income", lang.Text(tl.income(s, e.Income))), true
	case engine.OrderSkipped:
		var why lang.Msg
		switch e.Why {
		case engine.SkipSourceLost:
			why = lang.M("voice.order.why-lost", "Place", place(s, e.Order.From))
		case engine.SkipNoArmies:
			why = lang.M("voice.order.why-no-armies", "Place", place(s, e.Order.From))
		case engine.SkipTargetLost:
			why = lang.M("voice.order.why-lost", "Place", place(s, e.Order.To))
		}
		return tl.v.p.T("voice.order.skipped", "Player", who(e.Seat), "Order", lang.Text(tl.Order(s, e.Order)), "Why", why), true
	case engine.Transferred:
		taken := ""
		if e.Attack {
			taken = tl.v.p.T("voice.order.found-taken")
		}
		return tl.v.p.T("voice.order.transferred", "Player", who(e.Seat), "Armies", lang.M("n.armies", "Count", e.Armies),
			"From", place(s, e.From), "To", place(s, e.To), "Taken", taken), true
	}
	return "", false
}

// Order says what an order does: "5 from Alaska attack Kamchatka".
func (tl Teller) Order(s *state.State, o state.Order) string {
	switch o.Kind {
	case state.OrderPlace:
		if o.Bonus {
			return tl.v.p.T("voice.order.place-bonus", "Count", o.Armies, "To", place(s, o.To))
		}
		return tl.v.p.T("voice.order.place", "Count", o.Armies, "To", place(s, o.To))
	case state.OrderAttack:
		return tl.v.p.T("voice.order.attack", "Count", o.Armies, "From", place(s, o.From), "To", place(s, o.To))
	}
	return tl.v.p.T("voice.order.move", "Count", o.Armies, "From", place(s, o.From), "To", place(s, o.To))
}

// rolledBack ends the record of the turn a rollback left.
func (tl Teller) rolledBack(s *state.State, e engine.RolledBack) string {
	return tl.v.p.T("voice.rollback.line", "Turn", turnN(s, e.Turn), "Commands", lang.M("n.commands", "Count", e.Undone))
}

// again opens the record of the turn a rollback went back to.
func (tl Teller) again(s *state.State, e engine.RolledBack) string {
	switch {
	case e.Seat >= 0 && tl.v.hidesFrom(s, e.Seat):
		// With fog of war a reserve tells the continents held.
		return tl.v.p.T("voice.rollback.again-to-play", "N", e.Turn, "Player", lang.Text(tl.v.Who(s, e.Seat)))
	case e.Seat < 0:
		return tl.v.p.T("voice.rollback.again-round", "N", e.Turn)
	case hosted.IsCapitals(s):
		return tl.v.p.T("voice.rollback.again-send", "N", e.Turn, "Player", lang.Text(tl.v.Who(s, e.Seat)), "Troops", lang.M("n.troops", "Count", e.Armies))
	}
	return tl.v.p.T("voice.rollback.again-place", "N", e.Turn, "Player", lang.Text(tl.v.Who(s, e.Seat)), "Armies", lang.M("n.armies", "Count", e.Armies))
}

// seenOnly keeps the events v's audience saw: its own, those against it,
// and those whose territories it sees; what every player learns (cards
// drawn, eliminations, the end) stays.
func (tl Teller) seenOnly(s *state.State, events []engine.Event) []engine.Event {
	if !tl.v.Hides(s) {
		return events
	}
	sight := tl.sight(s)
	me := tl.v.to.seat
	in := func(ts ...int) bool {
		for _, t := range ts {
			if t < 0 || t >= len(s.Terr) || !sight.Has(t) {
				return false
			}
		}
		return true
	}
	// A round's placements are made before its attacks: they are judged
	// by what was seen then, not once the round's conquests (and the
	// eliminations that widen what everyone sees) have moved the fog.
	placed := in
	if before, ok := placementsState(s, events); ok {
		at := tl.sight(before)
		placed = func(ts ...int) bool {
			for _, t := range ts {
				if t < 0 || t >= len(s.Terr) || !at.Has(t) {
					return false
				}
			}
			return true
		}
	}
	var out []engine.Event
	for _, e := range events {
		var ok bool
		switch e := e.(type) {
		case engine.Placed:
			ok = e.Seat == me || placed(e.Territory)
		case engine.TurnStarted:
			ok = e.Seat == me
		case engine.Traded:
			ok = e.Seat == me
		case engine.Rolled:
			ok = e.Seat == me || e.Defender == me || in(e.From, e.To)
		case engine.Conquered:
			ok = e.Seat == me || e.Defender == me || in(e.From, e.To)
		case engine.Occupied:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Fortified:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Transferred:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Undone, engine.Ordered, engine.Unordered, engine.OrderSkipped, engine.ItemUsed:
			ok = seatOf(e) == me
		case engine.Captured:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.PortBuilt:
			ok = e.Seat == me || in(e.Territory)
		case engine.AttackPlanned:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Struck:
			ok = e.Seat == me || e.Defender == me || in(e.From, e.To)
		case engine.AttackSkipped:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.Moved:
			ok = e.Seat == me || in(e.From, e.To)
		case engine.HeroUnlocked:
			ok = e.Seat == me || in(e.Territory)
		case engine.HeroDied:
			ok = e.Seat == me || in(e.Territory)
		case engine.ItemSpawned:
			ok = in(e.Territory)
		case engine.ItemVanished:
			ok = in(e.Territory)
		case engine.ItemCollected:
			ok = e.Seat == me || in(e.Territory)
		case engine.TerritoryLost:
			ok = e.Seat == me || in(e.Territory)
		case engine.Seized:
			ok = e.Seat == me || e.Victim == me || in(e.Territory)
		case engine.CardDrawn, engine.Discarded, engine.Reshuffled, engine.Eliminated, engine.Surrendered, engine.Won,
			engine.SetupDone, engine.CapitalChosen, engine.CapitalTaken, engine.TroopsScaled,
			engine.Committed, engine.RoundResolved, engine.RoundStarted, engine.RoundLimit, engine.RolledBack:
			// What every player learns: hand sizes, who is out, who is
			// ready, the end; capitals are chosen in the open.
			ok = true
		}
		if ok {
			out = append(out, e)
		}
	}
	return out
}

// seenPart reports whether a count of what seat did is told to a player
// in the fog who sees only part of it: "… you see". (The player's own
// counts are whole; what the channel is told is for the public voice to
// say.)
func (tl Teller) seenPart(s *state.State, seat int) bool {
	return tl.v.Hides(s) && tl.v.to.seat >= 0 && seat != tl.v.to.seat
}

// sight is what v's audience sees of s.
func (tl Teller) sight(s *state.State) state.Sight {
	if i := tl.v.to.seat; i >= 0 && i < len(s.Seats) && s.Seats[i].Alive() {
		return s.Sight(i)
	}
	return s.PublicSight()
}

// Teller tells the events of a match as lines: a command's, a turn's, a
// whole record's retold, each as its audience saw it.
type Teller struct{ v Voice }

// Teller is v telling events.
func (v Voice) Teller() Teller { return Teller{v} }
