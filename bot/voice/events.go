package voice

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/riskbot/riskbot/bot/chat"
	"github.com/riskbot/riskbot/bot/hosted"
	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// describeCapitals turns a capitals event into a line for people, or
// reports that it is not one.
func (v Voice) describeCapitals(s *state.State, e engine.Event) (string, bool) {
	if !hosted.IsCapitals(s) {
		return "", false
	}
	t := s.Map.TerritoryName
	switch e := e.(type) {
	case engine.CapitalChosen:
		return fmt.Sprintf("👑 %s chose %s as capital (%s)", v.Who(s, e.Seat), t(e.Territory), chat.Plural(e.Troops, "troop", "troops")), true
	case engine.Captured:
		how := "next to"
		if !s.Map.Adjacent(e.From, e.To) {
			how = "by sea from"
		}
		return fmt.Sprintf("🏳️ %s captured %s and its %s (%s %s)", v.Who(s, e.Seat), t(e.To), chat.Plural(e.Troops, "troop", "troops"), how, t(e.From)), true
	case engine.Placed:
		if s.Phase == state.PhaseSetup {
			return "", false
		}
		return fmt.Sprintf("➕ %s sent %s to %s", v.Who(s, e.Seat), chat.Plural(e.Armies, "troop", "troops"), t(e.Territory)), true
	case engine.PortBuilt:
		return fmt.Sprintf("⚓ %s built a port on %s", v.Who(s, e.Seat), t(e.Territory)), true
	case engine.AttackPlanned:
		switch {
		case v.hidesFrom(s, e.Seat):
			// With fog of war the defence is what the planner sees,
			// which may be more than this audience does.
			return fmt.Sprintf("🎯 %s planned attack %d: %s → %s", v.Who(s, e.Seat), e.Order, t(e.From), t(e.To)), true
		case s.HasFog() && !s.Sight(e.Seat).Has(e.To):
			return fmt.Sprintf("🎯 %s planned attack %d: %s → %s (total %s, into the fog)", v.Who(s, e.Seat), e.Order, t(e.From), t(e.To),
				state.FormatPower(e.Attack)), true
		case s.HasFog():
			return fmt.Sprintf("🎯 %s planned attack %d: %s → %s (total %s against %s in sight)", v.Who(s, e.Seat), e.Order, t(e.From), t(e.To),
				state.FormatPower(e.Attack), state.FormatPower(e.Defence)), true
		}
		return fmt.Sprintf("🎯 %s planned attack %d: %s → %s (total %s against %s)", v.Who(s, e.Seat), e.Order, t(e.From), t(e.To),
			state.FormatPower(e.Attack), state.FormatPower(e.Defence)), true
	case engine.Struck:
		sea := ""
		if e.Reach == state.BySea {
			sea = " by sea"
		}
		return fmt.Sprintf("⚔️ %d. %s struck %s%s from %s: %s against %s, luck %s: %s killed, %s left",
			e.Order, v.Who(s, e.Seat), t(e.To), sea, t(e.From), state.FormatPower(e.Attack), state.FormatPower(e.Defence),
			FormatLuck(e.Luck), chat.Plural(e.Damage, "troop", "troops"), chat.Plural(e.Left, "troop", "troops")), true
	case engine.AttackSkipped:
		return fmt.Sprintf("⏭️ %d. %s → %s skipped: %s", e.Order, t(e.From), t(e.To), e.Why), true
	case engine.CapitalTaken:
		return fmt.Sprintf("👑 %s took %s, the capital of %s, and with it all %s had (%s)", v.Who(s, e.Seat), t(e.Capital), v.Who(s, e.Defender),
			s.Seats[e.Defender].Name, chat.Plural(e.Territories, "territory", "territories")), true
	case engine.Moved:
		hero := ""
		if e.Hero {
			hero = " with the hero"
		}
		return fmt.Sprintf("🚚 %s moved %s from %s to %s%s", v.Who(s, e.Seat), chat.Plural(e.Troops, "troop", "troops"), t(e.From), t(e.To), hero), true
	case engine.HeroUnlocked:
		return fmt.Sprintf("🦸 %s holds 4 terrains: a hero appears on %s", v.Who(s, e.Seat), t(e.Territory)), true
	case engine.HeroDied:
		return fmt.Sprintf("💀 The hero of %s fell on %s: every one of their territories loses half its troops", v.Who(s, e.Seat), t(e.Territory)), true
	case engine.ItemSpawned:
		if e.Kind == state.ItemFat {
			return fmt.Sprintf("🎁 The fat bonus appeared on %s (it waits %d turns): %s", t(e.Territory), state.ItemLife, fatWhat), true
		}
		return fmt.Sprintf("🎁 An item appeared on %s (it waits %d turns)", t(e.Territory), state.ItemLife), true
	case engine.ItemVanished:
		return fmt.Sprintf("💨 The item on %s vanished", t(e.Territory)), true
	case engine.ItemCollected:
		if e.Kind.Kept() {
			// The kind stays secret: its owner reads it with /risk show cards.
			return fmt.Sprintf("🎁 %s collected the item on %s", v.Who(s, e.Seat), t(e.Territory)), true
		}
		return fmt.Sprintf("🎁 %s collected the item on %s: %s!", v.Who(s, e.Seat), t(e.Territory), e.Kind.Title()), true
	case engine.ItemUsed:
		return fmt.Sprintf("✨ %s used an item: %s", v.Who(s, e.Seat), e.Kind.Title()), true
	case engine.TroopsScaled:
		return fmt.Sprintf("📈 The troops of %s changed by %+d%% on every territory (%+d)", v.Who(s, e.Seat), e.Percent, e.Change), true
	case engine.TerritoryLost:
		return fmt.Sprintf("🏚️ %s lost %s: it is neutral now", v.Who(s, e.Seat), t(e.Territory)), true
	case engine.Seized:
		return fmt.Sprintf("🍖 %s seized %s from %s, with %s", v.Who(s, e.Seat), t(e.Territory), v.Who(s, e.Victim), chat.Plural(e.Troops, "troop", "troops")), true
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
func (v Voice) Describe(s *state.State, events []engine.Event) []string {
	events = v.seenOnly(s, events)
	var lines []string
	t := s.Map.TerritoryName
	for i := 0; i < len(events); i++ {
		if line, ok := v.describeCapitals(s, events[i]); ok {
			lines = append(lines, line)
			continue
		}
		if line, ok := v.describeOrders(s, events[i]); ok {
			lines = append(lines, line)
			continue
		}
		switch e := events[i].(type) {
		case engine.TurnStarted:
			if hosted.IsCapitals(s) {
				lines = append(lines, fmt.Sprintf("⏩ Turn %d%s: %s receives %s (3 for each territory)", e.Turn, roundNote(s, e.Round), v.Who(s, e.Seat), chat.Plural(e.Armies, "troop", "troops")))
				continue
			}
			lines = append(lines, fmt.Sprintf("⏩ Turn %d%s: %s receives %s", e.Turn, roundNote(s, e.Round), v.Who(s, e.Seat), incomeText(s, e.Income)))
		case engine.RoundLimit:
			lines = append(lines, v.roundLimitLine(s, e.Round))
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
				lines = append(lines, fmt.Sprintf("➕ %s placed %d armies on %d territories%s", v.Who(s, e.Seat), total, len(order), v.seenPart(s, e.Seat)))
				break
			}
			parts := make([]string, len(order))
			for k, terr := range order {
				parts[k] = fmt.Sprintf("%d on %s", armies[terr], t(terr))
			}
			lines = append(lines, fmt.Sprintf("➕ %s placed %s", v.Who(s, e.Seat), strings.Join(parts, ", ")))
		case engine.Traded:
			bonus := ""
			if e.Bonus > 0 {
				bonus = fmt.Sprintf(" (+%d on %s)", e.Bonus, t(e.BonusTerritory))
			}
			lines = append(lines, fmt.Sprintf("🃏 %s traded %s for %d armies%s", v.Who(s, e.Seat), CardList(s.Map, e.Cards[:]), e.Armies, bonus))
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
			lines = append(lines, fmt.Sprintf("🚩 %s took %s from %s", v.Who(s, e.Seat), t(e.To), v.Who(s, e.Defender)))
		case engine.Occupied:
			lines = append(lines, fmt.Sprintf("🚶 %s moved %d into %s", v.Who(s, e.Seat), e.Armies, t(e.To)))
		case engine.Fortified:
			lines = append(lines, fmt.Sprintf("🚚 %s moved %d from %s to %s", v.Who(s, e.Seat), e.Armies, t(e.From), t(e.To)))
		case engine.CardDrawn:
			lines = append(lines, fmt.Sprintf("🂠 %s drew a card (%d in hand)", v.Who(s, e.Seat), s.HandSize(e.Seat)))
		case engine.Discarded:
			lines = append(lines, fmt.Sprintf("🗑️ %s discarded %s", v.Who(s, e.Seat), s.Map.CardName(e.Card)))
		case engine.Reshuffled:
			lines = append(lines, fmt.Sprintf("🔀 The %d discarded cards were shuffled into a new deck", e.Cards))
		case engine.Eliminated:
			cards := ""
			if e.Cards > 0 {
				cards = fmt.Sprintf(" and takes %s", chat.Plural(e.Cards, "card", "cards"))
			}
			lines = append(lines, fmt.Sprintf("☠️ %s is eliminated by %s%s", v.Who(s, e.Seat), v.Who(s, e.By), cards))
		case engine.Surrendered:
			lines = append(lines, fmt.Sprintf("🏳️ %s surrendered; their territories are neutral now", v.Who(s, e.Seat)))
		case engine.MissionFulfilled:
			// The match is over: the mission is no secret any more.
			lines = append(lines, fmt.Sprintf("🎯 %s fulfilled their secret mission: %s", v.Who(s, e.Seat), v.MissionText(s, e.Seat)))
		case engine.Won:
			if e.Team != 0 {
				lines = append(lines, fmt.Sprintf("🏆 **%s wins the match!**", v.TeamName(s, e.Team)))
				break
			}
			lines = append(lines, fmt.Sprintf("🏆 **%s wins the match!**", v.Who(s, e.Seat)))
		case engine.Undone:
			lines = append(lines, fmt.Sprintf("↩️ %s took back: %s", v.Who(s, e.Seat), engine.Describe(s.Map, e.Command)))
		case engine.RolledBack:
			lines = append(lines, v.rolledBackLine(s, e))
		}
	}
	return lines
}

// roundNote places a turn of round in a match with a round limit:
// " (round 3 of 20)", " (last round)"; nothing without a limit.
func roundNote(s *state.State, round int) string {
	switch limit := s.Options.Rounds; {
	case limit <= 0 || round <= 0:
		return ""
	case round >= limit:
		return " (last round)"
	default:
		return fmt.Sprintf(" (round %d of %d)", round, limit)
	}
}

// roundLimitLine tells the end of a match at its round limit, with the
// standings that decided it.
func (v Voice) roundLimitLine(s *state.State, round int) string {
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
	unit := "armies"
	if hosted.IsCapitals(s) {
		unit = "troops"
	}
	var standings []string
	for _, i := range seats {
		standings = append(standings, fmt.Sprintf("%s %s and %d %s", v.Who(s, i), chat.Plural(s.Owned(i), "territory", "territories"), s.Armies(i), unit))
	}
	return fmt.Sprintf("⏱️ Round %d, the last, is over: the most territories wins (then the most %s). %s", round, unit, strings.Join(standings, "; "))
}

// battleLine describes one attack, of one roll or many.
func (v Voice) battleLine(s *state.State, rolls []engine.Rolled) string {
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
		v.Who(s, first.Seat), how, s.Map.TerritoryName(first.To), s.Map.TerritoryName(first.From),
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
