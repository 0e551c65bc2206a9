package bot

import (
	"context"
	"fmt"
	"strings"

	"github.com/riskbot/riskbot/bot/hosted"

	"github.com/riskbot/riskbot/bot/command"

	"github.com/riskbot/riskbot/bot/chat"

	"github.com/riskbot/riskbot/engine"
	"github.com/riskbot/riskbot/state"
)

// The capitals rule set in chat. It reuses the classic subcommands where
// the meaning is the same: place (the capital, then each turn's
// reinforcements), attack (a neutral target is captured, an enemy one is
// planned), fortify (the turn's move, by quarters), end (pass), surrender
// (abandon) and cards (the item); port and launch are its own.

// capitalsPlace chooses the capital during the setup, and sends the
// reinforcements during a turn.
func (b *Bot) capitalsPlace(ctx context.Context, c *call, m *hosted.Match, seat int) (result, error) {
	s := m.Game.State
	q, named := c.args.Str["territory"]
	if s.Phase == state.PhaseSetup {
		if !named || strings.TrimSpace(q) == "" {
			return result{}, chat.Refuse("Choose your capital: /risk place territory:NAME (the list offers the free territories).")
		}
		if c.args.Has("armies") {
			return result{}, chat.Refuse("A capital starts with %s: leave out armies.", chat.Plural(s.Options.CapitalTroops, "troop", "troops"))
		}
		t, err := command.Territory(s, "territory", q)
		if err != nil {
			return result{}, err
		}
		return b.act(ctx, m, seat, b.replyNext(m, seat), engine.Capital{Territory: t})
	}
	if !named || strings.TrimSpace(q) == "" {
		return result{}, chat.Refuse("Name the territory that gets your reinforcements: /risk place territory:NAME.")
	}
	t, err := command.Territory(s, "territory", q)
	if err != nil {
		return result{}, err
	}
	if n, ok := c.args.Num["armies"]; ok && n != s.Seats[seat].Reserve && s.Phase == state.PhaseReinforce && s.Current == seat {
		return result{}, chat.Refuse("In a capitals match all your reinforcements (%s) go to one territory: leave out armies.",
			chat.Plural(s.Seats[seat].Reserve, "troop", "troops"))
	}
	return b.act(ctx, m, seat, b.replyNext(m, seat), engine.Reinforce{Territory: t})
}

// capitalsAttack captures a neutral territory or plans an attack on an
// enemy one.
func (b *Bot) capitalsAttack(ctx context.Context, c *call, m *hosted.Match, seat int) (result, error) {
	s := m.Game.State
	for _, o := range []string{"dice", "until"} {
		if c.args.Has(o) {
			return result{}, chat.Refuse("A capitals match rolls no dice: %s does nothing here. Plan attacks with /risk attack from:… to:…, then /risk launch.", o)
		}
	}
	from, to, err := fromTo(c, s)
	if err != nil {
		return result{}, err
	}
	if s.Terr[to].Owner == state.Neutral {
		return b.act(ctx, m, seat, b.replyNext(m, seat), engine.Capture{From: from, To: to})
	}
	return b.act(ctx, m, seat, func(out outcome) chat.Message { return b.planReply(m, seat, out) }, engine.Plan{From: from, To: to})
}

// planReply lists the plan, each attack with its total against the
// defence as they stand, and offers the launch.
func (b *Bot) planReply(m *hosted.Match, seat int, out outcome) chat.Message {
	s := m.Game.State
	text := fitLines(out.lines, 800) + "\n" + planText(s)
	text += "\nLaunch them in this order with /risk launch (or the button); plan more with /risk attack; /risk undo takes the last one back."
	n := int(s.Cap.NPlan)
	return chat.Message{Text: text, Buttons: [][]chat.Button{{
		{ID: m.ButtonID("launch"), Label: fmt.Sprintf("Launch %s", chat.Plural(n, "attack", "attacks")), Style: chat.Danger},
		{ID: m.ButtonID("end"), Label: "Pass", Style: chat.Secondary},
	}}}
}

// planText lists the turn's planned attacks with their totals now.
func planText(s *state.State) string {
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
		switch {
		case lo >= troops:
			outlook = fmt.Sprintf("takes it for sure (kills at least %d of its %d)", lo, troops)
		case hi >= troops:
			outlook = fmt.Sprintf("takes it with luck (kills %d to %d of its %d)", lo, hi, troops)
		}
		lines = append(lines, fmt.Sprintf("%d. %s → %s: total %s against %s%s; %s",
			i+1, s.Map.TerritoryName(from), s.Map.TerritoryName(to), state.FormatPower(a.Total), state.FormatPower(d), sea, outlook))
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

func cmdLaunch(ctx context.Context, c *call, m *hosted.Match, seat int) (result, error) {
	b := c.bot
	if !hosted.IsCapitals(m.Game.State) {
		return result{}, chat.Refuse("/risk launch is for capitals matches; in classic attacks roll at once with /risk attack.")
	}
	return b.act(ctx, m, seat, b.replyNext(m, seat), engine.Launch{})
}

func cmdPort(ctx context.Context, c *call, m *hosted.Match, seat int) (result, error) {
	b := c.bot
	s := m.Game.State
	if !hosted.IsCapitals(s) {
		return result{}, chat.Refuse("/risk port is for capitals matches: the classic map's sea routes are open to all.")
	}
	t, err := command.Territory(s, "territory", c.args.Str["territory"])
	if err != nil {
		return result{}, err
	}
	return b.act(ctx, m, seat, b.replyNext(m, seat), engine.BuildPort{Territory: t})
}

// ratios are the move's shares, by quarters.
var ratioNames = [5]string{"", "1/4", "1/2", "3/4", "all"}

func parseRatio(v string) int {
	for q, n := range ratioNames {
		if q > 0 && n == v {
			return q
		}
	}
	return 0
}

// capitalsMove is the turn's move: with a ratio it moves at once; without
// one it offers the four shares as buttons, the remembered one first.
func (b *Bot) capitalsMove(ctx context.Context, c *call, m *hosted.Match, seat int) (result, error) {
	s := m.Game.State
	if c.args.Has("armies") {
		return result{}, chat.Refuse("In a capitals match troops move by quarters: ratio:1/4, 1/2, 3/4 or all (leave out armies).")
	}
	from, to, err := fromTo(c, s)
	if err != nil {
		return result{}, err
	}
	q, hero := s.MoveDefault(seat)
	if v, ok := c.args.Str["hero"]; ok {
		hero = v == "yes"
	}
	if s.Hero(seat) != from {
		if c.args.Str["hero"] == "yes" {
			if s.Hero(seat) < 0 {
				return result{}, chat.Refuse("You have no hero (it comes when you hold territories of 4 terrains).")
			}
			return result{}, chat.Refuse("Your hero is on %s, not %s.", s.Map.TerritoryName(s.Hero(seat)), s.Map.TerritoryName(from))
		}
		hero = false
	}
	if v, ok := c.args.Str["ratio"]; ok {
		return b.move(ctx, m, seat, engine.Move{From: from, To: to, Quarters: parseRatio(v), Hero: hero})
	}
	// Check the move as a whole (all of it, with the hero if it is there)
	// before offering its shares.
	if _, err := engine.Apply(s.Clone(), seat, engine.Move{From: from, To: to, Quarters: 4, Hero: s.Hero(seat) == from}); err != nil {
		if re, ok := engine.IsRule(err); ok {
			return result{}, chat.Refuse("%s.", chat.Capitalize(re.Msg))
		}
		return result{}, err
	}
	return result{reply: b.moveChoice(m, seat, from, to, q, hero)}, nil
}

// moveChoice offers the move's shares as buttons: a row without the hero
// and, where the hero stands, one with it; the remembered choice stands out.
func (b *Bot) moveChoice(m *hosted.Match, seat, from, to, defQ int, defHero bool) chat.Message {
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
			label := fmt.Sprintf("%s (%d)", ratioNames[q], n)
			if hero {
				label += " + hero"
			}
			style := chat.Secondary
			if q == defQ && hero == defHero {
				style = chat.Primary
			}
			h := 0
			if hero {
				h = 1
			}
			row = append(row, chat.Button{ID: m.ButtonID("move", from, to, q, h), Label: label, Style: style})
		}
		if len(row) > 0 {
			rows = append(rows, row)
		}
	}
	return chat.Message{Private: true, Buttons: rows, Text: fmt.Sprintf("Move from %s (%s) to %s: how much? Your last choice is highlighted; one troop stays unless all go.",
		s.Map.TerritoryName(from), chat.Plural(armies, "troop", "troops"), s.Map.TerritoryName(to))}
}

// move applies the turn's move.
func (b *Bot) move(ctx context.Context, m *hosted.Match, seat int, mv engine.Move) (result, error) {
	return b.act(ctx, m, seat, func(out outcome) chat.Message {
		msg := chat.Message{Text: fitLines(out.lines, 1600) + b.nextStep(m, seat)}
		if m.Game.State.Phase == state.PhaseMove && m.Game.State.Current == seat {
			msg.Buttons = [][]chat.Button{{{ID: m.ButtonID("end"), Label: "End turn", Style: chat.Success}}}
		}
		return msg
	}, mv)
}

// capitalsCards shows the player's item, privately, and uses it on request.
func (b *Bot) capitalsCards(ctx context.Context, c *call, m *hosted.Match, seat int) (result, error) {
	s := m.Game.State
	it := s.Seats[seat].Capitals.Item
	if c.args.Has("use") {
		if !it.Kept() {
			return result{}, chat.Refuse("You hold no item to use.")
		}
		return b.act(ctx, m, seat, func(out outcome) chat.Message {
			return chat.Message{Text: fitLines(out.lines, 1600) + "\n" + itemEffect(it) + b.nextStep(m, seat)}
		}, engine.UseItem{})
	}
	if !it.Kept() {
		return result{reply: chat.Private("You hold no item. Items appear at the start of turns on neutral territories and fortresses; take the territory to collect one (a fortress's owner collects it at once).")}, nil
	}
	msg := chat.Message{Private: true, Text: fmt.Sprintf("Your item (only you see it): **%s** — %s. Using it puts it in effect for the rest of your turn; use it before the action it helps, or it is wasted.",
		it.Title(), itemWhat(it))}
	if s.Current == seat && s.Phase != state.PhaseSetup && s.Phase != state.PhaseOver {
		msg.Buttons = [][]chat.Button{{{ID: m.ButtonID("use"), Label: "Use it now", Style: chat.Primary}}}
		msg.Text += " Use it with the button or /risk cards use:yes."
	}
	return result{reply: msg}, nil
}

// itemWhat says what an item does.
func itemWhat(it state.Item) string {
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

// itemEffect is the reply's reminder of what a used item now allows.
func itemEffect(it state.Item) string {
	return "In effect for the rest of your turn: " + itemWhat(it) + "."
}

// capitalsNextStep tells the player what to do now in a capitals match.
func (b *Bot) capitalsNextStep(m *hosted.Match, seat int) string {
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
			return "\n" + planText(s) + "\nLaunch with /risk launch; plan more with /risk attack."
		}
		return "\nYour action: /risk attack on a neutral territory captures it, on an enemy one plans an attack; /risk port builds a port. Or go on to /risk fortify, or /risk end."
	case state.PhaseMove:
		if !s.Cap.Moved {
			q, _ := s.MoveDefault(seat)
			return fmt.Sprintf("\nMove troops once: /risk fortify from:… to:… (ratio %s by default), or /risk end.", ratioNames[q])
		}
		return "\nEnd your turn with /risk end."
	}
	return ""
}

// capitalsPing is the ping of a person whose turn (or choice of capital)
// it is.
func (b *Bot) capitalsPing(m *hosted.Match) string {
	s := m.Game.State
	id := s.Seats[s.Current].ID
	v := b.voice(m)
	if s.Phase == state.PhaseSetup {
		return fmt.Sprintf("%s %s, choose your capital: /risk place territory:NAME (a neutral territory that borders no capital). Deadline %s.",
			v.swatch(s.Current), chat.Mention(id), chat.Timestamp(m.Timers.Deadline))
	}
	item := ""
	if s.Seats[s.Current].Capitals.Item.Kept() {
		item = " You hold an item (/risk cards)."
	}
	return fmt.Sprintf("%s %s, it is your turn %d: send your **%s** to one territory (/risk place).%s Deadline %s.",
		v.swatch(s.Current), chat.Mention(id), s.Turn, chat.Plural(s.Seats[s.Current].Reserve, "troop", "troops"), item, chat.Timestamp(m.Timers.Deadline))
}

// capitalsStatus is /risk status for a capitals match.
func (b *Bot) capitalsStatus(m *hosted.Match) []string {
	s := m.Game.State
	lines := []string{"```", fmt.Sprintf("%-16s %5s %6s %-10s %-6s %4s", "player", "terr", "troops", "capital", "hero", "item")}
	for i := range s.Seats {
		name := s.Seats[i].Name
		if sm := m.Seat(i); sm.IsBot() || sm.Autopilot {
			name += "*"
		}
		if i == s.Current && s.Phase != state.PhaseOver {
			name = "▶ " + name
		}
		if !s.Seats[i].Alive() {
			lines = append(lines, fmt.Sprintf("%-16s %s", chat.Trunc(name, 16), s.Seats[i].Status))
			continue
		}
		capital := "-"
		if t := s.Capital(i); t >= 0 {
			capital = chat.Trunc(s.Map.TerritoryName(t), 10)
		}
		hero := "locked"
		switch c := s.Seats[i].Capitals; {
		case c.Hero != 0:
			hero = "alive"
		case c.HeroWon:
			hero = "dead"
		}
		item := "-"
		if s.Seats[i].Capitals.Item != state.NoItem {
			item = "yes"
		}
		lines = append(lines, fmt.Sprintf("%-16s %5d %6d %-10s %-6s %4s", chat.Trunc(name, 16), s.Owned(i), s.Armies(i), capital, hero, item))
	}
	lines = append(lines, "```")
	if s.Phase == state.PhaseAction && s.Cap.NPlan > 0 {
		lines = append(lines, planText(s))
	}
	var lying []string
	for t, tr := range s.Terr {
		if tr.Item != state.NoItem {
			what := "an item"
			if tr.Item == state.ItemFat {
				what = "the fat bonus"
			}
			lying = append(lying, fmt.Sprintf("%s on %s (%s left)", what, s.Map.TerritoryName(t), chat.Plural(state.ItemLife-int(tr.ItemAge)+1, "turn", "turns")))
		}
	}
	if len(lying) > 0 {
		lines = append(lines, "Items waiting: "+strings.Join(lying, "; ")+".")
	}
	return lines
}

// capitalsSettings words a capitals match's own options.
func capitalsSettings(o state.Options) string {
	size := o.Map
	if size == "" {
		size = "normal"
	}
	return fmt.Sprintf("capitals rules on %s generated islands; neutral territories start with %d to %d troops (fortresses 5 more), capitals with %d",
		size, o.NeutralMin, o.NeutralMax, o.CapitalTroops)
}

// describeCapitals turns a capitals event into a line for people, or
// reports that it is not one.
func (v voice) describeCapitals(s *state.State, e engine.Event) (string, bool) {
	if !hosted.IsCapitals(s) {
		return "", false
	}
	t := s.Map.TerritoryName
	switch e := e.(type) {
	case engine.CapitalChosen:
		return fmt.Sprintf("👑 %s chose %s as capital (%s)", v.who(s, e.Seat), t(e.Territory), chat.Plural(e.Troops, "troop", "troops")), true
	case engine.Captured:
		how := "next to"
		if !s.Map.Adjacent(e.From, e.To) {
			how = "by sea from"
		}
		return fmt.Sprintf("🏳️ %s captured %s and its %s (%s %s)", v.who(s, e.Seat), t(e.To), chat.Plural(e.Troops, "troop", "troops"), how, t(e.From)), true
	case engine.Placed:
		if s.Phase == state.PhaseSetup {
			return "", false
		}
		return fmt.Sprintf("➕ %s sent %s to %s", v.who(s, e.Seat), chat.Plural(e.Armies, "troop", "troops"), t(e.Territory)), true
	case engine.PortBuilt:
		return fmt.Sprintf("⚓ %s built a port on %s", v.who(s, e.Seat), t(e.Territory)), true
	case engine.AttackPlanned:
		return fmt.Sprintf("🎯 %s planned attack %d: %s → %s (total %s against %s)", v.who(s, e.Seat), e.Order, t(e.From), t(e.To),
			state.FormatPower(e.Attack), state.FormatPower(e.Defence)), true
	case engine.Struck:
		sea := ""
		if e.Reach == state.BySea {
			sea = " by sea"
		}
		return fmt.Sprintf("⚔️ %d. %s struck %s%s from %s: %s against %s, luck ×%.2f: %s killed, %s left",
			e.Order, v.who(s, e.Seat), t(e.To), sea, t(e.From), state.FormatPower(e.Attack), state.FormatPower(e.Defence),
			float64(e.Luck)/1000, chat.Plural(e.Damage, "troop", "troops"), chat.Plural(e.Left, "troop", "troops")), true
	case engine.AttackSkipped:
		return fmt.Sprintf("⏭️ %d. %s → %s skipped: %s", e.Order, t(e.From), t(e.To), e.Why), true
	case engine.CapitalTaken:
		return fmt.Sprintf("👑 %s took %s, the capital of %s, and with it all %s had (%s)", v.who(s, e.Seat), t(e.Capital), v.who(s, e.Defender),
			s.Seats[e.Defender].Name, chat.Plural(e.Territories, "territory", "territories")), true
	case engine.Moved:
		hero := ""
		if e.Hero {
			hero = " with the hero"
		}
		return fmt.Sprintf("🚚 %s moved %s from %s to %s%s", v.who(s, e.Seat), chat.Plural(e.Troops, "troop", "troops"), t(e.From), t(e.To), hero), true
	case engine.HeroUnlocked:
		return fmt.Sprintf("🦸 %s holds 4 terrains: a hero appears on %s", v.who(s, e.Seat), t(e.Territory)), true
	case engine.HeroDied:
		return fmt.Sprintf("💀 The hero of %s fell on %s: every one of their territories loses half its troops", v.who(s, e.Seat), t(e.Territory)), true
	case engine.ItemSpawned:
		if e.Kind == state.ItemFat {
			return fmt.Sprintf("🎁 The fat bonus appeared on %s (it waits %d turns)", t(e.Territory), state.ItemLife), true
		}
		return fmt.Sprintf("🎁 An item appeared on %s (it waits %d turns)", t(e.Territory), state.ItemLife), true
	case engine.ItemVanished:
		return fmt.Sprintf("💨 The item on %s vanished", t(e.Territory)), true
	case engine.ItemCollected:
		if e.Kind.Kept() {
			// The kind stays secret: its owner reads it with /risk cards.
			return fmt.Sprintf("🎁 %s collected the item on %s", v.who(s, e.Seat), t(e.Territory)), true
		}
		return fmt.Sprintf("🎁 %s collected the item on %s: %s!", v.who(s, e.Seat), t(e.Territory), e.Kind.Title()), true
	case engine.ItemUsed:
		return fmt.Sprintf("✨ %s used an item: %s", v.who(s, e.Seat), e.Kind.Title()), true
	case engine.TroopsScaled:
		return fmt.Sprintf("📈 The troops of %s changed by %+d%% on every territory (%+d)", v.who(s, e.Seat), e.Percent, e.Change), true
	case engine.TerritoryLost:
		return fmt.Sprintf("🏚️ %s lost %s: it is neutral now", v.who(s, e.Seat), t(e.Territory)), true
	case engine.Seized:
		return fmt.Sprintf("🍖 %s seized %s from %s, with %s", v.who(s, e.Seat), t(e.Territory), v.who(s, e.Victim), chat.Plural(e.Troops, "troop", "troops")), true
	}
	return "", false
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

// capitalsChoices suggests values for a capitals command's option: only
// the territories the rules allow now (engine.Legal), best matches first,
// each with the numbers that decide it.
func capitalsChoices(s *state.State, seat int, req chat.Request, focused string) []chat.Choice {
	legal := engine.Legal(s, seat)
	t := s.Map.TerritoryName
	lookup := func(option string) int {
		id, err := s.Map.Lookup(req.Options[option])
		if err != nil {
			return -1
		}
		return id
	}
	notes := map[int]string{}
	var ids []int
	add := func(id int, note string) {
		if _, ok := notes[id]; !ok {
			ids = append(ids, id)
			notes[id] = note
		}
	}
	troops := func(id int) string { return chat.Plural(s.Terr[id].Armies, "troop", "troops") }
	from := lookup("from")
	for _, c := range legal {
		switch c := c.(type) {
		case engine.Capital:
			if req.Command+"."+focused == "place.territory" {
				add(c.Territory, fmt.Sprintf("%s, %s", troops(c.Territory), s.Map.Territories[c.Territory].Terrain)+features(s, c.Territory))
			}
		case engine.Reinforce:
			if req.Command+"."+focused == "place.territory" {
				add(c.Territory, fmt.Sprintf("%s, +%d", troops(c.Territory), s.Seats[seat].Reserve)+threat(s, c.Territory))
			}
		case engine.BuildPort:
			if req.Command+"."+focused == "port.territory" {
				add(c.Territory, fmt.Sprintf("%s, reaches %s by sea", troops(c.Territory), chat.Plural(len(s.Map.Territories[c.Territory].Sea), "territory", "territories")))
			}
		case engine.Capture:
			switch req.Command + "." + focused {
			case "attack.from":
				add(c.From, troops(c.From))
			case "attack.to":
				if from < 0 || from == c.From {
					add(c.To, fmt.Sprintf("capture, %s", troops(c.To)))
				}
			}
		case engine.Plan:
			switch req.Command + "." + focused {
			case "attack.from":
				add(c.From, troops(c.From))
			case "attack.to":
				if from < 0 || from == c.From {
					n := int(s.Cap.NPlan) + 1
					src := c.From
					if from >= 0 {
						src = from
					}
					add(c.To, fmt.Sprintf("%s defence %s, your total %s", s.Seats[s.Terr[c.To].Owner].Name,
						state.FormatPower(s.DefenceTotal(c.To)), state.FormatPower(s.AttackTotal(src, c.To, n).Total)))
				}
			}
		case engine.Move:
			switch req.Command + "." + focused {
			case "fortify.from":
				add(c.From, troops(c.From))
			case "fortify.to":
				if from < 0 || from == c.From {
					add(c.To, troops(c.To))
				}
			}
		}
	}
	var out []chat.Choice
	for _, id := range s.Map.Rank(req.Options[focused], ids) {
		name := fmt.Sprintf("%s — %s", t(id), notes[id])
		if len(name) > 100 {
			name = name[:99] + "…"
		}
		out = append(out, chat.Choice{Name: name, Value: t(id)})
		if len(out) == chat.MaxChoices {
			break
		}
	}
	return out
}

// features names a territory's fortress and shore, for a capital's choice.
func features(s *state.State, t int) string {
	var f []string
	if s.Map.Territories[t].Fortress {
		f = append(f, "fortress")
	}
	if s.Map.Territories[t].Coast {
		f = append(f, "coast")
	}
	if len(f) == 0 {
		return ""
	}
	return ", " + strings.Join(f, ", ")
}

// threat names the strongest enemy total that could strike territory t
// next turn, if any.
func threat(s *state.State, t int) string {
	owner := s.Terr[t].Owner
	best, by := 0, -1
	for from := range s.Terr {
		o := s.Terr[from].Owner
		if o == owner || o == state.Neutral {
			continue
		}
		if a := s.AttackTotal(from, t, 1); a.Reach != state.NoReach && a.Total > best {
			best, by = a.Total, from
		}
	}
	if by < 0 {
		return ""
	}
	return fmt.Sprintf(", threatened by %s (%s)", s.Map.TerritoryName(by), state.FormatPower(best))
}
